// Reading one `[[profile]]` table of the configuration file.

import InputMapping

enum ProfileReader {
    static let keys = [
        "name", "match", "ignore", "class", "backend", "grab", "commands", "repeat", "stick", "rotary",
        "longPress", "chord", "gamepadMapping", "passthrough",
    ]

    static func read(_ reader: inout ConfigReader) throws(ConfigError) -> Profile {
        guard let (name, namePosition) = try reader.string("name") else {
            throw ConfigError("[[profile]] needs a 'name'", at: reader.position)
        }
        guard !name.isEmpty else { throw ConfigError("'\(reader.qualified("name"))' must not be empty", at: namePosition) }
        var profile = Profile(name: name)
        if var match = try reader.table("match") { profile.match = try readMatch(&match) }
        if let ignore = try reader.bool("ignore") { profile.ignore = ignore }
        if let (text, position) = try reader.string("class") {
            profile.deviceClass = try enumValue(DeviceClass.self, text, key: reader.qualified("class"), at: position)
        }
        if let (text, position) = try reader.string("backend") {
            profile.backend = try enumValue(Backend.self, text, key: reader.qualified("backend"), at: position)
        }
        if let (text, position) = try reader.string("grab") {
            profile.grab = try enumValue(GrabMode.self, text, key: reader.qualified("grab"), at: position)
        }
        if var commands = try reader.table("commands") { profile.commands = try readCommands(&commands) }
        if var repeatTable = try reader.table("repeat") { profile.repeat = try readRepeat(&repeatTable) }
        if var stick = try reader.table("stick") { profile.stick = try readStick(&stick) }
        if var rotary = try reader.table("rotary") { profile.rotary = try readRotary(&rotary) }
        if let longPresses = try reader.tables("longPress") {
            for var item in longPresses { profile.longPresses.append(try readLongPress(&item)) }
        }
        if let chords = try reader.tables("chord") {
            for var item in chords { profile.chords.append(try readChord(&item)) }
        }
        if let (text, position) = try reader.string("gamepadMapping") {
            do throws(ConfigError) {
                profile.gamepadMapping = try GamepadMapping.parse(text)
                // A line for another platform numbers another backend's buttons: never applied here.
                if let platform = text.split(separator: ",").map({ $0.trimmingCharacters(in: " \t") })
                    .first(where: { $0.hasPrefix("platform:") }), platform != "platform:Linux"
                {
                    throw ConfigError("the line is for \(platform), and SDL's numbering differs there: use a platform:Linux line")
                }
            } catch {
                throw ConfigError("'\(reader.qualified("gamepadMapping"))': \(error.message)", at: position)
            }
        }
        profile.passthrough = try readPassthrough(&reader)
        try reader.finish(known: keys)
        return profile
    }

    /// `passthrough`: "unmapped", "none", or a list of key names (input.md §11).
    static func readPassthrough(_ reader: inout ConfigReader) throws(ConfigError) -> Passthrough? {
        guard let entry = reader.entry("passthrough") else { return nil }
        let key = reader.qualified("passthrough")
        switch entry.node.value {
        case .string("unmapped"): return .unmapped
        case .string("none"): return Passthrough.none
        case .string(let text):
            throw ConfigError("'\(key)' must be \"unmapped\", \"none\" or a list of key names, found \"\(text)\"", at: entry.node.position)
        case .array:
            let codes = try reader.array("passthrough") { (node, name) throws(ConfigError) -> UInt16 in
                try keyCode(try ConfigReader.stringElement(node, name), key: name, at: node.position)
            } ?? []
            return .keys(Set(codes))
        default:
            throw reader.typeError("passthrough", expected: "\"unmapped\", \"none\" or a list of key names", entry.node)
        }
    }

    static func enumValue<T: RawRepresentable & CaseIterable>(_ type: T.Type, _ text: String, key: String, at position: TOMLPosition)
        throws(ConfigError) -> T where T.RawValue == String
    {
        guard let value = T(rawValue: text) else {
            let allowed = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw ConfigError("'\(key)' must be one of \(allowed), found \"\(text)\"", at: position)
        }
        return value
    }

