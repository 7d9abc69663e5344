// A TOML 1.0 parser sized for configuration files: tables, arrays of tables, dotted keys, inline
// tables, the four string kinds with escapes, integers (decimal, hex, octal, binary, underscores),
// floats (incl. inf/nan), booleans, arrays and comments. Every error names the line and column.

import InputMapping

/// Parses TOML text into a `TOMLTable` whose nodes remember their positions.
public enum TOML {
    /// Parses a whole document.
    /// - Throws: `ConfigError` with the line and column of the first problem.
    public static func parse(_ text: String) throws(ConfigError) -> TOMLTable {
        try parseCountingWork(text).table
    }

    /// How deeply arrays, inline tables and the parts of a dotted key may nest. Parsing, freezing
    /// and reading the tree recurse, so without a bound a hostile file (100,000 `[`) would
    /// overflow the stack; real configs nest two or three levels.
    public static let maxNesting = 100

    /// Parses, also returning the parser's work: bytes stepped over plus bytes rescanned to
    /// compute columns. Linear parsing keeps it a small multiple of the text's size (tests).
    static func parseCountingWork(_ text: String) throws(ConfigError) -> (table: TOMLTable, work: Int) {
        var parser = TOMLParser(text)
        let root = try parser.parseDocument()
        return (root.freeze(), parser.work)
    }
}

/// A table under construction. Reference semantics make `[a.b]` headers and dotted keys simple.
private final class TableBuilder {
    enum Slot {
        case value(TOMLNode)
        case table(TableBuilder)
        case arrayOfTables([TableBuilder], TOMLPosition)
    }

    struct Entry {
        var keyPosition: TOMLPosition
        var slot: Slot
    }

    var order: [String] = []
    var entries: [String: Entry] = [:]
    let position: TOMLPosition
    /// Defined by a `[header]` (a second header for it is an error).
    var explicitlyDefined = false
    /// Created by a dotted key (`a.b = 1`): a later `[a]` header may not reopen it.
    var definedByDottedKey = false
    /// An inline table `{ ... }` is complete as written.
    var isInline = false

    init(position: TOMLPosition) {
        self.position = position
    }

    func set(_ key: String, _ slot: Slot, at position: TOMLPosition) {
        if entries[key] == nil { order.append(key) }
        entries[key] = Entry(keyPosition: position, slot: slot)
    }

    func freeze() -> TOMLTable {
        TOMLTable(entries: order.map { key in
            let entry = entries[key]!
            let node: TOMLNode
            switch entry.slot {
            case .value(let value): node = value
            case .table(let table): node = TOMLNode(.table(table.freeze()), at: table.position)
            case .arrayOfTables(let tables, let position):
                node = TOMLNode(
                    .array(tables.map { TOMLNode(.table($0.freeze()), at: $0.position) }), at: position)
            }
            return TOMLEntry(key: key, keyPosition: entry.keyPosition, node: node)
        })
    }
}

private struct TOMLParser {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineStart = 0
    /// The column (in Unicode scalars, 1-based) of `index`, kept up to date as the parser steps:
    /// computing it by rescanning the line on every value made a long one-line array quadratic.
    var column = 1
    /// Arrays and inline tables open around the current value.
    var nesting = 0
    /// Bytes stepped over (see `TOML.parseCountingWork`).
    var work = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    // MARK: Positions and errors

    var position: TOMLPosition {
        TOMLPosition(line: line, column: column)
    }

    func error(_ message: String) -> ConfigError {
        ConfigError(message, at: position)
    }

