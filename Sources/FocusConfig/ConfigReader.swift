// Typed, position-aware reading of a TOML table for the configuration schema: every key must be
// consumed, so an unknown key is reported with its line, and every type error names the key.

import InputMapping

/// Reads one TOML table of the schema, remembering which keys were used.
struct ConfigReader {
    let table: TOMLTable
    /// Dotted path of this table, for messages (`profile[2].repeat`).
    let path: String
    let position: TOMLPosition
    private(set) var used: Set<String> = []

    init(_ table: TOMLTable, path: String, position: TOMLPosition) {
        self.table = table
        self.path = path
        self.position = position
    }

    func qualified(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The entry for `key`, marking it as understood.
    mutating func entry(_ key: String) -> TOMLEntry? {
        used.insert(key)
        return table[key]
    }

    func typeError(_ key: String, expected: String, _ node: TOMLNode) -> ConfigError {
        ConfigError("'\(qualified(key))' must be \(expected), found \(node.value.typeName)", at: node.position)
    }

    mutating func string(_ key: String) throws(ConfigError) -> (String, TOMLPosition)? {
        guard let entry = entry(key) else { return nil }
        guard case .string(let value) = entry.node.value else { throw typeError(key, expected: "a string", entry.node) }
        return (value, entry.node.position)
    }

    mutating func bool(_ key: String) throws(ConfigError) -> Bool? {
        guard let entry = entry(key) else { return nil }
        guard case .boolean(let value) = entry.node.value else { throw typeError(key, expected: "true or false", entry.node) }
        return value
    }

    /// An integer within `range`.
    mutating func integer(_ key: String, in range: ClosedRange<Int64>) throws(ConfigError) -> Int64? {
        guard let entry = entry(key) else { return nil }
        guard case .integer(let value) = entry.node.value else { throw typeError(key, expected: "an integer", entry.node) }
        guard range.contains(value) else {
            throw ConfigError("'\(qualified(key))' must be between \(range.lowerBound) and \(range.upperBound), found \(value)", at: entry.node.position)
        }
        return value
    }

    /// A number (integer or float) within `range`.
    mutating func number(_ key: String, in range: ClosedRange<Double>) throws(ConfigError) -> Double? {
        guard let entry = entry(key) else { return nil }
        let value: Double
        switch entry.node.value {
        case .integer(let integer): value = Double(integer)
        case .float(let float): value = float
        default: throw typeError(key, expected: "a number", entry.node)
        }
        guard range.contains(value) else {
            throw ConfigError("'\(qualified(key))' must be between \(Self.format(range.lowerBound)) and \(Self.format(range.upperBound)), found \(Self.format(value))", at: entry.node.position)
        }
        return value
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// An array whose elements are read by `element`.
    mutating func array<T>(_ key: String, _ element: (TOMLNode, String) throws(ConfigError) -> T) throws(ConfigError) -> [T]? {
        guard let entry = entry(key) else { return nil }
        guard case .array(let nodes) = entry.node.value else { throw typeError(key, expected: "an array", entry.node) }
        var result: [T] = []
        for (index, node) in nodes.enumerated() {
            result.append(try element(node, "\(qualified(key))[\(index)]"))
        }
        return result
    }

    /// A sub-table (header or inline).
    mutating func table(_ key: String) throws(ConfigError) -> ConfigReader? {
        guard let entry = entry(key) else { return nil }
        guard case .table(let table) = entry.node.value else { throw typeError(key, expected: "a table", entry.node) }
        return ConfigReader(table, path: qualified(key), position: entry.node.position)
    }

    /// An array of tables (`[[key]]` or an array of inline tables).
    mutating func tables(_ key: String) throws(ConfigError) -> [ConfigReader]? {
        guard let entry = entry(key) else { return nil }
        guard case .array(let nodes) = entry.node.value else { throw typeError(key, expected: "an array of tables", entry.node) }
        var result: [ConfigReader] = []
        for (index, node) in nodes.enumerated() {
            guard case .table(let table) = node.value else {
                throw ConfigError("'\(qualified(key))[\(index)]' must be a table, found \(node.value.typeName)", at: node.position)
            }
            result.append(ConfigReader(table, path: "\(qualified(key))[\(index)]", position: node.position))
        }
        return result
    }

    /// Fails on the first key that was never asked for, naming it and the keys this table knows.
    func finish(known: [String]) throws(ConfigError) {
        for entry in table.entries where !used.contains(entry.key) {
            let where_ = path.isEmpty ? "at the top level" : "in [\(path)]"
            throw ConfigError("unknown key '\(entry.key)' \(where_) (known: \(known.joined(separator: ", ")))", at: entry.keyPosition)
        }
    }

    /// Reads an element as a string.
    static func stringElement(_ node: TOMLNode, _ name: String) throws(ConfigError) -> String {
        guard case .string(let value) = node.value else {
            throw ConfigError("'\(name)' must be a string, found \(node.value.typeName)", at: node.position)
        }
        return value
    }

    /// Reads an element as a non-negative 32-bit id (uid, gid).
    static func idElement(_ node: TOMLNode, _ name: String) throws(ConfigError) -> UInt32 {
        guard case .integer(let value) = node.value else {
            throw ConfigError("'\(name)' must be an integer, found \(node.value.typeName)", at: node.position)
        }
        guard value >= 0 && value <= Int64(UInt32.max) else {
            throw ConfigError("'\(name)' must be between 0 and \(UInt32.max), found \(value)", at: node.position)
        }
        return UInt32(value)
    }
}
