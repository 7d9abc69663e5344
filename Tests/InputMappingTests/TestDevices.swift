// Realistic device descriptions (capabilities as the kernel reports them) and a test rig that
// plays the event loop: frames at chosen times, timers fired at their deadlines.

@testable import InputMapping

typealias E = EventCode

enum TestDevices {
    static func range(_ from: UInt16, _ to: UInt16) -> Set<UInt16> { Set(from...to) }

    /// A USB keyboard: the main block, arrows, keypad, EV_REP.
    static let usbKeyboard = DeviceIdentity(
        name: "Logitech USB Keyboard", bus: 3, vendor: 0x046D, product: 0xC31C, node: "/dev/input/event3",
        capabilities: Capabilities(
            keys: range(E.KEY_ESC, E.KEY_KPDOT).union([E.KEY_UP, E.KEY_DOWN, E.KEY_LEFT, E.KEY_RIGHT, E.KEY_HOME,
                E.KEY_END, E.KEY_PAGEUP, E.KEY_PAGEDOWN, E.KEY_INSERT, E.KEY_DELETE, E.KEY_KPENTER, E.KEY_COMPOSE,
                E.KEY_RIGHTCTRL, E.KEY_RIGHTALT, E.KEY_LEFTMETA, E.KEY_RIGHTMETA, E.KEY_F11, E.KEY_F12]),
            kernelRepeat: true),
        udevProperties: ["ID_INPUT": "1", "ID_INPUT_KEY": "1", "ID_INPUT_KEYBOARD": "1"],
        group: "/sys/devices/pci0000:00/0000:00:14.0/usb1/1-2")

    /// The same keyboard's consumer-control node: media keys and a lot of the HID consumer page.
    static let usbKeyboardConsumer = DeviceIdentity(
        name: "Logitech USB Keyboard Consumer Control", bus: 3, vendor: 0x046D, product: 0xC31C, node: "/dev/input/event4",
        capabilities: Capabilities(
            keys: [E.KEY_MUTE, E.KEY_VOLUMEUP, E.KEY_VOLUMEDOWN, E.KEY_PLAYPAUSE, E.KEY_NEXTSONG, E.KEY_PREVIOUSSONG,
                E.KEY_STOPCD, E.KEY_HOMEPAGE, E.KEY_MENU, E.KEY_SELECT, E.KEY_CHANNELUP, E.KEY_CHANNELDOWN, E.KEY_BACK,
                E.KEY_FORWARD, E.KEY_MAIL, E.KEY_CALC, E.KEY_SEARCH],
            relativeAxes: [E.REL_HWHEEL], kernelRepeat: true),
        udevProperties: ["ID_INPUT": "1", "ID_INPUT_KEY": "1"],
        group: "/sys/devices/pci0000:00/0000:00:14.0/usb1/1-2")

    /// A laptop's built-in keyboard (every one is 0001:0001 on i8042).
    static let laptopKeyboard = DeviceIdentity(
        name: "AT Translated Set 2 keyboard", bus: 0x11, vendor: 1, product: 1, version: 0xAB41,
        phys: "isa0060/serio0/input0", node: "/dev/input/event0",
        capabilities: Capabilities(
            keys: range(E.KEY_ESC, E.KEY_KPDOT).union([E.KEY_UP, E.KEY_DOWN, E.KEY_LEFT, E.KEY_RIGHT, E.KEY_HOME, E.KEY_END]),
            kernelRepeat: true),
        group: "/sys/devices/platform/i8042/serio0")

    /// The laptop's hotkeys node (a sibling by group): volume, brightness, radio.
    static let laptopHotkeys = DeviceIdentity(
        name: "Dell WMI hotkeys", bus: 0x19, node: "/dev/input/event9",
        capabilities: Capabilities(keys: [E.KEY_MUTE, E.KEY_VOLUMEUP, E.KEY_VOLUMEDOWN, E.KEY_BRIGHTNESSUP,
            E.KEY_BRIGHTNESSDOWN, E.KEY_WLAN, E.KEY_PROG1, E.KEY_MICMUTE]),
        group: "/sys/devices/platform/i8042/serio0")

