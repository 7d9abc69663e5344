/// Encodes `Encodable` values straight to compact UTF-8 JSON text, with no tree in between.
///
/// Output matches ``JSONValue/serialized()`` value for value, except that object members keep the
/// order in which they were encoded (declaration order for synthesized conformances): doubles keep
/// a fraction or exponent, strings escape only what JSON requires, `nil` optionals encoded with
/// `encodeIfPresent` (what synthesized conformances do) are omitted. Non-finite doubles throw
/// `EncodingError.invalidValue`: JSON cannot carry them, and a peer would reject the message.
///
/// Containers are written as they are opened and closed as soon as a write at an outer level (or
/// the end of the value) shows they are done, so nested containers work as long as they are used
/// innermost-first, which is how `Encodable` implementations use them; writing to a container that
/// was already closed throws.
public struct JSONTextEncoder: Sendable {
    public init() {}

    /// The JSON text of `value`.
    public func encode(_ value: some Encodable) throws -> [UInt8] {
        let writer = JSONTextWriter()
        try writer.encodeRoot(value)
        return writer.output
    }
}

/// The output and the stack of containers (and value slots) still open.
final class JSONTextWriter {
    struct Open {
        /// The byte that closes it: `}` or `]`; nil for a slot.
        var close: UInt8?
        /// A container: it has an element (the next one needs a comma). A slot: it has its value.
        var filled: Bool
        let id: Int
    }

    // One writer is used by one encoding at a time on one thread, and no access to these
    // overlaps another: the runtime's exclusivity checks on every access cost a seventh of an
    // event's encoding (callgrind), for nothing.
    @exclusivity(unchecked) var output: [UInt8] = []
    @exclusivity(unchecked) private var open: [Open] = []
    @exclusivity(unchecked) private var nextID = 0

    init() { output.reserveCapacity(256) }

