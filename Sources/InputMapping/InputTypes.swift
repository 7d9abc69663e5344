// The values that cross from InputDevices (the Linux edge) into InputMapping (the pure core).
//
// API CONTRACT (shared by InputDevices, InputMapping and FocusService): the types below are fixed;
// add to them, do not rename. Event codes are the kernel's numbers (linux/input-event-codes.h),
// named in `EventCodes.swift`.

/// One kernel input event (`struct input_event`), time in microseconds since the epoch.
public struct InputEvent: Hashable, Sendable {
    public var type: UInt16
    public var code: UInt16
    public var value: Int32
    /// Kernel timestamp of the event, microseconds since the epoch (CLOCK_REALTIME).
    public var timeUsec: Int64

    public init(type: UInt16, code: UInt16, value: Int32, timeUsec: Int64) {
        self.type = type
        self.code = code
        self.value = value
        self.timeUsec = timeUsec
    }
}

/// What libinput recognised on a touch surface, already reduced to what focus needs.
public enum Gesture: Hashable, Sendable {
    /// A finished swipe (or pointer motion burst) with its total motion in mm-like units.
    case swipe(dx: Double, dy: Double, timeUsec: Int64)
    /// A tap or a click of the surface.
    case tap(timeUsec: Int64)
}

/// The device classes of `io.focusd.Input`.
public enum DeviceClass: String, Codable, Hashable, Sendable, CaseIterable {
    case keyboard, remote, gamepad, rotary, pointer, touchpad, other
}

public enum Backend: String, Codable, Hashable, Sendable {
    case libevdev, libinput
}

/// An absolute axis as the kernel describes it (`struct input_absinfo`).
public struct AxisInfo: Hashable, Sendable {
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    public var resolution: Int32

    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }
}

/// What a device can send: the bits of EVIOCGBIT / EVIOCGPROP and the absinfo of its axes.
public struct Capabilities: Hashable, Sendable {
    public var keys: Set<UInt16>
    public var relativeAxes: Set<UInt16>
    public var absoluteAxes: [UInt16: AxisInfo]
    public var properties: Set<UInt16>
    /// EV_REP is set (the kernel autorepeats this device's keys).
    public var kernelRepeat: Bool
    /// EV_SW codes (lid, tablet mode, dock, rfkill...): such a node is never grabbed by inference.
    public var switches: Set<UInt16>
    /// EV_MSC codes (MSC_SCAN on HID and rc-core nodes, MSC_TIMESTAMP...).
    public var misc: Set<UInt16>
    /// EV_LED codes (a keyboard's lock LEDs).
    public var leds: Set<UInt16>
    /// EV_FF codes (rumble and other force-feedback effects).
    public var forceFeedback: Set<UInt16>
    /// Every event type the node reports (EVIOCGBIT(0)): EV_SYN, EV_KEY, ..., EV_REP, EV_FF.
    public var eventTypes: Set<UInt16>

    /// `eventTypes` nil: the types of the codes given (EV_SYN always, EV_REP with `kernelRepeat`).
    public init(
        keys: Set<UInt16> = [], relativeAxes: Set<UInt16> = [], absoluteAxes: [UInt16: AxisInfo] = [:],
        properties: Set<UInt16> = [], kernelRepeat: Bool = false, switches: Set<UInt16> = [], misc: Set<UInt16> = [],
        leds: Set<UInt16> = [], forceFeedback: Set<UInt16> = [], eventTypes: Set<UInt16>? = nil
    ) {
        self.keys = keys
        self.relativeAxes = relativeAxes
        self.absoluteAxes = absoluteAxes
        self.properties = properties
        self.kernelRepeat = kernelRepeat
        self.switches = switches
        self.misc = misc
        self.leds = leds
        self.forceFeedback = forceFeedback
        if let eventTypes {
            self.eventTypes = eventTypes
        } else {
            var types: Set<UInt16> = [EventCode.EV_SYN]
            if !keys.isEmpty { types.insert(EventCode.EV_KEY) }
            if !relativeAxes.isEmpty { types.insert(EventCode.EV_REL) }
            if !absoluteAxes.isEmpty { types.insert(EventCode.EV_ABS) }
            if !misc.isEmpty { types.insert(EventCode.EV_MSC) }
            if !switches.isEmpty { types.insert(EventCode.EV_SW) }
            if !leds.isEmpty { types.insert(EventCode.EV_LED) }
            if kernelRepeat { types.insert(EventCode.EV_REP) }
            if !forceFeedback.isEmpty { types.insert(EventCode.EV_FF) }
            self.eventTypes = types
        }
    }
}

