import Testing

@testable import FocusConfig
@testable import InputMapping

@Suite("Configuration file")
struct ConfigurationTests {
    func error(_ text: String) -> ConfigError? {
        do {
            _ = try Configuration.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("an empty file gives the defaults")
    func empty() throws {
        let configuration = try Configuration.parse("")
        #expect(configuration == Configuration.defaults)
        #expect(configuration.limits.maxNodes == 100_000)
        #expect(configuration.limits.maxDepth == 100)
        #expect(configuration.limits.maxMessageBytes == 16 * 1024 * 1024)
        #expect(configuration.limits.maxConnectionsPerUid == 64)
        #expect(configuration.limits.outgoingQueueBytes == 256 * 1024)
        #expect(configuration.limits.slowClientTimeoutMs == 10_000)
    }

    @Test("socket, access and limits are read")
    func service() throws {
        let configuration = try Configuration.parse("""
            [socket]
            path = "/run/x.sock"
            group = "video"
            mode = "0640"
            [access]
            readOnlyUids = [1000, 1001]
            allowedGids = [27]
            [limits]
            maxNodes = 5000
            slowClientTimeout = 2.5
            promptBuildBytes = 0
            """)
        #expect(configuration.socket == SocketSettings(path: "/run/x.sock", group: "video", mode: 0o640))
        #expect(configuration.access.readOnlyUids == [1000, 1001])
        #expect(configuration.access.allowedGids == [27])
        #expect(configuration.limits.maxNodes == 5000)
        #expect(configuration.limits.slowClientTimeoutMs == 2500)
        #expect(configuration.limits.promptBuildBytes == 0)
        #expect(try Configuration.parse("").limits.promptBuildBytes == 2 << 20)
        #expect(throws: ConfigError.self) { try Configuration.parse("[limits]\npromptBuildBytes = -1\n") }
    }

    @Test("a profile with every section is read")
    func profile() throws {
        let configuration = try Configuration.parse("""
            [[profile]]
            name = "tv"
            class = "remote"
            grab = "shared"
            match = { vendor = 0x1784, bus = "usb", capabilities = ["KEY_OK", "REL_DIAL", "INPUT_PROP_POINTER"] }
            commands = { KEY_EXIT = "back", KEY_ESC = "" }
            repeat = { delay = 300, kernelRepeat = false, commands = ["up", "down"] }
            stick = { press = 60, release = 40.5, fourWay = false }
            rotary = { countsPerDetent = 2.5, acceleration = 0, wrap = true }
            longPress = [{ key = "KEY_BACK", command = "home" }]
            chord = [{ keys = ["KEY_BACK", "KEY_OK"], command = "menu", window = 80 }]
            """)
        let profile = try #require(configuration.profiles.first)
        #expect(profile.name == "tv")
        #expect(profile.deviceClass == .remote)
        #expect(profile.grab == .shared)
        #expect(profile.match.vendor == 0x1784 && profile.match.bus == 3)
        #expect(profile.match.capabilities == [
            .init(type: E.EV_KEY, code: E.KEY_OK), .init(type: E.EV_REL, code: E.REL_DIAL),
            .init(type: EventCode.PROPERTY, code: E.INPUT_PROP_POINTER),
        ])
        #expect(profile.commands == [E.KEY_EXIT: "back", E.KEY_ESC: ""])
        #expect(profile.repeat.delayMs == 300 && profile.repeat.kernelRepeat == false && profile.repeat.commands == ["up", "down"])
        #expect(profile.stick.pressPercent == 60 && profile.stick.releasePercent == 40.5 && !profile.stick.fourWay)
        #expect(profile.rotary.countsPerDetent == 2.5 && profile.rotary.accelerationThreshold == 0 && profile.rotary.wrap)
        #expect(profile.longPresses == [LongPress(code: E.KEY_BACK, command: "home", durationMs: 800)])
        #expect(profile.chords == [Chord(codes: [E.KEY_BACK, E.KEY_OK], command: "menu", windowMs: 80)])
        let settings = DeviceSettings(deviceClass: .keyboard, profile: profile)
        #expect(settings.deviceClass == .remote)
        #expect(settings.commands[E.KEY_ESC] == nil && settings.commands[E.KEY_EXIT] == "back")
        #expect(!settings.kernelRepeat)
    }