    func encodeRoot(_ value: some Encodable) throws {
        let root = pushSlot()
        try encodeValue(value, in: root, codingPath: [])
        guard open.first?.filled == true else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "Top-level \(type(of: value)) did not encode any values."))
        }
        close(downTo: 0)
    }

    // MARK: The stack

    private func push(_ entry: (close: UInt8?, filled: Bool)) -> Int {
        nextID += 1
        open.append(Open(close: entry.close, filled: entry.filled, id: nextID))
        return nextID
    }

    /// A slot for one value: the root, a member's or element's value, a super encoder.
    func pushSlot() -> Int { push((nil, false)) }

    /// Closes every entry above the first `depth` ones; a slot left without a value becomes `{}`
    /// (what an `Encodable` that encodes nothing into a nested encoder means).
    func close(downTo depth: Int) {
        while open.count > depth {
            let entry = open.removeLast()
            if let close = entry.close {
                output.append(close)
            } else if !entry.filled {
                output.append(contentsOf: "{}".utf8)
            }
        }
    }

    /// The position of the open entry `id`, closing everything opened after it.
    private func reopen(_ id: Int, codingPath: [any CodingKey]) throws -> Int {
        guard let index = open.lastIndex(where: { $0.id == id }) else {
            throw EncodingError.invalidValue(
                id, .init(codingPath: codingPath, debugDescription: "encoding into a container that was already closed"))
        }
        close(downTo: index + 1)
        return index
    }

    /// Starts the next element of container `id`: closes inner containers, writes the comma.
    func beginElement(of id: Int, codingPath: [any CodingKey]) throws -> Int {
        let index = try reopen(id, codingPath: codingPath)
        if open[index].filled { output.append(UInt8(ascii: ",")) }
        open[index].filled = true
        return index
    }

    func beginMember(_ key: some CodingKey, of id: Int, codingPath: [any CodingKey]) throws {
        _ = try beginElement(of: id, codingPath: codingPath)
        JSONValue.writeString(key.stringValue, into: &output)
        output.append(UInt8(ascii: ":"))
    }

    /// Claims slot `id` for its one value; a second value in the same slot throws.
    func fill(_ slot: Int, codingPath: [any CodingKey]) throws {
        let index = try reopen(slot, codingPath: codingPath)
        guard !open[index].filled else {
            throw EncodingError.invalidValue(
                slot, .init(codingPath: codingPath, debugDescription: "a second value encoded in one place"))
        }
        open[index].filled = true
    }

    /// Opens `{` or `[` in slot `slot`, or returns the container already opened there with the
    /// same bracket (asking an encoder for its container twice gives the same container).
    func openContainer(in slot: Int, close bracket: UInt8, codingPath: [any CodingKey]) throws -> Int {
        if let index = open.lastIndex(where: { $0.id == slot }), open[index].filled,
            index + 1 < open.count, open[index + 1].close == bracket
        {
            close(downTo: index + 2)
            return open[index + 1].id
        }
        try fill(slot, codingPath: codingPath)
        return openNested(close: bracket)
    }

    /// Opens a container as the value of an element just begun.
    func openNested(close: UInt8) -> Int {
        output.append(close == UInt8(ascii: "}") ? UInt8(ascii: "{") : UInt8(ascii: "["))
        return push((close, false))
    }

    // MARK: Values

    /// Writes `value` into the element just begun (or a slot already filled by the caller).
    /// The coding path is built only when needed (a nested value, an error): a member costs no
    /// allocation.
    func writeValue<T: Encodable>(_ value: T, codingPath: @autoclosure () -> [any CodingKey]) throws {
        if try writeScalar(value, codingPath: codingPath()) { return }
        let depth = open.count
        let slot = pushSlot()
        try value.encode(to: JSONTextSlotEncoder(writer: self, slot: slot, codingPath: codingPath()))
        close(downTo: depth)
    }

    /// Encodes `value` into slot `slot` (a single-value container or the root).
    func encodeValue<T: Encodable>(_ value: T, in slot: Int, codingPath: [any CodingKey]) throws {
        if Self.isScalar(T.self) {
            try fill(slot, codingPath: codingPath)
            _ = try writeScalar(value, codingPath: codingPath)
        } else {
            try value.encode(to: JSONTextSlotEncoder(writer: self, slot: slot, codingPath: codingPath))
        }
    }

    /// Whether ``writeScalar(_:codingPath:)`` writes values of `type`.
    static func isScalar(_ type: Any.Type) -> Bool {
        type == String.self || type == Int.self || type == Bool.self || type == Double.self || type == JSONValue.self
            || type == Float.self || type == Int64.self || type == Int32.self || type == Int16.self || type == Int8.self
            || type == UInt.self || type == UInt64.self || type == UInt32.self || type == UInt16.self || type == UInt8.self
    }

    /// Writes `value` when it is a JSON scalar (or a ``JSONValue``); `false` for anything else.
    /// The type is told by comparing metatypes: a dynamic cast per candidate type (`as?`)
    /// cost most of an event's encoding (callgrind: `tryCast` was the top entry).
    func writeScalar<T: Encodable>(_ value: T, codingPath: @autoclosure () -> [any CodingKey]) throws -> Bool {
        let type = T.self
        if type == String.self {
            JSONValue.writeString(unsafeBitCast(value, to: String.self), into: &output)
        } else if type == Int.self {
            append(integer: unsafeBitCast(value, to: Int.self))
        } else if type == Bool.self {
            output.append(contentsOf: (unsafeBitCast(value, to: Bool.self) ? "true" : "false").utf8)
        } else if type == Double.self {
            try append(double: unsafeBitCast(value, to: Double.self), codingPath: codingPath())
        } else if type == JSONValue.self {
            let json = unsafeBitCast(value, to: JSONValue.self)
            if case .double(let number) = json, !number.isFinite { throw nonFinite(number, codingPath()) }
            json.write(into: &output)
        } else if type == Float.self {
            let number = unsafeBitCast(value, to: Float.self)
            guard number.isFinite else { throw nonFinite(number, codingPath()) }
            output.append(contentsOf: number.description.utf8)
        } else if type == Int64.self {
            append(integer: unsafeBitCast(value, to: Int64.self))
        } else if type == Int32.self {
            append(integer: unsafeBitCast(value, to: Int32.self))
        } else if type == Int16.self {
            append(integer: unsafeBitCast(value, to: Int16.self))
        } else if type == Int8.self {
            append(integer: unsafeBitCast(value, to: Int8.self))
        } else if type == UInt.self {
            append(integer: unsafeBitCast(value, to: UInt.self))
        } else if type == UInt64.self {
            append(integer: unsafeBitCast(value, to: UInt64.self))
        } else if type == UInt32.self {
            append(integer: unsafeBitCast(value, to: UInt32.self))
        } else if type == UInt16.self {
            append(integer: unsafeBitCast(value, to: UInt16.self))
        } else if type == UInt8.self {
            append(integer: unsafeBitCast(value, to: UInt8.self))
        } else {
            return false
        }
        return true
    }

    func appendNull() { output.append(contentsOf: "null".utf8) }

    private func append(integer: some FixedWidthInteger) {
        output.append(contentsOf: String(integer).utf8)
    }

    private func append(double: Double, codingPath: [any CodingKey]) throws {
        guard double.isFinite else { throw nonFinite(double, codingPath) }
        output.append(contentsOf: double.description.utf8)
    }

    private func nonFinite(_ value: Any, _ codingPath: [any CodingKey]) -> EncodingError {
        .invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(value) cannot be written as JSON"))
    }
}