    /// A kernel key or button name (`KEY_ENTER`, `BTN_SOUTH`).
    static func keyCode(_ text: String, key: String, at position: TOMLPosition) throws(ConfigError) -> UInt16 {
        guard let named = EventCode.named(text) else {
            throw ConfigError("'\(key)': unknown event code '\(text)' (kernel names such as KEY_ENTER, BTN_SOUTH)", at: position)
        }
        guard named.type == EventCode.EV_KEY, named.code <= EventCode.KEY_MAX else {
            throw ConfigError("'\(key)': '\(text)' is not a key or button (KEY_*, BTN_*)", at: position)
        }
        return named.code
    }

    static func command(_ text: String, key: String, at position: TOMLPosition, allowEmpty: Bool) throws(ConfigError) -> String {
        if text.isEmpty && allowEmpty { return text }
        guard let first = text.unicodeScalars.first, first.properties.isAlphabetic,
            text.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") })
        else {
            throw ConfigError("'\(key)': command \"\(text)\" must be a word such as \"select\" or \"home\"", at: position)
        }
        return text
    }

    static func readMatch(_ reader: inout ConfigReader) throws(ConfigError) -> MatchRules {
        var match = MatchRules()
        if let (name, position) = try reader.string("name") {
            try Glob.validate(name, key: reader.qualified("name"), at: position)
            match.name = name
        }
        if let value = try reader.integer("vendor", in: 0...0xFFFF) { match.vendor = Int(value) }
        if let value = try reader.integer("product", in: 0...0xFFFF) { match.product = Int(value) }
        if let entry = reader.entry("bus") {
            switch entry.node.value {
            case .integer(let value) where (0...0xFFFF).contains(value): match.bus = Int(value)
            case .string(let text):
                guard let bus = BusType.names[text.lowercased()] else {
                    throw ConfigError("'\(reader.qualified("bus"))': unknown bus \"\(text)\" (known: \(BusType.names.keys.sorted().joined(separator: ", ")))", at: entry.node.position)
                }
                match.bus = bus
            default:
                throw reader.typeError("bus", expected: "a bus name such as \"usb\" or a number from 0 to 65535", entry.node)
            }
        }
        if let (phys, position) = try reader.string("phys") {
            try Glob.validate(phys, key: reader.qualified("phys"), at: position)
            match.phys = phys
        }
        if let (uniq, position) = try reader.string("uniq") {
            try Glob.validate(uniq, key: reader.qualified("uniq"), at: position)
            match.uniq = uniq
        }
        if let (text, position) = try reader.string("class") {
            match.deviceClass = try enumValue(DeviceClass.self, text, key: reader.qualified("class"), at: position)
        }
        if let capabilities = try reader.array("capabilities", { (node, name) throws(ConfigError) -> EventCode.Named in
            let text = try ConfigReader.stringElement(node, name)
            guard let named = EventCode.named(text),
                [EventCode.EV_KEY, EventCode.EV_REL, EventCode.EV_ABS, EventCode.PROPERTY].contains(named.type)
            else {
                throw ConfigError("'\(name)': unknown capability '\(text)' (KEY_*, BTN_*, REL_*, ABS_* or INPUT_PROP_*)", at: node.position)
            }
            return named
        }) {
            match.capabilities = capabilities
        }
        if let siblings = try reader.bool("siblings") { match.siblings = siblings }
        try reader.finish(known: ["name", "vendor", "product", "bus", "phys", "uniq", "class", "capabilities", "siblings"])
        return match
    }

    static func readCommands(_ reader: inout ConfigReader) throws(ConfigError) -> [UInt16: String] {
        var commands: [UInt16: String] = [:]
        for entry in reader.table.entries {
            let key = reader.qualified(entry.key)
            let code = try keyCode(entry.key, key: key, at: entry.keyPosition)
            guard case .string(let text) = entry.node.value else {
                throw reader.typeError(entry.key, expected: "a command name (\"\" to unmap)", entry.node)
            }
            commands[code] = try command(text, key: key, at: entry.node.position, allowEmpty: true)
            _ = reader.entry(entry.key)
        }
        return commands
    }