    @Test("schema errors name the key and its exact line")
    func schemaErrors() {
        let cases: [(String, Int, String)] = [
            ("[socket]\npath = \"/x\"\nport = 1\n", 3, "unknown key 'port' in [socket]"),
            ("colour = 1\n", 1, "unknown key 'colour' at the top level"),
            ("[limits]\nmaxNodes = \"many\"\n", 2, "'limits.maxNodes' must be an integer, found a string"),
            ("[limits]\n\nmaxDepth = 0\n", 3, "'limits.maxDepth' must be between 1 and 10000, found 0"),
            ("[socket]\nmode = 0o666\n", 2, "world-accessible"),
            ("[socket]\nmode = \"0x1\"\n", 2, "octal digits"),
            ("[socket]\npath = \"relative.sock\"\n", 2, "absolute path"),
            ("[access]\nreadOnlyUids = [1, -2]\n", 2, "'access.readOnlyUids[1]' must be between 0"),
            ("[[profile]]\nname = \"a\"\n[[profile]]\nclass = \"remote\"\n", 3, "needs a 'name'"),
            ("[[profile]]\nname = \"a\"\n\n[[profile]]\nname = \"a\"\n", 4, "duplicate profile name 'a' (first on line 1)"),
            ("[[profile]]\nname = \"a\"\nclass = \"tv\"\n", 3, "must be one of \"keyboard\""),
            ("[[profile]]\nname = \"a\"\ngrab = \"always\"\n", 3, "'profile[0].grab' must be one of \"exclusive\", \"shared\", \"none\""),
            ("[[profile]]\nname = \"a\"\n[profile.match]\nvendor = 0x10000\n", 4, "'profile[0].match.vendor' must be between 0 and 65535"),
            ("[[profile]]\nname = \"a\"\n[profile.match]\nbus = \"firewire\"\n", 4, "unknown bus \"firewire\""),
            ("[[profile]]\nname = \"a\"\n[profile.match]\nname = \"[abc\"\n", 4, "unclosed '['"),
            ("[[profile]]\nname = \"a\"\n[profile.match]\ncapabilities = [\"REL_DIAL\", \"REL_NOPE\"]\n", 4, "unknown capability 'REL_NOPE'"),
            ("[[profile]]\nname = \"a\"\n[profile.match]\nflavour = 1\n", 4, "unknown key 'flavour' in [profile[0].match]"),
            ("[[profile]]\nname = \"a\"\n[profile.commands]\nKEY_NOPE = \"up\"\n", 4, "unknown event code 'KEY_NOPE'"),
            ("[[profile]]\nname = \"a\"\n[profile.commands]\nREL_DIAL = \"up\"\n", 4, "is not a key or button"),
            ("[[profile]]\nname = \"a\"\n[profile.commands]\nKEY_A = 3\n", 4, "must be a command name"),
            ("[[profile]]\nname = \"a\"\n[profile.commands]\nKEY_A = \"go up\"\n", 4, "must be a word"),
            ("[[profile]]\nname = \"a\"\n[profile.repeat]\ndelay = 0\n", 4, "'profile[0].repeat.delay' must be between 1"),
            ("[[profile]]\nname = \"a\"\n[profile.repeat]\nkernelRepeat = 1\n", 4, "must be true or false"),
            ("[[profile]]\nname = \"a\"\n[profile.stick]\npress = 30\nrelease = 40\n", 5, "must be below 'press'"),
            ("[[profile]]\nname = \"a\"\n[profile.rotary]\ncountsPerDetent = 0\n", 4, "countsPerDetent"),
            ("[[profile]]\nname = \"a\"\n[[profile.longPress]]\nkey = \"KEY_BACK\"\n", 3, "needs a 'command'"),
            ("[[profile]]\nname = \"a\"\n[[profile.chord]]\nkeys = [\"KEY_A\"]\ncommand = \"x\"\n", 4, "two or more different keys"),
            ("[[profile]]\nname = \"a\"\ngamepadMapping = \"nope,x\"\n", 3, "GUID must be 32 hex digits"),
            ("[[profile]]\nname = \"a\"\n\nrepeat = 5\n", 4, "'profile[0].repeat' must be a table, found an integer"),
            ("profile = 3\n", 1, "'profile' must be an array of tables"),
            ("[[profile]]\nname = \"a\"\npassthrough = \"all\"\n", 3, "'profile[0].passthrough' must be \"unmapped\", \"none\" or a list of key names, found \"all\""),
            ("[[profile]]\nname = \"a\"\n\npassthrough = true\n", 4, "'profile[0].passthrough' must be \"unmapped\", \"none\" or a list of key names, found"),
            ("[[profile]]\nname = \"a\"\npassthrough = [\"KEY_POWER\", \"KEY_NOPE\"]\n", 3, "'profile[0].passthrough[1]': unknown event code 'KEY_NOPE'"),
            ("[[profile]]\nname = \"a\"\npassthrough = [\"REL_X\"]\n", 3, "is not a key or button"),
        ]
        for (text, line, fragment) in cases {
            guard let error = error(text) else {
                Issue.record("no error for \(text.debugDescription)")
                continue
            }
            #expect(error.line == line, "\(text.debugDescription): \(error)")
            #expect(error.message.contains(fragment), "\(text.debugDescription): \(error)")
        }
    }

