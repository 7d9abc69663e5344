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
        for b in bindings {
            nodes[b.name, default: []].insert(slot)
            pairs[Pair(name: b.name, value: b.value), default: []].insert(slot)
            if b.value == nil { boolCount[b.name, default: 0] += 1 } else { valueCount[b.name, default: 0] += 1 }
            if isBool(b.name) && (valueCount[b.name] ?? 0) > 0 { conflict = b.name }
        }
        return conflict
    }

    mutating func remove(_ bindings: [Binding]?, slot: Int) {
        guard let bindings else { return }
        for b in bindings {
            let pair = Pair(name: b.name, value: b.value)
            pairs[pair]?.remove(slot)
            if pairs[pair]?.isEmpty == true { pairs[pair] = nil }
            nodes[b.name]?.remove(slot)
            if nodes[b.name]?.isEmpty == true { nodes[b.name] = nil }
            if b.value == nil { boolCount[b.name, default: 1] -= 1; if boolCount[b.name] == 0 { boolCount[b.name] = nil } }
            else { valueCount[b.name, default: 1] -= 1; if valueCount[b.name] == 0 { valueCount[b.name] = nil } }
        }
    }
}