    /// An rc-core IR receiver with the MCE keymap.
    static let irRemote = DeviceIdentity(
        name: "Media Center Ed. eHome Infrared Remote Transceiver (1784:0008)", bus: 3, vendor: 0x1784, product: 0x0008,
        phys: "usb-0000:00:14.0-3/input0", node: "/dev/input/event7",
        capabilities: Capabilities(
            keys: range(E.KEY_NUMERIC_0, E.KEY_NUMERIC_9).union([E.KEY_UP, E.KEY_DOWN, E.KEY_LEFT, E.KEY_RIGHT, E.KEY_OK,
                E.KEY_BACK, E.KEY_INFO, E.KEY_EPG, E.KEY_CHANNELUP, E.KEY_CHANNELDOWN, E.KEY_VOLUMEUP, E.KEY_VOLUMEDOWN,
                E.KEY_MUTE, E.KEY_PLAY, E.KEY_PAUSE, E.KEY_STOP, E.KEY_MEDIA, E.KEY_HOMEPAGE, E.KEY_ENTER, E.KEY_CLEAR]),
            kernelRepeat: true),
        udevProperties: ["ID_INPUT": "1", "ID_INPUT_KEY": "1"])

    static let stickAxis = AxisInfo(minimum: -32768, maximum: 32767, fuzz: 16, flat: 128)

    /// An Xbox 360 pad on xpad: the kernel gamepad layout.
    static let xbox360 = DeviceIdentity(
        name: "Microsoft X-Box 360 pad", bus: 3, vendor: 0x045E, product: 0x028E, version: 0x0114, node: "/dev/input/event12",
        capabilities: Capabilities(
            keys: [E.BTN_SOUTH, E.BTN_EAST, E.BTN_NORTH, E.BTN_WEST, E.BTN_TL, E.BTN_TR, E.BTN_SELECT, E.BTN_START,
                E.BTN_MODE, E.BTN_THUMBL, E.BTN_THUMBR],
            absoluteAxes: [
                E.ABS_X: stickAxis, E.ABS_Y: stickAxis, E.ABS_RX: stickAxis, E.ABS_RY: stickAxis,
                E.ABS_Z: AxisInfo(minimum: 0, maximum: 255), E.ABS_RZ: AxisInfo(minimum: 0, maximum: 255),
                E.ABS_HAT0X: AxisInfo(minimum: -1, maximum: 1), E.ABS_HAT0Y: AxisInfo(minimum: -1, maximum: 1),
            ]),
        udevProperties: ["ID_INPUT": "1", "ID_INPUT_JOYSTICK": "1"])

    /// A cheap USB pad on hid-generic: BTN_TRIGGER... buttons, not the gamepad layout.
    static let genericPad = DeviceIdentity(
        name: "Generic USB Joystick", bus: 3, vendor: 0x0079, product: 0x0006, node: "/dev/input/event13",
        capabilities: Capabilities(
            keys: range(E.BTN_TRIGGER, E.BTN_BASE6),
            absoluteAxes: [
                E.ABS_X: AxisInfo(minimum: 0, maximum: 255, flat: 15), E.ABS_Y: AxisInfo(minimum: 0, maximum: 255, flat: 15),
                E.ABS_Z: AxisInfo(minimum: 0, maximum: 255), E.ABS_RZ: AxisInfo(minimum: 0, maximum: 255),
                E.ABS_HAT0X: AxisInfo(minimum: -1, maximum: 1), E.ABS_HAT0Y: AxisInfo(minimum: -1, maximum: 1),
            ]))

    static let powerMate = DeviceIdentity(
        name: "Griffin PowerMate", bus: 3, vendor: 0x077D, product: 0x0410, node: "/dev/input/event15",
        capabilities: Capabilities(keys: [E.BTN_0], relativeAxes: [E.REL_DIAL]))

    static let surfaceDial = DeviceIdentity(
        name: "Surface Dial System Multi Axis", bus: 5, vendor: 0x045E, product: 0x091B, node: "/dev/input/event16",
        capabilities: Capabilities(keys: [E.BTN_0], relativeAxes: [E.REL_DIAL]),
        udevProperties: ["ID_INPUT": "1"])

    static let hiResMouse = DeviceIdentity(
        name: "Logitech G305", bus: 3, vendor: 0x046D, product: 0x4074, node: "/dev/input/event5",
        capabilities: Capabilities(
            keys: [E.BTN_LEFT, E.BTN_RIGHT, E.BTN_MIDDLE, E.BTN_SIDE, E.BTN_EXTRA],
            relativeAxes: [E.REL_X, E.REL_Y, E.REL_WHEEL, E.REL_WHEEL_HI_RES, E.REL_HWHEEL, E.REL_HWHEEL_HI_RES]),
        udevProperties: ["ID_INPUT": "1", "ID_INPUT_MOUSE": "1"])

    static let oldMouse = DeviceIdentity(
        name: "PS/2 Generic Mouse", bus: 0x11, vendor: 2, product: 1, node: "/dev/input/event2",
        capabilities: Capabilities(keys: [E.BTN_LEFT, E.BTN_RIGHT, E.BTN_MIDDLE], relativeAxes: [E.REL_X, E.REL_Y, E.REL_WHEEL]))

