// SDL_GameControllerDB mapping strings (`GUID,name,a:b0,dpup:h0.1,leftx:a0,...`) for pads whose
// driver does not follow the kernel's gamepad layout. Sources are numbered the way SDL's Linux
// joystick backend numbers them, so strings from the database apply unchanged:
//   buttons: key codes from BTN_JOYSTICK (0x120) up to KEY_MAX in order, then 0 up to BTN_JOYSTICK;
//   axes:    absolute axes in code order, skipping ABS_HAT0X...ABS_HAT3Y;
//   hats:    the present ABS_HATnX/ABS_HATnY pairs in order.

/// One parsed SDL game controller mapping.
public struct GamepadMapping: Hashable, Sendable {
    /// Which half of an axis: `+a2` / `-a2` on the source side, `+leftx` / `-leftx` on the target side.
    public enum Half: Hashable, Sendable {
        case positive, negative
    }

    /// Where a value comes from on the raw device.
    public enum Source: Hashable, Sendable {
        /// `bN`: the Nth button.
        case button(Int)
        /// `hN.M`: hat N, direction bit M (1 up, 2 right, 4 down, 8 left).
        case hat(Int, mask: Int)
        /// `aN`, `+aN`, `-aN`, `aN~`: the Nth axis, optionally one half, optionally inverted.
        case axis(Int, half: Half?, inverted: Bool)
    }

    /// What the source stands for, in the kernel's gamepad layout.
    public enum Target: Hashable, Sendable {
        /// A button of the kernel gamepad layout (`BTN_SOUTH`, `BTN_DPAD_UP`, ...).
        case button(UInt16)
        /// An axis of the kernel gamepad layout (`ABS_X`, `ABS_Y`, `ABS_RX`, `ABS_RY`, `ABS_Z`, `ABS_RZ`).
        case axis(UInt16, half: Half?)
    }

    public struct Binding: Hashable, Sendable {
        public var target: Target
        public var source: Source
    }

    /// The SDL GUID, 32 hex digits.
    public var guid: String
    public var name: String
    public var bindings: [Binding]
    /// Fields SDL ignores and so does focusd (unknown elements, empty sources), in words.
    public var warnings: [String] = []

    /// SDL element names → kernel gamepad buttons.
    static let buttonTargets: [String: UInt16] = [
        "a": EventCode.BTN_SOUTH, "b": EventCode.BTN_EAST, "x": EventCode.BTN_WEST, "y": EventCode.BTN_NORTH,
        "back": EventCode.BTN_SELECT, "guide": EventCode.BTN_MODE, "start": EventCode.BTN_START,
        "leftstick": EventCode.BTN_THUMBL, "rightstick": EventCode.BTN_THUMBR,
        "leftshoulder": EventCode.BTN_TL, "rightshoulder": EventCode.BTN_TR,
        "dpup": EventCode.BTN_DPAD_UP, "dpdown": EventCode.BTN_DPAD_DOWN,
        "dpleft": EventCode.BTN_DPAD_LEFT, "dpright": EventCode.BTN_DPAD_RIGHT,
        "misc1": EventCode.BTN_TRIGGER_HAPPY1, "paddle1": EventCode.BTN_TRIGGER_HAPPY2,
        "paddle2": EventCode.BTN_TRIGGER_HAPPY3, "paddle3": EventCode.BTN_TRIGGER_HAPPY4,
        "paddle4": EventCode.BTN_TRIGGER_HAPPY5, "touchpad": EventCode.BTN_TRIGGER_HAPPY6,
        "misc2": EventCode.BTN_TRIGGER_HAPPY7, "misc3": EventCode.BTN_TRIGGER_HAPPY8, "misc4": EventCode.BTN_TRIGGER_HAPPY9,
        "misc5": EventCode.BTN_TRIGGER_HAPPY10, "misc6": EventCode.BTN_TRIGGER_HAPPY11,
    ]