    static func readRepeat(_ reader: inout ConfigReader) throws(ConfigError) -> RepeatSettings {
        var settings = RepeatSettings()
        if let value = try reader.bool("enabled") { settings.enabled = value }
        if let value = try reader.integer("delay", in: 1...10_000) { settings.delayMs = Int(value) }
        if let value = try reader.integer("interval", in: 1...10_000) { settings.intervalMs = Int(value) }
        if let value = try reader.integer("fastInterval", in: 1...10_000) { settings.fastIntervalMs = Int(value) }
        if let value = try reader.integer("fastAfter", in: 0...60_000) { settings.fastAfterMs = Int(value) }
        if let value = try reader.bool("kernelRepeat") { settings.kernelRepeat = value }
        if let value = try reader.integer("keyUpTimeout", in: 100...10_000) { settings.keyUpTimeoutMs = Int(value) }
        if let commands = try reader.array("commands", { (node, name) throws(ConfigError) -> String in
            try command(try ConfigReader.stringElement(node, name), key: name, at: node.position, allowEmpty: false)
        }) {
            settings.commands = Set(commands)
        }
        try reader.finish(known: ["enabled", "delay", "interval", "fastInterval", "fastAfter", "kernelRepeat", "keyUpTimeout", "commands"])
        return settings
    }

    static func readStick(_ reader: inout ConfigReader) throws(ConfigError) -> StickSettings {
        var settings = StickSettings()
        if let value = try reader.number("press", in: 1...100) { settings.pressPercent = value }
        if let value = try reader.number("release", in: 0...100) { settings.releasePercent = value }
        if let value = try reader.bool("fourWay") { settings.fourWay = value }
        if settings.releasePercent >= settings.pressPercent {
            let position = reader.table["release"]?.node.position ?? reader.table["press"]?.node.position ?? reader.position
            throw ConfigError("'\(reader.qualified("release"))' (\(ConfigReader.format(settings.releasePercent)) %) must be below 'press' (\(ConfigReader.format(settings.pressPercent)) %), or the stick chatters", at: position)
        }
        try reader.finish(known: ["press", "release", "fourWay"])
        return settings
    }

    static func readRotary(_ reader: inout ConfigReader) throws(ConfigError) -> RotarySettings {
        var settings = RotarySettings()
        if let value = try reader.number("countsPerDetent", in: 0.001...1_000_000) { settings.countsPerDetent = value }
        if let value = try reader.number("acceleration", in: 0...1000) { settings.accelerationThreshold = value }
        if let value = try reader.integer("accelerationMax", in: 1...100) { settings.accelerationMax = Int(value) }
        if let value = try reader.bool("wrap") { settings.wrap = value }
        if let value = try reader.bool("reverse") { settings.reverse = value }
        if let value = try reader.integer("editIdle", in: 10...10_000) { settings.editIdleMs = Int(value) }
        try reader.finish(known: ["countsPerDetent", "acceleration", "accelerationMax", "wrap", "reverse", "editIdle"])
        return settings
    }

    static func readLongPress(_ reader: inout ConfigReader) throws(ConfigError) -> LongPress {
        guard let (keyText, keyPosition) = try reader.string("key") else {
            throw ConfigError("[[\(reader.path)]] needs a 'key' (such as \"KEY_BACK\")", at: reader.position)
        }
        let code = try keyCode(keyText, key: reader.qualified("key"), at: keyPosition)
        guard let (text, position) = try reader.string("command") else {
            throw ConfigError("[[\(reader.path)]] needs a 'command'", at: reader.position)
        }
        let command = try command(text, key: reader.qualified("command"), at: position, allowEmpty: false)
        let duration = try reader.integer("duration", in: 50...10_000) ?? 800
        try reader.finish(known: ["key", "command", "duration"])
        return LongPress(code: code, command: command, durationMs: Int(duration))
    }

    static func readChord(_ reader: inout ConfigReader) throws(ConfigError) -> Chord {
        guard let codes = try reader.array("keys", { (node, name) throws(ConfigError) -> UInt16 in
            try keyCode(try ConfigReader.stringElement(node, name), key: name, at: node.position)
        }) else {
            throw ConfigError("[[\(reader.path)]] needs 'keys' (two or more, such as [\"KEY_BACK\", \"KEY_HOMEPAGE\"])", at: reader.position)
        }
        guard codes.count >= 2, Set(codes).count == codes.count else {
            throw ConfigError("'\(reader.qualified("keys"))' must name two or more different keys", at: reader.table["keys"]!.node.position)
        }
        guard let (text, position) = try reader.string("command") else {
            throw ConfigError("[[\(reader.path)]] needs a 'command'", at: reader.position)
        }
        let command = try command(text, key: reader.qualified("command"), at: position, allowEmpty: false)
        let window = try reader.integer("window", in: 1...1000) ?? 50
        try reader.finish(known: ["keys", "command", "window"])
        return Chord(codes: codes, command: command, windowMs: Int(window))
    }
}
