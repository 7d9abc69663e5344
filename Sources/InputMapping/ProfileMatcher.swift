// Which profile applies to a device, and the settings that result (profile over class defaults).

/// Everything the device layer and the mapper need to know about one device node.
public struct DeviceSettings: Hashable, Sendable {
    /// The profile that matched, for `Device.profile`.
    public var profileName: String?
    /// Listed but never opened (`FOCUSD_IGNORE=1` or a profile's `ignore`); see `ignoreReason`.
    public var ignored: Bool
    public var ignoreReason: String?
    /// The class after any profile override.
    public var deviceClass: DeviceClass
    public var backend: Backend
    public var grab: GrabMode
    /// Code → command: the class's default map with the profile's overrides (unmapped codes absent).
    public var commands: [UInt16: String]
    public var `repeat`: RepeatSettings
    /// Kernel repeat events are the repeats (remotes), resolved from `repeat.kernelRepeat`.
    public var kernelRepeat: Bool
    public var stick: StickSettings
    public var rotary: RotarySettings
    public var longPresses: [LongPress]
    public var chords: [Chord]
    public var gamepadMapping: GamepadMapping?
    /// Why the class and grab are what they are (the classification's reasons, then the profile's).
    public var reasons: [String] = []
    /// Where `gamepadMapping` came from when a database gave it (`FILE:LINE`); nil for a profile's.
    public var gamepadMappingSource: String?
    /// Which unmapped keys reach the system while the device is grabbed (input.md §11).
    public var passthrough: Passthrough = .unmapped

    /// The settings of a class with no profile.
    public init(deviceClass: DeviceClass) {
        self.init(deviceClass: deviceClass, profile: nil)
    }

    /// The settings of a class with a profile's overrides.
    public init(deviceClass classified: DeviceClass, profile: Profile?) {
        let deviceClass = profile?.deviceClass ?? classified
        self.deviceClass = deviceClass
        profileName = profile?.name
        ignored = profile?.ignore ?? false
        ignoreReason = ignored ? "ignored by config profile '\(profile!.name)'" : nil
        backend = profile?.backend ?? DeviceClassifier.backend(for: deviceClass)
        grab = profile?.grab ?? DeviceClassifier.defaultGrab(for: deviceClass)
        var commands = DefaultCommandMap.map(for: deviceClass)
        for (code, command) in profile?.commands ?? [:] {
            commands[code] = command.isEmpty ? nil : command
        }
        self.commands = commands
        self.repeat = profile?.repeat ?? RepeatSettings()
        kernelRepeat = self.repeat.kernelRepeat ?? (deviceClass == .remote)
        stick = profile?.stick ?? StickSettings()
        rotary = profile?.rotary ?? RotarySettings()
        longPresses = profile?.longPresses ?? []
        chords = profile?.chords ?? []
        gamepadMapping = profile?.gamepadMapping
        passthrough = profile?.passthrough ?? .unmapped
    }
}

/// Finds the profile of a device: the first profile, in file order, whose rules all hold.
public struct ProfileMatcher: Hashable, Sendable {
    public var profiles: [Profile]
    /// SDL_GameControllerDB lines for gamepads no profile maps (input.md §10).
    public var database: GamepadDatabase

    public init(profiles: [Profile], database: GamepadDatabase = GamepadDatabase()) {
        self.profiles = profiles
        self.database = database
    }

    /// The first matching profile. A profile with `siblings = true` also matches a node whose
    /// sibling (same non-nil `group`, passed in `siblings`) matches it.
    public func profile(for identity: DeviceIdentity, siblings: [DeviceIdentity] = []) -> Profile? {
        let deviceClass = DeviceClassifier.classify(identity)
        let groupSiblings = siblings.filter { $0.group != nil && $0.group == identity.group && $0.node != identity.node }
        return profiles.first { profile in
            if Self.matches(profile, identity, deviceClass) { return true }
            guard profile.match.siblings else { return false }
            return groupSiblings.contains { Self.matches(profile, $0, DeviceClassifier.classify($0)) }
        }
    }

