// A device profile of the configuration file: match rules and the settings they select.

/// How focusd holds a device (input.md §6).
public enum GrabMode: String, Hashable, Sendable, CaseIterable {
    /// EVIOCGRAB: no other reader sees the device.
    case exclusive
    /// Read alongside other readers (keyboards, so a UI still types).
    case shared
    /// Do not read the device at all (listed only).
    case none
}

/// A profile's `passthrough` (input.md §11): which keys of an exclusively grabbed device focusd
/// passes on to the system through a uinput device. A key mapped to a command never is.
public enum Passthrough: Hashable, Sendable {
    /// Every key of the device that its mapping does not use (the default).
    case unmapped
    /// No pass-through device.
    case none
    /// Only these keys (those the device has and its mapping does not use).
    case keys(Set<UInt16>)
}

/// Which devices a profile applies to; every rule given must hold.
public struct MatchRules: Hashable, Sendable {
    /// Glob (`*`, `?`, `[...]`) on the device name.
    public var name: String?
    public var vendor: Int?
    public var product: Int?
    /// Bus type number (`BUS_USB` = 3, `BUS_BLUETOOTH` = 5, ...).
    public var bus: Int?
    /// Globs on `phys` and `uniq`; a device without one does not match.
    public var phys: String?
    public var uniq: String?
    /// The class the classifier gave (before any class override).
    public var deviceClass: DeviceClass?
    /// Codes the device must all have: keys, relative and absolute axes, `INPUT_PROP_*`.
    public var capabilities: [EventCode.Named]
    /// Also apply to sibling nodes of a matching device (same `group`: a keyboard's consumer keys).
    public var siblings: Bool

    public init(
        name: String? = nil, vendor: Int? = nil, product: Int? = nil, bus: Int? = nil, phys: String? = nil,
        uniq: String? = nil, deviceClass: DeviceClass? = nil, capabilities: [EventCode.Named] = [], siblings: Bool = false
    ) {
        self.name = name
        self.vendor = vendor
        self.product = product
        self.bus = bus
        self.phys = phys
        self.uniq = uniq
        self.deviceClass = deviceClass
        self.capabilities = capabilities
        self.siblings = siblings
    }
}

/// Repeat timing (input.md §4). Times in milliseconds.
public struct RepeatSettings: Hashable, Sendable {
    public var enabled = true
    public var delayMs = 400
    public var intervalMs = 100
    public var fastIntervalMs = 50
    /// Held this long, the repeat switches to `fastIntervalMs`.
    public var fastAfterMs = 2000
    /// Each kernel repeat event is one repeat and no timer runs (IR / CEC remotes). nil = per class.
    public var kernelRepeat: Bool?
    /// kernelRepeat devices: a held key with no event for this long is released (a lost key-up).
    public var keyUpTimeoutMs = 1000
    /// The commands that repeat while held.
    public var commands: Set<String> = RepeatSettings.defaultCommands

    public static let defaultCommands: Set<String> = [
        "up", "down", "left", "right", "next", "previous", "channelUp", "channelDown",
    ]

    public init() {}
}

/// Analog stick thresholds (input.md §4), in percent of the range beyond the kernel's `flat`.
public struct StickSettings: Hashable, Sendable {
    public var pressPercent: Double = 50
    public var releasePercent: Double = 35
    /// Only the dominant axis fires (no diagonals).
    public var fourWay = true

    public init() {}
}

/// Rotary (Digital Crown) settings (input.md §5).
public struct RotarySettings: Hashable, Sendable {
    /// Counts per detent; nil = per kind (PowerMate 4, Surface Dial 100, hi-res wheel 120, ...).
    public var countsPerDetent: Double?
    /// Detents per second above which one detent moves more than one item; 0 disables.
    public var accelerationThreshold: Double = 8
    /// The most items one detent can move when accelerated.
    public var accelerationMax = 4
    /// The crown's sequential moves wrap at the ends of the section (for the engine).
    public var wrap = false
    /// Reverse the direction (counter-clockwise = next).
    public var reverse = false
    /// While editing, this long without motion ends the edit stream (a `release`).
    public var editIdleMs = 150

    public init() {}
}

/// Holding a key this long gives another command (KEY_BACK held 800 ms → home).
public struct LongPress: Hashable, Sendable {
    public var code: UInt16
    public var command: String
    public var durationMs: Int

    public init(code: UInt16, command: String, durationMs: Int = 800) {
        self.code = code
        self.command = command
        self.durationMs = durationMs
    }
}

/// Keys pressed together (within `windowMs` of the first) give one command.
public struct Chord: Hashable, Sendable {
    public var codes: [UInt16]
    public var command: String
    public var windowMs: Int

    public init(codes: [UInt16], command: String, windowMs: Int = 50) {
        self.codes = codes
        self.command = command
        self.windowMs = windowMs
    }
}

/// One `[[profile]]` of the configuration: what it matches and what it changes.
public struct Profile: Hashable, Sendable {
    public var name: String
    public var match: MatchRules
    /// Leave matching devices alone: listed, never opened.
    public var ignore = false
    public var deviceClass: DeviceClass?
    public var backend: Backend?
    public var grab: GrabMode?
    /// Key or button code → command; an empty command unmaps the code.
    public var commands: [UInt16: String] = [:]
    public var `repeat` = RepeatSettings()
    public var stick = StickSettings()
    public var rotary = RotarySettings()
    public var longPresses: [LongPress] = []
    public var chords: [Chord] = []
    /// An SDL_GameControllerDB mapping for pads that do not follow the kernel's gamepad layout.
    public var gamepadMapping: GamepadMapping?
    /// Which keys of an exclusively grabbed device reach the system through its pass-through
    /// device (input.md §11); nil: the default, `.unmapped`.
    public var passthrough: Passthrough?

    public init(name: String, match: MatchRules = MatchRules()) {
        self.name = name
        self.match = match
    }
}

extension Backend: CaseIterable {
    public static var allCases: [Backend] { [.libevdev, .libinput] }
}
