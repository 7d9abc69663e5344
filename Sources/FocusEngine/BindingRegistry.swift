// Where the nodes carrying each focus binding name are (focus.md §5), one registry per track.

/// Where the nodes carrying each binding name are (one registry per track).
struct BindingRegistry: Sendable {
    /// One binding: a name with a value, or a Bool binding (nil value).
    struct Pair: Hashable, Sendable {
        var name: String
        var value: String?
    }

    var nodes: [String: Set<Int>] = [:]
    /// The holders of each exact binding (ambiguity is more than one holder).
    var pairs: [Pair: Set<Int>] = [:]
    /// The first holder of each name in tree order (kept by the store, which can compare order).
    var first: [String: Int] = [:]
    var boolCount: [String: Int] = [:]
    var valueCount: [String: Int] = [:]

    func isBool(_ name: String) -> Bool { (boolCount[name] ?? 0) > 0 }

    mutating func add(_ bindings: [Binding]?, slot: Int) -> String? {
        guard let bindings else { return nil }
        var conflict: String?
        for binding in bindings {
            nodes[binding.name, default: []].insert(slot)
            pairs[Pair(name: binding.name, value: binding.value), default: []].insert(slot)
            if binding.value == nil { boolCount[binding.name, default: 0] += 1 } else { valueCount[binding.name, default: 0] += 1 }
            if isBool(binding.name) && (valueCount[binding.name] ?? 0) > 0 { conflict = binding.name }
        }
        return conflict
    }

    mutating func remove(_ bindings: [Binding]?, slot: Int) {
        guard let bindings else { return }
        for binding in bindings {
            let pair = Pair(name: binding.name, value: binding.value)
            pairs[pair]?.remove(slot)
            if pairs[pair]?.isEmpty == true { pairs[pair] = nil }
            nodes[binding.name]?.remove(slot)
            if nodes[binding.name]?.isEmpty == true { nodes[binding.name] = nil }
            if binding.value == nil { boolCount[binding.name, default: 1] -= 1; if boolCount[binding.name] == 0 { boolCount[binding.name] = nil } }
            else { valueCount[binding.name, default: 1] -= 1; if valueCount[binding.name] == 0 { valueCount[binding.name] = nil } }
        }
    }
}
