// Lint (focus.md §10): audits a scene without installing it. Every candidate's four directional
// moves are run once through the spatial index (the same rules as `Move`, from a fresh state with
// no remembered section focus), and the graph they form answers unreachable, asymmetric and
// deadEnd; overlap uses the index to find neighbours, so a 20,000-candidate scene takes seconds.

/// Lint lists at most this many problems of each kind; one more problem of the kind then says how
/// many were left out. (20,000 candidates with coincident frames are 200 million overlapping
/// pairs: listed whole they took 22 GB.)
let lintProblemsPerKind = 1_000

/// Index cells Lint may visit looking for overlaps before it stops and reports "at least".
let lintOverlapVisitBudget = 4_000_000

extension SceneStore {
    /// The problems of this scene, by kind, then in tree order; at most ``lintProblemsPerKind``
    /// of each kind, then one saying how many more there are.
    mutating func lint() throws(FocusError) -> [Problem] {
        var all = try lintUnbounded()
        var result: [Problem] = []
        var start = 0
        while start < all.problems.count {
            let kind = all.problems[start].kind
            var end = start
            while end < all.problems.count && all.problems[end].kind == kind { end += 1 }
            let listed = min(end - start, lintProblemsPerKind)
            result += all.problems[start..<(start + listed)]
            var more = (end - start) - listed
            var atLeast = false
            if kind == .overlap {
                more = all.overlapTotal - listed
                atLeast = all.overlapIncomplete
            }
            if more > 0 || atLeast {
                result.append(Problem(
                    kind: kind, node: slots[root].id,
                    message: "\(atLeast ? "at least " : "")\(more) more \(kind.rawValue) problems not listed (Lint lists at most \(lintProblemsPerKind) of each kind)"))
            }
            start = end
        }
        all.problems.removeAll()
        return result
    }

