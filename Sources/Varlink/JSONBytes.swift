/// Compact JSON text written by hand into a byte array, for the few messages on the hot path
/// (a focus event, the reply to a `Move`) whose `Encodable` encoding costs more than the rest of
/// the call: `Codable`'s keyed containers pay generic metadata lookups per member.
///
/// Writes exactly what ``JSONTextEncoder`` writes for the same values (strings escaped the same
/// way, doubles as `description`, integers in decimal); a writer built on it must be checked
/// against its type's `Encodable` conformance by a differential test, which stays the reference.
public struct JSONBytes {
    public var bytes: [UInt8]

    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// A literal piece of JSON text (punctuation, a quoted key with its colon).
    @inlinable public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    @inlinable public mutating func byte(_ byte: UInt8) { bytes.append(byte) }

    public mutating func string(_ text: String) { JSONValue.writeString(text, into: &bytes) }

    public mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    public mutating func int(_ value: Int) {
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        var magnitude = value.magnitude
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: enough for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                buffer[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
    }

    /// A finite double as `JSONTextEncoder` writes it; a non-finite one throws, as it does.
    public mutating func double(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(value) cannot be written as JSON"))
        }
        bytes.append(contentsOf: value.description.utf8)
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
