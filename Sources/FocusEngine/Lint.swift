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
        while let s = stack.popLast() {
            pre[s] = counter; counter += 1
            if slots[s].candidate { candidates.append(s) }
            stack.append(contentsOf: slots[s].children.reversed())
        }
        if candidates.count > limits.lintMaxCandidates { throw .tooManyNodes(limit: limits.lintMaxCandidates) }
        var problems: [Problem] = []
        let dirs: [Direction] = [.up, .down, .left, .right]
        var edges = Array(repeating: [Int](repeating: -1, count: 4), count: slots.count)
        let sentOffsets = scrolls
        defer { for (c, o) in sentOffsets { setOffset(c, x: o.x, y: o.y) } }
        for c in candidates {
            // Moves start as focus would see them: its scroll containers scrolled to show it (§12).
            _ = scrollToShow(c)
            guard let r = frame(c) else { continue }
            for (k, d) in dirs.enumerated() {
                let result = directionalMove(MoveInput(focused: c, source: r, direction: d, strategy: .spatialIndex, remembered: [:]))
                // A move onto a virtual item goes somewhere, to no node Lint checks (focus.md §12).
                if case .focus(let t) = result, t != c { edges[c][k] = virtualItem(t) != nil ? -2 : t }
            }
            collectVirtuals(keep: nil, nil)
        }
        // The other checks see the scene at the offsets it was sent with.
        for (c, o) in sentOffsets { setOffset(c, x: o.x, y: o.y) }
        // unreachable: not reached from the default focus by directional moves.
        // (A virtual item as the default focus has no edges of its own: the check needs a node.)
        if let start = defaultTarget(at: root), start < edges.count, virtualItem(start) == nil {
            var seen = Array(repeating: false, count: slots.count)
            var queue = [start]
            seen[start] = true
            var i = 0
            while i < queue.count {
                for t in edges[queue[i]] where t >= 0 && !seen[t] { seen[t] = true; queue.append(t) }
                i += 1
            }
            for c in candidates where !seen[c] {
                problems.append(Problem(kind: .unreachable, node: slots[c].id, other: slots[start].id,
                                        message: "no sequence of directional moves from the default focus '\(slots[start].id)' reaches '\(slots[c].id)'"))
            }
        }
        let opposite = [1, 0, 3, 2]
        for c in candidates {
            for k in 0..<4 {
                let t = edges[c][k]
                guard t >= 0, edges[t][opposite[k]] != c else { continue }
                problems.append(Problem(kind: .asymmetric, node: slots[c].id, other: slots[t].id, direction: dirs[k],
                                        message: "moving \(dirs[k].rawValue) from '\(slots[c].id)' reaches '\(slots[t].id)', but moving \(dirs[opposite[k]].rawValue) from there does not come back"))
            }
        }
        for c in candidates where edges[c].allSatisfy({ $0 == -1 }) {
            problems.append(Problem(kind: .deadEnd, node: slots[c].id, message: "no directional move from '\(slots[c].id)' goes anywhere"))
        }
        for (track, reg) in [("", bindings), ("accessibility ", a11yBindings)] {
            var found: [(Int, Problem)] = []
            for (name, set) in reg.nodes where set.count > 1 {
                var byValue: [String?: [Int]] = [:]
                for s in set {
                    let list = (track.isEmpty ? node(s).bindings : node(s).accessibilityBindings) ?? []
                    for v in Set(list.filter { $0.name == name }.map(\.value)) { byValue[v, default: []].append(s) }
                }
                for (v, nodes) in byValue where nodes.count > 1 {
                    let o = nodes.sorted { pre[$0] < pre[$1] }
                    let what = v.map { "\(name) = '\($0)'" } ?? "the Bool binding '\(name)'"
                    found.append((pre[o[0]], Problem(kind: .ambiguousBinding, node: slots[o[0]].id, other: slots[o[1]].id,
                                                     message: "'\(slots[o[0]].id)' and '\(slots[o[1]].id)' are both bound to \(track)\(what); the first in tree order wins")))
                }
            }
            problems += found.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1.message < $1.1.message }.map(\.1)
        }
        stack = [root]
        while let s = stack.popLast() {
            stack.append(contentsOf: slots[s].children.reversed())
            let n = node(s)
            if n.focusable == true, !slots[s].disabled, frame(s)?.isEmpty ?? true {
                problems.append(Problem(kind: .emptyFrame, node: n.id,
                                        message: "'\(n.id)' is focusable but has \(frame(s) == nil ? "no frame" : "an empty frame"), so it can never take focus"))
            }
        }
        // A built item with a frame of its own over other indices' slots (focus.md §12): those
        // slots' virtual items and the item would overlap. Virtual items are otherwise skipped.
        for c in sortedInTreeOrder(collections.keys) {
            guard let l = lattice(c) else { continue }
            for k in slots[c].children {
                guard let i = node(k).index, node(k).frame != nil, let f = frame(k), !f.isEmpty else { continue }
                let lo = max(0, floorInt((f.minX - l.ox) / l.px)), hi = min(l.cols - 1, floorInt((f.maxX - l.ox) / l.px))
                let top = max(0, floorInt((f.minY - l.oy) / l.py)), bottom = min(l.rows - 1, floorInt((f.maxY - l.oy) / l.py))
                var hits: [Int] = []
                if lo <= hi && top <= bottom && (hi - lo + 1) * (bottom - top + 1) <= 4096 {
                    for r in top...bottom {
                        for pc in lo...hi {
                            if let j = l.index(pc: pc, r: r), j != i, l.frame(pc: pc, r: r).intersectionArea(f) > 0 { hits.append(j) }
                        }
                    }
                }
                for j in hits.sorted() {
                    let other = collections[c]?.built[j].map { slots[$0].id } ?? "\(slots[c].id)#\(j)"
                    problems.append(Problem(kind: .overlap, node: slots[k].id, other: other,
                                            message: "built item '\(slots[k].id)' (index \(i)) overlaps the slot of index \(j) of collection '\(slots[c].id)'"))
                }
            }
        }
        let overlaps = overlapProblems(candidates: candidates, pre: pre)
        problems += overlaps.listed
        if let rf = frame(root), !rf.isEmpty {
            for c in candidates {
                // Content of a scroll container is reached by scrolling: never offscreen.
                guard let f = frame(c), translation(under: slots[c].parent) == (0, 0) || !insideScroll(c) else { continue }
                if f.minX < rf.minX || f.minY < rf.minY || f.maxX > rf.maxX || f.maxY > rf.maxY {
                    problems.append(Problem(kind: .offscreen, node: slots[c].id, other: slots[root].id,
                                            message: "'\(slots[c].id)' lies partly outside the root's frame"))
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
        for a in candidates {
            guard let f = frame(a), !f.isEmpty else { continue }
            if let g = groupOf[f] {
                members[g].append(a)
                groupOfSlot[a] = g
            } else {
                groupOf[f] = members.count
                groupOfSlot[a] = members.count
                members.append([a])
                frames.append(f)
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
        for g in members.indices {
            let k = members[g].count
            total += k * (k - 1) / 2
            if incomplete { continue }
            marker[g] = g
            // Each space's grid, queried in its own coordinates (scroll containers' content).
            for k in spaces.indices where spaces[k] != nil {
                let o = spaceOrigin(k)
                index.query(grid: k, intersecting: frames[g].offset(by: (-o.x, -o.y))) { b in
                    visits += 1
                    guard slots[b].candidate, let h = groupOfSlot[b], marker[h] != g, overlapping(frames[g], frames[h]) else { return }
                    marker[h] = g
                    neighbours[g].append(h)
                }
            }
            if visits > lintOverlapVisitBudget { incomplete = true }
        }
        var directed = 0
        for g in members.indices {
            for h in neighbours[g] { directed += members[g].count * members[h].count }
        }
        total += directed / 2
        // The first pairs in order: by the first node's tree order, then the second's.
        var listed: [Problem] = []
        outer: for a in candidates {
            guard let g = groupOfSlot[a] else { continue }
            if members[g].count == 1 && neighbours[g].isEmpty { continue }
            var others = members[g].filter { pre[$0] > pre[a] }
            for h in neighbours[g] { others += members[h].lazy.filter { pre[$0] > pre[a] } }
            others.sort { pre[$0] < pre[$1] }
            for b in others {
                if listed.count == lintProblemsPerKind { break outer }
                listed.append(Problem(kind: .overlap, node: slots[a].id, other: slots[b].id,
                                      message: "'\(slots[a].id)' and '\(slots[b].id)' overlap by more than half of the smaller one"))
            }
        }
        return (listed, total, incomplete)
    }
}

extension SceneStore {
    /// True when a scroll container holds `slot`.
    func insideScroll(_ slot: Int) -> Bool {
        var a = slots[slot].parent
        while a >= 0 { if scrolls[a] != nil { return true }; a = slots[a].parent }
        return false
    }
}
