// Pass-through (input.md §11): the keys of an exclusively grabbed device that its mapping does
// not use go on to the system through one uinput device per source. Pure: what the device is
// made of, and what of each source frame it passes. The uinput device itself is `Evdev.swift`'s.
import InputMapping

/// What a pass-through device is made of: the source's name behind a prefix, its vendor and
/// product on `BUS_VIRTUAL`, and exactly the keys it passes (no `EV_REP`).
struct PassthroughSpec: Equatable, Sendable {
    var name: String
    var vendor: Int
    var product: Int
    var version: Int
    var keys: Set<UInt16>

    static let namePrefix = "focusd passthrough: "
    /// uinput's name field is 80 bytes (UINPUT_MAX_NAME_SIZE) with its NUL.
    static let maxNameBytes = 79
    /// `BUS_VIRTUAL` of linux/input.h.
    static let busVirtual = 0x06

    init(source: DeviceIdentity, keys: Set<UInt16>) {
        name = Self.name(for: source.name)
        vendor = source.vendor
        product = source.product
        version = source.version
        self.keys = keys
    }

    /// `focusd passthrough: ` and the source's name, cut to the kernel's 80 bytes (79 and the
    /// NUL) on a character boundary, so the name stays valid UTF-8.
    static func name(for source: String) -> String {
        var name = namePrefix
        for character in source {
            guard name.utf8.count + String(character).utf8.count <= maxNameBytes else { break }
            name.append(character)
        }
        return name
    }
}

/// A pass-through device's keys and which of them it holds down now.
struct PassthroughKeys: Equatable, Sendable {
    let keys: Set<UInt16>
    /// Pressed on the pass-through device and not yet released there.
    private(set) var held: Set<UInt16> = []

    init(keys: Set<UInt16>) {
        self.keys = keys
    }

    /// The events of a source frame the pass-through device sends, in the frame's order: its
    /// keys' presses, and repeats and releases of keys it holds (a release or repeat of a key
    /// pressed before the grab, or before a resync, never reaches it).
    mutating func pass(_ frame: [InputEvent]) -> [InputEvent] {
        var passed: [InputEvent] = []
        for event in frame where event.type == EventCode.EV_KEY && keys.contains(event.code) {
            switch event.value {
            case 0:
                guard held.remove(event.code) != nil else { continue }
            case 1:
                held.insert(event.code)
            default:
                guard held.contains(event.code) else { continue }
            }
            passed.append(event)
        }
        return passed
    }

    /// Releases of every key it holds, in code order; it then holds nothing.
    mutating func releaseAll(timeUsec: Int64) -> [InputEvent] {
        defer { held = [] }
        return held.sorted().map { InputEvent(type: EventCode.EV_KEY, code: $0, value: 0, timeUsec: timeUsec) }
    }
}

/// The ids of devices that left, so that one coming back within `keepUsec` gets its former id
/// (input.md §11): the same bus, vendor, product, name and `uniq` (or `phys` when it has no
/// `uniq`). The name is part of it because sibling nodes of one device share `uniq` and `phys`.
struct FormerIDs {
    /// Ten minutes.
    static let keepUsec: Int64 = 600_000_000

    struct Key: Hashable {
        var bus: Int
        var vendor: Int
        var product: Int
        var name: String
        var serial: String
    }

    private var departed: [Key: (id: String, at: Int64)] = [:]

    /// The identity's key; nil when it has neither `uniq` nor `phys` (nothing tells two such
    /// devices apart).
    static func key(_ identity: DeviceIdentity) -> Key? {
        let serial: String
        if let uniq = identity.uniq, !uniq.isEmpty {
            serial = "uniq:" + uniq
        } else if let phys = identity.phys, !phys.isEmpty {
            serial = "phys:" + phys
        } else {
            return nil
        }
        return Key(bus: identity.bus, vendor: identity.vendor, product: identity.product, name: identity.name, serial: serial)
    }

    /// A listed device left at `now` (monotonic µs).
    mutating func left(_ identity: DeviceIdentity, id: String, at now: Int64) {
        expire(now: now)
        guard let key = Self.key(identity) else { return }
        departed[key] = (id, now)
    }

    /// The former id of a device that is back, given up once claimed; nil when none left within
    /// the last ten minutes.
    mutating func claim(_ identity: DeviceIdentity, at now: Int64) -> String? {
        expire(now: now)
        guard let key = Self.key(identity) else { return nil }
        return departed.removeValue(forKey: key)?.id
    }

    private mutating func expire(now: Int64) {
        departed = departed.filter { now - $0.value.at <= Self.keepUsec }
    }
}
