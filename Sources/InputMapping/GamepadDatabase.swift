// SDL_GameControllerDB as a database (input.md §10): SDL's Linux GUID of a pad, the database's
// lines by GUID, and SDL's lookup order. Written from SDL's rules (SDL_CreateJoystickGUID, its
// Linux joystick backend, SDL_PrivateMatchGamepadMappingForGUID), not from its code.

/// SDL's joystick GUID: 16 bytes, shown as 32 hex digits.
public struct SDLGUID: Hashable, Sendable, CustomStringConvertible {
    public var bytes: [UInt8]

    /// Two words of the 16 bytes at once (a database indexes its lines by GUID).
    public func hash(into hasher: inout Hasher) {
        var low: UInt64 = 0, high: UInt64 = 0
        for (index, byte) in bytes.enumerated() {
            if index < 8 { low |= UInt64(byte) << (8 * index) } else { high |= UInt64(byte) << (8 * (index - 8)) }
        }
        hasher.combine(low)
        hasher.combine(high)
    }

    public init(bytes: [UInt8]) {
        precondition(bytes.count == 16)
        self.bytes = bytes
    }

    /// Parses 32 hex digits (case-insensitive); nil otherwise.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 32 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 32, by: 2) {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self.bytes = bytes
    }

    static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    public var description: String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }

    func word(_ index: Int) -> UInt16 { UInt16(bytes[2 * index]) | UInt16(bytes[2 * index + 1]) << 8 }

    mutating func setWord(_ index: Int, _ value: UInt16) {
        bytes[2 * index] = UInt8(value & 0xFF)
        bytes[2 * index + 1] = UInt8(value >> 8)
    }

    /// The GUID holds vendor, product and version (not a name): words 3 and 5 are zero.
    public var hasIDs: Bool { word(3) == 0 && word(5) == 0 }
    public var crc: UInt16 { word(1) }
    public var vendor: UInt16 { hasIDs ? word(2) : 0 }
    public var product: UInt16 { hasIDs ? word(4) : 0 }

    /// SDL uses the version in matching when vendor and product are both known.
    public var usesVersion: Bool { vendor != 0 && product != 0 }

    func clearingCRC() -> SDLGUID {
        var copy = self
        copy.setWord(1, 0)
        return copy
    }

    func clearingVersion() -> SDLGUID {
        var copy = self
        if hasIDs { copy.setWord(6, 0) }
        return copy
    }

    /// SDL's CRC-16 (reflected polynomial 0xA001, initial 0) of the name's bytes.
    public static func crc16(_ text: String) -> UInt16 {
        var crc: UInt16 = 0
        for byte in text.utf8 {
            var value = UInt16(UInt8(truncatingIfNeeded: crc) ^ byte)
            for _ in 0..<8 { value = (value & 1) != 0 ? (value >> 1) ^ 0xA001 : value >> 1 }
            crc = value ^ (crc >> 8)
        }
        return crc
    }

    /// The GUID SDL's Linux (evdev) backend gives a device: bus, CRC-16 of the name, vendor,
    /// product and version, each little-endian in 16 bits with zero between them, driver bytes 0;
    /// without a vendor, the first 11 bytes of the name instead of the ids.
    public static func linux(bus: Int, vendor: Int, product: Int, version: Int, name: String) -> SDLGUID {
        var guid = SDLGUID(bytes: Array(repeating: 0, count: 16))
        guid.setWord(0, UInt16(truncatingIfNeeded: bus))
        guid.setWord(1, crc16(name))
        if vendor != 0 {
            guid.setWord(2, UInt16(truncatingIfNeeded: vendor))
            guid.setWord(4, UInt16(truncatingIfNeeded: product))
            guid.setWord(6, UInt16(truncatingIfNeeded: version))
        } else {
            for (offset, byte) in name.utf8.prefix(11).enumerated() { guid.bytes[4 + offset] = byte }
        }
        return guid
    }

    public static func linux(_ identity: DeviceIdentity) -> SDLGUID {
        linux(bus: identity.bus, vendor: identity.vendor, product: identity.product, version: identity.version, name: identity.name)
    }
}

