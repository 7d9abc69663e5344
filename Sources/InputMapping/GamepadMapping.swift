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

    /// What an element name stands for (one lookup per field).
    enum Element {
        case button(UInt16)
        /// A stick or trigger axis; a trigger also has the button it becomes when bound to one.
        case axis(UInt16, trigger: UInt16?)
        case ignored
    }

    /// An element name of at most 16 bytes, packed (longer ones are no element).
    struct ElementKey: Equatable {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var count: UInt8

        /// The name lowercased (ASCII, as SDL compares them); nil when longer than 16 bytes.
        init?(_ bytes: Bytes) {
            guard bytes.count <= 16 else { return nil }
            count = UInt8(bytes.count)
            var shift: UInt64 = 0
            for byte in bytes {
                let lower = UInt64(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
                if shift < 64 { low |= lower << shift } else { high |= lower << (shift - 64) }
                shift += 8
            }
        }

        var slot: Int {
            Int(truncatingIfNeeded: (low &* 0x9E37_79B9_7F4A_7C15 ^ high &* 0xC2B2_AE3D_27D4_EB4F ^ UInt64(count)) >> 57)
        }

        init(_ name: String) {
            var copy = name
            self = copy.withUTF8 { ElementKey($0[...])! }
        }
    }

    /// Every element name in an open-addressed table of 128 slots, hashed by one multiply (each
    /// field of every line looks its element up: a `Dictionary`'s SipHash was a tenth of a
    /// database's reading).
    static let elementTable: [(key: ElementKey, element: Element)?] = {
        var table = [(key: ElementKey, element: Element)?](repeating: nil, count: 128)
        func insert(_ name: String, _ element: Element) {
            let key = ElementKey(name)
            var slot = key.slot
            while table[slot] != nil { slot = (slot + 1) & 127 }
            table[slot] = (key, element)
        }
        for (name, code) in buttonTargets { insert(name, .button(code)) }
        for (name, code) in axisTargets { insert(name, .axis(code, trigger: triggerButtons[name])) }
        for name in ignoredFields { insert(name, .ignored) }
        return table
    }()

    /// The element a name (as bytes, any case) stands for, nil for an unknown one.
    static func element(_ name: Bytes) -> Element? {
        guard let key = ElementKey(name) else { return nil }
        var slot = key.slot
        while let entry = elementTable[slot] {
            if entry.key == key { return entry.element }
            slot = (slot + 1) & 127
        }
        return nil
    }

    /// Bytes of a mapping string: a slice of the caller's buffer (no copy, no reference counting).
    typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

    /// Parses one mapping string. It is read as bytes, as SDL reads it: fields end at commas,
    /// spaces and tabs around a field do not count, spaces inside a binding are dropped, element
    /// names are compared ignoring ASCII case.
    /// - Throws: `ConfigError` (without a line; the caller knows it) naming the bad field.
    public static func parse(_ text: String) throws(ConfigError) -> GamepadMapping {
        var text = text
        return try text.withUTF8 { bytes in Result { () throws(ConfigError) in try parse(bytes: bytes) } }.get()
    }

    /// `parse(_:)` of UTF-8 bytes (a database's line, read in place).
    static func parse(bytes: UnsafeBufferPointer<UInt8>) throws(ConfigError) -> GamepadMapping {
        var fields: [Range<Int>] = []
        fields.reserveCapacity(32)
        var start = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: ",") {
            var lower = start, upper = index
            while lower < upper && (bytes[lower] == 0x20 || bytes[lower] == 0x09) { lower += 1 }
            while upper > lower && (bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09) { upper -= 1 }
            fields.append(lower..<upper)
            start = index + 1
        }
        if fields.last?.isEmpty == true { fields.removeLast() }
        guard fields.count >= 2 else {
            throw ConfigError("gamepad mapping needs 'GUID,name,bindings...', found '\(string(bytes[...]))'")
        }
        // SDL reads the first 32 hex digits of a longer GUID.
        let guidBytes = bytes[fields[0]]
        guard guidBytes.count >= 32, guidBytes.allSatisfy({ SDLGUID.nibble($0) != nil }) else {
            throw ConfigError("gamepad mapping GUID must be 32 hex digits, found '\(string(guidBytes))'")
        }
        var bindings: [Binding] = []
        bindings.reserveCapacity(fields.count - 2)
        var warnings: [String] = []
        for range in fields.dropFirst(2) {
            // As SDL: spaces anywhere in a field are dropped ("a0 ~" is "a0~").
            if bytes[range].contains(0x20) {
                let packed = bytes[range].filter { $0 != 0x20 }
                try packed.withUnsafeBufferPointer { (field) throws(ConfigError) in
                    try bind(field[...], into: &bindings, warnings: &warnings)
                }
            } else {
                try bind(bytes[range], into: &bindings, warnings: &warnings)
            }
        }
        let guid = String(decoding: guidBytes.prefix(32).lazy.map { $0 >= 0x41 && $0 <= 0x46 ? $0 | 0x20 : $0 }, as: UTF8.self)
        var mapping = GamepadMapping(guid: guid, name: string(bytes[fields[1]]), bindings: bindings)
        mapping.warnings = warnings
        return mapping
    }

    /// One `element:source` field (spaces dropped): its binding, or a warning, or the error.
    private static func bind(_ field: Bytes, into bindings: inout [Binding], warnings: inout [String]) throws(ConfigError) {
        guard let colon = field.firstIndex(of: UInt8(ascii: ":")) else {
            throw ConfigError("gamepad mapping field '\(string(field))' is not 'element:source'")
        }
        var elementBytes = field[..<colon]
        let sourceText = field[(colon + 1)...]
        // As SDL: element names are compared ignoring case.
        if case .ignored = element(elementBytes) { return }
        // As SDL: an empty source binds nothing; an element bound twice takes both sources.
        if sourceText.isEmpty {
            warnings.append("'\(string(field))': empty source, ignored")
            return
        }
        var targetHalf: Half?
        if let sign = elementBytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            targetHalf = sign == UInt8(ascii: "+") ? .positive : .negative
            elementBytes = elementBytes.dropFirst()
        }
        // As SDL: a source it cannot read (`x5`) binds nothing; the rest of the line still counts.
        let source: Source
        do throws(ConfigError) {
            source = try parseSource(sourceText, field: field)
        } catch where !"abh+-".utf8.contains(sourceText.first!) {
            warnings.append("'\(string(field))': source '\(string(sourceText))' is not bN, hN.M or aN, ignored")
            return
        }
        let target: Target
        switch element(elementBytes) {
        case .axis(let axis, let trigger?):
            // As SDL: a trigger is 0...max whatever half the line gives it.
            if case .axis = source { target = .axis(axis, half: nil) } else { target = .button(trigger) }
        case .axis(let axis, nil):
            target = .axis(axis, half: targetHalf)
        case .button(let button):
            guard targetHalf == nil else {
                throw ConfigError("gamepad mapping: '\(string(field))': only axes take a '+' or '-' half")
            }
            target = .button(button)
        case .ignored, nil:
            let lowered = elementBytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            warnings.append("'\(string(field))': unknown element '\(String(decoding: lowered, as: UTF8.self))', ignored")
            return
        }
        bindings.append(Binding(target: target, source: source))
    }

    static func string(_ bytes: Bytes) -> String { String(decoding: bytes, as: UTF8.self) }

    /// The decimal number of `digits` (ASCII digits only), nil when empty or too large for an Int.
    static func decimal(_ digits: Bytes) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for digit in digits {
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(Int(digit &- 0x30))
            if overflow || carry { return nil }
            value = sum
        }
        return value
    }

    static func parseSource(_ text: Bytes, field: Bytes) throws(ConfigError) -> Source {
        var body = text
        var half: Half?
        if let sign = body.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            half = sign == UInt8(ascii: "+") ? .positive : .negative
            body = body.dropFirst()
        }
        var inverted = false
        if body.last == UInt8(ascii: "~") {
            inverted = true
            body = body.dropLast()
        }
        guard let kind = body.first else { throw ConfigError("gamepad mapping: '\(string(field))' has no source") }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        // As SDL (atoi): the digits at the start count, anything after them is ignored (`b2x` is `b2`).
        let rest = body.dropFirst().prefix(while: isDigit)
        switch kind {
        case UInt8(ascii: "b"):
            guard half == nil, !inverted, let index = decimal(rest) else {
                throw ConfigError("gamepad mapping: bad button source '\(string(text))' in '\(string(field))'")
            }
            return .button(index)
        case UInt8(ascii: "h"):
            let hatRest = body.dropFirst().prefix { isDigit($0) || $0 == UInt8(ascii: ".") }
            let parts = hatRest.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            guard half == nil, !inverted, parts.count == 2, let hat = decimal(parts[0]), let mask = decimal(parts[1]),
                (1...15).contains(mask)
            else {
                throw ConfigError(
                    "gamepad mapping: bad hat source '\(string(text))' in '\(string(field))' (hN.M, M a mask of 1 up, 2 right, 4 down, 8 left)")
            }
            return .hat(hat, mask: mask)
        case UInt8(ascii: "a"):
            guard let index = decimal(rest) else {
                throw ConfigError("gamepad mapping: bad axis source '\(string(text))' in '\(string(field))'")
            }
            return .axis(index, half: half, inverted: inverted)
        default:
            throw ConfigError("gamepad mapping: source '\(string(text))' in '\(string(field))' must be bN, hN.M or aN")
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
