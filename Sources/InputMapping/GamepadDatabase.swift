// SDL_GameControllerDB as a database (input.md §10): SDL's Linux GUID of a pad, the database's
// lines by GUID, and SDL's lookup order. Written from SDL's rules (SDL_CreateJoystickGUID, its
// Linux joystick backend, SDL_PrivateMatchGamepadMappingForGUID), not from its code.

/// SDL's joystick GUID: 16 bytes, shown as 32 hex digits.
public struct SDLGUID: Hashable, Sendable, CustomStringConvertible {
    public var bytes: [UInt8]

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

    public private(set) var entries: [Entry] = []
    /// Lines skipped, each `FILE:LINE: why` (input.md §10: a database never breaks the config).
    public private(set) var warnings: [String] = []
    /// Lines for another platform, skipped without a warning.
    public private(set) var otherPlatform = 0

    public init() {}

    /// Adds the lines of one database text; `source` names it in `Entry.source` and warnings.
    public mutating func add(_ text: String, source: String, platform: String = "Linux") {
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw).trimmingCharacters(in: " \t\r")
            if line.isEmpty || line.hasPrefix("#") { continue }
            let location = "\(source):\(index + 1)"
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: " \t") }
            if let field = fields.first(where: { $0.hasPrefix("platform:") }), field.dropFirst(9) != platform[...] {
                otherPlatform += 1
                continue
            }
            let mapping: GamepadMapping
            do {
                mapping = try GamepadMapping.parse(line)
            } catch {
                warnings.append("\(location): skipped: \(error.message)")
                continue
            }
            warnings += mapping.warnings.map { "\(location): \($0)" }
            guard let parsed = SDLGUID(hex: mapping.guid) else {
                warnings.append("\(location): skipped: GUID '\(mapping.guid)' is not 32 hex digits")
                continue
            }
            var crc: UInt16? = parsed.crc == 0 ? nil : parsed.crc
            if let field = fields.first(where: { $0.hasPrefix("crc:") }) {
                guard let value = UInt16(field.dropFirst(4), radix: 16) else {
                    warnings.append("\(location): skipped: bad crc field '\(field)'")
                    continue
                }
                crc = value
            }
            let entry = Entry(mapping: mapping, source: location, guid: parsed.clearingCRC(), crc: crc)
            // A later line for the same GUID (and CRC) replaces the earlier one, in its place.
            if let existing = entries.firstIndex(where: { $0.guid == entry.guid && $0.crc == entry.crc }) {
                entries[existing] = entry
            } else {
                entries.append(entry)
            }
        }
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
        var wanted = guid.clearingCRC()
        if !version { wanted = wanted.clearingVersion() }
        var best: Entry?
        for entry in entries where entry.guid.bytes.contains(where: { $0 != 0 }) {
            let candidate = version ? entry.guid : entry.guid.clearingVersion()
            guard candidate == wanted else { continue }
            if let crc = entry.crc {
                if crc == guid.crc { return entry }
                continue
            }
            if best == nil { best = entry }
        }
        return best
    }
}
