// Which class a device node is (input.md §2), from udev's ID_INPUT_* properties when udevd ran,
// else from the node's capabilities. One function decides; the reasons are data below.

/// Classifies input device nodes and picks their backend.
public enum DeviceClassifier {
    /// Letter keys: a keyboard has (nearly) all of them, a remote none.
    static let letterKeys: [UInt16] = [
        EventCode.KEY_Q, EventCode.KEY_W, EventCode.KEY_E, EventCode.KEY_R, EventCode.KEY_T, EventCode.KEY_Y,
        EventCode.KEY_U, EventCode.KEY_I, EventCode.KEY_O, EventCode.KEY_P, EventCode.KEY_A, EventCode.KEY_S,
        EventCode.KEY_D, EventCode.KEY_F, EventCode.KEY_G, EventCode.KEY_H, EventCode.KEY_J, EventCode.KEY_K,
        EventCode.KEY_L, EventCode.KEY_Z, EventCode.KEY_X, EventCode.KEY_C, EventCode.KEY_V, EventCode.KEY_B,
        EventCode.KEY_N, EventCode.KEY_M,
    ]
    static let arrowKeys: [UInt16] = [EventCode.KEY_UP, EventCode.KEY_DOWN, EventCode.KEY_LEFT, EventCode.KEY_RIGHT]
    /// Keys found on TV remotes and rarely on keyboards.
    static let remoteKeys: Set<UInt16> = [
        EventCode.KEY_OK, EventCode.KEY_SELECT, EventCode.KEY_BACK, EventCode.KEY_HOMEPAGE, EventCode.KEY_MENU,
        EventCode.KEY_CHANNELUP, EventCode.KEY_CHANNELDOWN, EventCode.KEY_EPG, EventCode.KEY_INFO, EventCode.KEY_EXIT,
        EventCode.KEY_NUMERIC_0, EventCode.KEY_TV, EventCode.KEY_RED, EventCode.KEY_GREEN, EventCode.KEY_CONTEXT_MENU,
    ]
    /// Node names of a keyboard's extra-keys siblings: media keys of a keyboard, not a remote.
    static let keyboardSiblingNameSuffixes = ["Consumer Control", "System Control", "Keyboard", "keyboard"]
    /// Axes and tools that make ABS_WHEEL a tablet's, not a knob's.
    static let penCodes: Set<UInt16> = [EventCode.BTN_TOOL_PEN, EventCode.BTN_STYLUS, EventCode.BTN_TOOL_RUBBER]
    static let penAxes: Set<UInt16> = [EventCode.ABS_PRESSURE, EventCode.ABS_TILT_X, EventCode.ABS_TILT_Y, EventCode.ABS_DISTANCE]

    /// The class of a device node (input.md §2).
    ///
    /// udev's `ID_INPUT_JOYSTICK` / `ID_INPUT_TOUCHPAD` / `ID_INPUT_MOUSE` / `ID_INPUT_KEYBOARD` /
    /// `ID_INPUT_KEY` decide when present; rotary knobs (which udev has no class for) and the
    /// keyboard/remote split come from the capabilities either way. `ID_INPUT_FOCUSD_ROTARY=1`
    /// (set by udev/70-focusd.rules for known knobs, or by an integrator for e.g. a GPIO encoder
    /// on REL_X) makes any node a rotary knob.
    public static func classify(_ identity: DeviceIdentity) -> DeviceClass {
        let udev = identity.udevProperties
        if udev["ID_INPUT_FOCUSD_ROTARY"] == "1" { return .rotary }
        let caps = identity.capabilities
        var fromCapabilities = classify(capabilities: caps, name: identity.name)
        // The GPIO rotary-encoder driver reports one relative axis, on the host bus.
        if identity.bus == 0x19 && identity.name.lowercased().includes("rotary") && caps.relativeAxes.count == 1 {
            fromCapabilities = .rotary
        }
        guard udev.keys.contains(where: { $0.hasPrefix("ID_INPUT") }) else { return fromCapabilities }
        if udev["ID_INPUT_JOYSTICK"] == "1" { return .gamepad }
        if udev["ID_INPUT_TOUCHPAD"] == "1" { return .touchpad }
        if fromCapabilities == .rotary { return .rotary }
        if udev["ID_INPUT_MOUSE"] == "1" || udev["ID_INPUT_POINTINGSTICK"] == "1" { return .pointer }
        if udev["ID_INPUT_KEYBOARD"] == "1" {
            return fromCapabilities == .remote ? .remote : .keyboard
        }
        if udev["ID_INPUT_KEY"] == "1" {
            return [.keyboard, .remote].contains(fromCapabilities) ? fromCapabilities : .other
        }
        if udev["ID_INPUT_TOUCHSCREEN"] == "1" || udev["ID_INPUT_TABLET"] == "1"
            || udev["ID_INPUT_ACCELEROMETER"] == "1" || udev["ID_INPUT_SWITCH"] == "1"
        {
            return .other
        }
        return fromCapabilities
    }

