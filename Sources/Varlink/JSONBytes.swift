import NIOCore

/// Compact JSON text written by hand, for the few messages on the hot path (a focus event, the
/// reply to a `Move`) whose `Encodable` encoding costs more than the rest of the call: `Codable`'s
/// keyed containers pay generic metadata lookups per member.
///
/// Writes exactly what ``JSONTextEncoder`` writes for the same values (strings escaped the same
/// way, doubles as `description`, integers in decimal); a writer built on it must be checked
/// against its type's `Encodable` conformance by a differential test, which stays the reference.
///
/// The text grows in memory of its own, written through a pointer: through an `[UInt8]`, each
/// piece (a key, a string, a comma) cost an `append(contentsOf:)` of ~90 instructions (the
/// uniqueness and capacity checks of a generic append, then `memcpy`), and each string ~300; a
/// `Move` with its event wrote about 40 pieces (callgrind, issue 25). Not copyable: the memory is
/// this value's own and freed with it, so no copy can share it.
public struct JSONBytes: ~Copyable {
    /// `count` bytes written at `start`, room for `capacity`.
    @usableFromInline var start: UnsafeMutablePointer<UInt8>
    @usableFromInline var count: Int
    @usableFromInline var capacity: Int
    /// Whether `start` is this value's own memory (else it writes into memory lent to it, a
    /// `ByteBuffer`'s, until it needs more than that holds).
    @usableFromInline var owned: Bool

