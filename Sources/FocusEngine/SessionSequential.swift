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
            guard let t = sequentialTarget(from: cur, forward: forward, wrap: wrap, crown: crown, track: track), t != cur else { break }
            cur = t
            moved = true
            taken += 1
            // Back where it started after `taken` steps: only the remainder of the cycle matters.
            if t == start { steps = taken + (steps - taken) % taken }
        }
        guard moved, let cur, cur != start else {
            collectVirtuals()
            return Outcome(events: [draft(.blocked, from: track == .main ? focusedId : a11yId, cause: cause, track: track)])
        }
        return changeFocus(to: cur, track: track, cause: cause)
    }

    /// The next/previous candidate after `from` in sequential order (nil: blocked); a collection's
    /// items are one entry of the order, stepped through by index (focus.md §12).
    mutating func sequentialTarget(from f: Int?, forward: Bool, wrap: Bool?, crown: Bool, track: Track) -> Int? {
        guard let seq = store.sequence, !seq.order.isEmpty else { return nil }
        if let f, store.slots[f].hasNext, let t = store.node(f).next?[forward ? "next" : "previous"] {
            guard !t.isEmpty, let ts = store.idToSlot[t] else { return nil }
            if let m = store.innermostModal(f), !store.isInside(ts, m) { return nil }
            if store.isCandidate(ts) { return ts }
            guard let r = seq.ranges[ts], !r.isEmpty else { return nil }
            return store.entrySlot(forward ? seq.order[r.lowerBound] : seq.order[r.upperBound - 1], forward: forward)
        }
        var bound = store.root
        if let f {
            var a = f
            while a >= 0 {
                if crown ? (store.isSection(a) || store.isModal(a)) : store.isModal(a) { bound = a; break }
                a = store.slots[a].parent
            }
        }
        guard let range = seq.ranges[bound], !range.isEmpty else { return nil }
        var pos: Int?
        if let f {
            if let it = store.itemOf(f), let mp = seq.markerPos[it.collection] {
                if let j = store.nextCandidateIndex(it.collection, after: it.index, forward: forward) {
                    return store.item(it.collection, j)
                }
                pos = mp
            } else if f < seq.position.count, seq.position[f] >= 0 {
                pos = seq.position[f]
            }
        }
        guard let pos, range.contains(pos) else {
            return store.entrySlot(forward ? seq.order[range.lowerBound] : seq.order[range.upperBound - 1], forward: forward)
        }
        var p = pos + (forward ? 1 : -1)
        if !range.contains(p) {
            let wraps = (!crown && store.isModal(bound)) || (wrap ?? (crown ? false : store.sequentialWrap))
            guard wraps else { return nil }
            p = forward ? range.lowerBound : range.upperBound - 1
        }
        return store.entrySlot(seq.order[p], forward: forward)
    }
}