    /// SDL element names → kernel gamepad axes (a trigger bound to a button becomes BTN_TL2/BTN_TR2).
    static let axisTargets: [String: UInt16] = [
        "leftx": EventCode.ABS_X, "lefty": EventCode.ABS_Y, "rightx": EventCode.ABS_RX, "righty": EventCode.ABS_RY,
        "lefttrigger": EventCode.ABS_Z, "righttrigger": EventCode.ABS_RZ,
    ]

    static let triggerButtons: [String: UInt16] = ["lefttrigger": EventCode.BTN_TL2, "righttrigger": EventCode.BTN_TR2]

    /// Fields that carry no binding.
    static let ignoredFields: Set<String> = ["platform", "crc", "hint", "sdk>=", "sdk<=", "type", "face"]

    public init(guid: String, name: String, bindings: [Binding]) {
        self.guid = guid
        self.name = name
        self.bindings = bindings
    }

    /// Parses one mapping string.
    /// - Throws: `ConfigError` (without a line; the caller knows it) naming the bad field.
    public static func parse(_ text: String) throws(ConfigError) -> GamepadMapping {
        var fields = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: " \t")
        }
        if fields.last == "" { fields.removeLast() }
        guard fields.count >= 2 else {
            throw ConfigError("gamepad mapping needs 'GUID,name,bindings...', found '\(text)'")
        }
        // SDL reads the first 32 hex digits of a longer GUID.
        let guid = String(fields[0].lowercased().prefix(32))
        guard guid.count == 32, fields[0].allSatisfy(\.isHexDigit) else {
            throw ConfigError("gamepad mapping GUID must be 32 hex digits, found '\(fields[0])'")
        }
        var bindings: [Binding] = []
        var warnings: [String] = []
        for rawField in fields.dropFirst(2) {
            // As SDL: spaces anywhere in a field are dropped ("a0 ~" is "a0~").
            let field = rawField.filter { $0 != " " }
            guard let colon = field.firstIndex(of: ":") else {
                throw ConfigError("gamepad mapping field '\(field)' is not 'element:source'")
            }
            // As SDL: element names are compared ignoring case.
            var element = Substring(field[..<colon].lowercased())
            let sourceText = field[field.index(after: colon)...]
            if ignoredFields.contains(String(element)) { continue }
            // As SDL: an empty source binds nothing; an element bound twice takes both sources.
            if sourceText.isEmpty {
                warnings.append("'\(field)': empty source, ignored")
                continue
            }
            var targetHalf: Half?
            if element.first == "+" || element.first == "-" {
                targetHalf = element.first == "+" ? .positive : .negative
                element = element.dropFirst()
            }
            // As SDL: a source it cannot read (`x5`) binds nothing; the rest of the line still counts.
            let source: Source
            do throws(ConfigError) {
                source = try parseSource(sourceText, field: field)
            } catch where sourceText.first.map({ !"abh+-".contains($0) }) ?? false {
                warnings.append("'\(field)': source '\(sourceText)' is not bN, hN.M or aN, ignored")
                continue
            }
            // As SDL: a trigger is 0...max whatever half the line gives it.
            if triggerButtons[String(element)] != nil { targetHalf = nil }
            let target: Target
            if let axis = axisTargets[String(element)] {
                if case .axis = source {
                    target = .axis(axis, half: targetHalf)
                } else if let button = triggerButtons[String(element)] {
                    target = .button(button)
                } else if let half = targetHalf {
                    target = .axis(axis, half: half)
                } else {
                    target = .axis(axis, half: nil)
                }
            } else if let button = buttonTargets[String(element)] {
                guard targetHalf == nil else {
                    throw ConfigError("gamepad mapping: '\(field)': only axes take a '+' or '-' half")
                }
                target = .button(button)
            } else {
                warnings.append("'\(field)': unknown element '\(element)', ignored")
                continue
            }
            bindings.append(Binding(target: target, source: source))
        }
        var mapping = GamepadMapping(guid: guid, name: fields[1], bindings: bindings)
        mapping.warnings = warnings
        return mapping
    }

    static func parseSource(_ text: Substring, field: String) throws(ConfigError) -> Source {
        var body = text
        var half: Half?
        if body.first == "+" || body.first == "-" {
            half = body.first == "+" ? .positive : .negative
            body = body.dropFirst()
        }
        var inverted = false
        if body.last == "~" {
            inverted = true
            body = body.dropLast()
        }
        guard let kind = body.first else { throw ConfigError("gamepad mapping: '\(field)' has no source") }
        // As SDL (atoi): the digits at the start count, anything after them is ignored (`b2x` is `b2`).
        let rest = body.dropFirst().prefix { $0.isASCII && $0.isNumber }
        let hatRest = body.dropFirst().prefix { ($0.isASCII && $0.isNumber) || $0 == "." }
        switch kind {
        case "b":
            guard half == nil, !inverted, let index = Int(rest), index >= 0 else {
                throw ConfigError("gamepad mapping: bad button source '\(text)' in '\(field)'")
            }
            return .button(index)
        case "h":
            let parts = hatRest.split(separator: ".", omittingEmptySubsequences: false)
            guard half == nil, !inverted, parts.count == 2, let hat = Int(parts[0]), let mask = Int(parts[1]),
                hat >= 0, (1...15).contains(mask)
            else {
                throw ConfigError("gamepad mapping: bad hat source '\(text)' in '\(field)' (hN.M, M a mask of 1 up, 2 right, 4 down, 8 left)")
            }
            return .hat(hat, mask: mask)
        case "a":
            guard let index = Int(rest), index >= 0 else {
                throw ConfigError("gamepad mapping: bad axis source '\(text)' in '\(field)'")
            }
            return .axis(index, half: half, inverted: inverted)
        default:
            throw ConfigError("gamepad mapping: source '\(text)' in '\(field)' must be bN, hN.M or aN")
        }
    }

    /// The vendor and product encoded in an SDL GUID (bytes 4-5 and 8-9, little-endian), when present.
    public var vendorProduct: (vendor: Int, product: Int)? {
        let bytes = stride(from: 0, to: 32, by: 2).compactMap { offset -> Int? in
            let start = guid.index(guid.startIndex, offsetBy: offset)
            return Int(guid[start..<guid.index(start, offsetBy: 2)], radix: 16)
        }
        guard bytes.count == 16 else { return nil }
        let vendor = bytes[4] | bytes[5] << 8
        let product = bytes[8] | bytes[9] << 8
        return vendor == 0 && product == 0 ? nil : (vendor, product)
    }
}

