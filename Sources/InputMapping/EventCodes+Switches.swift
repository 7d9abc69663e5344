// The kernel's switch, misc, LED and force-feedback codes and bus types (linux/input-event-codes.h,
// linux/input.h), which device descriptions (input.md §9) and `Capabilities` name.

extension EventCode {
    public static let SW_LID: UInt16 = 0x0
    public static let SW_TABLET_MODE: UInt16 = 0x1
    public static let SW_HEADPHONE_INSERT: UInt16 = 0x2
    public static let SW_RFKILL_ALL: UInt16 = 0x3
    public static let SW_MICROPHONE_INSERT: UInt16 = 0x4
    public static let SW_DOCK: UInt16 = 0x5
    public static let SW_LINEOUT_INSERT: UInt16 = 0x6
    public static let SW_JACK_PHYSICAL_INSERT: UInt16 = 0x7
    public static let SW_VIDEOOUT_INSERT: UInt16 = 0x8
    public static let SW_CAMERA_LENS_COVER: UInt16 = 0x9
    public static let SW_KEYPAD_SLIDE: UInt16 = 0xa
    public static let SW_FRONT_PROXIMITY: UInt16 = 0xb
    public static let SW_ROTATE_LOCK: UInt16 = 0xc
    public static let SW_LINEIN_INSERT: UInt16 = 0xd
    public static let SW_MUTE_DEVICE: UInt16 = 0xe
    public static let SW_PEN_INSERTED: UInt16 = 0xf
    public static let SW_MACHINE_COVER: UInt16 = 0x10
    public static let MSC_SERIAL: UInt16 = 0x0
    public static let MSC_PULSELED: UInt16 = 0x1
    public static let MSC_GESTURE: UInt16 = 0x2
    public static let MSC_RAW: UInt16 = 0x3
    public static let MSC_SCAN: UInt16 = 0x4
    public static let MSC_TIMESTAMP: UInt16 = 0x5
    public static let LED_NUML: UInt16 = 0x0
    public static let LED_CAPSL: UInt16 = 0x1
    public static let LED_SCROLLL: UInt16 = 0x2
    public static let LED_COMPOSE: UInt16 = 0x3
    public static let LED_KANA: UInt16 = 0x4
    public static let LED_SLEEP: UInt16 = 0x5
    public static let LED_SUSPEND: UInt16 = 0x6
    public static let LED_MUTE: UInt16 = 0x7
    public static let LED_MISC: UInt16 = 0x8
    public static let LED_MAIL: UInt16 = 0x9
    public static let LED_CHARGING: UInt16 = 0xa
    public static let FF_STATUS_STOPPED: UInt16 = 0x0
    public static let FF_STATUS_PLAYING: UInt16 = 0x1
    public static let FF_RUMBLE: UInt16 = 0x50
    public static let FF_PERIODIC: UInt16 = 0x51
    public static let FF_CONSTANT: UInt16 = 0x52
    public static let FF_SPRING: UInt16 = 0x53
    public static let FF_FRICTION: UInt16 = 0x54
    public static let FF_DAMPER: UInt16 = 0x55
    public static let FF_INERTIA: UInt16 = 0x56
    public static let FF_RAMP: UInt16 = 0x57
    public static let FF_SQUARE: UInt16 = 0x58
    public static let FF_TRIANGLE: UInt16 = 0x59
    public static let FF_SINE: UInt16 = 0x5a
    public static let FF_SAW_UP: UInt16 = 0x5b
    public static let FF_SAW_DOWN: UInt16 = 0x5c
    public static let FF_CUSTOM: UInt16 = 0x5d
    public static let FF_GAIN: UInt16 = 0x60
    public static let FF_AUTOCENTER: UInt16 = 0x61
    public static let BUS_PCI: UInt16 = 0x1
    public static let BUS_ISAPNP: UInt16 = 0x2
    public static let BUS_USB: UInt16 = 0x3
    public static let BUS_HIL: UInt16 = 0x4
    public static let BUS_BLUETOOTH: UInt16 = 0x5
    public static let BUS_VIRTUAL: UInt16 = 0x6
    public static let BUS_ISA: UInt16 = 0x10
    public static let BUS_I8042: UInt16 = 0x11
    public static let BUS_XTKBD: UInt16 = 0x12
    public static let BUS_RS232: UInt16 = 0x13
    public static let BUS_GAMEPORT: UInt16 = 0x14
    public static let BUS_PARPORT: UInt16 = 0x15
    public static let BUS_AMIGA: UInt16 = 0x16
    public static let BUS_ADB: UInt16 = 0x17
    public static let BUS_I2C: UInt16 = 0x18
    public static let BUS_HOST: UInt16 = 0x19
    public static let BUS_GSC: UInt16 = 0x1a
    public static let BUS_ATARI: UInt16 = 0x1b
    public static let BUS_SPI: UInt16 = 0x1c
    public static let BUS_RMI: UInt16 = 0x1d
    public static let BUS_CEC: UInt16 = 0x1e
    public static let BUS_INTEL_ISHTP: UInt16 = 0x1f
    public static let BUS_AMD_SFH: UInt16 = 0x20