    /// The resolved settings of a device: classification, profile, defaults, udev's ignore tag.
    public func settings(for identity: DeviceIdentity, siblings: [DeviceIdentity] = []) -> DeviceSettings {
        let classification = DeviceClassifier.classification(identity, siblings: siblings)
        let profile = profile(for: identity, siblings: siblings)
        var settings = DeviceSettings(deviceClass: classification.deviceClass, profile: profile)
        // Without a profile's class or grab, the classification's grab holds: shared when a
        // never-grab fact holds, none for `other` (input.md §2).
        if profile?.grab == nil && profile?.deviceClass == nil { settings.grab = classification.grab }
        // A profile that names an `other` node (to map its keys) has it read, shared.
        if profile != nil && profile?.grab == nil && settings.grab == .none { settings.grab = .shared }
        settings.reasons = classification.reasons
        // A gamepad no profile maps takes SDL's line for its GUID (a profile's mapping wins).
        if settings.gamepadMapping == nil && settings.deviceClass == .gamepad, let entry = database.entry(for: identity) {
            settings.gamepadMapping = entry.mapping
            settings.gamepadMappingSource = entry.source
            settings.reasons.append(
                "gamepad mapping '\(entry.mapping.name)' from \(entry.source) (SDL GUID \(SDLGUID.linux(identity)))")
        }
        if let profile {
            var overrides: [String] = []
            if let deviceClass = profile.deviceClass { overrides.append("class = \"\(deviceClass.rawValue)\"") }
            if let grab = profile.grab { overrides.append("grab = \"\(grab.rawValue)\"") }
            if let backend = profile.backend { overrides.append("backend = \"\(backend.rawValue)\"") }
            settings.reasons.append("profile '\(profile.name)' matched" + (overrides.isEmpty ? "" : ": " + overrides.joined(separator: ", ")))
        }
        if DeviceClassifier.isIgnoredByUdev(identity) {
            settings.ignored = true
            settings.ignoreReason = "tagged FOCUSD_IGNORE=1 by udev"
        }
        return settings
    }

    /// Whether a profile applies: its rules hold, and a profile with an SDL gamepad mapping but no
    /// vendor/product rule applies only to the vendor and product in the mapping's GUID.
    public static func matches(_ profile: Profile, _ identity: DeviceIdentity, _ deviceClass: DeviceClass) -> Bool {
        // A profile with an SDL mapping and no vendor/product rule applies to the pads of its GUID,
        // as SDL would pick them (CRC and, for ids, version aside): a zero GUID matches nothing,
        // a name GUID the pads of that name, never the keyboard.
        if profile.match.vendor == nil && profile.match.product == nil, let mapping = profile.gamepadMapping {
            var database = GamepadDatabase()
            database.add(mapping.guid + ",m,", source: "profile")
            guard database.entry(for: identity) != nil else { return false }
        }
        return matches(profile.match, identity, deviceClass)
    }

    /// Whether every rule given holds for the device.
    public static func matches(_ rules: MatchRules, _ identity: DeviceIdentity, _ deviceClass: DeviceClass) -> Bool {
        if let name = rules.name, !Glob.matches(name, identity.name) { return false }
        if let vendor = rules.vendor, vendor != identity.vendor { return false }
        if let product = rules.product, product != identity.product { return false }
        if let bus = rules.bus, bus != identity.bus { return false }
        if let phys = rules.phys, !Glob.matches(phys, identity.phys ?? "") || identity.phys == nil { return false }
        if let uniq = rules.uniq, !Glob.matches(uniq, identity.uniq ?? "") || identity.uniq == nil { return false }
        if let wanted = rules.deviceClass, wanted != deviceClass { return false }
        let caps = identity.capabilities
        for capability in rules.capabilities {
            let present = switch capability.type {
            case EventCode.EV_KEY: caps.keys.contains(capability.code)
            case EventCode.EV_REL: caps.relativeAxes.contains(capability.code)
            case EventCode.EV_ABS: caps.absoluteAxes[capability.code] != nil
            case EventCode.PROPERTY: caps.properties.contains(capability.code)
            default: false
            }
            if !present { return false }
        }
        return true
    }
}
