// The simulated devices, as data: each is modelled on a real device's capabilities and ids.

/// One absolute axis of a device model (the kernel's `input_absinfo` without the value).
struct AxisModel {
    var code: String
    var min: Int32
    var max: Int32
    var fuzz: Int32 = 0
    var flat: Int32 = 0
    var resolution: Int32 = 0
}

/// A set of codes of one event type, e.g. `EV_KEY` with `KEY_A`...
struct CapabilityModel {
    var type: String
    var codes: [String]
}

/// How a device is created: through uinput (evdev-level) or through uhid with a real HID report
/// descriptor, so the kernel's own HID driver builds the input device.
enum Backend {
    case uinput
    case uhid(descriptor: [UInt8])
}

/// The way a model's keys behave.
enum KeyBehaviour {
    /// The device sends press and release itself (keyboards, pads, knobs).
    case pressRelease
    /// rc-core: the remote sends frames, the kernel releases the key 164–250 ms after the last.
    case infrared(keyUpTimeoutMs: Int, frameIntervalMs: Int)
}

/// A simulated device: name suffix, ids, capabilities.
struct DeviceModel {
    /// The model's command-line name.
    var id: String
    /// What the model imitates, for `list`.
    var summary: String
    /// The device name after the "test-focusd " prefix.
    var name: String
    var phys: String
    var bus: UInt16
    var vendor: UInt16
    var product: UInt16
    var version: UInt16 = 0x0111
    var properties: [String] = []
    var capabilities: [CapabilityModel]
    var axes: [AxisModel] = []
    /// Kernel autorepeat (REP_DELAY, REP_PERIOD in ms) when the device declares EV_REP.
    var repeatDelayPeriod: (Int32, Int32)? = nil
    var keys: KeyBehaviour = .pressRelease
    var backend: Backend = .uinput
}

/// Bus numbers of `linux/input.h`.
enum Bus {
    static let usb: UInt16 = 0x03
    static let bluetooth: UInt16 = 0x05
    static let virtual: UInt16 = 0x06
    static let i2c: UInt16 = 0x18
}

/// The catalogue of simulated devices.
enum DeviceModels {
    /// The prefix of every simulated device's name. focusd never lists its own virtual devices,
    /// recognised by a name starting with "focusd" (InputDevices' `ownDevicePrefix`): a test
    /// device's name must not start with it.
    static let namePrefix = "test-focusd "

    static func named(_ id: String) throws -> DeviceModel {
        guard let model = all.first(where: { $0.id == id }) else {
            throw ToolError("unknown device model '\(id)'; models: \(all.map(\.id).joined(separator: ", "))")
        }
        return model
    }

    /// Every key of a 105-key PC keyboard, KEY_ESC (1) through KEY_F12 (88) and the navigation
    /// block, as a USB HID keyboard reports them.
    static let pcKeyboardKeys: [String] =
        (1...88).map(String.init) + [
            "KEY_102ND", "KEY_KPENTER", "KEY_RIGHTCTRL", "KEY_KPSLASH", "KEY_SYSRQ", "KEY_RIGHTALT",
            "KEY_HOME", "KEY_UP", "KEY_PAGEUP", "KEY_LEFT", "KEY_RIGHT", "KEY_END", "KEY_DOWN",
            "KEY_PAGEDOWN", "KEY_INSERT", "KEY_DELETE", "KEY_PAUSE", "KEY_LEFTMETA", "KEY_RIGHTMETA",
            "KEY_COMPOSE",
        ]