/// Mapping lines from SDL_GameControllerDB files, `SDL_GAMECONTROLLERCONFIG` and the like, looked up
/// by a pad's GUID in SDL's order.
///
/// Reading is one pass over the text's bytes: a line for another platform (two thirds of SDL's
/// file) is recognised and skipped without making a string of it; only the lines for this
/// platform are parsed (`GamepadMapping.parse`, the one reading of a mapping string), and the
/// entries are indexed by GUID, so a later line of the same GUID replaces its entry in O(1) and a
/// pad's lookup reads only the lines of its GUID. (docs/gamepad-databases.md has the figures.)
public struct GamepadDatabase: Hashable, Sendable {
    /// One usable line.
    public struct Entry: Hashable, Sendable {
        public var mapping: GamepadMapping
        /// `FILE:LINE` of the line.
        public var source: String
        /// The GUID with its CRC cleared (as SDL keeps it).
        public var guid: SDLGUID
        /// The line's `crc:` field (or the CRC its GUID carried): then only a pad with that CRC matches.
        public var crc: UInt16?
    }

    /// An entry's identity: a later line with the same one replaces it.
    private struct Key: Hashable, Sendable {
        var guid: SDLGUID
        var crc: UInt16?
    }

    public private(set) var entries: [Entry] = []
    /// Lines skipped, each `FILE:LINE: why` (input.md §10: a database never breaks the config).
    public private(set) var warnings: [String] = []
    /// Lines for another platform, skipped without a warning.
    public private(set) var otherPlatform = 0
    /// Where each entry is in `entries`.
    private var positions: [Key: Int] = [:]
    /// The positions of the entries of each GUID (CRC cleared), ascending; the same by the GUID
    /// without its version. A zero GUID is in neither: it matches no pad.
    private var byGUID: [SDLGUID: [Int]] = [:]
    private var byGUIDWithoutVersion: [SDLGUID: [Int]] = [:]

    public init() {}

    /// Adds the lines of one database text; `source` names it in `Entry.source` and warnings.
    /// Lines end at LF; a CR before it, and spaces and tabs around a line or a field, are not
    /// part of them.
    public mutating func add(_ text: String, source: String, platform: String = "Linux") {
        var text = text
        text.withUTF8 { add(lines: $0, source: source, platform: Array(platform.utf8)) }
    }

