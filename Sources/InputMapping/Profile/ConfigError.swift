/// A configuration file that cannot be used: what is wrong and where (1-based line and column).
public struct ConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A specific message naming the key or token at fault.
    public var message: String
    /// 1-based line of the offending token or key, when known.
    public var line: Int?
    /// 1-based column (in Unicode scalars) of the offending token or key, when known.
    public var column: Int?

    public init(_ message: String, line: Int? = nil, column: Int? = nil) {
        self.message = message
        self.line = line
        self.column = column
    }

    public var description: String {
        switch (line, column) {
        case let (line?, column?): "line \(line), column \(column): \(message)"
        case let (line?, nil): "line \(line): \(message)"
        default: message
        }
    }
}