    static let all: [DeviceModel] = [
        DeviceModel(
            id: "keyboard", summary: "USB keyboard (Logitech K120: letters, arrows, Enter, LEDs, kernel repeat)",
            name: "USB keyboard", phys: "usb-0000:00:14.0-1/input0",
            bus: Bus.usb, vendor: 0x046d, product: 0xc31c,
            capabilities: [
                CapabilityModel(type: "EV_KEY", codes: pcKeyboardKeys),
                CapabilityModel(type: "EV_MSC", codes: ["MSC_SCAN"]),
                CapabilityModel(type: "EV_LED", codes: ["LED_NUML", "LED_CAPSL", "LED_SCROLLL"]),
            ],
            repeatDelayPeriod: (250, 33)),
        DeviceModel(
            id: "remote", summary: "IR remote through rc-core (remote keys, MSC_SCAN, key-up by timeout)",
            name: "IR remote", phys: "rc-core/virtual",
            bus: Bus.virtual, vendor: 0x0000, product: 0x0000,
            capabilities: [
                CapabilityModel(type: "EV_KEY", codes: [
                    "KEY_UP", "KEY_DOWN", "KEY_LEFT", "KEY_RIGHT", "KEY_OK", "KEY_SELECT", "KEY_BACK",
                    "KEY_EXIT", "KEY_HOMEPAGE", "KEY_MENU", "KEY_INFO", "KEY_CHANNELUP",
                    "KEY_CHANNELDOWN", "KEY_VOLUMEUP", "KEY_VOLUMEDOWN", "KEY_MUTE", "KEY_POWER",
                    "KEY_PLAYPAUSE", "KEY_RED", "KEY_GREEN", "KEY_YELLOW", "KEY_BLUE",
                ] + (0...9).map { "KEY_NUMERIC_\($0)" }),
                CapabilityModel(type: "EV_MSC", codes: ["MSC_SCAN"]),
            ],
            // rc-core's own repeat settings (drivers/media/rc/rc-main.c).
            repeatDelayPeriod: (500, 125),
            keys: .infrared(keyUpTimeoutMs: 164, frameIntervalMs: 108)),
        DeviceModel(
            id: "xbox360", summary: "Xbox 360 pad as xpad presents it (BTN_SOUTH..., hat D-pad, sticks with flat)",
            name: "Xbox 360 pad", phys: "usb-0000:00:14.0-2/input0",
            bus: Bus.usb, vendor: 0x045e, product: 0x028e, version: 0x0114,
            capabilities: [
                CapabilityModel(type: "EV_KEY", codes: [
                    "BTN_SOUTH", "BTN_EAST", "BTN_NORTH", "BTN_WEST", "BTN_TL", "BTN_TR",
                    "BTN_SELECT", "BTN_START", "BTN_MODE", "BTN_THUMBL", "BTN_THUMBR",
                ]),
            ],
            axes: [
                AxisModel(code: "ABS_X", min: -32768, max: 32767, fuzz: 16, flat: 128),
                AxisModel(code: "ABS_Y", min: -32768, max: 32767, fuzz: 16, flat: 128),
                AxisModel(code: "ABS_RX", min: -32768, max: 32767, fuzz: 16, flat: 128),
                AxisModel(code: "ABS_RY", min: -32768, max: 32767, fuzz: 16, flat: 128),
                AxisModel(code: "ABS_Z", min: 0, max: 255),
                AxisModel(code: "ABS_RZ", min: 0, max: 255),
                AxisModel(code: "ABS_HAT0X", min: -1, max: 1),
                AxisModel(code: "ABS_HAT0Y", min: -1, max: 1),
            ]),
        DeviceModel(
            id: "powermate", summary: "Griffin PowerMate (REL_DIAL, ~94 counts per turn, push BTN_0)",
            name: "Griffin PowerMate", phys: "usb-0000:00:14.0-3/input0",
            bus: Bus.usb, vendor: 0x077d, product: 0x0410, version: 0x0400,
            capabilities: [
                CapabilityModel(type: "EV_KEY", codes: ["BTN_0"]),
                CapabilityModel(type: "EV_REL", codes: ["REL_DIAL"]),
                CapabilityModel(type: "EV_MSC", codes: ["MSC_PULSELED"]),
            ]),
        DeviceModel(
            id: "surface-dial", summary: "Surface Dial as hid-generic presents it, over uinput (REL_DIAL in 0.1°, BTN_0)",
            name: "Surface Dial System Multi Axis", phys: "bluetooth/surface-dial",
            bus: Bus.bluetooth, vendor: 0x045e, product: 0x091b, version: 0x0001,
            capabilities: [
                CapabilityModel(type: "EV_KEY", codes: ["BTN_0"]),
                CapabilityModel(type: "EV_REL", codes: ["REL_DIAL"]),
                CapabilityModel(type: "EV_MSC", codes: ["MSC_SCAN"]),
            ]),
        DeviceModel(
            id: "surface-dial-hid", summary: "Surface Dial at HID level through /dev/uhid: the kernel's hid-generic builds the device",
            name: "Surface Dial (uhid)", phys: "bluetooth/surface-dial-hid",
            bus: Bus.bluetooth, vendor: 0x045e, product: 0x091b, version: 0x0001,
            capabilities: [
                CapabilityModel(type: "EV_KEY", codes: ["BTN_0"]),
                CapabilityModel(type: "EV_REL", codes: ["REL_DIAL"]),
            ],
            backend: .uhid(descriptor: SurfaceDialReport.descriptor)),
        DeviceModel(
            id: "mouse", summary: "wheel mouse with hi-res scrolling (REL_X/Y, REL_WHEEL + REL_WHEEL_HI_RES, 5 buttons)",
            name: "hi-res wheel mouse", phys: "usb-0000:00:14.0-4/input0",
            bus: Bus.usb, vendor: 0x046d, product: 0xc08b,
            capabilities: [
                CapabilityModel(type: "EV_KEY", codes: ["BTN_LEFT", "BTN_RIGHT", "BTN_MIDDLE", "BTN_SIDE", "BTN_EXTRA"]),
                CapabilityModel(type: "EV_REL", codes: [
                    "REL_X", "REL_Y", "REL_WHEEL", "REL_HWHEEL", "REL_WHEEL_HI_RES", "REL_HWHEEL_HI_RES",
                ]),
                CapabilityModel(type: "EV_MSC", codes: ["MSC_SCAN"]),
            ]),
        DeviceModel(
            id: "touchpad", summary: "I2C clickpad with 5-slot multitouch (ABS_MT_*, INPUT_PROP_POINTER/BUTTONPAD)",
            name: "touchpad", phys: "i2c-SYNA0001:00",
            bus: Bus.i2c, vendor: 0x06cb, product: 0xcd7e, version: 0x0100,
            properties: ["INPUT_PROP_POINTER", "INPUT_PROP_BUTTONPAD"],
            capabilities: [
                CapabilityModel(type: "EV_KEY", codes: [
                    "BTN_LEFT", "BTN_TOOL_FINGER", "BTN_TOOL_QUINTTAP", "BTN_TOUCH",
                    "BTN_TOOL_DOUBLETAP", "BTN_TOOL_TRIPLETAP", "BTN_TOOL_QUADTAP",
                ]),
            ],
            axes: [
                AxisModel(code: "ABS_X", min: 0, max: 1216, resolution: 12),
                AxisModel(code: "ABS_Y", min: 0, max: 680, resolution: 12),
                AxisModel(code: "ABS_MT_SLOT", min: 0, max: Touchpad.slots - 1),
                AxisModel(code: "ABS_MT_POSITION_X", min: 0, max: 1216, resolution: 12),
                AxisModel(code: "ABS_MT_POSITION_Y", min: 0, max: 680, resolution: 12),
                AxisModel(code: "ABS_MT_TRACKING_ID", min: 0, max: 65535),
            ]),
    ]
}