    /// The named codes of EV_SW, EV_MSC, EV_LED and EV_FF: (name, event type, code).
    /// With KEY_BRIGHTNESS_MAX, which `table` left out as if it were a range (`*_MAX`).
    static let moreTable: [(name: String, type: UInt16, code: UInt16)] = [
        ("KEY_BRIGHTNESS_MAX", EventCode.EV_KEY, 0x251),
        ("SW_LID", EventCode.EV_SW, 0x0),
        ("SW_TABLET_MODE", EventCode.EV_SW, 0x1),
        ("SW_HEADPHONE_INSERT", EventCode.EV_SW, 0x2),
        ("SW_RFKILL_ALL", EventCode.EV_SW, 0x3),
        ("SW_MICROPHONE_INSERT", EventCode.EV_SW, 0x4),
        ("SW_DOCK", EventCode.EV_SW, 0x5),
        ("SW_LINEOUT_INSERT", EventCode.EV_SW, 0x6),
        ("SW_JACK_PHYSICAL_INSERT", EventCode.EV_SW, 0x7),
        ("SW_VIDEOOUT_INSERT", EventCode.EV_SW, 0x8),
        ("SW_CAMERA_LENS_COVER", EventCode.EV_SW, 0x9),
        ("SW_KEYPAD_SLIDE", EventCode.EV_SW, 0xa),
        ("SW_FRONT_PROXIMITY", EventCode.EV_SW, 0xb),
        ("SW_ROTATE_LOCK", EventCode.EV_SW, 0xc),
        ("SW_LINEIN_INSERT", EventCode.EV_SW, 0xd),
        ("SW_MUTE_DEVICE", EventCode.EV_SW, 0xe),
        ("SW_PEN_INSERTED", EventCode.EV_SW, 0xf),
        ("SW_MACHINE_COVER", EventCode.EV_SW, 0x10),
        ("MSC_SERIAL", EventCode.EV_MSC, 0x0),
        ("MSC_PULSELED", EventCode.EV_MSC, 0x1),
        ("MSC_GESTURE", EventCode.EV_MSC, 0x2),
        ("MSC_RAW", EventCode.EV_MSC, 0x3),
        ("MSC_SCAN", EventCode.EV_MSC, 0x4),
        ("MSC_TIMESTAMP", EventCode.EV_MSC, 0x5),
        ("LED_NUML", EventCode.EV_LED, 0x0),
        ("LED_CAPSL", EventCode.EV_LED, 0x1),
        ("LED_SCROLLL", EventCode.EV_LED, 0x2),
        ("LED_COMPOSE", EventCode.EV_LED, 0x3),
        ("LED_KANA", EventCode.EV_LED, 0x4),
        ("LED_SLEEP", EventCode.EV_LED, 0x5),
        ("LED_SUSPEND", EventCode.EV_LED, 0x6),
        ("LED_MUTE", EventCode.EV_LED, 0x7),
        ("LED_MISC", EventCode.EV_LED, 0x8),
        ("LED_MAIL", EventCode.EV_LED, 0x9),
        ("LED_CHARGING", EventCode.EV_LED, 0xa),
        ("FF_RUMBLE", EventCode.EV_FF, 0x50),
        ("FF_PERIODIC", EventCode.EV_FF, 0x51),
        ("FF_CONSTANT", EventCode.EV_FF, 0x52),
        ("FF_SPRING", EventCode.EV_FF, 0x53),
        ("FF_FRICTION", EventCode.EV_FF, 0x54),
        ("FF_DAMPER", EventCode.EV_FF, 0x55),
        ("FF_INERTIA", EventCode.EV_FF, 0x56),
        ("FF_RAMP", EventCode.EV_FF, 0x57),
        ("FF_SQUARE", EventCode.EV_FF, 0x58),
        ("FF_TRIANGLE", EventCode.EV_FF, 0x59),
        ("FF_SINE", EventCode.EV_FF, 0x5a),
        ("FF_SAW_UP", EventCode.EV_FF, 0x5b),
        ("FF_SAW_DOWN", EventCode.EV_FF, 0x5c),
        ("FF_CUSTOM", EventCode.EV_FF, 0x5d),
        ("FF_GAIN", EventCode.EV_FF, 0x60),
        ("FF_AUTOCENTER", EventCode.EV_FF, 0x61),
    ]
}