    @Test("a profile's passthrough is \"unmapped\" by default, \"none\", or a list of key names")
    func passthroughOption() throws {
        let configuration = try Configuration.parse("""
            [[profile]]
            name = "none"
            passthrough = "none"
            [[profile]]
            name = "list"
            passthrough = ["KEY_POWER", "KEY_VOLUMEUP"]
            [[profile]]
            name = "unmapped"
            passthrough = "unmapped"
            [[profile]]
            name = "default"
            """)
        #expect(configuration.profiles.map(\.passthrough) == [Passthrough.none, .keys([116, 115]), .unmapped, nil])
        #expect(DeviceSettings(deviceClass: .remote, profile: configuration.profiles[3]).passthrough == .unmapped)
        #expect(DeviceSettings(deviceClass: .remote, profile: configuration.profiles[1]).passthrough == .keys([116, 115]))
    }

    @Test("a profile after a catch-all profile is a warning naming both lines")
    func shadowedProfile() throws {
        let configuration = try Configuration.parse("""
            [[profile]]
            name = "everything"
            grab = "none"

            [[profile]]
            name = "pads"
            match = { class = "gamepad" }
            """)
        #expect(configuration.warnings == [
            "line 5: profile 'pads' never matches: profile 'everything' (line 1) has no match rules and takes every device first",
        ])
        #expect(try Configuration.parse(Self.exampleText()).warnings.isEmpty)
    }

    @Test("a profile's SDL line with fields that bind nothing loads, and each such field is a config warning")
    func profileMappingWarnings() throws {
        let configuration = try Configuration.parse("""
            [[profile]]
            name = "pad"
            gamepadMapping = "03000000790000000600000010010000,Generic,a:b2,leftx:,misc9:b3,platform:Linux"
            """)
        #expect(configuration.profiles[0].gamepadMapping?.bindings.count == 1)
        #expect(configuration.warnings == [
            "line 1: profile 'pad' gamepadMapping: 'leftx:': empty source, ignored",
            "line 1: profile 'pad' gamepadMapping: 'misc9:b3': unknown element 'misc9', ignored",
        ])
    }

    @Test("syntax errors surface from Configuration.parse with their line")
    func syntaxThroughSchema() {
        let failure = error("[socket]\npath = /run/x\n")
        #expect(failure?.line == 2)
        #expect(failure?.description.hasPrefix("line 2, column 8:") == true)
    }

    @Test("[websocket]: listen, origins, token and access are read; beyond loopback a token is required")
    func webSocketSection() throws {
        let configuration = try Configuration.parse("""
            [websocket]
            listen = "[::1]:7341"
            origins = ["https://kiosk.example"]
            token = "0123456789abcdef-token"
            access = "readOnly"
            maxConnections = 8
            pingInterval = 0
            """)
        let websocket = configuration.websocket
        #expect(websocket.listen == ListenAddress(host: "::1", port: 7341) && websocket.listen?.isLoopback == true)
        #expect(websocket.origins == ["https://kiosk.example"] && websocket.token == "0123456789abcdef-token")
        #expect(websocket.access == .readOnly && websocket.maxConnections == 8 && websocket.pingInterval == 0)
        #expect(WebSocketSettings().effectiveAccess(for: ListenAddress(host: "127.0.0.1", port: 1)) == .full)
        #expect(WebSocketSettings().effectiveAccess(for: ListenAddress(host: "192.168.1.2", port: 1)) == .readOnly)
        #expect(throws: ConfigError.self) { try Configuration.parse("[websocket]\nlisten = \"0.0.0.0:7341\"\n") }
        do {
            _ = try Configuration.parse("[websocket]\nlisten = \"0.0.0.0:7341\"\n")
        } catch {
            #expect(error.message.contains("not a loopback address: set 'websocket.token'"), "\(error)")
        }
        for bad in ["access = \"admin\"", "token = \"short\"", "listen = \"127.0.0.1\"", "listen = \"::1:80\""] {
            #expect(throws: ConfigError.self, "\(bad)") { try Configuration.parse("[websocket]\n\(bad)\n") }
        }
        #expect((try? ListenAddress.parse("7341").get()) == ListenAddress(host: "127.0.0.1", port: 7341))
        #expect((try? ListenAddress.parse("localhost:80").get())?.isLoopback == true)
        #expect((try? ListenAddress.parse("10.0.0.1:80").get())?.isLoopback == false)
    }

    /// udev/focusd.example.toml, found from this file's path.
    static func exampleText() throws -> String {
        let path = String(#filePath)
        let root = path.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")
        return try TextFile.read(root + "/udev/focusd.example.toml")
    }

    @Test("[adapters.chromium] keyboards is \"browser\" or \"focusd\", absent by default; anything else is an error at its line")
    func adaptersSection() throws {
        #expect(try Configuration.parse("").adapters.chromiumKeyboards == nil)
        #expect(try Configuration.parse("[adapters.chromium]\nkeyboards = \"focusd\"\n").adapters.chromiumKeyboards == .focusd)
        #expect(try Configuration.parse("[adapters.chromium]\nkeyboards = \"browser\"\n").adapters.chromiumKeyboards == .browser)
        let bad = error("[adapters.chromium]\n\nkeyboards = \"both\"\n")
        #expect(bad?.line == 3 && bad?.message.contains("must be \"browser\" or \"focusd\", found \"both\"") == true, "\(String(describing: bad))")
        let unknownKey = error("[adapters.chromium]\nkeyboard = \"focusd\"\n")
        #expect(unknownKey?.line == 2 && unknownKey?.message.contains("keyboard") == true, "\(String(describing: unknownKey))")
        let unknownAdapter = error("[adapters.firefox]\nkeyboards = \"focusd\"\n")
        #expect(unknownAdapter?.message.contains("firefox") == true, "\(String(describing: unknownAdapter))")
    }

    @Test("udev/focusd.example.toml parses, and every option in it is understood and takes effect")
    func exampleFile() throws {
        let text = try Self.exampleText()
        let configuration = try Configuration.parse(text)
        // Every key written in the file was consumed by the schema (unknown keys are errors), and
        // each value differs from or confirms the defaults as written:
        #expect(configuration.socket == SocketSettings(path: "/run/focusd/focusd.sock", group: "focusd", mode: 0o660))
        #expect(configuration.access.readOnlyUids == [1001] && configuration.access.allowedGids == [1500])
        #expect(configuration.limits == LimitSettings())
        #expect(configuration.websocket == WebSocketSettings())
        #expect(configuration.gamepadDatabasePaths == ["/etc/focusd/gamecontrollerdb.txt"])
        #expect(configuration.adapters == AdapterSettings(chromiumKeyboards: .browser))
        #expect(configuration.profiles.map(\.name) == [
            "living-room IR remote", "pad without the kernel layout", "knob", "laptop keyboard and its media keys",
        ])
        let remote = configuration.profiles[0]
        #expect(remote.match.name == "*Infrared Remote*" && remote.match.vendor == 0x1784 && remote.match.bus == 3)
        #expect(remote.match.phys == "usb-*" && remote.match.uniq == "*" && remote.match.deviceClass == .remote)
        #expect(remote.commands[E.KEY_NUMERIC_0] == "" && remote.commands[E.KEY_EPG] == "menu")
        #expect(remote.repeat.kernelRepeat == true && remote.repeat.keyUpTimeoutMs == 1000)
        #expect(remote.longPresses.count == 1 && remote.chords.count == 1)
        #expect(configuration.profiles[1].gamepadMapping?.bindings.count == 14)
        #expect(configuration.profiles[1].stick.pressPercent == 50)
        #expect(configuration.profiles[2].rotary.countsPerDetent == 4)
        #expect(configuration.profiles[3].match.siblings)

        // Every key of the file, found by scanning its text, is one the schema knows.
        let known = Set(Configuration.topLevelKeys + ProfileReader.keys + [
            "path", "group", "mode", "readOnlyUids", "readOnlyGids", "allowedUids", "allowedGids",
            "maxNodes", "maxDepth", "maxMessageBytes", "maxConnectionsPerUid", "outgoingQueueBytes", "slowClientTimeout",
            "listen", "origins", "token", "access", "maxConnections", "pingInterval",
            "maxScenesPerConnection", "maxScenesPerUid", "maxNodesPerUid", "promptBuildBytes",
            "vendor", "product", "bus", "phys", "uniq", "capabilities", "siblings",
            "enabled", "delay", "interval", "fastInterval", "fastAfter", "kernelRepeat", "keyUpTimeout", "commands",
            "press", "release", "fourWay", "countsPerDetent", "acceleration", "accelerationMax", "wrap", "reverse",
            "editIdle", "key", "command", "duration", "keys", "window", "databases", "keyboards",
        ])
        for line in text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            guard let first = trimmed.first, first != "#", first != "[", let equals = trimmed.firstIndex(of: "=") else { continue }
            let key = trimmed[..<equals].trimmingCharacters(in: " ")
            if EventCode.named(key) != nil { continue }  // [profile.commands] keys are event codes
            #expect(known.contains(key), "example option '\(key)' is not in the schema")
        }
    }

    @Test("changing an option of the example to a bad value is reported at that line")
    func exampleMutated() throws {
        let text = try Self.exampleText()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let index = try #require(lines.firstIndex { $0.hasPrefix("fastInterval") })
        var broken = lines.map(String.init)
        broken[index] = "fastInterval = -5"
        #expect(error(broken.joined(separator: "\n"))?.line == index + 1)
        broken[index] = "fastIntervall = 50"
        let unknown = error(broken.joined(separator: "\n"))
        #expect(unknown?.line == index + 1)
        #expect(unknown?.message.contains("fastIntervall") == true)
    }
}