    static let touchpad = DeviceIdentity(
        name: "SynPS/2 Synaptics TouchPad", bus: 0x11, vendor: 2, product: 7, node: "/dev/input/event6",
        capabilities: Capabilities(
            keys: [E.BTN_LEFT, E.BTN_TOOL_FINGER, E.BTN_TOOL_QUINTTAP, E.BTN_TOUCH, E.BTN_TOOL_DOUBLETAP,
                E.BTN_TOOL_TRIPLETAP, E.BTN_TOOL_QUADTAP],
            absoluteAxes: [
                E.ABS_X: AxisInfo(minimum: 1266, maximum: 5676), E.ABS_Y: AxisInfo(minimum: 1096, maximum: 4758),
                E.ABS_PRESSURE: AxisInfo(minimum: 0, maximum: 255), E.ABS_MT_SLOT: AxisInfo(minimum: 0, maximum: 1),
                E.ABS_MT_POSITION_X: AxisInfo(minimum: 1266, maximum: 5676),
                E.ABS_MT_POSITION_Y: AxisInfo(minimum: 1096, maximum: 4758),
                E.ABS_MT_TRACKING_ID: AxisInfo(minimum: 0, maximum: 65535),
            ],
            properties: [E.INPUT_PROP_POINTER, E.INPUT_PROP_BUTTONPAD]),
        udevProperties: ["ID_INPUT": "1", "ID_INPUT_TOUCHPAD": "1", "ID_INPUT_MOUSE": "1"])

    static let gpioEncoder = DeviceIdentity(
        name: "rotary@0", bus: 0x19, node: "/dev/input/event1",
        capabilities: Capabilities(relativeAxes: [E.REL_X]))

    static let absoluteKnob = DeviceIdentity(
        name: "USB Absolute Knob", bus: 3, vendor: 0x1234, product: 0x5678, node: "/dev/input/event20",
        capabilities: Capabilities(keys: [E.BTN_0], absoluteAxes: [E.ABS_WHEEL: AxisInfo(minimum: 0, maximum: 95)]))
}

/// Plays the event loop around one mapper: a monotonic clock, kernel times derived from it, and
/// timers fired exactly at their deadlines.
struct Rig {
    var mapper: DeviceMapper
    /// Monotonic µs; kernel time is `epoch + now`.
    var now: Int64 = 0
    static let epoch: Int64 = 1_763_700_000_000_000
    var context = FocusContext()

    init(_ identity: DeviceIdentity, profile: Profile? = nil) {
        let settings = DeviceSettings(deviceClass: DeviceClassifier.classify(identity), profile: profile)
        mapper = DeviceMapper(identity: identity, settings: settings)
    }

    init(_ identity: DeviceIdentity, settings: DeviceSettings) {
        mapper = DeviceMapper(identity: identity, settings: settings)
    }

    var kernelNow: Int64 { Self.epoch + now }

    /// One frame at the current time.
    mutating func frame(_ events: [(UInt16, UInt16, Int32)]) -> [String] {
        let frame = events.map { InputEvent(type: $0.0, code: $0.1, value: $0.2, timeUsec: kernelNow) }
            + [InputEvent(type: E.EV_SYN, code: E.SYN_REPORT, value: 0, timeUsec: kernelNow)]
        return Self.describe(mapper.process(frame, now: now, context: context))
    }

    mutating func key(_ code: UInt16, _ value: Int32) -> [String] {
        frame([(E.EV_KEY, code, value)])
    }

    /// Advances the clock, firing timers at their deadlines as the event loop would.
    mutating func advance(ms: Int64) -> [String] {
        let target = now + ms * 1000
        var output: [MappedCommand] = []
        while let deadline = mapper.nextDeadline, deadline <= target {
            now = max(now, deadline)
            output += mapper.tick(now: now)
        }
        now = target
        return Self.describe(output)
    }

    /// "command phase t" with t in ms since the rig's epoch; crown adds detents.
    static func describe(_ commands: [MappedCommand]) -> [String] {
        commands.map { command in
            var text = "\(command.command) \(command.phase.rawValue)"
            if command.command == "crown", let detents = command.detents { text += " \(detents)" }
            let ms = Double(command.eventTimeUsec - epoch) / 1000
            text += ms == ms.rounded() ? " \(Int64(ms))" : " \(ms)"
            return text
        }
    }

    /// Only command and phase.
    static func names(_ described: [String]) -> [String] {
        described.map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
    }
}