    /// Every problem but overlaps, which are listed only up to the bound and counted.
    private mutating func lintUnbounded() throws(FocusError) -> (problems: [Problem], overlapTotal: Int, overlapIncomplete: Bool) {
        // Candidates in tree order.
        var candidates: [Int] = []
        var pre = Array(repeating: -1, count: slots.count)
        var stack = [root], counter = 0
        while let slot = stack.popLast() {
            pre[slot] = counter; counter += 1
            if slots[slot].candidate { candidates.append(slot) }
            stack.append(contentsOf: slots[slot].children.reversed())
        }
        if candidates.count > limits.lintMaxCandidates { throw .tooManyNodes(limit: limits.lintMaxCandidates) }
        var problems: [Problem] = []
        let dirs: [Direction] = [.up, .down, .left, .right]
        var edges = Array(repeating: [Int](repeating: -1, count: 4), count: slots.count)
        let sentOffsets = scrolls
        defer { for (container, offset) in sentOffsets { setOffset(container, x: offset.x, y: offset.y) } }
        for candidate in candidates {
            // Moves start as focus would see them: its scroll containers scrolled to show it (§12).
            _ = scrollToShow(candidate)
            guard let candidateFrame = frame(candidate) else { continue }
            for (dirIndex, direction) in dirs.enumerated() {
                let result = directionalMove(MoveInput(focused: candidate, source: candidateFrame, direction: direction, strategy: .spatialIndex, remembered: [:]))
                // A move onto a virtual item goes somewhere, to no node Lint checks (focus.md §12).
                if case .focus(let target) = result, target != candidate { edges[candidate][dirIndex] = virtualItem(target) != nil ? -2 : target }
            }
            collectVirtuals(keep: nil, nil)
        }
        // The other checks see the scene at the offsets it was sent with.
        for (container, offset) in sentOffsets { setOffset(container, x: offset.x, y: offset.y) }
        // unreachable: not reached from the default focus by directional moves.
        // (A virtual item as the default focus has no edges of its own: the check needs a node.)
        if let start = defaultTarget(at: root), start < edges.count, virtualItem(start) == nil {
            var seen = Array(repeating: false, count: slots.count)
            var queue = [start]
            seen[start] = true
            var head = 0
            while head < queue.count {
                for target in edges[queue[head]] where target >= 0 && !seen[target] { seen[target] = true; queue.append(target) }
                head += 1
            }
            for candidate in candidates where !seen[candidate] {
                problems.append(Problem(kind: .unreachable, node: slots[candidate].id, other: slots[start].id,
                                        message: "no sequence of directional moves from the default focus '\(slots[start].id)' reaches '\(slots[candidate].id)'"))
            }
        }
        let opposite = [1, 0, 3, 2]
        for candidate in candidates {
            for dirIndex in 0..<4 {
                let target = edges[candidate][dirIndex]
                guard target >= 0, edges[target][opposite[dirIndex]] != candidate else { continue }
                problems.append(Problem(kind: .asymmetric, node: slots[candidate].id, other: slots[target].id, direction: dirs[dirIndex],
                                        message: "moving \(dirs[dirIndex].rawValue) from '\(slots[candidate].id)' reaches '\(slots[target].id)', but moving \(dirs[opposite[dirIndex]].rawValue) from there does not come back"))
            }
        }
        for candidate in candidates where edges[candidate].allSatisfy({ $0 == -1 }) {
            problems.append(Problem(kind: .deadEnd, node: slots[candidate].id, message: "no directional move from '\(slots[candidate].id)' goes anywhere"))
        }
        for (track, reg) in [("", bindings), ("accessibility ", a11yBindings)] {
            var found: [(Int, Problem)] = []
            for (name, set) in reg.nodes where set.count > 1 {
                var byValue: [String?: [Int]] = [:]
                for slot in set {
                    let list = (track.isEmpty ? node(slot).bindings : node(slot).accessibilityBindings) ?? []
                    for value in Set(list.filter { $0.name == name }.map(\.value)) { byValue[value, default: []].append(slot) }
                }
                for (value, nodes) in byValue where nodes.count > 1 {
                    let ordered = nodes.sorted { pre[$0] < pre[$1] }
                    let what = value.map { "\(name) = '\($0)'" } ?? "the Bool binding '\(name)'"
                    found.append((pre[ordered[0]], Problem(kind: .ambiguousBinding, node: slots[ordered[0]].id, other: slots[ordered[1]].id,
                                                     message: "'\(slots[ordered[0]].id)' and '\(slots[ordered[1]].id)' are both bound to \(track)\(what); the first in tree order wins")))
                }
            }
            problems += found.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1.message < $1.1.message }.map(\.1)
        }
        stack = [root]
        while let slot = stack.popLast() {
            stack.append(contentsOf: slots[slot].children.reversed())
            let treeNode = node(slot)
            if treeNode.focusable == true, !slots[slot].disabled, frame(slot)?.isEmpty ?? true {
                problems.append(Problem(kind: .emptyFrame, node: treeNode.id,
                                        message: "'\(treeNode.id)' is focusable but has \(frame(slot) == nil ? "no frame" : "an empty frame"), so it can never take focus"))
            }
        }
        // A built item with a frame of its own over other indices' slots (focus.md §12): those
        // slots' virtual items and the item would overlap. Virtual items are otherwise skipped.
        for collection in sortedInTreeOrder(collections.keys) {
            guard let grid = lattice(collection) else { continue }
            for child in slots[collection].children {
                guard let itemIndex = node(child).index, node(child).frame != nil, let childFrame = frame(child), !childFrame.isEmpty else { continue }
                let lo = max(0, floorInt((childFrame.minX - grid.ox) / grid.px)), hi = min(grid.cols - 1, floorInt((childFrame.maxX - grid.ox) / grid.px))
                let top = max(0, floorInt((childFrame.minY - grid.oy) / grid.py)), bottom = min(grid.rows - 1, floorInt((childFrame.maxY - grid.oy) / grid.py))
                var hits: [Int] = []
                if lo <= hi && top <= bottom && (hi - lo + 1) * (bottom - top + 1) <= 4096 {
                    for row in top...bottom {
                        for pc in lo...hi {
                            if let hitIndex = grid.index(pc: pc, r: row), hitIndex != itemIndex, grid.frame(pc: pc, r: row).intersectionArea(childFrame) > 0 { hits.append(hitIndex) }
                        }
                    }
                }
                for hitIndex in hits.sorted() {
                    let other = collections[collection]?.built[hitIndex].map { slots[$0].id } ?? "\(slots[collection].id)#\(hitIndex)"
                    problems.append(Problem(kind: .overlap, node: slots[child].id, other: other,
                                            message: "built item '\(slots[child].id)' (index \(itemIndex)) overlaps the slot of index \(hitIndex) of collection '\(slots[collection].id)'"))
                }
            }
        }
        let overlaps = overlapProblems(candidates: candidates, pre: pre)
        problems += overlaps.listed
        if let rootFrame = frame(root), !rootFrame.isEmpty {
            for candidate in candidates {
                // Content of a scroll container is reached by scrolling: never offscreen.
                guard let candidateFrame = frame(candidate), translation(under: slots[candidate].parent) == (0, 0) || !insideScroll(candidate) else { continue }
                if candidateFrame.minX < rootFrame.minX || candidateFrame.minY < rootFrame.minY || candidateFrame.maxX > rootFrame.maxX || candidateFrame.maxY > rootFrame.maxY {
                    problems.append(Problem(kind: .offscreen, node: slots[candidate].id, other: slots[root].id,
                                            message: "'\(slots[candidate].id)' lies partly outside the root's frame"))
                }
            }
        }
        return (problems, overlaps.total, overlaps.incomplete)
    }

    /// Overlapping candidate pairs (by the first in tree order, then the second), without
    /// enumerating pairs: candidates with the same frame form one group (k of them are k(k-1)/2
    /// pairs, counted, not listed), the index is queried once per group, and pairs of groups
    /// count |g|·|h|. Only the first ``lintProblemsPerKind`` pairs are built. Past
    /// ``lintOverlapVisitBudget`` index visits the count is a lower bound (`incomplete`).
    private func overlapProblems(candidates: [Int], pre: [Int]) -> (listed: [Problem], total: Int, incomplete: Bool) {
        var groupOf: [Rect: Int] = [:]
        var members: [[Int]] = []  // each in tree order
        var frames: [Rect] = []
        var groupOfSlot: [Int: Int] = [:]
        for candidate in candidates {
            guard let candidateFrame = frame(candidate), !candidateFrame.isEmpty else { continue }
            if let group = groupOf[candidateFrame] {
                members[group].append(candidate)
                groupOfSlot[candidate] = group
            } else {
                groupOf[candidateFrame] = members.count
                groupOfSlot[candidate] = members.count
                members.append([candidate])
                frames.append(candidateFrame)
            }
        }
        func overlapping(_ fa: Rect, _ fb: Rect) -> Bool {
            fa.intersectionArea(fb) > 0.5 * min(fa.width * fa.height, fb.width * fb.height)
        }
        // Groups whose frames overlap each group's frame.
        var neighbours = Array(repeating: [Int](), count: members.count)
        var marker = Array(repeating: -1, count: members.count)
        var visits = 0
        var incomplete = false
        var total = 0
        for group in members.indices {
            let size = members[group].count
            total += size * (size - 1) / 2
            if incomplete { continue }
            marker[group] = group
            // Each space's grid, queried in its own coordinates (scroll containers' content).
            for space in spaces.indices where spaces[space] != nil {
                let origin = spaceOrigin(space)
                index.query(grid: space, intersecting: frames[group].offset(by: (-origin.x, -origin.y))) { slot in
                    visits += 1
                    guard slots[slot].candidate, let otherGroup = groupOfSlot[slot], marker[otherGroup] != group, overlapping(frames[group], frames[otherGroup]) else { return }
                    marker[otherGroup] = group
                    neighbours[group].append(otherGroup)
                }
            }
            if visits > lintOverlapVisitBudget { incomplete = true }
        }
        var directed = 0
        for group in members.indices {
            for otherGroup in neighbours[group] { directed += members[group].count * members[otherGroup].count }
        }
        total += directed / 2
        // The first pairs in order: by the first node's tree order, then the second's.
        var listed: [Problem] = []
        outer: for first in candidates {
            guard let group = groupOfSlot[first] else { continue }
            if members[group].count == 1 && neighbours[group].isEmpty { continue }
            var others = members[group].filter { pre[$0] > pre[first] }
            for otherGroup in neighbours[group] { others += members[otherGroup].lazy.filter { pre[$0] > pre[first] } }
            others.sort { pre[$0] < pre[$1] }
            for second in others {
                if listed.count == lintProblemsPerKind { break outer }
                listed.append(Problem(kind: .overlap, node: slots[first].id, other: slots[second].id,
                                      message: "'\(slots[first].id)' and '\(slots[second].id)' overlap by more than half of the smaller one"))
            }
        }
        return (listed, total, incomplete)
    }
}

extension SceneStore {
    /// True when a scroll container holds `slot`.
    func insideScroll(_ slot: Int) -> Bool {
        var ancestor = slots[slot].parent
        while ancestor >= 0 { if scrolls[ancestor] != nil { return true }; ancestor = slots[ancestor].parent }
        return false
    }
}