    private mutating func add(lines bytes: UnsafeBufferPointer<UInt8>, source: String, platform: [UInt8]) {
        var lineStart = 0
        var number = 0
        while lineStart <= bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != Self.newline { lineEnd += 1 }
            number += 1
            defer { lineStart = lineEnd + 1 }
            let line = Self.trimmed(bytes, lineStart..<lineEnd, Self.isLineSpace)
            if line.isEmpty || bytes[line.lowerBound] == UInt8(ascii: "#") { continue }
            let fields = Self.platformAndCRC(bytes, line)
            if let field = fields.platform, !bytes[field].elementsEqual(platform) {
                otherPlatform += 1
                continue
            }
            addLine(UnsafeBufferPointer(rebasing: bytes[line]),
                crcField: fields.crc.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) },
                location: "\(source):\(number)")
        }
    }

    /// One line of this platform (trimmed, in place); `crcField` is the value of its first `crc:` field.
    private mutating func addLine(_ line: UnsafeBufferPointer<UInt8>, crcField: String?, location: String) {
        let mapping: GamepadMapping
        do {
            mapping = try GamepadMapping.parse(bytes: line)
        } catch {
            warnings.append("\(location): skipped: \(error.message)")
            return
        }
        for warning in mapping.warnings { warnings.append("\(location): \(warning)") }
        guard let parsed = SDLGUID(hex: mapping.guid) else {
            warnings.append("\(location): skipped: GUID '\(mapping.guid)' is not 32 hex digits")
            return
        }
        var crc: UInt16? = parsed.crc == 0 ? nil : parsed.crc
        if let crcField {
            guard let value = UInt16(crcField, radix: 16) else {
                warnings.append("\(location): skipped: bad crc field 'crc:\(crcField)'")
                return
            }
            crc = value
        }
        let entry = Entry(mapping: mapping, source: location, guid: parsed.clearingCRC(), crc: crc)
        // A later line for the same GUID (and CRC) replaces the earlier one, in its place.
        let key = Key(guid: entry.guid, crc: crc)
        if let existing = positions[key] {
            entries[existing] = entry
            return
        }
        positions[key] = entries.count
        if entry.guid.bytes.contains(where: { $0 != 0 }) {
            byGUID[entry.guid, default: []].append(entries.count)
            byGUIDWithoutVersion[entry.guid.clearingVersion(), default: []].append(entries.count)
        }
        entries.append(entry)
    }

    private static let newline = UInt8(ascii: "\n")
    private static let platformPrefix: StaticString = "platform:"
    private static let crcPrefix: StaticString = "crc:"
    private static func isLineSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
    private static func isFieldSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// `range` of `bytes` without the bytes `isSpace` takes at either end.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ isSpace: (UInt8) -> Bool) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper && isSpace(bytes[lower]) { lower += 1 }
        while upper > lower && isSpace(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// The values of the first `platform:` and the first `crc:` field of `line` (its fields
    /// separated by commas and trimmed of spaces and tabs), in one pass over its bytes.
    private static func platformAndCRC(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> (platform: Range<Int>?, crc: Range<Int>?) {
        var platform: Range<Int>?, crc: Range<Int>?
        var index = line.lowerBound
        while index < line.upperBound {
            while index < line.upperBound && isFieldSpace(bytes[index]) { index += 1 }
            var end = index
            while end < line.upperBound && bytes[end] != UInt8(ascii: ",") { end += 1 }
            if index < end && bytes[index] == UInt8(ascii: "p") && platform == nil {
                platform = value(bytes, index..<end, prefix: platformPrefix)
            } else if index < end && bytes[index] == UInt8(ascii: "c") && crc == nil {
                crc = value(bytes, index..<end, prefix: crcPrefix)
            }
            index = end + 1
        }
        return (platform, crc)
    }

    /// The value after `prefix` of `field` (which starts after its spaces), trimmed at its end;
    /// nil when the field does not start with `prefix`.
    private static func value(_ bytes: UnsafeBufferPointer<UInt8>, _ field: Range<Int>, prefix: StaticString) -> Range<Int>? {
        let count = prefix.utf8CodeUnitCount
        guard field.count >= count else { return nil }
        let start = prefix.utf8Start
        for offset in 0..<count where bytes[field.lowerBound + offset] != start[offset] { return nil }
        var upper = field.upperBound
        while upper > field.lowerBound + count && isFieldSpace(bytes[upper - 1]) { upper -= 1 }
        return field.lowerBound + count..<upper
    }

    /// The line SDL would use for a pad: the exact GUID (a line with a CRC only for that CRC, and
    /// first), else any line of the GUID, then the same ignoring the version when the GUID has
    /// vendor and product.
    public func entry(for guid: SDLGUID) -> Entry? {
        if let found = match(guid, version: true) { return found }
        return guid.usesVersion ? match(guid, version: false) : nil
    }

    public func entry(for identity: DeviceIdentity) -> Entry? {
        entry(for: SDLGUID.linux(identity))
    }

    private func match(_ guid: SDLGUID, version: Bool) -> Entry? {
        let wanted = version ? guid.clearingCRC() : guid.clearingCRC().clearingVersion()
        var best: Entry?
        for position in (version ? byGUID[wanted] : byGUIDWithoutVersion[wanted]) ?? [] {
            let entry = entries[position]
            if let crc = entry.crc {
                if crc == guid.crc { return entry }
                continue
            }
            if best == nil { best = entry }
        }
        return best
    }
}