@Suite("Profile matching")
struct ProfileMatcherTests {
    @Test("the first matching profile wins; rules on name, vendor, product, bus, phys, uniq, class, capabilities")
    func firstMatch() {
        var byName = Profile(name: "by name")
        byName.match.name = "*Infrared*"
        var byVendor = Profile(name: "by vendor")
        byVendor.match.vendor = 0x1784
        var byCapability = Profile(name: "dials")
        byCapability.match.capabilities = [.init(type: E.EV_REL, code: E.REL_DIAL)]
        var byClass = Profile(name: "pads")
        byClass.match.deviceClass = .gamepad
        var byPhys = Profile(name: "phys")
        byPhys.match.phys = "isa0060/*"
        var byUniq = Profile(name: "uniq")
        byUniq.match.uniq = "aa:bb:*"
        var everything = Profile(name: "catch-all")
        everything.grab = GrabMode.none
        let matcher = ProfileMatcher(profiles: [byName, byVendor, byCapability, byClass, byPhys, byUniq, everything])
        #expect(matcher.profile(for: TestDevices.irRemote)?.name == "by name")
        var renamed = TestDevices.irRemote
        renamed.name = "IR receiver"
        #expect(matcher.profile(for: renamed)?.name == "by vendor")
        #expect(matcher.profile(for: TestDevices.surfaceDial)?.name == "dials")
        #expect(matcher.profile(for: TestDevices.xbox360)?.name == "pads")
        #expect(matcher.profile(for: TestDevices.laptopKeyboard)?.name == "phys")
        var mouse = TestDevices.hiResMouse
        mouse.uniq = "aa:bb:cc"
        #expect(matcher.profile(for: mouse)?.name == "uniq")
        #expect(matcher.profile(for: TestDevices.hiResMouse)?.name == "catch-all")
        #expect(matcher.settings(for: TestDevices.hiResMouse).grab == GrabMode.none)
        #expect(matcher.settings(for: TestDevices.hiResMouse).profileName == "catch-all")
    }

