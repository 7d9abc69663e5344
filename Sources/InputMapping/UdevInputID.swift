// udev's `input_id` builtin, as rules over `Capabilities`, so that focusd without udevd sees the
// ID_INPUT_* properties udevd would have set (input.md §2). Written from the rules of systemd's
// src/udev/udev-builtin-input_id.c (test_pointers, test_key, the joystick un-detection and the
// tablet-pad rules of systemd 254+), not from its code.

/// The `ID_INPUT_*` properties udev's `input_id` builtin derives from a node's capabilities.
public enum UdevInputID {
    /// The classes udev's input_id sets, in the order focusd reads them.
    public static let classProperties = [
        "ID_INPUT_ACCELEROMETER", "ID_INPUT_TABLET_PAD", "ID_INPUT_TABLET", "ID_INPUT_TOUCHSCREEN", "ID_INPUT_TOUCHPAD",
        "ID_INPUT_JOYSTICK", "ID_INPUT_POINTINGSTICK", "ID_INPUT_MOUSE", "ID_INPUT_KEYBOARD", "ID_INPUT_KEY",
        "ID_INPUT_SWITCH",
    ]

    /// Keys that only keyboards have; four of them undo a joystick guess (systemd's list).
    static let wellKnownKeyboardKeys: [UInt16] = [
        EventCode.KEY_LEFTCTRL, EventCode.KEY_CAPSLOCK, EventCode.KEY_NUMLOCK, EventCode.KEY_INSERT,
        EventCode.KEY_MUTE, EventCode.KEY_CALC, EventCode.KEY_FILE, EventCode.KEY_MAIL, EventCode.KEY_PLAYPAUSE,
        EventCode.KEY_BRIGHTNESSDOWN,
    ]

    /// `ID_INPUT=1` and every `ID_INPUT_*` class property (value "1") the builtin would set.
    public static func properties(_ caps: Capabilities, bus: Int) -> [String: String] {
        var result = ["ID_INPUT": "1"]
        let isPointer = pointerProperties(caps, bus: bus, into: &result)
        let isKey = keyProperties(caps, into: &result)
        // Some nodes have only a scroll wheel: udev calls them keys.
        if !isPointer && !isKey && caps.eventTypes.contains(EventCode.EV_REL)
            && (caps.relativeAxes.contains(EventCode.REL_WHEEL) || caps.relativeAxes.contains(EventCode.REL_HWHEEL))
        {
            result["ID_INPUT_KEY"] = "1"
        }
        if caps.eventTypes.contains(EventCode.EV_SW) { result["ID_INPUT_SWITCH"] = "1" }
        return result
    }

    private static func pointerProperties(_ caps: Capabilities, bus: Int, into result: inout [String: String]) -> Bool {
        let keys = caps.keys
        let abs = caps.absoluteAxes
        let hasKeys = caps.eventTypes.contains(EventCode.EV_KEY)
        let hasAbsCoordinates = abs[EventCode.ABS_X] != nil && abs[EventCode.ABS_Y] != nil
        if caps.properties.contains(EventCode.INPUT_PROP_ACCELEROMETER)
            || (!hasKeys && hasAbsCoordinates && abs[EventCode.ABS_Z] != nil)
        {
            result["ID_INPUT_ACCELEROMETER"] = "1"
            return true
        }
        var isPointingStick = caps.properties.contains(EventCode.INPUT_PROP_POINTING_STICK)
        let hasStylus = keys.contains(EventCode.BTN_STYLUS)
        let hasPen = keys.contains(EventCode.BTN_TOOL_PEN)
        let fingerButNoPen = keys.contains(EventCode.BTN_TOOL_FINGER) && !hasPen
        let hasMouseButton = (EventCode.BTN_MOUSE..<EventCode.BTN_JOYSTICK).contains(where: keys.contains)
        let hasRelCoordinates = caps.eventTypes.contains(EventCode.EV_REL)
            && caps.relativeAxes.contains(EventCode.REL_X) && caps.relativeAxes.contains(EventCode.REL_Y)
        var hasMTCoordinates = abs[EventCode.ABS_MT_POSITION_X] != nil && abs[EventCode.ABS_MT_POSITION_Y] != nil
        // A device claiming every absolute axis is not multitouch.
        if hasMTCoordinates && abs[EventCode.ABS_MT_SLOT] != nil && abs[EventCode.ABS_MT_SLOT - 1] != nil {
            hasMTCoordinates = false
        }
        let isDirect = caps.properties.contains(EventCode.INPUT_PROP_DIRECT)
        let hasTouch = keys.contains(EventCode.BTN_TOUCH)
        let hasPadButtons = keys.contains(EventCode.BTN_0) && hasStylus && !hasPen
        let hasWheel = caps.eventTypes.contains(EventCode.EV_REL)
            && (caps.relativeAxes.contains(EventCode.REL_WHEEL) || caps.relativeAxes.contains(EventCode.REL_HWHEEL))

        // A mouse with more than 16 buttons runs into the joystick range: its buttons do not count.
        var joystickButtons = 0
        if !keys.contains(EventCode.BTN_JOYSTICK - 1) {
            joystickButtons += (EventCode.BTN_JOYSTICK..<EventCode.BTN_DIGI).filter(keys.contains).count
            joystickButtons += (EventCode.BTN_TRIGGER_HAPPY1...EventCode.BTN_TRIGGER_HAPPY40).filter(keys.contains).count
            joystickButtons += (EventCode.BTN_DPAD_UP...EventCode.BTN_DPAD_RIGHT).filter(keys.contains).count
        }
        let joystickAxes = (EventCode.ABS_RX..<EventCode.ABS_PRESSURE).filter { abs[$0] != nil }.count
        let hasJoystickAxesOrButtons = joystickButtons + joystickAxes > 0

        var isTablet = false, isTouchpad = false, isMouse = false, isTouchscreen = false, isJoystick = false
        var isTabletPad = false
        if hasAbsCoordinates {
            if hasStylus || hasPen {
                isTablet = true
            } else if fingerButNoPen && !isDirect {
                isTouchpad = true
            } else if hasMouseButton {
                isMouse = true  // VMware's USB mouse: absolute axes, no touch button
            } else if hasTouch || isDirect {
                isTouchscreen = true
            } else if hasJoystickAxesOrButtons {
                isJoystick = true
            }
        } else if hasJoystickAxesOrButtons {
            isJoystick = true
        }
        if hasMTCoordinates {
            if hasStylus || hasPen {
                isTablet = true
            } else if fingerButNoPen && !isDirect {
                isTouchpad = true
            } else if hasTouch || isDirect {
                isTouchscreen = true
            }
        }
        if isTablet && hasPadButtons { isTabletPad = true }
        if hasPadButtons && hasWheel && !hasRelCoordinates {
            isTablet = true
            isTabletPad = true
        }
        if !isTablet && !isTouchpad && !isJoystick && hasMouseButton && (hasRelCoordinates || !hasAbsCoordinates) {
            isMouse = true
        }
        // There is no such thing as an i2c mouse.
        if isMouse && bus == Int(EventCode.BUS_I2C) { isPointingStick = true }
        // Joystick un-detection: a keyboard with a stray joystick button, or one code alone.
        if isJoystick && joystickUndetection(caps) != nil { isJoystick = false }
        if isPointingStick { result["ID_INPUT_POINTINGSTICK"] = "1" }
        if isMouse { result["ID_INPUT_MOUSE"] = "1" }
        if isTouchpad { result["ID_INPUT_TOUCHPAD"] = "1" }
        if isTouchscreen { result["ID_INPUT_TOUCHSCREEN"] = "1" }
        if isJoystick { result["ID_INPUT_JOYSTICK"] = "1" }
        if isTablet { result["ID_INPUT_TABLET"] = "1" }
        if isTabletPad { result["ID_INPUT_TABLET_PAD"] = "1" }
        return isTablet || isMouse || isTouchpad || isTouchscreen || isJoystick || isPointingStick
    }

