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
        while let slot = stack.popLast() {
            pre[slot] = counter; counter += 1
            for child in slots[slot].children.reversed() { stack.append(child) }
        }
        let built = buildUnit(root, pre: pre)
        let order = built?.members ?? []
        var ranges: [Int: Range<Int>] = [:]
        for (unit, range) in built?.ranges ?? [] { ranges[unit] = range }
        var position = Array(repeating: -1, count: slots.count)
        var markerPos: [Int: Int] = [:]
        for (index, entry) in order.enumerated() { if entry >= 0 { position[entry] = index } else { markerPos[-entry - 2] = index } }
        sequence = SequenceCache(order: order, position: position, ranges: ranges, markerPos: markerPos)
    }

    /// The order of `unit`, with the ranges of the units inside it relative to that order; nil
    /// when it holds no candidate.
    private func buildUnit(_ unit: Int, pre: [Int]) -> (members: [Int], ranges: [(Int, Range<Int>)])? {
        guard slots[unit].candCount > 0 else { return nil }
        // Items: candidates of this unit not inside a nested unit, and the nested units.
        struct Item { var frame: Rect; var pre: Int; var members: [Int]; var ranges: [(Int, Range<Int>)] }
        var items: [Item] = []
        if slots[unit].candidate, let itemFrame = frame(unit) { items.append(Item(frame: itemFrame, pre: pre[unit], members: [unit], ranges: [])) }
        var stack = slots[unit].children.reversed() as [Int]
        // A collection: its items as one entry first, then its other children (focus.md §12).
        let marker = collections[unit] != nil && nextCandidateIndex(unit, after: nil, forward: true) != nil
        if collections[unit] != nil { stack = stack.filter { node($0).index == nil } }
        while let slot = stack.popLast() {
            guard slots[slot].candCount > 0 else { continue }
            if isUnit(slot) {
                if let sub = buildUnit(slot, pre: pre), let first = sub.members.first, let itemFrame = placement(slot, first) {
                    items.append(Item(frame: itemFrame, pre: pre[slot], members: sub.members, ranges: sub.ranges))
                }
                continue
            }
            if slots[slot].candidate, let itemFrame = frame(slot) { items.append(Item(frame: itemFrame, pre: pre[slot], members: [slot], ranges: [])) }
            stack.append(contentsOf: slots[slot].children.reversed())
        }
        // Rows: by top edge; a node whose top is at or below the running bottom starts a new row.
        items.sort { $0.frame.minY != $1.frame.minY ? $0.frame.minY < $1.frame.minY : $0.pre < $1.pre }
        let rtl = layoutDirection == .rightToLeft
        var members: [Int] = []
        var ranges: [(Int, Range<Int>)] = []
        var rowStart = 0
        while rowStart < items.count {
            var bottom = items[rowStart].frame.maxY
            var rowEnd = rowStart + 1
            while rowEnd < items.count && items[rowEnd].frame.minY < bottom { bottom = max(bottom, items[rowEnd].frame.maxY); rowEnd += 1 }
            var row = Array(items[rowStart..<rowEnd])
            row.sort { lhs, rhs in
                let leadingLhs = rtl ? -lhs.frame.maxX : lhs.frame.minX, leadingRhs = rtl ? -rhs.frame.maxX : rhs.frame.minX
                if leadingLhs != leadingRhs { return leadingLhs < leadingRhs }
                if lhs.frame.minY != rhs.frame.minY { return lhs.frame.minY < rhs.frame.minY }
                return lhs.pre < rhs.pre
            }
            for item in row {
                let base = members.count
                for (inner, range) in item.ranges { ranges.append((inner, (range.lowerBound + base)..<(range.upperBound + base))) }
                members.append(contentsOf: item.members)
            }
            rowStart = rowEnd
        }
        if marker {
            members.insert(-unit - 2, at: 0)
            ranges = ranges.map { ($0.0, ($0.1.lowerBound + 1)..<($0.1.upperBound + 1)) }
        }
        if members.isEmpty { return nil }
        ranges.append((unit, 0..<members.count))
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
    mutating func entrySlot(_ entry: Int, forward: Bool) -> Int? {
        if entry >= 0 { return entry }
        let collection = -entry - 2
        guard let index = nextCandidateIndex(collection, after: nil, forward: forward) else { return nil }
        return item(collection, index)
    }
}