    @Test("a rule that is not met rejects: a phys glob against a device without phys, a wrong product or bus")
    func rejects() {
        var profile = Profile(name: "p")
        profile.match.phys = "*"
        #expect(ProfileMatcher(profiles: [profile]).profile(for: TestDevices.xbox360) == nil)
        profile.match = MatchRules(vendor: 0x045E, product: 0x0000)
        #expect(ProfileMatcher(profiles: [profile]).profile(for: TestDevices.xbox360) == nil)
        profile.match = MatchRules(vendor: 0x045E, bus: 5)
        #expect(ProfileMatcher(profiles: [profile]).profile(for: TestDevices.xbox360) == nil)
        profile.match = MatchRules(vendor: 0x045E, bus: 3)
        #expect(ProfileMatcher(profiles: [profile]).profile(for: TestDevices.xbox360)?.name == "p")
    }

    @Test("siblings: a keyboard's profile also covers its consumer-keys node in the same group")
    func siblings() {
        var profile = Profile(name: "laptop")
        profile.match.name = "AT Translated Set 2 keyboard"
        profile.match.siblings = true
        profile.commands = [E.KEY_PROG1: "menu"]
        let matcher = ProfileMatcher(profiles: [profile])
        let all = [TestDevices.laptopKeyboard, TestDevices.laptopHotkeys, TestDevices.usbKeyboard]
        #expect(matcher.profile(for: TestDevices.laptopHotkeys, siblings: all)?.name == "laptop")
        #expect(matcher.profile(for: TestDevices.laptopHotkeys)?.name == nil)
        #expect(matcher.profile(for: TestDevices.usbKeyboardConsumer, siblings: all) == nil)
        var rig = Rig(TestDevices.laptopHotkeys, settings: matcher.settings(for: TestDevices.laptopHotkeys, siblings: all))
        #expect(Rig.names(rig.key(E.KEY_PROG1, 1)) == ["menu press"])
        profile.match.siblings = false
        #expect(ProfileMatcher(profiles: [profile]).profile(for: TestDevices.laptopHotkeys, siblings: all) == nil)
    }

