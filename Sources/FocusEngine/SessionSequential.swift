// Sequential moves (focus.md §3) and crown steps of a session, collections stepped by index (§12).

extension SceneSession {
    /// Sequential moves (§3) and crown steps on `track`.
    mutating func sequentialMove(forward: Bool, wrap: Bool?, track: Track, crown: Bool, steps: UInt, cause: Cause) -> Outcome {
        store.ensureSequence()
        let start = slot(track)
        var cur = start
        var moved = false
        var steps = steps
        var taken: UInt = 0
        while taken < steps {
            guard let target = sequentialTarget(from: cur, forward: forward, wrap: wrap, crown: crown, track: track), target != cur else { break }
            cur = target
            moved = true
            taken += 1
            // Back where it started after `taken` steps: only the remainder of the cycle matters.
            if target == start { steps = taken + (steps - taken) % taken }
        }
        guard moved, let cur, cur != start else {
            collectVirtuals()
            return Outcome(events: [draft(.blocked, from: track == .main ? focusedId : a11yId, cause: cause, track: track)])
        }
        return changeFocus(to: cur, track: track, cause: cause)
    }

    /// The next/previous candidate after `from` in sequential order (nil: blocked); a collection's
    /// items are one entry of the order, stepped through by index (focus.md §12).
    mutating func sequentialTarget(from focused: Int?, forward: Bool, wrap: Bool?, crown: Bool, track: Track) -> Int? {
        guard let seq = store.sequence, !seq.order.isEmpty else { return nil }
        if let focused, store.slots[focused].hasNext, let nextId = store.node(focused).next?[forward ? "next" : "previous"] {
            guard !nextId.isEmpty, let nextSlot = store.idToSlot[nextId] else { return nil }
            if let modal = store.innermostModal(focused), !store.isInside(nextSlot, modal) { return nil }
            if store.isCandidate(nextSlot) { return nextSlot }
            guard let unitRange = seq.ranges[nextSlot], !unitRange.isEmpty else { return nil }
            return store.entrySlot(forward ? seq.order[unitRange.lowerBound] : seq.order[unitRange.upperBound - 1], forward: forward)
        }
        var bound = store.root
        if let focused {
            var ancestor = focused
            while ancestor >= 0 {
                if crown ? (store.isSection(ancestor) || store.isModal(ancestor)) : store.isModal(ancestor) { bound = ancestor; break }
                ancestor = store.slots[ancestor].parent
            }
        }
        guard let range = seq.ranges[bound], !range.isEmpty else { return nil }
        var pos: Int?
        if let focused {
            if let item = store.itemOf(focused), let marker = seq.markerPos[item.collection] {
                if let index = store.nextCandidateIndex(item.collection, after: item.index, forward: forward) {
                    return store.item(item.collection, index)
                }
                pos = marker
            } else if focused < seq.position.count, seq.position[focused] >= 0 {
                pos = seq.position[focused]
            }
        }
        guard let pos, range.contains(pos) else {
            return store.entrySlot(forward ? seq.order[range.lowerBound] : seq.order[range.upperBound - 1], forward: forward)
        }
        var next = pos + (forward ? 1 : -1)
        if !range.contains(next) {
            let wraps = (!crown && store.isModal(bound)) || (wrap ?? (crown ? false : store.sequentialWrap))
            guard wraps else { return nil }
            next = forward ? range.lowerBound : range.upperBound - 1
        }
        return store.entrySlot(seq.order[next], forward: forward)
    }
}