    public init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        start = .allocate(capacity: self.capacity)
        count = 0
        owned = true
    }

    /// Writes into `memory` (lent for this value's life) until it needs more, then into memory
    /// of its own (``isInLentMemory`` says which).
    init(writingInto memory: UnsafeMutableRawBufferPointer) {
        start = memory.baseAddress!.bindMemory(to: UInt8.self, capacity: memory.count)
        capacity = memory.count
        count = 0
        owned = false
    }

    deinit { if owned { start.deallocate() } }

    /// Whether everything written is in the memory it was lent.
    var isInLentMemory: Bool { !owned }

    /// Bytes written so far.
    var writtenCount: Int { count }

    /// The text written so far.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }

    /// The text written so far, read in place.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: start, count: count))
    }

    /// The text written so far as one buffer (one copy).
    func buffer() -> ByteBuffer {
        ByteBuffer(bytes: UnsafeRawBufferPointer(start: start, count: count))
    }

    /// Makes room for `more` bytes.
    @inlinable @inline(__always) mutating func reserve(_ more: Int) {
        if count &+ more > capacity { grow(more) }
    }

    @usableFromInline mutating func grow(_ more: Int) {
        let newCapacity = max(capacity * 2, count + more)
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        bigger.update(from: start, count: count)
        if owned { start.deallocate() }
        start = bigger
        capacity = newCapacity
        owned = true
    }

    /// Appends `length` bytes at `source` (room made).
    @inlinable @inline(__always) mutating func append(_ source: UnsafePointer<UInt8>, _ length: Int) {
        reserve(length)
        (start + count).update(from: source, count: length)
        count &+= length
    }

    /// A literal piece of JSON text (punctuation, a quoted key with its colon). Always inlined:
    /// called out of line from the writers in other modules, each piece cost ~48 instructions
    /// (a `Move`'s reply and event write about 35).
    @inlinable @inline(__always) public mutating func raw(_ text: StaticString) {
        append(text.utf8Start, text.utf8CodeUnitCount)
    }

    /// JSON text written by another encoder, appended as it is.
    public mutating func raw(_ text: [UInt8]) {
        text.withUnsafeBufferPointer { if let base = $0.baseAddress { append(base, $0.count) } }
    }

    @inlinable @inline(__always) public mutating func byte(_ byte: UInt8) {
        reserve(1)
        start[count] = byte
        count &+= 1
    }

    /// A JSON string: `text` quoted, `"`, `\` and control characters escaped as
    /// ``JSONValue/write(into:)`` escapes them.
    public mutating func string(_ text: String) {
        // In place (a small string is read from the stack): `withUTF8` needs a mutable copy,
        // a retain and a release of its storage per string.
        if text.utf8.withContiguousStorageIfAvailable({ escaped($0) }) == nil {
            var copy = text
            copy.withUTF8 { escaped($0) }
        }
    }

    private static let hexDigits: StaticString = "0123456789abcdef"

    private mutating func escaped(_ text: UnsafeBufferPointer<UInt8>) {
        reserve(text.count &+ 2)
        start[count] = UInt8(ascii: "\"")
        // Copied byte by byte as they are checked, while none needs an escape (ids and names
        // are all such, and short: a `memmove` call per string cost more than the copy).
        var written = count &+ 1
        guard text.count <= 64 else {  // long: checked first, copied in runs
            count = written
            return escaped(text, from: 0)
        }
        for index in 0..<text.count {
            let byte = text[index]
            guard byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") else {
                count = written
                return escaped(text, from: index)
            }
            start[written] = byte
            written &+= 1
        }
        start[written] = UInt8(ascii: "\"")
        count = written &+ 1
    }

    /// The rest of `text` from `first` and the closing quote.
    private mutating func escaped(_ text: UnsafeBufferPointer<UInt8>, from first: Int) {
        // Runs of bytes that need no escape are copied whole.
        var run = first
        for index in first..<text.count {
            let byte = text[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if index > run { append(text.baseAddress! + run, index - run) }
            run = index + 1
            reserve(6 + text.count - index)
            start[count] = UInt8(ascii: "\\")
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                start[count + 1] = byte
                count &+= 2
            case 0x0A:
                start[count + 1] = UInt8(ascii: "n")
                count &+= 2
            case 0x0D:
                start[count + 1] = UInt8(ascii: "r")
                count &+= 2
            case 0x09:
                start[count + 1] = UInt8(ascii: "t")
                count &+= 2
            default:
                let digits = Self.hexDigits.utf8Start
                start[count + 1] = UInt8(ascii: "u")
                start[count + 2] = UInt8(ascii: "0")
                start[count + 3] = UInt8(ascii: "0")
                start[count + 4] = digits[Int(byte >> 4)]
                start[count + 5] = digits[Int(byte & 0xF)]
                count &+= 6
            }
        }
        if text.count > run { append(text.baseAddress! + run, text.count - run) }
        byte(UInt8(ascii: "\""))
    }

    @inlinable @inline(__always) public mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    public mutating func int(_ value: Int) {
        if value == 0 {
            byte(UInt8(ascii: "0"))
            return
        }
        reserve(20)  // "-" and 19 digits at most
        if value < 0 {
            start[count] = UInt8(ascii: "-")
            count &+= 1
        }
        var magnitude = value.magnitude
        var digits = 0
        var rest = magnitude
        while rest > 0 {
            digits &+= 1
            rest /= 10
        }
        var position = count &+ digits
        count = position
        while magnitude > 0 {
            position &-= 1
            start[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        }
    }

    /// A finite double as `JSONTextEncoder` writes it; a non-finite one throws, as it does.
    public mutating func double(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(value) cannot be written as JSON"))
        }
        var text = value.description
        text.withUTF8 { append($0.baseAddress!, $0.count) }
    }

    // An optional member: its `key` (the raw text before the value, e.g. `,"index":`) and its
    // value when there is one, nothing when it is nil (as `Codable` leaves a nil out).

    /// Writes `key` and `value` unless `value` is nil.
    @inlinable public mutating func member(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        raw(key)
        string(value)
    }

    /// Writes `key` and `value` unless `value` is nil.
    @inlinable public mutating func member(_ key: StaticString, _ value: Int?) {
        guard let value else { return }
        raw(key)
        int(value)
    }

    /// Writes `key` and `value` unless `value` is nil; a non-finite value throws, as `double` does.
    @inlinable public mutating func member(_ key: StaticString, _ value: Double?) throws {
        guard let value else { return }
        raw(key)
        try double(value)
    }
}