    /// Classification from capabilities alone (no udevd).
    public static func classify(capabilities caps: Capabilities, name: String = "") -> DeviceClass {
        let keys = caps.keys
        let rel = caps.relativeAxes
        let abs = caps.absoluteAxes
        let hasPointerMotion = rel.contains(EventCode.REL_X) && rel.contains(EventCode.REL_Y)

        if keys.contains(EventCode.BTN_SOUTH)
            || keys.contains(where: { $0 >= EventCode.BTN_JOYSTICK && $0 < EventCode.BTN_JOYSTICK + 0x10 })
        {
            return .gamepad
        }
        let hasTouchAxes = abs.keys.contains { $0 >= EventCode.ABS_MT_SLOT && $0 <= EventCode.ABS_MT_TOOL_Y }
            || (abs[EventCode.ABS_X] != nil && keys.contains(EventCode.BTN_TOOL_FINGER))
        if caps.properties.contains(EventCode.INPUT_PROP_POINTER) && hasTouchAxes
            && !caps.properties.contains(EventCode.INPUT_PROP_DIRECT)
        {
            return .touchpad
        }
        if !hasPointerMotion {
            if rel.contains(EventCode.REL_DIAL) || rel.contains(EventCode.REL_WHEEL) || rel.contains(EventCode.REL_WHEEL_HI_RES) {
                return .rotary
            }
            let isPen = !keys.isDisjoint(with: penCodes) || abs.keys.contains(where: { penAxes.contains($0) })
            if abs[EventCode.ABS_WHEEL] != nil && !isPen { return .rotary }
        }
        if hasPointerMotion { return .pointer }

        let letters = letterKeys.filter(keys.contains).count
        if letters >= 20 { return .keyboard }
        let remoteKeyCount = keys.intersection(remoteKeys).count
        let siblingName = keyboardSiblingNameSuffixes.contains { name.hasSuffix($0) }
        if !siblingName && letters == 0
            && (keys.contains(EventCode.KEY_OK) || keys.contains(EventCode.KEY_SELECT) || remoteKeyCount >= 2)
        {
            return .remote
        }
        let hasArrows = arrowKeys.allSatisfy(keys.contains)
        if (hasArrows && keys.contains(EventCode.KEY_ENTER)) || (siblingName && !keys.isEmpty) { return .keyboard }
        if !keys.isEmpty && keys.contains(where: { DefaultCommandMap.keyboard[$0] != nil }) {
            return remoteKeyCount > 0 && letters == 0 ? .remote : .other
        }
        return .other
    }

    /// The backend that reads a class: libinput for touch surfaces, libevdev for everything else.
    public static func backend(for deviceClass: DeviceClass) -> Backend {
        deviceClass == .touchpad ? .libinput : .libevdev
    }

    /// udev tagged the device `FOCUSD_IGNORE=1`: list it, never open it.
    public static func isIgnoredByUdev(_ identity: DeviceIdentity) -> Bool {
        ["1", "true", "yes"].contains(identity.udevProperties["FOCUSD_IGNORE"]?.lowercased() ?? "")
    }

    /// The default grab of a class (input.md §6): exclusive for navigation-only devices.
    public static func defaultGrab(for deviceClass: DeviceClass) -> GrabMode {
        switch deviceClass {
        case .remote, .gamepad, .rotary: .exclusive
        case .keyboard, .pointer, .touchpad, .other: .shared
        }
    }
}