    @Test("a profile with only an SDL mapping applies to the vendor and product of its GUID")
    func sdlGuidMatch() throws {
        var profile = Profile(name: "sdl")
        profile.gamepadMapping = try GamepadMapping.parse("03000000790000000600000010010000,Generic,a:b2")
        let matcher = ProfileMatcher(profiles: [profile])
        #expect(matcher.profile(for: TestDevices.genericPad)?.name == "sdl")
        #expect(matcher.profile(for: TestDevices.xbox360) == nil)
        profile.match.vendor = 0x045E
        #expect(ProfileMatcher(profiles: [profile]).profile(for: TestDevices.xbox360)?.name == "sdl")
    }

    @Test("a profile's ignore, class, backend and grab override the classifier's defaults")
    func overrides() {
        var profile = Profile(name: "touch as pointer")
        profile.deviceClass = .pointer
        profile.backend = .libevdev
        var settings = DeviceSettings(deviceClass: .touchpad, profile: profile)
        #expect(settings.deviceClass == .pointer && settings.backend == .libevdev && settings.grab == .shared)
        profile.ignore = true
        settings = DeviceSettings(deviceClass: .touchpad, profile: profile)
        #expect(settings.ignored && settings.ignoreReason?.contains("touch as pointer") == true)
    }

    @Test("globs: *, ?, classes, ranges, negation and escapes")
    func globs() {
        #expect(Glob.matches("*Remote*", "IR Remote Receiver"))
        #expect(Glob.matches("event?", "event7") && !Glob.matches("event?", "event17"))
        #expect(Glob.matches("usb-[0-9]*", "usb-0000") && !Glob.matches("usb-[0-9]*", "usb-x"))
        #expect(Glob.matches("[!a]b", "cb") && !Glob.matches("[!a]b", "ab"))
        #expect(Glob.matches("a\\*", "a*") && !Glob.matches("a\\*", "ab"))
        #expect(!Glob.matches("abc", "abcd") && Glob.matches("", ""))
    }
}