/// SDL's numbering of a device's buttons, axes and hats (see the top of this file).
public struct SDLJoystickLayout: Hashable, Sendable {
    public var buttons: [UInt16]
    public var axes: [UInt16]
    /// The ABS_HATnX code of each present hat.
    public var hats: [UInt16]

    public init(_ capabilities: Capabilities) {
        let keys = capabilities.keys.sorted()
        buttons = keys.filter { $0 >= EventCode.BTN_JOYSTICK && $0 < EventCode.KEY_MAX }
            + keys.filter { $0 < EventCode.BTN_JOYSTICK }
        let absolute = capabilities.absoluteAxes.keys.sorted()
        axes = absolute.filter { $0 < EventCode.ABS_HAT0X || $0 > EventCode.ABS_HAT3Y }
        hats = stride(from: EventCode.ABS_HAT0X, through: EventCode.ABS_HAT3X, by: 2).filter {
            capabilities.absoluteAxes[$0] != nil || capabilities.absoluteAxes[$0 + 1] != nil
        }
    }
}

extension String {
    /// The string without leading and trailing characters of `set` (Foundation's, without Foundation).
    public func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        var slice = Substring(self)
        while let first = slice.first, characters.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, characters.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}

extension Substring {
    public func trimmingCharacters(in set: String) -> String { String(self).trimmingCharacters(in: set) }
}
