// Sequential order (focus.md §3): layout order, rows swept top-down, sections (and modal nodes)
// visited as units. Computed on first use after a change and cached in the store.

extension SceneStore {
    /// Builds the sequential order if a change dropped it.
    mutating func ensureSequence() {
        if sequence != nil { return }
        // Pre-order numbers for the tie-breaks.
        var pre = Array(repeating: 0, count: slots.count)
        var counter = 0
        var stack = [root]
        while let s = stack.popLast() {
            pre[s] = counter; counter += 1
            for c in slots[s].children.reversed() { stack.append(c) }
        }
        let built = buildUnit(root, pre: pre)
        let order = built?.members ?? []
        var ranges: [Int: Range<Int>] = [:]
        for (k, r) in built?.ranges ?? [] { ranges[k] = r }
        var position = Array(repeating: -1, count: slots.count)
        var markerPos: [Int: Int] = [:]
        for (i, s) in order.enumerated() { if s >= 0 { position[s] = i } else { markerPos[-s - 2] = i } }
        sequence = SequenceCache(order: order, position: position, ranges: ranges, markerPos: markerPos)
    }

    /// The order of unit `u`, with the ranges of the units inside it relative to that order; nil
    /// when it holds no candidate.
    private func buildUnit(_ u: Int, pre: [Int]) -> (members: [Int], ranges: [(Int, Range<Int>)])? {
        guard slots[u].candCount > 0 else { return nil }
        // Items: candidates of this unit not inside a nested unit, and the nested units.
        struct Item { var frame: Rect; var pre: Int; var members: [Int]; var ranges: [(Int, Range<Int>)] }
        var items: [Item] = []
        if slots[u].candidate, let f = frame(u) { items.append(Item(frame: f, pre: pre[u], members: [u], ranges: [])) }
        var stack = slots[u].children.reversed() as [Int]
        // A collection: its items as one entry first, then its other children (focus.md §12).
        let marker = collections[u] != nil && nextCandidateIndex(u, after: nil, forward: true) != nil
        if collections[u] != nil { stack = stack.filter { node($0).index == nil } }
        while let s = stack.popLast() {
            guard slots[s].candCount > 0 else { continue }
            if isUnit(s) {
                if let sub = buildUnit(s, pre: pre), let first = sub.members.first, let f = placement(s, first) {
                    items.append(Item(frame: f, pre: pre[s], members: sub.members, ranges: sub.ranges))
                }
                continue
            }
            if slots[s].candidate, let f = frame(s) { items.append(Item(frame: f, pre: pre[s], members: [s], ranges: [])) }
            stack.append(contentsOf: slots[s].children.reversed())
        }
        // Rows: by top edge; a node whose top is at or below the running bottom starts a new row.
        items.sort { $0.frame.minY != $1.frame.minY ? $0.frame.minY < $1.frame.minY : $0.pre < $1.pre }
        let rtl = layoutDirection == .rightToLeft
        var members: [Int] = []
        var ranges: [(Int, Range<Int>)] = []
        var i = 0
        while i < items.count {
            var bottom = items[i].frame.maxY
            var j = i + 1
            while j < items.count && items[j].frame.minY < bottom { bottom = max(bottom, items[j].frame.maxY); j += 1 }
            var row = Array(items[i..<j])
            row.sort { a, b in
                let la = rtl ? -a.frame.maxX : a.frame.minX, lb = rtl ? -b.frame.maxX : b.frame.minX
                if la != lb { return la < lb }
                if a.frame.minY != b.frame.minY { return a.frame.minY < b.frame.minY }
                return a.pre < b.pre
            }
            for item in row {
                let base = members.count
                for (k, r) in item.ranges { ranges.append((k, (r.lowerBound + base)..<(r.upperBound + base))) }
                members.append(contentsOf: item.members)
            }
            i = j
        }
        if marker {
            members.insert(-u - 2, at: 0)
            ranges = ranges.map { ($0.0, ($0.1.lowerBound + 1)..<($0.1.upperBound + 1)) }
        }
        if members.isEmpty { return nil }
        ranges.append((u, 0..<members.count))
        return (members, ranges)
    }

    /// Where a unit stands in its parent's order: a scroll container by its viewport, a collection
    /// (or a unit that starts with one) by its slot 0, any other by its first member.
    func placement(_ unit: Int, _ first: Int) -> Rect? {
        if scrolls[unit] != nil { return frame(unit) }
        if first < 0 { return lattice(-first - 2).map { $0.frame(0) } }
        return frame(first)
    }

    /// A sequential order entry as a slot: a marker is its collection's first (forward) or last
    /// candidate item, materialized.
    mutating func entrySlot(_ e: Int, forward: Bool) -> Int? {
        if e >= 0 { return e }
        let c = -e - 2
        guard let i = nextCandidateIndex(c, after: nil, forward: forward) else { return nil }
        return item(c, i)
    }
}
