// Lint (focus.md §10): audits a scene without installing it. Every candidate's four directional
// moves are run once through the spatial index (the same rules as `Move`, from a fresh state with
// no remembered section focus), and the graph they form answers unreachable, asymmetric and
// deadEnd; overlap uses the index to find neighbours, so a 20,000-candidate scene takes seconds.

extension SceneStore {
    /// The problems of this scene, by kind, then in tree order.
    mutating func lint() throws(FocusError) -> [Problem] {
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
                if case .focus(let t) = result, t != c { edges[c][k] = virtualSlots[t] != nil ? -2 : t }
            }
            collectVirtuals(keep: nil, nil)
        }
        // The other checks see the scene at the offsets it was sent with.
        for (c, o) in sentOffsets { setOffset(c, x: o.x, y: o.y) }
        // unreachable: not reached from the default focus by directional moves.
        // (A virtual item as the default focus has no edges of its own: the check needs a node.)
        if let start = defaultTarget(at: root), start < edges.count, virtualSlots[start] == nil {
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
        for a in candidates {
            guard let fa = frame(a) else { continue }
            var others: [Int] = []
            index.query(intersecting: fa) { b in
                if slots[b].candidate, pre[b] > pre[a], let fb = frame(b),
                   fa.intersectionArea(fb) > 0.5 * min(fa.width * fa.height, fb.width * fb.height) { others.append(b) }
            }
            for b in others.sorted(by: { pre[$0] < pre[$1] }) {
                problems.append(Problem(kind: .overlap, node: slots[a].id, other: slots[b].id,
                                        message: "'\(slots[a].id)' and '\(slots[b].id)' overlap by more than half of the smaller one"))
            }
        }
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
        return problems
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
