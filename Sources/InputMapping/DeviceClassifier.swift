// Which class a device node is, and whether focusd may take it exclusively (input.md §2).
//
// One function (`classification`) decides for a live node and for a description (§9): its base
// is udev's ID_INPUT_* (from udevd, or derived by `UdevInputID` without it); focusd only narrows
// (remote, rotary, the extra-keys nodes of keyboards) and grabs exclusively only what it is sure
// is a dedicated navigation device. Every fact that decided is written down in `reasons`.

/// What focusd decides about one node, with the facts that decided it.
public struct Classification: Hashable, Sendable {
    public var deviceClass: DeviceClass
    /// `none` for `other` (not opened); `shared` whenever a never-grab fact holds.
    public var grab: GrabMode
    /// The facts that decided, in words (input.md §9 `reasons`).
    public var reasons: [String]
    /// The ID_INPUT_* base: udevd's when it ran (filled in by the derivation), else derived.
    public var properties: [String: String]
    /// Whether the base came from udevd.
    public var fromUdev: Bool

    /// libinput for touchpads, libevdev for the rest, nil for `other` (not opened).
    public var backend: Backend? {
        deviceClass == .other ? nil : DeviceClassifier.backend(for: deviceClass)
    }
}

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
    /// Keys found on TV remotes; with arrows and KEY_ENTER one of them makes a remote's OK.
    static let remoteKeys: Set<UInt16> = [
        EventCode.KEY_BACK, EventCode.KEY_HOMEPAGE, EventCode.KEY_MENU, EventCode.KEY_CHANNELUP,
        EventCode.KEY_CHANNELDOWN, EventCode.KEY_EPG, EventCode.KEY_INFO, EventCode.KEY_EXIT, EventCode.KEY_NUMERIC_0,
        EventCode.KEY_TV, EventCode.KEY_RED, EventCode.KEY_GREEN, EventCode.KEY_CONTEXT_MENU,
    ]
    /// Keys of a PC's keyboard or its consumer-control node, never of a TV remote: three of them
    /// make an extra-keys node a keyboard's, however many remote keys it also declares.
    static let computerKeys: Set<UInt16> = [
        EventCode.KEY_CALC, EventCode.KEY_MAIL, EventCode.KEY_FILE, EventCode.KEY_WWW, EventCode.KEY_COFFEE,
        EventCode.KEY_BOOKMARKS, EventCode.KEY_COMPUTER, EventCode.KEY_CUT, EventCode.KEY_COPY, EventCode.KEY_PASTE,
        EventCode.KEY_UNDO, EventCode.KEY_WLAN, EventCode.KEY_PROG1, EventCode.KEY_SCALE, EventCode.KEY_DASHBOARD,
        EventCode.KEY_CAPSLOCK, EventCode.KEY_LEFTCTRL, EventCode.KEY_LEFTALT, EventCode.KEY_F1,
        EventCode.KEY_TOUCHPAD_TOGGLE, EventCode.KEY_MICMUTE, EventCode.KEY_SWITCHVIDEOMODE, EventCode.KEY_BATTERY,
    ]
    /// Keys of power and sleep buttons: a node with only these is `other`.
    static let powerKeys: Set<UInt16> = [
        EventCode.KEY_POWER, EventCode.KEY_SLEEP, EventCode.KEY_WAKEUP, EventCode.KEY_SUSPEND, EventCode.KEY_POWER2,
    ]
    /// Node names of a keyboard's extra-keys siblings. A name only ever makes focusd share a node.
    static let keyboardSiblingNameSuffixes = ["Consumer Control", "System Control", "Keyboard", "keyboard"]
    /// Tools and buttons of pens and tablets.
    static let penCodes: Set<UInt16> = [
        EventCode.BTN_TOOL_PEN, EventCode.BTN_STYLUS, EventCode.BTN_TOOL_RUBBER, EventCode.BTN_TOOL_BRUSH,
        EventCode.BTN_TOOL_PENCIL, EventCode.BTN_TOOL_AIRBRUSH, EventCode.BTN_TOOL_MOUSE, EventCode.BTN_TOOL_LENS,
    ]
    /// The relative axes a knob may have: its dial or wheel and a wheel's other axes.
    static let knobRelativeAxes: Set<UInt16> = [
        EventCode.REL_DIAL, EventCode.REL_WHEEL, EventCode.REL_WHEEL_HI_RES, EventCode.REL_HWHEEL,
        EventCode.REL_HWHEEL_HI_RES, EventCode.REL_MISC,
    ]
    /// udev classes a node is never grabbed exclusively under, by inference.
    static let neverGrabProperties = [
        "ID_INPUT_MOUSE", "ID_INPUT_POINTINGSTICK", "ID_INPUT_TOUCHSCREEN", "ID_INPUT_TABLET", "ID_INPUT_TABLET_PAD",
        "ID_INPUT_ACCELEROMETER", "ID_INPUT_SWITCH", "ID_INPUT_KEYBOARD",
    ]

    /// The class of a device node (input.md §2); see `classification`.
    public static func classify(_ identity: DeviceIdentity) -> DeviceClass {
        classification(identity).deviceClass
    }

    /// Class, grab and reasons of a node (input.md §2, §9): the one function the daemon and
    /// `focusd classify` use.
    ///
    /// - Parameters:
    ///   - identity: the node; udev's properties in `udevProperties` (empty without udevd).
    ///     Properties udevd gave win over the derived ones; a value "0" or "" unsets one.
    ///   - siblings: other nodes of the same physical device (same `group`): a remote is never a
    ///     keyboard's or a mouse's sibling.
    public static func classification(_ identity: DeviceIdentity, siblings: [DeviceIdentity] = []) -> Classification {
        let caps = identity.capabilities
        let udev = identity.udevProperties
        let fromUdev = udev.keys.contains { $0.hasPrefix("ID_INPUT") }
        var properties = UdevInputID.properties(caps, bus: identity.bus)
        if fromUdev {
            for (key, value) in udev where key.hasPrefix("ID_INPUT") {
                properties[key] = value == "0" || value.isEmpty ? nil : value
            }
        }
        // udevd before systemd 254 (Debian 12 runs 252) calls a keyboard with one stray joystick
        // button a joystick; its own later rule takes that back, and so does focusd.
        var undetectedJoystick: String?
        if fromUdev, properties["ID_INPUT_JOYSTICK"] != nil, let why = UdevInputID.joystickUndetection(caps) {
            properties["ID_INPUT_JOYSTICK"] = nil
            undetectedJoystick = why
        }
        func has(_ key: String) -> Bool { properties[key] != nil && properties[key] != "0" }
        let udevClasses = UdevInputID.classProperties.filter(has)
        var reasons = [
            udevClasses.isEmpty
                ? (fromUdev ? "udev set no ID_INPUT_* class" : "no udevd; udev's input_id rules give no class")
                : (fromUdev ? "udev: " : "no udevd; udev's input_id rules give ") + udevClasses.joined(separator: ", ")
        ]
        if let undetectedJoystick { reasons.append("udev's ID_INPUT_JOYSTICK not taken: " + undetectedJoystick) }
        // Facts that forbid an exclusive grab by inference (input.md §2).
        var neverGrab: [String] = neverGrabProperties.filter(has).map { "\($0) (never grabbed by inference)" }
        if !caps.switches.isEmpty || caps.eventTypes.contains(EventCode.EV_SW) {
            let names = caps.switches.sorted().map { EventCode.name(type: EventCode.EV_SW, code: $0) ?? "\($0)" }
            neverGrab.append("reports switches \(names.joined(separator: ", ")) (must reach logind)")
        }
        func decide(_ deviceClass: DeviceClass, _ why: String) -> Classification {
            reasons.append(why)
            var grab = defaultGrab(for: deviceClass)
            if deviceClass == .other {
                grab = .none
            } else if grab == .exclusive && !neverGrab.isEmpty {
                grab = .shared
                reasons.append("shared, not exclusive: " + neverGrab.joined(separator: "; "))
            } else {
                reasons.append(grab == .exclusive ? "exclusive: a dedicated navigation device" : "shared: other programs read it too")
            }
            return Classification(deviceClass: deviceClass, grab: grab, reasons: reasons, properties: properties, fromUdev: fromUdev)
        }

        if udev["ID_INPUT_FOCUSD_ROTARY"] == "1" {
            reasons.append("udev tag ID_INPUT_FOCUSD_ROTARY=1: a rotary knob")
            reasons.append("exclusive: tagged by a udev rule")
            return Classification(deviceClass: .rotary, grab: .exclusive, reasons: reasons, properties: properties, fromUdev: fromUdev)
        }
        if has("ID_INPUT_ACCELEROMETER") { return decide(.other, "an accelerometer") }
        if has("ID_INPUT_TABLET_PAD") { return decide(.other, "a tablet pad (its dials and buttons belong to the tablet)") }
        // A tablet's finger-touch node is a touchpad (libinput reads it as one); its pen is not.
        if has("ID_INPUT_TOUCHPAD") { return decide(.touchpad, "a touchpad: swipes move focus") }
        if has("ID_INPUT_TABLET") { return decide(.other, "a tablet or pen") }
        if has("ID_INPUT_TOUCHSCREEN") { return decide(.other, "a touchscreen") }
        if has("ID_INPUT_JOYSTICK") {
            // Analog data on hat codes (a Wii Balance Board's weight sensors) is no D-pad, and a
            // node that carries it is no dedicated navigation device.
            let analogHats = caps.nonDpadHatAxes
            if !analogHats.isEmpty {
                let ranges = analogHats.map { code in
                    "\(EventCode.name(type: EventCode.EV_ABS, code: code) ?? "\(code)") \(caps.absoluteAxes[code]!.minimum)...\(caps.absoluteAxes[code]!.maximum)"
                }
                neverGrab.append("hat axes with a range that is not a D-pad's -1...1 (\(ranges.joined(separator: ", "))): not a D-pad")
            }
            return decide(.gamepad, "a joystick or gamepad")
        }

        let rel = caps.relativeAxes
        let abs = caps.absoluteAxes
        if identity.bus == Int(EventCode.BUS_HOST) && rel.count == 1 && abs.isEmpty && caps.keys.isEmpty {
            let axis = EventCode.name(type: EventCode.EV_REL, code: rel.first!) ?? "\(rel.first!)"
            return decide(.rotary, "a GPIO rotary-encoder node: BUS_HOST, one relative axis (\(axis)), nothing else")
        }
        let isPen = !caps.keys.isDisjoint(with: penCodes)
            || abs.keys.contains { [EventCode.ABS_PRESSURE, EventCode.ABS_TILT_X, EventCode.ABS_TILT_Y, EventCode.ABS_DISTANCE].contains($0) }
        let knobRel = rel.intersection([EventCode.REL_DIAL, EventCode.REL_WHEEL, EventCode.REL_WHEEL_HI_RES])
        let knobAbs = abs[EventCode.ABS_WHEEL] != nil && abs.keys.allSatisfy { $0 == EventCode.ABS_WHEEL || $0 == EventCode.ABS_MISC }
        if (!knobRel.isEmpty && rel.isSubset(of: knobRelativeAxes) && abs.isEmpty) || (knobAbs && rel.isEmpty) {
            if isPen {
                reasons.append("a wheel on a pen or tablet is not a knob")
            } else if has("ID_INPUT_KEYBOARD") {
                reasons.append("a wheel on a keyboard is not a knob")
            } else {
                if identity.name.lowercased().includes("mouse") {
                    neverGrab.append("named like a mouse (\"\(identity.name)\"): its wheel may be the desktop's scroll wheel")
                }
                let axes = (knobRel.sorted().map { EventCode.name(type: EventCode.EV_REL, code: $0) ?? "\($0)" })
                    + (knobAbs ? ["ABS_WHEEL"] : [])
                return decide(.rotary, "a knob: motion only on \(axes.joined(separator: ", ")), no X/Y axis")
            }
        }
        // rc-core (IR receivers, HDMI-CEC adapters) gives every node REL_X/REL_Y and
        // INPUT_PROP_POINTING_STICK for IR mice (kernel 4.20+), so udev calls it a pointing stick;
        // its autorepeated keys tell it from a real one, which has none.
        let rcCore = caps.properties.contains(EventCode.INPUT_PROP_POINTING_STICK)
            && rel == [EventCode.REL_X, EventCode.REL_Y] && abs.isEmpty && caps.kernelRepeat
            && caps.keys.contains { $0 < EventCode.BTN_MISC || $0 >= EventCode.KEY_OK }
            && !has("ID_INPUT_MOUSE")
        if rcCore {
            reasons.append("an rc-core node: autorepeated keys with rc-core's REL_X/REL_Y and INPUT_PROP_POINTING_STICK for IR mice")
            neverGrab.removeAll { $0.hasPrefix("ID_INPUT_POINTINGSTICK") }
            return keysOnly(identity, siblings: siblings, neverGrab: neverGrab, rcCore: true, decide: decide)
        }
        if has("ID_INPUT_KEYBOARD") { return decide(.keyboard, "a keyboard (a letter block)") }
        if has("ID_INPUT_MOUSE") || has("ID_INPUT_POINTINGSTICK") {
            return decide(.pointer, "a pointer: its wheel turns the crown")
        }
        if has("ID_INPUT_KEY") {
            return keysOnly(identity, siblings: siblings, neverGrab: neverGrab, rcCore: false, decide: decide)
        }
        if has("ID_INPUT_SWITCH") { return decide(.other, "switches only") }
        return decide(.other, "nothing focusd can navigate with")
    }

    /// A node with keys and no letter block: a remote, a keyboard's or laptop's extra keys, or a
    /// power button.
    private static func keysOnly(
        _ identity: DeviceIdentity, siblings: [DeviceIdentity], neverGrab: [String], rcCore: Bool,
        decide: (DeviceClass, String) -> Classification
    ) -> Classification {
        let caps = identity.capabilities
        let keys = caps.keys
        if keys.isSubset(of: powerKeys.union(keys.filter { $0 >= EventCode.BTN_MISC })) {
            return decide(.other, "power or sleep keys only")
        }
        if !keys.contains(where: { DefaultCommandMap.keyboard[$0] != nil }) {
            return decide(.other, "no key focusd maps (volume, brightness, switches...): a profile can map them")
        }
        let isCEC = identity.bus == Int(EventCode.BUS_CEC)
        let arrows = arrowKeys.allSatisfy(keys.contains)
        let ok = keys.contains(EventCode.KEY_OK) || keys.contains(EventCode.KEY_SELECT)
            || (keys.contains(EventCode.KEY_ENTER) && !keys.isDisjoint(with: remoteKeys))
        var notRemote: [String] = []
        if !arrows { notRemote.append("no four arrow keys") }
        if !ok { notRemote.append("no OK/select key") }
        let letters = letterKeys.filter(keys.contains).count
        if letters > 0 { notRemote.append("\(letters) letter keys") }
        if (!caps.relativeAxes.isEmpty && !rcCore) || !caps.absoluteAxes.isEmpty { notRemote.append("has axes") }
        if !neverGrab.isEmpty { notRemote.append(neverGrab.joined(separator: "; ")) }
        let computer = keys.intersection(computerKeys).count
        if computer >= 3 && !isCEC { notRemote.append("\(computer) computer keys (calculator, mail, brightness...)") }
        if !isCEC, let suffix = keyboardSiblingNameSuffixes.first(where: { identity.name.hasSuffix($0) }) {
            notRemote.append("named like a keyboard's extra-keys node (\"…\(suffix)\")")
        }
        let pointerOrKeyboard = siblings.filter { sibling in
            guard sibling.node != identity.node else { return false }
            let base = classification(sibling).properties
            return base["ID_INPUT_KEYBOARD"] != nil || base["ID_INPUT_MOUSE"] != nil
        }
        if let sibling = pointerOrKeyboard.first {
            notRemote.append("a sibling of keyboard or mouse node \(sibling.node) (\(sibling.name))")
        }
        if notRemote.isEmpty {
            if isCEC { return decide(.remote, "an HDMI-CEC adapter (BUS_CEC) with arrows and OK") }
            if rcCore { return decide(.remote, "an IR receiver: four arrows and OK/select, no letter block, no switches") }
            return decide(.remote, "a TV remote: four arrows and OK/select, no letter block, no axes, no switches")
        }
        return decide(.keyboard, "extra keys, not a remote: " + notRemote.joined(separator: "; "))
    }

    /// Classification from capabilities alone (no udevd).
    public static func classify(capabilities caps: Capabilities, name: String = "") -> DeviceClass {
        classify(DeviceIdentity(name: name, capabilities: caps))
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
