/// A Varlink interface definition: its text (served verbatim by `GetInterfaceDescription`) and
/// the names parsed from it (used for routing and `GetInfo`).
///
/// ```swift
/// let interface = try VarlinkInterface(description: """
///     interface org.example.ping
///     method Ping(text: string) -> (text: string)
///     error Busy ()
///     """)
/// interface.name            // "org.example.ping"
/// interface.methods["Ping"] // fields "text" -> "text"
/// ```
public struct VarlinkInterface: Hashable, Sendable {
    /// A method's signature: the names of its input and output fields.
    public struct Method: Hashable, Sendable {
        public var name: String
        public var inputFields: [String]
        public var outputFields: [String]
    }

    /// The interface's reverse-domain name, e.g. `io.focusd.Focus`.
    public let name: String
    /// The definition text exactly as given.
    public let description: String
    /// Methods by member name.
    public let methods: [String: Method]
    /// Names of the `type` declarations, in order.
    public let typeNames: [String]
    /// Names of the `error` declarations, in order.
    public let errorNames: [String]

    /// Parses `description`; throws ``VarlinkInterfaceSyntaxError`` with the line and column of the
    /// first problem (bad syntax, a duplicate member, a reference to an undeclared type).
    public init(description: String) throws(VarlinkInterfaceSyntaxError) {
        var parser = InterfaceParser(text: description)
        let parsed = try parser.parse()
        self.description = description
        self.name = parsed.name
        self.methods = parsed.methods
        self.typeNames = parsed.typeDeclarations.map(\.name)
        self.errorNames = parsed.errorNames
    }

    /// The field names of each `type` declaration of `description` that is a struct, in order (an
    /// enum type has none). Not a stored property: an interface is copied on every call, and
    /// another dictionary in it cost each call its retain and release.
    public static func typeFields(of description: String) throws(VarlinkInterfaceSyntaxError) -> [String: [String]] {
        var fields: [String: [String]] = [:]
        for (name, type) in try typeDeclarations(of: description) {
            if case .structure(let members) = type { fields[name] = members.map(\.name) }
        }
        return fields
    }

    /// Every `type` declaration of `description`, in order, with its whole type (a struct's fields
    /// and their types, or an enum's values): what a code generator reads (focusd-codegen).
    public static func typeDeclarations(of description: String) throws(VarlinkInterfaceSyntaxError) -> [(name: String, type: VarlinkType)] {
        var parser = InterfaceParser(text: description)
        return try parser.parse().typeDeclarations
    }

    /// The qualified name of a member, e.g. `io.focusd.Focus.GetState`.
    public func qualified(_ member: String) -> String { "\(name).\(member)" }
}

/// A type as an interface definition writes it (varlink.org's grammar).
public indirect enum VarlinkType: Hashable, Sendable {
    case bool, int, float, string, object
    /// A `type` declared in the interface, by name.
    case named(String)
    /// `(a, b, c)`: one of these strings.
    case enumeration([String])
    /// `(name: type, ...)`.
    case structure([VarlinkField])
    /// `?T`: absent or null is allowed.
    case optional(VarlinkType)
    /// `[]T`.
    case array(VarlinkType)
    /// `[string]T`: an object whose member values are `T`.
    case map(VarlinkType)
}

/// One field of a struct type, a method's parameters or an error's.
public struct VarlinkField: Hashable, Sendable {
    public var name: String
    public var type: VarlinkType

    public init(name: String, type: VarlinkType) { (self.name, self.type) = (name, type) }
}

/// A syntax error in a Varlink interface definition.
public struct VarlinkInterfaceSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 1-based line of the problem.
    public let line: Int
    /// 1-based column of the problem.
    public let column: Int
    public let message: String

    public var description: String { "line \(line), column \(column): \(message)" }
}

/// Tokenizer and recursive-descent parser for the Varlink interface grammar (varlink.org).
struct InterfaceParser {
    struct Token {
        enum Kind: Equatable { case word(String), punct(String), end }
        let kind: Kind
        let line: Int
        let column: Int
    }

    struct Result {
        var name = ""
        var methods: [String: VarlinkInterface.Method] = [:]
        var typeDeclarations: [(name: String, type: VarlinkType)] = []
        var errorNames: [String] = []
    }

