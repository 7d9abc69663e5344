/// Decodes `Decodable` types straight from a ``JSONValue`` tree, without re-serializing it.
///
/// Numbers convert exactly or fail (`Int8` from 300 fails, `Int` from 1.5 fails); a missing key
/// or a wrong type throws the usual `DecodingError` with its coding path.
///
/// `strict`: an object member that the decoded type's coding keys do not name throws
/// ``UnknownFieldError`` (a typo such as `focusible` must not pass unnoticed). The rule is the
/// decoder's, not each type's: a field becomes known by being declared in the type. Containers
/// that accept any key (dictionaries) accept every member.
struct JSONValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let strict: Bool
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(value: JSONValue, codingPath: [any CodingKey] = [], strict: Bool = false) {
        self.value = value
        self.codingPath = codingPath
        self.strict = strict
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch([String: JSONValue].self, value, codingPath) }
        if strict, let unknown = members.keys.filter({ Key(stringValue: $0) == nil }).min() {
            throw UnknownFieldError(codingPath: codingPath, field: unknown)
        }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath, strict: strict))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([JSONValue].self, value, codingPath) }
        return UnkeyedContainer(elements: elements, codingPath: codingPath, strict: strict)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleContainer(value: value, codingPath: codingPath, strict: strict)
    }
}

/// An object member that the type being decoded does not declare (strict decoding).
public struct UnknownFieldError: Error, CustomStringConvertible {
    /// Where the object is.
    public var codingPath: [any CodingKey]
    /// The member's name.
    public var field: String

    /// The field's path from the top: `scene.root.children[2].focusible`.
    public var path: String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
        return text.isEmpty ? field : text + "." + field
    }

    public var description: String { "unknown field '\(path)'" }
}

private func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
    let kind: String
    switch value {
    case .null: kind = "null"
    case .bool: kind = "a boolean"
    case .integer, .double: kind = "a number"
    case .string: kind = "a string"
    case .array: kind = "an array"
    case .object: kind = "an object"
    }
    if case .null = value {
        return .valueNotFound(type, .init(codingPath: path, debugDescription: "expected \(type), found null"))
    }
    return .typeMismatch(type, .init(codingPath: path, debugDescription: "expected \(type), found \(kind)"))
}

private struct IndexKey: CodingKey {
    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
    let index: Int
    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { index = intValue }
}

/// Scalar conversions shared by the three containers.
private func decodeScalar<T: Decodable>(_ type: T.Type, from value: JSONValue, path: [any CodingKey], strict: Bool) throws -> T {
    func integer<I: FixedWidthInteger>(_: I.Type) throws -> I {
        switch value {
        case .integer(let number):
            if let exact = I(exactly: number) { return exact }
        case .double(let number):
            if let exact = I(exactly: number) { return exact }
        default:
            throw mismatch(I.self, value, path)
        }
        throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "\(value) does not fit in \(I.self)"))
    }
    switch type {
    case is Bool.Type:
        guard case .bool(let flag) = value else { throw mismatch(Bool.self, value, path) }
        return flag as! T
    case is String.Type:
        guard case .string(let text) = value else { throw mismatch(String.self, value, path) }
        return text as! T
    case is Double.Type:
        guard let number = value.doubleValue else { throw mismatch(Double.self, value, path) }
        return number as! T
    case is Float.Type:
        guard let number = value.doubleValue else { throw mismatch(Float.self, value, path) }
        return Float(number) as! T
    case is Int.Type: return try integer(Int.self) as! T
    case is Int8.Type: return try integer(Int8.self) as! T
    case is Int16.Type: return try integer(Int16.self) as! T
    case is Int32.Type: return try integer(Int32.self) as! T
    case is Int64.Type: return try integer(Int64.self) as! T
    case is UInt.Type: return try integer(UInt.self) as! T
    case is UInt8.Type: return try integer(UInt8.self) as! T
    case is UInt16.Type: return try integer(UInt16.self) as! T
    case is UInt32.Type: return try integer(UInt32.self) as! T
    case is UInt64.Type: return try integer(UInt64.self) as! T
    case is JSONValue.Type: return value as! T
    default: return try T(from: JSONValueDecoder(value: value, codingPath: path, strict: strict))
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]
    let strict: Bool

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func member(_ key: Key) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "no value for key \"\(key.stringValue)\""))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key).isNull }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decodeScalar(type, from: try member(key), path: codingPath + [key], strict: strict)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try JSONValueDecoder(value: try member(key), codingPath: codingPath + [key], strict: strict).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try JSONValueDecoder(value: try member(key), codingPath: codingPath + [key], strict: strict).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        JSONValueDecoder(value: members["super"] ?? .null, codingPath: codingPath, strict: strict)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        JSONValueDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key], strict: strict)
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    let strict: Bool
    var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey], strict: Bool) {
        self.elements = elements
        self.codingPath = codingPath
        self.strict = strict
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next(_ type: Any.Type) throws -> (JSONValue, [any CodingKey]) {
        let path = codingPath + [IndexKey(currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "unkeyed container is at its end"))
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], path)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next(type)
        return try decodeScalar(type, from: value, path: path, strict: strict)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, path) = try next([String: JSONValue].self)
        return try JSONValueDecoder(value: value, codingPath: path, strict: strict).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next([JSONValue].self)
        return try JSONValueDecoder(value: value, codingPath: path, strict: strict).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next(JSONValue.self)
        return JSONValueDecoder(value: value, codingPath: path, strict: strict)
    }
}

private struct SingleContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let strict: Bool

    func decodeNil() -> Bool { value.isNull }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decodeScalar(type, from: value, path: codingPath, strict: strict)
    }
}