/// The encoder a value gets for its one place in the output.
struct JSONTextSlotEncoder: Encoder {
    let writer: JSONTextWriter
    let slot: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        do {
            let id = try writer.openContainer(in: slot, close: UInt8(ascii: "}"), codingPath: codingPath)
            return KeyedEncodingContainer(JSONTextKeyedContainer<Key>(writer: writer, id: id, codingPath: codingPath))
        } catch {
            return KeyedEncodingContainer(JSONTextKeyedContainer<Key>(writer: writer, id: 0, codingPath: codingPath))
        }
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let id = (try? writer.openContainer(in: slot, close: UInt8(ascii: "]"), codingPath: codingPath)) ?? 0
        return JSONTextUnkeyedContainer(writer: writer, id: id, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONTextSingleContainer(writer: writer, slot: slot, codingPath: codingPath)
    }
}

// A container the encoder could not open has id 0, which is never open: its first write throws
// (the Encoder protocol's container methods cannot throw themselves).

struct JSONTextKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: JSONTextWriter
    let id: Int
    let codingPath: [any CodingKey]

    private func member<T: Encodable>(_ key: Key, _ value: T) throws {
        try writer.beginMember(key, of: id, codingPath: codingPath)
        try writer.writeValue(value, codingPath: self.codingPath + [key])
    }

    mutating func encodeNil(forKey key: Key) throws {
        try writer.beginMember(key, of: id, codingPath: codingPath)
        writer.appendNull()
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws { try member(key, value) }
    mutating func encode(_ value: String, forKey key: Key) throws { try member(key, value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try member(key, value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try member(key, value) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try member(key, value) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try member(key, value) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try member(key, value) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try member(key, value) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try member(key, value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try member(key, value) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try member(key, value) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try member(key, value) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try member(key, value) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try member(key, value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try member(key, value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = (try? writer.beginMember(key, of: id, codingPath: codingPath)).map { writer.openNested(close: UInt8(ascii: "}")) }
        return KeyedEncodingContainer(
            JSONTextKeyedContainer<NestedKey>(writer: writer, id: nested ?? 0, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = (try? writer.beginMember(key, of: id, codingPath: codingPath)).map { writer.openNested(close: UInt8(ascii: "]")) }
        return JSONTextUnkeyedContainer(writer: writer, id: nested ?? 0, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let slot = (try? writer.beginMember(key, of: id, codingPath: codingPath)).map { writer.pushSlot() }
        return JSONTextSlotEncoder(writer: writer, slot: slot ?? 0, codingPath: codingPath + [key])
    }
}

struct JSONTextUnkeyedContainer: UnkeyedEncodingContainer {
    let writer: JSONTextWriter
    let id: Int
    let codingPath: [any CodingKey]
    private(set) var count = 0

    init(writer: JSONTextWriter, id: Int, codingPath: [any CodingKey]) {
        self.writer = writer
        self.id = id
        self.codingPath = codingPath
    }

    private var elementPath: [any CodingKey] { codingPath + [JSONTextIndexKey(intValue: count)] }

    private mutating func element<T: Encodable>(_ value: T) throws {
        _ = try writer.beginElement(of: id, codingPath: codingPath)
        try writer.writeValue(value, codingPath: elementPath)
        count += 1
    }

    mutating func encodeNil() throws {
        _ = try writer.beginElement(of: id, codingPath: codingPath)
        writer.appendNull()
        count += 1
    }

    mutating func encode(_ value: Bool) throws { try element(value) }
    mutating func encode(_ value: String) throws { try element(value) }
    mutating func encode(_ value: Double) throws { try element(value) }
    mutating func encode(_ value: Float) throws { try element(value) }
    mutating func encode(_ value: Int) throws { try element(value) }
    mutating func encode(_ value: Int8) throws { try element(value) }
    mutating func encode(_ value: Int16) throws { try element(value) }
    mutating func encode(_ value: Int32) throws { try element(value) }
    mutating func encode(_ value: Int64) throws { try element(value) }
    mutating func encode(_ value: UInt) throws { try element(value) }
    mutating func encode(_ value: UInt8) throws { try element(value) }
    mutating func encode(_ value: UInt16) throws { try element(value) }
    mutating func encode(_ value: UInt32) throws { try element(value) }
    mutating func encode(_ value: UInt64) throws { try element(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try element(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = elementPath
        let nested = (try? writer.beginElement(of: id, codingPath: codingPath)).map { _ in writer.openNested(close: UInt8(ascii: "}")) }
        count += 1
        return KeyedEncodingContainer(JSONTextKeyedContainer<NestedKey>(writer: writer, id: nested ?? 0, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = elementPath
        let nested = (try? writer.beginElement(of: id, codingPath: codingPath)).map { _ in writer.openNested(close: UInt8(ascii: "]")) }
        count += 1
        return JSONTextUnkeyedContainer(writer: writer, id: nested ?? 0, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let path = elementPath
        let slot = (try? writer.beginElement(of: id, codingPath: codingPath)).map { _ in writer.pushSlot() }
        count += 1
        return JSONTextSlotEncoder(writer: writer, slot: slot ?? 0, codingPath: path)
    }
}

struct JSONTextSingleContainer: SingleValueEncodingContainer {
    let writer: JSONTextWriter
    let slot: Int
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws {
        try writer.fill(slot, codingPath: codingPath)
        writer.appendNull()
    }

    mutating func encode(_ value: Bool) throws { try writer.encodeValue(value, in: slot, codingPath: codingPath) }
    mutating func encode(_ value: String) throws { try writer.encodeValue(value, in: slot, codingPath: codingPath) }
    mutating func encode(_ value: Double) throws { try writer.encodeValue(value, in: slot, codingPath: codingPath) }
    mutating func encode(_ value: Float) throws { try writer.encodeValue(value, in: slot, codingPath: codingPath) }
    mutating func encode(_ value: Int) throws { try writer.encodeValue(value, in: slot, codingPath: codingPath) }
    mutating func encode(_ value: Int8) throws { try writer.encodeValue(value, in: slot, codingPath: codingPath) }
    mutating func encode(_ value: Int16) throws { try writer.encodeValue(value, in: slot, codingPath: codingPath) }
    mutating func encode(_ value: Int32) throws { try writer.encodeValue(value, in: slot, codingPath: codingPath) }
    mutating func encode(_ value: Int64) throws { try writer.encodeValue(value, in: slot, codingPath: codingPath) }
    mutating func encode(_ value: UInt) throws { try writer.encodeValue(value, in: slot, codingPath: codingPath) }
    mutating func encode(_ value: UInt8) throws { try writer.encodeValue(value, in: slot, codingPath: codingPath) }
    mutating func encode(_ value: UInt16) throws { try writer.encodeValue(value, in: slot, codingPath: codingPath) }
    mutating func encode(_ value: UInt32) throws { try writer.encodeValue(value, in: slot, codingPath: codingPath) }
    mutating func encode(_ value: UInt64) throws { try writer.encodeValue(value, in: slot, codingPath: codingPath) }
    mutating func encode<T: Encodable>(_ value: T) throws { try writer.encodeValue(value, in: slot, codingPath: codingPath) }
}

struct JSONTextIndexKey: CodingKey {
    var stringValue: String { "Index \(intValue ?? 0)" }
    var intValue: Int?
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
