/// Why a byte sequence is not acceptable JSON, with the byte offset where parsing stopped.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Equatable, Sendable {
        case unexpectedEnd
        case unexpectedByte(UInt8)
        case invalidNumber
        case invalidEscape
        case invalidUnicodeScalar
        case invalidUTF8
        case controlCharacterInString
        case duplicateKey(String)
        case tooDeep(limit: Int)
        case trailingData
    }

    public let reason: Reason
    /// Offset of the offending byte in the input.
    public let offset: Int

    public var description: String {
        switch reason {
        case .unexpectedEnd: return "JSON ends unexpectedly at byte \(offset)"
        case .unexpectedByte(let byte): return "unexpected byte 0x\(String(byte, radix: 16)) at byte \(offset)"
        case .invalidNumber: return "invalid number at byte \(offset)"
        case .invalidEscape: return "invalid escape sequence at byte \(offset)"
        case .invalidUnicodeScalar: return "invalid \\u escape (lone surrogate?) at byte \(offset)"
        case .invalidUTF8: return "invalid UTF-8 in string at byte \(offset)"
        case .controlCharacterInString: return "unescaped control character in string at byte \(offset)"
        case .duplicateKey(let key): return "duplicate object key \"\(key)\" at byte \(offset)"
        case .tooDeep(let limit): return "JSON nested deeper than \(limit) levels at byte \(offset)"
        case .trailingData: return "data after the JSON value at byte \(offset)"
        }
    }
}

extension JSONValue {
    /// The default nesting limit: arrays and objects may be nested this deep, no deeper.
    public static let defaultDepthLimit = 512

    /// Parses one JSON value (RFC 8259) from `bytes`, allowing surrounding whitespace only.
    ///
    /// - Parameter depthLimit: the deepest nesting of arrays and objects accepted; deeper input
    ///   fails with `.tooDeep` before any further recursion, so hostile input cannot exhaust the stack.
    public static func parse(
        _ bytes: some Swift.Collection<UInt8>, depthLimit: Int = defaultDepthLimit
    ) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError> =
            bytes.withContiguousStorageIfAvailable { buffer in
                Result { () throws(JSONParseError) in
                    var parser = JSONParser(UnsafeRawBufferPointer(buffer), depthLimit: depthLimit)
                    return try parser.parseDocument()
                }
            } ?? Array(bytes).withUnsafeBytes { buffer in
                Result { () throws(JSONParseError) in
                    var parser = JSONParser(buffer, depthLimit: depthLimit)
                    return try parser.parseDocument()
                }
            }
        return try result.get()
    }

    /// Parses one JSON value from UTF-8 text.
    public static func parse(_ text: String, depthLimit: Int = defaultDepthLimit) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8), depthLimit: depthLimit)
    }
}

/// A recursive-descent JSON parser over a byte buffer with a nesting limit.
struct JSONParser {
    private let bytes: UnsafeRawBufferPointer
    private let depthLimit: Int
    private var index = 0
    private var depth = 0

    init(_ bytes: UnsafeRawBufferPointer, depthLimit: Int) {
        self.bytes = bytes
        self.depthLimit = depthLimit
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index != bytes.count { throw fail(.trailingData) }
        return value
    }

    private func fail(_ reason: JSONParseError.Reason) -> JSONParseError {
        JSONParseError(reason: reason, offset: index)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func peek() throws(JSONParseError) -> UInt8 {
        guard index < bytes.count else { throw fail(.unexpectedEnd) }
        return bytes[index]
    }

    private mutating func expect(_ byte: UInt8) throws(JSONParseError) {
        let actual = try peek()
        guard actual == byte else { throw fail(.unexpectedByte(actual)) }
        index += 1
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        switch try peek() {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try parseLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try parseLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try parseLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case let other: throw fail(.unexpectedByte(other))
        }
    }

    private mutating func parseLiteral(_ word: String) throws(JSONParseError) {
        for expected in word.utf8 {
            let actual = try peek()
            guard actual == expected else { throw fail(.unexpectedByte(actual)) }
            index += 1
        }
    }

    private mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        if depth > depthLimit { throw fail(.tooDeep(limit: depthLimit)) }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            let keyOffset = index
            guard try peek() == UInt8(ascii: "\"") else { throw fail(.unexpectedByte(try peek())) }
            let key = try parseString()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            let value = try parseValue()
            if members.updateValue(value, forKey: key) != nil {
                throw JSONParseError(reason: .duplicateKey(key), offset: keyOffset)
            }
            skipWhitespace()
            let next = try peek()
            index += 1
            if next == UInt8(ascii: "}") { break }
            guard next == UInt8(ascii: ",") else {
                index -= 1
                throw fail(.unexpectedByte(next))
            }
        }
        depth -= 1
        return .object(members)
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            let next = try peek()
            index += 1
            if next == UInt8(ascii: "]") { break }
            guard next == UInt8(ascii: ",") else {
                index -= 1
                throw fail(.unexpectedByte(next))
            }
        }
        depth -= 1
        return .array(elements)
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw fail(.invalidNumber) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(bytes[index]) {
            skipDigits()
        } else {
            throw fail(.invalidNumber)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard skipDigits() > 0 else { throw fail(.invalidNumber) }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard skipDigits() > 0 else { throw fail(.invalidNumber) }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let exact = Int64(text) { return .integer(exact) }
        guard let value = Double(text), value.isFinite else {
            throw JSONParseError(reason: .invalidNumber, offset: start)
        }
        return .double(value)
    }

    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            index += 1
        }
        return index - start
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                guard let text = String(validating: slice, as: UTF8.self) else {
                    throw JSONParseError(reason: .invalidUTF8, offset: start)
                }
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw fail(.controlCharacterInString) }
            index += 1
        }
        guard index < bytes.count else { throw fail(.unexpectedEnd) }
        // Slow path: collect bytes, decoding escapes.
        var scratch = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while true {
            let byte = try peek()
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: scratch, as: UTF8.self) else {
                    throw JSONParseError(reason: .invalidUTF8, offset: start)
                }
                return text
            case UInt8(ascii: "\\"):
                let escape = try peek()
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scratch.append(0x22)
                case UInt8(ascii: "\\"): scratch.append(0x5C)
                case UInt8(ascii: "/"): scratch.append(0x2F)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try parseUnicodeEscape()
                    scratch.append(contentsOf: String(Character(scalar)).utf8)
                default:
                    index -= 1
                    throw fail(.invalidEscape)
                }
            case 0..<0x20:
                index -= 1
                throw fail(.controlCharacterInString)
            default:
                scratch.append(byte)
            }
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = try peek()
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail(.invalidEscape)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func parseUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
        let first = try parseHex4()
        if (0xD800...0xDBFF).contains(first) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw fail(.invalidUnicodeScalar) }
            index += 2
            let second = try parseHex4()
            guard (0xDC00...0xDFFF).contains(second) else { throw fail(.invalidUnicodeScalar) }
            let combined = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            guard let scalar = Unicode.Scalar(combined) else { throw fail(.invalidUnicodeScalar) }
            return scalar
        }
        guard let scalar = Unicode.Scalar(first) else { throw fail(.invalidUnicodeScalar) }
        return scalar
    }
}
