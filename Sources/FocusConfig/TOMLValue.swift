// The document model of the TOML parser: values that remember where they were written, so the
// configuration schema can report errors with the line of the key at fault.

import InputMapping

/// A 1-based line and column in a TOML document.
public struct TOMLPosition: Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "line \(line), column \(column)" }
}

/// One TOML value with the position where it starts.
public struct TOMLNode: Hashable, Sendable {
    public var value: TOMLValue
    public var position: TOMLPosition

    public init(_ value: TOMLValue, at position: TOMLPosition) {
        self.value = value
        self.position = position
    }
}

/// A TOML value (TOML 1.0). Date-times are kept as their text: a configuration has no use for them.
public indirect enum TOMLValue: Hashable, Sendable {
    case string(String)
    case integer(Int64)
    case float(Double)
    case boolean(Bool)
    case dateTime(String)
    case array([TOMLNode])
    case table(TOMLTable)

    /// The TOML type name, for error messages ("expected an integer, found a string").
    public var typeName: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a float"
        case .boolean: "a boolean"
        case .dateTime: "a date-time"
        case .array: "an array"
        case .table: "a table"
        }
    }
}

/// One key of a table with where the key was written (the first time, for implicit tables).
public struct TOMLEntry: Hashable, Sendable {
    public var key: String
    public var keyPosition: TOMLPosition
    public var node: TOMLNode
}

/// A TOML table: its entries in the order they were first written.
public struct TOMLTable: Hashable, Sendable {
    public var entries: [TOMLEntry]

    public init(entries: [TOMLEntry] = []) {
        self.entries = entries
    }

    /// The entry for a key, if present.
    public subscript(key: String) -> TOMLEntry? {
        entries.first { $0.key == key }
    }
}