    func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "\n"): return "end of line"
        case UInt8(ascii: "\r"): return "carriage return"
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        default: return "byte 0x\(String(byte, radix: 16))"
        }
    }

    // MARK: Low-level scanning

    var atEnd: Bool { index >= bytes.count }
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }
    func peek(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

    func at(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard index + utf8.count <= bytes.count else { return false }
        return Array(bytes[index..<index + utf8.count]) == utf8
    }

    mutating func advance(_ count: Int = 1) {
        for _ in 0..<count where index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                line += 1
                lineStart = index + 1
                column = 1
            } else if bytes[index] & 0xC0 != 0x80 {
                // Columns count Unicode scalars, not bytes: continuation bytes do not count.
                column += 1
            }
            index += 1
            work += 1
        }
    }

    /// Counts a level of arrays or inline tables opened at `start`; past `TOML.maxNesting` it is
    /// an error at that place.
    mutating func enterNesting(_ start: TOMLPosition) throws(ConfigError) {
        nesting += 1
        if nesting > TOML.maxNesting {
            throw ConfigError("arrays and inline tables nest deeper than \(TOML.maxNesting) levels", at: start)
        }
    }

    mutating func skipWhitespace() {
        while let byte = current, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { advance() }
    }

    /// Skips a comment up to (not including) the newline; control characters are errors.
    mutating func skipComment() throws(ConfigError) {
        guard current == UInt8(ascii: "#") else { return }
        while let byte = current, byte != UInt8(ascii: "\n") {
            if byte == UInt8(ascii: "\r") && peek(1) == UInt8(ascii: "\n") { return }
            if (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F {
                throw error("control character 0x\(String(byte, radix: 16)) in a comment")
            }
            advance()
        }
    }

    /// Consumes a newline (LF or CRLF); returns false when there is none.
    mutating func consumeNewline() -> Bool {
        if current == UInt8(ascii: "\n") {
            advance()
            return true
        }
        if current == UInt8(ascii: "\r") && peek(1) == UInt8(ascii: "\n") {
            advance(2)
            return true
        }
        return false
    }

    /// After a key/value pair or a header: optional whitespace and comment, then newline or EOF.
    mutating func expectLineEnd(after what: String) throws(ConfigError) {
        skipWhitespace()
        try skipComment()
        if atEnd || consumeNewline() { return }
        throw error("expected the end of the line after \(what), found \(describeCurrent())")
    }

    /// Whitespace, newlines and comments (inside arrays and between statements).
    mutating func skipBlank() throws(ConfigError) {
        while true {
            skipWhitespace()
            try skipComment()
            if !consumeNewline() { return }
        }
    }

    // MARK: Document

    mutating func parseDocument() throws(ConfigError) -> TableBuilder {
        let root = TableBuilder(position: TOMLPosition(line: 1, column: 1))
        root.explicitlyDefined = true
        var currentTable = root
        if at("\u{FEFF}") { advance(3) }
        while true {
            try skipBlank()
            guard let byte = current else { break }
            if byte == UInt8(ascii: "[") {
                currentTable = try parseHeader(root: root)
            } else {
                try parseKeyValue(into: currentTable)
                try expectLineEnd(after: "a value")
            }
        }
        return root
    }

    mutating func parseHeader(root: TableBuilder) throws(ConfigError) -> TableBuilder {
        let start = position
        let isArray = peek(1) == UInt8(ascii: "[")
        advance(isArray ? 2 : 1)
        skipWhitespace()
        let keys = try parseKey()
        skipWhitespace()
        let close = isArray ? "]]" : "]"
        guard at(close) else {
            throw error("expected '\(close)' to close the table header, found \(describeCurrent())")
        }
        advance(close.utf8.count)
        try expectLineEnd(after: "the table header")
        let dotted = keys.map(\.name).joined(separator: ".")

        var table = root
        for key in keys.dropLast() {
            table = try descend(table, into: key, creatingAt: start, header: dotted)
        }
        let last = keys[keys.count - 1]
        if isArray {
            let element = TableBuilder(position: start)
            element.explicitlyDefined = true
            switch table.entries[last.name]?.slot {
            case nil:
                table.set(last.name, .arrayOfTables([element], start), at: last.position)
            case .arrayOfTables(var elements, let position):
                elements.append(element)
                table.set(last.name, .arrayOfTables(elements, position), at: table.entries[last.name]!.keyPosition)
            case .value(let node) where node.value.isStaticArray:
                throw ConfigError("[[\(dotted)]]: '\(last.name)' is already a static array", at: start)
            default:
                throw ConfigError("[[\(dotted)]]: '\(last.name)' is already defined as a table or value", at: start)
            }
            return element
        }
        switch table.entries[last.name]?.slot {
        case nil:
            let created = TableBuilder(position: start)
            created.explicitlyDefined = true
            table.set(last.name, .table(created), at: last.position)
            return created
        case .table(let existing):
            if existing.explicitlyDefined {
                throw ConfigError("table [\(dotted)] is defined twice", at: start)
            }
            if existing.definedByDottedKey || existing.isInline {
                throw ConfigError("table [\(dotted)] was already defined by a dotted key or inline table", at: start)
            }
            existing.explicitlyDefined = true
            return existing
        case .arrayOfTables:
            throw ConfigError("[\(dotted)]: '\(last.name)' is an array of tables, write [[\(dotted)]]", at: start)
        case .value:
            throw ConfigError("[\(dotted)]: '\(last.name)' already holds a value", at: start)
        }
    }

    /// Follows one key of a header path, creating implicit tables as needed.
    func descend(_ table: TableBuilder, into key: Key, creatingAt start: TOMLPosition, header: String)
        throws(ConfigError) -> TableBuilder
    {
        switch table.entries[key.name]?.slot {
        case nil:
            let created = TableBuilder(position: start)
            table.set(key.name, .table(created), at: key.position)
            return created
        case .table(let next):
            if next.isInline {
                throw ConfigError("[\(header)]: '\(key.name)' is an inline table and cannot be extended", at: start)
            }
            return next
        case .arrayOfTables(let elements, _):
            return elements[elements.count - 1]
        case .value:
            throw ConfigError("[\(header)]: '\(key.name)' already holds a value", at: start)
        }
    }

    // MARK: Keys

    struct Key {
        var name: String
        var position: TOMLPosition
    }

    static func isBareKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    /// A possibly dotted key: `a`, `"quoted key"`, `a.b.'c'`.
    mutating func parseKey() throws(ConfigError) -> [Key] {
        var keys: [Key] = []
        while true {
            skipWhitespace()
            let start = position
            guard let byte = current else { throw error("expected a key, found end of file") }
            if byte == UInt8(ascii: "\"") {
                if at("\"\"\"") { throw error("a key cannot be a multi-line string") }
                keys.append(Key(name: try parseBasicString(), position: start))
            } else if byte == UInt8(ascii: "'") {
                if at("'''") { throw error("a key cannot be a multi-line string") }
                keys.append(Key(name: try parseLiteralString(), position: start))
            } else if Self.isBareKeyByte(byte) {
                var name = ""
                while let next = current, Self.isBareKeyByte(next) {
                    name.unicodeScalars.append(Unicode.Scalar(next))
                    advance()
                }
                keys.append(Key(name: name, position: start))
            } else {
                throw error("expected a key, found \(describeCurrent())")
            }
            skipWhitespace()
            guard current == UInt8(ascii: ".") else { return keys }
            if keys.count >= TOML.maxNesting {
                throw error("a dotted key has more than \(TOML.maxNesting) parts")
            }
            advance()
        }
    }

    mutating func parseKeyValue(into table: TableBuilder) throws(ConfigError) {
        let keys = try parseKey()
        skipWhitespace()
        guard current == UInt8(ascii: "=") else {
            throw error("expected '=' after the key '\(keys.map(\.name).joined(separator: "."))', found \(describeCurrent())")
        }
        advance()
        skipWhitespace()
        let value = try parseValue()
        var target = table
        for key in keys.dropLast() {
            switch target.entries[key.name]?.slot {
            case nil:
                let created = TableBuilder(position: key.position)
                created.definedByDottedKey = true
                target.set(key.name, .table(created), at: key.position)
                target = created
            case .table(let next):
                if next.isInline {
                    throw ConfigError("'\(key.name)' is an inline table and cannot be extended", at: key.position)
                }
                if next.explicitlyDefined {
                    throw ConfigError("'\(key.name)' is a table defined by a header", at: key.position)
                }
                target = next
            case .arrayOfTables, .value:
                throw ConfigError("'\(key.name)' already holds a value", at: key.position)
            }
        }
        let last = keys[keys.count - 1]
        if target.entries[last.name] != nil {
            let first = target.entries[last.name]!.keyPosition
            throw ConfigError("duplicate key '\(last.name)' (first defined on line \(first.line))", at: last.position)
        }
        switch value.value {
        case .table(let inline):
            // Inline tables are stored as frozen builders so the key set stays closed.
            let builder = TableBuilder(position: value.position)
            builder.isInline = true
            for entry in inline.entries { builder.set(entry.key, .value(entry.node), at: entry.keyPosition) }
            target.set(last.name, .table(builder), at: last.position)
        default:
            target.set(last.name, .value(value), at: last.position)
        }
    }

    // MARK: Values

    mutating func parseValue() throws(ConfigError) -> TOMLNode {
        let start = position
        guard let byte = current else { throw error("expected a value, found end of file") }
        switch byte {
        case UInt8(ascii: "\""):
            if at("\"\"\"") { return TOMLNode(.string(try parseMultilineBasicString()), at: start) }
            return TOMLNode(.string(try parseBasicString()), at: start)
        case UInt8(ascii: "'"):
            if at("'''") { return TOMLNode(.string(try parseMultilineLiteralString()), at: start) }
            return TOMLNode(.string(try parseLiteralString()), at: start)
        case UInt8(ascii: "["):
            return TOMLNode(.array(try parseArray()), at: start)
        case UInt8(ascii: "{"):
            return TOMLNode(.table(try parseInlineTable()), at: start)
        case UInt8(ascii: "t") where at("true"):
            advance(4)
            try expectValueBoundary("true")
            return TOMLNode(.boolean(true), at: start)
        case UInt8(ascii: "f") where at("false"):
            advance(5)
            try expectValueBoundary("false")
            return TOMLNode(.boolean(false), at: start)
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"),
            UInt8(ascii: "i"), UInt8(ascii: "n"):
            return try parseNumberOrDate(start: start)
        case UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "#"):
            throw error("expected a value after '='")
        default:
            throw error("expected a value, found \(describeCurrent()) (strings need quotes)")
        }
    }

    func expectValueBoundary(_ token: String) throws(ConfigError) {
        if let byte = current, Self.isBareKeyByte(byte) || byte == UInt8(ascii: ".") {
            throw error("unexpected \(describeCurrent()) after '\(token)'")
        }
    }

    mutating func parseArray() throws(ConfigError) -> [TOMLNode] {
        let start = position
        try enterNesting(start)
        defer { nesting -= 1 }
        advance()  // [
        var elements: [TOMLNode] = []
        while true {
            try skipBlank()
            if current == UInt8(ascii: "]") {
                advance()
                return elements
            }
            if atEnd { throw ConfigError("unterminated array (opened here)", at: start) }
            elements.append(try parseValue())
            try skipBlank()
            if current == UInt8(ascii: ",") {
                advance()
                continue
            }
            if current == UInt8(ascii: "]") {
                advance()
                return elements
            }
            if atEnd { throw ConfigError("unterminated array (opened here)", at: start) }
            throw error("expected ',' or ']' in an array, found \(describeCurrent())")
        }
    }

    mutating func parseInlineTable() throws(ConfigError) -> TOMLTable {
        try enterNesting(position)
        defer { nesting -= 1 }
        advance()  // {
        let table = TableBuilder(position: position)
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            advance()
            return table.freeze()
        }
        while true {
            skipWhitespace()
            if current == UInt8(ascii: "\n") || current == UInt8(ascii: "\r") {
                throw error("an inline table must stay on one line")
            }
            try parseKeyValue(into: table)
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                advance()
                skipWhitespace()
                if current == UInt8(ascii: "}") { throw error("trailing ',' in an inline table") }
                continue
            }
            if current == UInt8(ascii: "}") {
                advance()
                return table.freeze()
            }
            throw error("expected ',' or '}' in an inline table, found \(describeCurrent())")
        }
    }

    // MARK: Strings

    mutating func appendScalarFromSource(to result: inout String) throws(ConfigError) {
        // Decode one UTF-8 sequence starting at index.
        let byte = bytes[index]
        let length: Int
        switch byte {
        case 0..<0x80: length = 1
        case 0xC2..<0xE0: length = 2
        case 0xE0..<0xF0: length = 3
        case 0xF0..<0xF5: length = 4
        default: throw error("invalid UTF-8 byte 0x\(String(byte, radix: 16))")
        }
        guard index + length <= bytes.count else { throw error("truncated UTF-8 sequence") }
        let slice = bytes[index..<index + length]
        guard let decoded = String(validating: slice, as: UTF8.self) else {
            throw error("invalid UTF-8 sequence")
        }
        result += decoded
        advance(length)
    }

    func checkStringCharacter(_ byte: UInt8, multiline: Bool) throws(ConfigError) {
        if byte == UInt8(ascii: "\t") { return }
        if multiline && (byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")) { return }
        if byte < 0x20 || byte == 0x7F {
            if byte == UInt8(ascii: "\n") { throw error("unterminated string (a newline ends the line)") }
            throw error("control character 0x\(String(byte, radix: 16)) in a string (escape it)")
        }
    }

    mutating func parseEscape(into result: inout String) throws(ConfigError) {
        let escapeStart = position
        advance()  // backslash
        guard let byte = current else { throw error("unterminated escape sequence") }
        advance()
        switch byte {
        case UInt8(ascii: "b"): result += "\u{08}"
        case UInt8(ascii: "t"): result += "\t"
        case UInt8(ascii: "n"): result += "\n"
        case UInt8(ascii: "f"): result += "\u{0C}"
        case UInt8(ascii: "r"): result += "\r"
        case UInt8(ascii: "\""): result += "\""
        case UInt8(ascii: "\\"): result += "\\"
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let digits = byte == UInt8(ascii: "u") ? 4 : 8
            guard index + digits <= bytes.count,
                let text = String(validating: bytes[index..<index + digits], as: UTF8.self),
                let value = UInt32(text, radix: 16), text.allSatisfy(\.isHexDigit)
            else {
                throw ConfigError("\\\(Character(Unicode.Scalar(byte))) needs \(digits) hex digits", at: escapeStart)
            }
            guard let scalar = Unicode.Scalar(value) else {
                throw ConfigError("\\\(Character(Unicode.Scalar(byte)))\(text) is not a Unicode scalar value", at: escapeStart)
            }
            result.unicodeScalars.append(scalar)
            advance(digits)
        default:
            throw ConfigError("invalid escape sequence '\\\(Character(Unicode.Scalar(byte)))'", at: escapeStart)
        }
    }

    mutating func parseBasicString() throws(ConfigError) -> String {
        let start = position
        advance()  // "
        var result = ""
        while true {
            guard let byte = current else { throw ConfigError("unterminated string", at: start) }
            if byte == UInt8(ascii: "\"") {
                advance()
                return result
            }
            if byte == UInt8(ascii: "\\") {
                try parseEscape(into: &result)
                continue
            }
            if byte == UInt8(ascii: "\n") { throw ConfigError("unterminated string", at: start) }
            try checkStringCharacter(byte, multiline: false)
            try appendScalarFromSource(to: &result)
        }
    }

    mutating func parseLiteralString() throws(ConfigError) -> String {
        let start = position
        advance()  // '
        var result = ""
        while true {
            guard let byte = current else { throw ConfigError("unterminated string", at: start) }
            if byte == UInt8(ascii: "'") {
                advance()
                return result
            }
            if byte == UInt8(ascii: "\n") { throw ConfigError("unterminated string", at: start) }
            try checkStringCharacter(byte, multiline: false)
            try appendScalarFromSource(to: &result)
        }
    }

    /// At three `quote`s, ends a multi-line string: up to two more quotes right before the
    /// delimiter belong to the content (`""""` is a quote, then the end).
    mutating func closeMultiline(quote: Unicode.Scalar, into result: inout String) -> Bool {
        let byte = UInt8(ascii: quote)
        guard current == byte, peek(1) == byte, peek(2) == byte else { return false }
        var quotes = 3
        while quotes < 5 && peek(quotes) == byte { quotes += 1 }
        result += String(repeating: Character(quote), count: quotes - 3)
        advance(quotes)
        return true
    }

    mutating func parseMultilineBasicString() throws(ConfigError) -> String {
        try parseMultilineString(quote: "\"", escapes: true)
    }

    mutating func parseMultilineLiteralString() throws(ConfigError) -> String {
        try parseMultilineString(quote: "'", escapes: false)
    }

    /// A multi-line string after its opening delimiter: basic strings (`\"\"\"`) take escapes and
    /// line-ending backslashes, literal ones (`\'\'\'`) take the text as it is.
    mutating func parseMultilineString(quote: Unicode.Scalar, escapes: Bool) throws(ConfigError) -> String {
        let start = position
        advance(3)
        _ = consumeNewline()  // a newline right after the opening quotes is trimmed
        var result = ""
        while true {
            guard let byte = current else { throw ConfigError("unterminated multi-line string", at: start) }
            if closeMultiline(quote: quote, into: &result) { return result }
            if escapes && byte == UInt8(ascii: "\\") {
                // Line-ending backslash: trim whitespace and newlines up to the next content.
                var lookahead = index + 1
                while lookahead < bytes.count && (bytes[lookahead] == UInt8(ascii: " ") || bytes[lookahead] == UInt8(ascii: "\t")) {
                    lookahead += 1
                }
                if lookahead < bytes.count && (bytes[lookahead] == UInt8(ascii: "\n") || bytes[lookahead] == UInt8(ascii: "\r")) {
                    advance(lookahead - index)
                    while let next = current,
                        next == UInt8(ascii: " ") || next == UInt8(ascii: "\t") || next == UInt8(ascii: "\n") || next == UInt8(ascii: "\r")
                    {
                        advance()
                    }
                    continue
                }
                try parseEscape(into: &result)
                continue
            }
            if byte == UInt8(ascii: "\r") {
                guard peek(1) == UInt8(ascii: "\n") else { throw error("bare carriage return in a string") }
                advance()
                continue
            }
            try checkStringCharacter(byte, multiline: true)
            if byte == UInt8(ascii: "\n") {
                result += "\n"
                advance()
                continue
            }
            try appendScalarFromSource(to: &result)
        }
    }

    // MARK: Numbers and dates

    mutating func parseNumberOrDate(start: TOMLPosition) throws(ConfigError) -> TOMLNode {
        // Collect the token: everything up to a delimiter.
        let tokenStart = index
        while let byte = current {
            let delimiter = byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
                || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "#")
                || byte == UInt8(ascii: "\t")
            if delimiter { break }
            if byte == UInt8(ascii: " ") {
                // A space may separate date and time: "1979-05-27 07:32:00".
                let soFar = String(decoding: bytes[tokenStart..<index], as: UTF8.self)
                if Self.looksLikeDate(soFar), let next = peek(1), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) {
                    advance()
                    continue
                }
                break
            }
            advance()
        }
        let token = String(decoding: bytes[tokenStart..<index], as: UTF8.self)
        if Self.looksLikeDate(token) || Self.looksLikeTime(token) {
            guard Self.isDateTime(token) else {
                throw ConfigError("invalid date-time '\(token)' (RFC 3339: a real date, hours 00-23, seconds required)", at: start)
            }
            return TOMLNode(.dateTime(token), at: start)
        }
        if let value = Self.integer(token) { return TOMLNode(.integer(value), at: start) }
        if let value = Self.float(token) { return TOMLNode(.float(value), at: start) }
        if Self.integerShaped(token) {
            throw ConfigError("integer '\(token)' is out of range or malformed", at: start)
        }
        throw ConfigError("invalid value '\(token)'", at: start)
    }

    static func looksLikeDate(_ token: String) -> Bool {
        let scalars = Array(token.unicodeScalars)
        guard scalars.count >= 10 else { return false }
        func digit(_ i: Int) -> Bool { ("0"..."9").contains(scalars[i]) }
        return digit(0) && digit(1) && digit(2) && digit(3) && scalars[4] == "-" && digit(5) && digit(6)
            && scalars[7] == "-" && digit(8) && digit(9)
    }

    /// One of TOML 1.0's four date-time forms (RFC 3339): `YYYY-MM-DD` (a day the month has),
    /// optionally followed by `T`, `t` or a space and a time; a time `HH:MM:SS` with an optional
    /// fraction, hours 00-23, minutes and seconds 00-59; after a date, an optional `Z`, `z` or
    /// `±HH:MM` offset.
    static func isDateTime(_ token: String) -> Bool {
        let s = Array(token.utf8)
        var i = 0
        func number(_ count: Int) -> Int? {
            guard i + count <= s.count else { return nil }
            var value = 0
            for k in i..<i + count {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(s[k]) else { return nil }
                value = value * 10 + Int(s[k] - UInt8(ascii: "0"))
            }
            i += count
            return value
        }
        func expect(_ byte: Character) -> Bool {
            guard i < s.count, s[i] == byte.asciiValue! else { return false }
            i += 1
            return true
        }
        func time() -> Bool {
            guard let hour = number(2), hour <= 23, expect(":"), let minute = number(2), minute <= 59, expect(":"),
                let second = number(2), second <= 59
            else { return false }
            if i < s.count, s[i] == UInt8(ascii: ".") {
                i += 1
                guard number(1) != nil else { return false }
                while i < s.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(s[i]) { i += 1 }
            }
            return true
        }
        if looksLikeTime(token) { return time() && i == s.count }
        guard let year = number(4), expect("-"), let month = number(2), (1...12).contains(month), expect("-"),
            let day = number(2), day >= 1
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard day <= days else { return false }
        if i == s.count { return true }
        guard s[i] == UInt8(ascii: "T") || s[i] == UInt8(ascii: "t") || s[i] == UInt8(ascii: " ") else { return false }
        i += 1
        guard time() else { return false }
        if i == s.count { return true }
        if s[i] == UInt8(ascii: "Z") || s[i] == UInt8(ascii: "z") { return i + 1 == s.count }
        guard s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") else { return false }
        i += 1
        guard let offsetHour = number(2), offsetHour <= 23, expect(":"), let offsetMinute = number(2), offsetMinute <= 59
        else { return false }
        return i == s.count
    }

    static func looksLikeTime(_ token: String) -> Bool {
        let scalars = Array(token.unicodeScalars)
        guard scalars.count >= 8 else { return false }
        func digit(_ i: Int) -> Bool { ("0"..."9").contains(scalars[i]) }
        return digit(0) && digit(1) && scalars[2] == ":" && digit(3) && digit(4) && scalars[5] == ":"
    }

    /// Digits (and a radix prefix) only: a malformed or too large integer rather than a typo.
    static func integerShaped(_ token: String) -> Bool {
        let body = token.hasPrefix("+") || token.hasPrefix("-") ? token.dropFirst() : Substring(token)
        if body.hasPrefix("0x") { return true }
        return !body.isEmpty && body.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "_") }
    }

    /// Underscores only between digits.
    static func stripUnderscores(_ digits: Substring, isDigit: (Character) -> Bool) -> String? {
        guard !digits.isEmpty, digits.first != "_", digits.last != "_" else { return nil }
        var result = ""
        var previous: Character = " "
        for character in digits {
            if character == "_" {
                guard isDigit(previous) else { return nil }
            } else {
                guard isDigit(character) else { return nil }
                result.append(character)
            }
            previous = character
        }
        return result
    }

    static func integer(_ token: String) -> Int64? {
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where token.hasPrefix(prefix) {
            let body = token.dropFirst(2)
            guard let digits = stripUnderscores(body, isDigit: { $0.isHexDigit && Int(String($0), radix: radix) != nil })
            else { return nil }
            return Int64(digits, radix: radix)
        }
        var body = Substring(token)
        var negative = false
        if body.first == "+" || body.first == "-" {
            negative = body.first == "-"
            body = body.dropFirst()
        }
        guard let digits = stripUnderscores(body, isDigit: { $0.isASCII && $0.isNumber }) else { return nil }
        if digits.count > 1 && digits.first == "0" { return nil }  // no leading zeros
        return Int64((negative ? "-" : "") + digits)
    }

    static func float(_ token: String) -> Double? {
        var body = Substring(token)
        var sign = 1.0
        if body.first == "+" || body.first == "-" {
            sign = body.first == "-" ? -1 : 1
            body = body.dropFirst()
        }
        if body == "inf" { return sign * .infinity }
        if body == "nan" { return .nan }
        // integer part [ . fraction ] [ e|E [+-] exponent ], with at least a fraction or exponent.
        let lower = body.lowercased()
        var mantissa = Substring(lower)
        var exponent: Substring? = nil
        if let e = lower.firstIndex(of: "e") {
            mantissa = lower[..<e]
            exponent = lower[lower.index(after: e)...]
        }
        var integerPart = mantissa
        var fraction: Substring? = nil
        if let dot = mantissa.firstIndex(of: ".") {
            integerPart = mantissa[..<dot]
            fraction = mantissa[mantissa.index(after: dot)...]
        }
        guard fraction != nil || exponent != nil else { return nil }
        let isDigit: (Character) -> Bool = { $0.isASCII && $0.isNumber }
        guard let intDigits = stripUnderscores(integerPart, isDigit: isDigit) else { return nil }
        if intDigits.count > 1 && intDigits.first == "0" { return nil }
        var text = intDigits
        if let fraction {
            guard let fracDigits = stripUnderscores(fraction, isDigit: isDigit) else { return nil }
            text += "." + fracDigits
        }
        if var exponent {
            var expSign = ""
            if exponent.first == "+" || exponent.first == "-" {
                expSign = exponent.first == "-" ? "-" : ""
                exponent = exponent.dropFirst()
            }
            guard let expDigits = stripUnderscores(exponent, isDigit: isDigit) else { return nil }
            text += "e" + expSign + expDigits
        }
        guard let value = Double(text) else { return nil }
        return sign * value
    }
}

extension TOMLValue {
    var isStaticArray: Bool {
        if case .array = self { return true }
        return false
    }
}
