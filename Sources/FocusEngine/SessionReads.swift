// What a session reads for its state and events: binding reads (focus.md §5), focused and
// scene values, the focus effect, and the ambiguity warnings of bindings.

extension SceneSession {
    func bindingsOf(_ slot: Int, _ track: Track) -> [Binding] {
        (track == .main ? store.node(slot).bindings : store.node(slot).accessibilityBindings) ?? []
    }

    func ambiguity(name: String, value: String?, _ ordered: [Int]) -> String {
        let winner = store.slots[ordered[0]].id, other = store.slots[ordered[1]].id
        let what = value.map { "\(name) = '\($0)'" } ?? "the Bool binding '\(name)'"
        return "ambiguous focus binding: nodes '\(winner)' and '\(other)' are both bound to \(what); '\(winner)', first in tree order, wins"
    }

    /// The read values of the bindings that depend on focus at `focus` (Bool names on its path,
    /// value names of the node itself).
    func pathReads(_ track: Track, focus: Int?) -> [String: BindingState] {
        guard let focused = focus, !(track == .main ? store.bindings : store.a11yBindings).nodes.isEmpty else { return [:] }
        var out: [String: BindingState] = [:]
        var ancestor = focused
        while ancestor >= 0 {
            for binding in bindingsOf(ancestor, track) where binding.value == nil {
                out[binding.name] = BindingState(name: binding.name, isTrue: true)
            }
            ancestor = store.slots[ancestor].parent
        }
        for binding in bindingsOf(focused, track) where binding.value != nil && out[binding.name] == nil {
            out[binding.name] = BindingState(name: binding.name, value: binding.value)
        }
        return out
    }

    func unsetRead(_ name: String, _ track: Track) -> BindingState {
        let reg = track == .main ? store.bindings : store.a11yBindings
        return reg.isBool(name) ? BindingState(name: name, isTrue: false) : BindingState(name: name)
    }

    /// Every binding's read value, keyed by name.
    func allReads(_ track: Track, focus: Int?) -> [String: BindingState] {
        let reg = track == .main ? store.bindings : store.a11yBindings
        var out = pathReads(track, focus: focus)
        for name in reg.nodes.keys where out[name] == nil { out[name] = unsetRead(name, track) }
        return out
    }

    /// Every binding's read value in tree order of first appearance.
    package func orderedReads(_ track: Track, focus: Int?) -> [BindingState] {
        let reg = track == .main ? store.bindings : store.a11yBindings
        guard !reg.nodes.isEmpty else { return [] }  // no bindings: no reads, and no sort to pay for
        let reads = pathReads(track, focus: focus)
        var keyed: [(slot: Int, index: Int, name: String)] = []
        for name in reg.nodes.keys {
            guard let first = reg.first[name] else { continue }
            let position = bindingsOf(first, track).firstIndex { $0.name == name } ?? 0
            keyed.append((first, position, name))
        }
        if keyed.count > 1 { keyed.sort { $0.slot != $1.slot ? store.precedes($0.slot, $1.slot) : $0.index < $1.index } }
        return keyed.map { reads[$0.name] ?? unsetRead($0.name, track) }
    }

    package func focusedValues(_ focus: Int?) -> [String: String] {
        guard let focused = focus else { return [:] }
        var out: [String: String] = [:]
        var ancestor = focused
        while ancestor >= 0 {
            if store.slots[ancestor].hasValues, let values = store.node(ancestor).values {
                for (key, value) in values where out[key] == nil { out[key] = value }
            }
            ancestor = store.slots[ancestor].parent
        }
        return out
    }

    package func sceneValues() -> [String: String] {
        // Most scenes have none: no array of their holders to make and sort.
        guard !store.sceneValueNodes.isEmpty else { return [:] }
        var out: [String: String] = [:]
        for holder in store.sortedInTreeOrder(store.sceneValueNodes) {
            for (key, value) in store.node(holder).sceneValues ?? [:] where out[key] == nil { out[key] = value }
        }
        return out
    }

    /// The outermost `focusEffectDisabled` on the focused path decides; none: on.
    package func effectEnabled(_ focus: Int?) -> Bool {
        guard var x = focus else { return true }
        var enabled = true
        // Up from the focused node, reading each slot's box in place (a slot without one sets
        // nothing): no path array and no copy of each node, four of which cost 0.8k instructions
        // a `Move` (issue 13).
        while x >= 0 {
            if let disabled = store.slots[x].box?.node.focusEffectDisabled { enabled = !disabled }
            x = store.slots[x].parent
        }
        return enabled
    }

    /// The scroll containers' offsets, in tree order.
    package func scrollOffsets() -> [ScrollOffset] {
        guard !store.scrolls.isEmpty else { return [] }
        return store.sortedInTreeOrder(store.scrolls.keys).map {
            ScrollOffset(node: store.slots[$0].id, offsetX: store.scrolls[$0]!.x, offsetY: store.scrolls[$0]!.y)
        }
    }

    // The focused path, read one node at a time by a writer (FocusWire's `writeState`): the
    // state's `path` is `nodeID` of the focused slot, then of each `parentSlot` up to the root
    // (-1 above it), innermost first as ``SceneStore/pathIDs(_:)`` lists them.

    /// The id of the node in `slot`.
    package func nodeID(_ slot: Int) -> String { store.slots[slot].id }

    /// The slot of `slot`'s parent; -1 for the root.
    package func parentSlot(_ slot: Int) -> Int { store.slots[slot].parent }
}