    /// Why systemd 254+ takes back a joystick guess (a keyboard with a stray joystick button, one
    /// joystick code alone, a tablet pad's buttons with a wheel), or nil. udev 252 (Debian 12) has
    /// no such rule, so focusd applies it to udevd's ID_INPUT_JOYSTICK too.
    public static func joystickUndetection(_ caps: Capabilities) -> String? {
        let keys = caps.keys
        let abs = caps.absoluteAxes
        var buttons = 0
        if !keys.contains(EventCode.BTN_JOYSTICK - 1) {
            buttons += (EventCode.BTN_JOYSTICK..<EventCode.BTN_DIGI).filter(keys.contains).count
            buttons += (EventCode.BTN_TRIGGER_HAPPY1...EventCode.BTN_TRIGGER_HAPPY40).filter(keys.contains).count
            buttons += (EventCode.BTN_DPAD_UP...EventCode.BTN_DPAD_RIGHT).filter(keys.contains).count
        }
        let axes = (EventCode.ABS_RX..<EventCode.ABS_PRESSURE).filter { abs[$0] != nil }.count
        let wellKnown = wellKnownKeyboardKeys.filter(keys.contains).count
        if wellKnown >= 4 { return "\(wellKnown) keyboard keys (Ctrl, Caps Lock, Mute...): a keyboard, not a joystick" }
        if buttons + axes < 2 { return "only \(buttons + axes) joystick button or axis: not a joystick" }
        let hasPadButtons = keys.contains(EventCode.BTN_0) && keys.contains(EventCode.BTN_STYLUS) && !keys.contains(EventCode.BTN_TOOL_PEN)
        let hasWheel = caps.relativeAxes.contains(EventCode.REL_WHEEL) || caps.relativeAxes.contains(EventCode.REL_HWHEEL)
        if hasPadButtons && hasWheel { return "tablet pad buttons with a wheel: a pad, not a joystick" }
        return nil
    }

    /// Key code ranges above BTN_MISC that count as keys (start inclusive, end exclusive).
    static let highKeyBlocks: [Range<UInt16>] = [
        EventCode.KEY_OK..<EventCode.BTN_DPAD_UP, EventCode.KEY_ALS_TOGGLE..<EventCode.BTN_TRIGGER_HAPPY,
    ]

    private static func keyProperties(_ caps: Capabilities, into result: inout [String: String]) -> Bool {
        guard caps.eventTypes.contains(EventCode.EV_KEY) else { return false }
        let keys = caps.keys
        // Only KEY_* count, not BTN_*: the block below BTN_MISC, then the high blocks.
        let found = keys.contains { $0 < EventCode.BTN_MISC }
            || highKeyBlocks.contains { block in keys.contains(where: block.contains) }
        if found { result["ID_INPUT_KEY"] = "1" }
        // ESC, the digits and Q to D (codes 1-31): a full keyboard.
        if (1...31).allSatisfy({ keys.contains(UInt16($0)) }) {
            result["ID_INPUT_KEYBOARD"] = "1"
            return true
        }
        return found
    }
}