    private var tokens: [Token] = []
    private var position = 0
    private var lexError: VarlinkInterfaceSyntaxError?
    private var references: [(name: String, token: Token)] = []

    init(text: String) {
        var line = 1
        var column = 1
        var scalars = Array(text.unicodeScalars)[...]
        func isWordScalar(_ s: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(s) || ("A"..."Z").contains(s)
                || ("0"..."9").contains(s) || s == "_" || s == "-" || s == "."
        }
        while let scalar = scalars.first {
            let startLine = line, startColumn = column
            if scalar == "\n" {
                scalars.removeFirst(); line += 1; column = 1
            } else if scalar == " " || scalar == "\t" || scalar == "\r" {
                scalars.removeFirst(); column += 1
            } else if scalar == "#" {
                while let next = scalars.first, next != "\n" { scalars.removeFirst(); column += 1 }
            } else if scalar == "-", scalars.dropFirst().first == ">" {
                scalars.removeFirst(2); column += 2
                tokens.append(Token(kind: .punct("->"), line: startLine, column: startColumn))
            } else if isWordScalar(scalar) {
                var word = ""
                while let next = scalars.first, isWordScalar(next) {
                    word.unicodeScalars.append(next); scalars.removeFirst(); column += 1
                }
                tokens.append(Token(kind: .word(word), line: startLine, column: startColumn))
            } else if "():,?[]".unicodeScalars.contains(scalar) {
                scalars.removeFirst(); column += 1
                tokens.append(Token(kind: .punct(String(scalar)), line: startLine, column: startColumn))
            } else {
                lexError = VarlinkInterfaceSyntaxError(line: line, column: column, message: "unexpected character '\(scalar)'")
                break
            }
        }
        tokens.append(Token(kind: .end, line: line, column: column))
    }

    private var current: Token { tokens[position] }

    private func error(_ message: String, at token: Token? = nil) -> VarlinkInterfaceSyntaxError {
        let token = token ?? current
        return VarlinkInterfaceSyntaxError(line: token.line, column: token.column, message: message)
    }

    private func describe(_ token: Token) -> String {
        switch token.kind {
        case .word(let word): return "'\(word)'"
        case .punct(let punct): return "'\(punct)'"
        case .end: return "end of text"
        }
    }

    private mutating func word() throws(VarlinkInterfaceSyntaxError) -> (String, Token) {
        let token = current
        guard case .word(let word) = token.kind else { throw error("expected a name, found \(describe(token))") }
        position += 1
        return (word, token)
    }

    private mutating func keyword(_ expected: String) throws(VarlinkInterfaceSyntaxError) {
        guard current.kind == .word(expected) else { throw error("expected '\(expected)', found \(describe(current))") }
        position += 1
    }

    private mutating func punct(_ expected: String) throws(VarlinkInterfaceSyntaxError) {
        guard current.kind == .punct(expected) else { throw error("expected '\(expected)', found \(describe(current))") }
        position += 1
    }

    private mutating func accept(_ expected: String) -> Bool {
        guard current.kind == .punct(expected) else { return false }
        position += 1
        return true
    }