extension AxisInfo {
    /// A D-pad's hat axis reports -1, 0 and 1: the range every kernel driver gives a real hat
    /// switch (hid-input's Hat Switch usage, xpad, hid-sony, hid-nintendo...). Anything else on
    /// an ABS_HAT code is analog data that landed there: the Wii Balance Board's four weight
    /// sensors (hid-wiimote, 0...65535), the extra axes hid-input numbers on past ABS_MISC.
    public var isDpadRange: Bool { minimum == -1 && maximum == 1 }
}

extension Capabilities {
    /// Whether the hat whose X axis is `xCode` (ABS_HAT0X, ABS_HAT1X, ...) is a D-pad: it has an
    /// axis, and each axis it has reports a D-pad's range (`AxisInfo.isDpadRange`).
    public func isDpadHat(_ xCode: UInt16) -> Bool {
        let axes = [absoluteAxes[xCode], absoluteAxes[xCode + 1]].compactMap { $0 }
        return !axes.isEmpty && axes.allSatisfy(\.isDpadRange)
    }

    /// The ABS_HAT0X...ABS_HAT3Y axes whose range is not a D-pad's, in code order.
    public var nonDpadHatAxes: [UInt16] {
        (EventCode.ABS_HAT0X...EventCode.ABS_HAT3Y).filter { absoluteAxes[$0].map { !$0.isDpadRange } ?? false }
    }
}

/// Everything known about one device node, for classification, profile matching and listing.
public struct DeviceIdentity: Hashable, Sendable {
    public var name: String
    public var bus: Int
    public var vendor: Int
    public var product: Int
    public var version: Int
    public var phys: String?
    public var uniq: String?
    /// `/dev/input/eventN`.
    public var node: String
    public var capabilities: Capabilities
    /// udev properties (ID_INPUT_*, FOCUSD_IGNORE, ...), empty without udevd.
    public var udevProperties: [String: String]
    /// Sysfs path of the parent input device's physical device, grouping sibling nodes.
    public var group: String?

    public init(
        name: String, bus: Int = 0, vendor: Int = 0, product: Int = 0, version: Int = 0,
        phys: String? = nil, uniq: String? = nil, node: String = "", capabilities: Capabilities = Capabilities(),
        udevProperties: [String: String] = [:], group: String? = nil
    ) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.phys = phys
        self.uniq = uniq
        self.node = node
        self.capabilities = capabilities
        self.udevProperties = udevProperties
        self.group = group
    }
}

/// The phase of a command (`io.focusd.Input` `Command.phase`).
public enum CommandPhase: String, Codable, Hashable, Sendable {
    case press, `repeat`, release, rotate
}

/// One semantic command produced by a device after mapping.
public struct MappedCommand: Hashable, Sendable {
    /// up, down, left, right, next, previous, select, back, home, menu, search, playPause,
    /// channelUp, channelDown, info, crown, ...
    public var command: String
    public var phase: CommandPhase
    /// crown: signed detents (positive = clockwise / wheel down = next).
    public var detents: Int?
    public var fraction: Double?
    public var velocity: Double?
    /// Kernel timestamp of the input event that produced it (timer repeats: the press's time
    /// advanced by the elapsed interval), microseconds since the epoch.
    public var eventTimeUsec: Int64

    public init(
        command: String, phase: CommandPhase, detents: Int? = nil, fraction: Double? = nil,
        velocity: Double? = nil, eventTimeUsec: Int64
    ) {
        self.command = command
        self.phase = phase
        self.detents = detents
        self.fraction = fraction
        self.velocity = velocity
        self.eventTimeUsec = eventTimeUsec
    }
}

/// What the focus side tells the mapper about the focused node (focus.md §7: typing keys are
/// unmapped while a `text` or `search` node holds focus; the crown edits an `edit` node).
public struct FocusContext: Hashable, Sendable {
    public var typingSuppressed: Bool
    public var editing: Bool

    public init(typingSuppressed: Bool = false, editing: Bool = false) {
        self.typingSuppressed = typingSuppressed
        self.editing = editing
    }
}