    /// `[A-Za-z]([-]*[A-Za-z0-9])*(\.[A-Za-z0-9]([-]*[A-Za-z0-9])*)+`, as the varlink.org grammar has it.
    static func isInterfaceName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return false }
        let isAlphanumeric = { (s: Unicode.Scalar) in
            ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s)
        }
        for (index, part) in parts.enumerated() {
            guard let first = part.unicodeScalars.first, let last = part.unicodeScalars.last else { return false }
            if index == 0 && ("0"..."9").contains(first) { return false }
            guard isAlphanumeric(first), isAlphanumeric(last) else { return false }
            guard part.unicodeScalars.allSatisfy({ isAlphanumeric($0) || $0 == "-" }) else { return false }
        }
        return true
    }

    static func isMemberName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    }

    static func isFieldName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first) || ("a"..."z").contains(first),
            name.last != "_", !zip(name.utf8, name.utf8.dropFirst()).contains(where: { $0 == 0x5F && $1 == 0x5F })
        else { return false }
        return name.unicodeScalars.allSatisfy {
            ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
        }
    }

    mutating func parse() throws(VarlinkInterfaceSyntaxError) -> Result {
        if let lexError { throw lexError }
        var result = Result()
        try keyword("interface")
        let (name, nameToken) = try word()
        guard Self.isInterfaceName(name) else { throw error("invalid interface name '\(name)'", at: nameToken) }
        result.name = name
        var seen: Set<String> = []
        while current.kind != .end {
            let (kind, kindToken) = try word()
            let (member, memberToken) = try word()
            guard ["method", "type", "error"].contains(kind) else {
                throw error("expected 'method', 'type' or 'error', found '\(kind)'", at: kindToken)
            }
            guard Self.isMemberName(member) else { throw error("invalid \(kind) name '\(member)'", at: memberToken) }
            guard seen.insert(member).inserted else { throw error("'\(member)' is declared twice", at: memberToken) }
            switch kind {
            case "method":
                let input = try structFields().map(\.name)
                try punct("->")
                let output = try structFields().map(\.name)
                result.methods[member] = VarlinkInterface.Method(name: member, inputFields: input, outputFields: output)
            case "type":
                guard current.kind == .punct("(") else { throw error("expected '(' after type name, found \(describe(current))") }
                result.typeDeclarations.append((member, try structOrEnum()))
            default:
                _ = try structFields()
                result.errorNames.append(member)
            }
        }
        if result.methods.isEmpty && result.typeDeclarations.isEmpty && result.errorNames.isEmpty {
            throw error("an interface needs at least one member")
        }
        let typeNames = Set(result.typeDeclarations.map(\.name))
        for reference in references where !typeNames.contains(reference.name) {
            throw error("unknown type '\(reference.name)'", at: reference.token)
        }
        return result
    }

    /// `( name: type, ... )` — a struct; returns its fields.
    private mutating func structFields() throws(VarlinkInterfaceSyntaxError) -> [VarlinkField] {
        try punct("(")
        var fields: [VarlinkField] = []
        if accept(")") { return fields }
        repeat {
            let (field, token) = try word()
            guard Self.isFieldName(field) else { throw error("invalid field name '\(field)'", at: token) }
            guard !fields.contains(where: { $0.name == field }) else { throw error("field '\(field)' appears twice", at: token) }
            try punct(":")
            fields.append(VarlinkField(name: field, type: try type()))
        } while accept(",")
        try punct(")")
        return fields
    }

    /// `( a, b )` enum or `( a: t, ... )` struct (`()` is a struct without fields).
    private mutating func structOrEnum() throws(VarlinkInterfaceSyntaxError) -> VarlinkType {
        guard position + 2 < tokens.count else { throw error("unexpected end of text") }
        if case .word = tokens[position + 1].kind, tokens[position + 2].kind == .punct(":") {
            return .structure(try structFields())
        }
        if tokens[position + 1].kind == .punct(")") {
            position += 2
            return .structure([])
        }
        try punct("(")
        var names: [String] = []
        repeat {
            let (value, token) = try word()
            guard Self.isFieldName(value) else { throw error("invalid enum value '\(value)'", at: token) }
            guard !names.contains(value) else { throw error("enum value '\(value)' appears twice", at: token) }
            names.append(value)
        } while accept(",")
        try punct(")")
        return .enumeration(names)
    }

    private mutating func type() throws(VarlinkInterfaceSyntaxError) -> VarlinkType {
        if accept("?") {
            guard current.kind != .punct("?") else { throw error("'?' cannot be repeated") }
            return .optional(try elementType())
        }
        return try elementType()
    }

    private mutating func elementType() throws(VarlinkInterfaceSyntaxError) -> VarlinkType {
        if accept("[") {
            if accept("]") {
                return .array(try type())
            }
            try keyword("string")
            try punct("]")
            return .map(try type())
        }
        if current.kind == .punct("(") {
            return try structOrEnum()
        }
        let (name, token) = try word()
        switch name {
        case "bool": return .bool
        case "int": return .int
        case "float": return .float
        case "string": return .string
        case "object": return .object
        default:
            guard Self.isMemberName(name) else { throw error("unknown type '\(name)'", at: token) }
            references.append((name, token))
            return .named(name)
        }
    }
}
