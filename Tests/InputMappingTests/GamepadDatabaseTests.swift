import FocusConfig
import FocusWire
import Testing

@testable import InputMapping

@Suite("SDL GUIDs and the gamepad database")
struct GamepadDatabaseTests {
    static var database: GamepadDatabase {
        var database = GamepadDatabase()
        database.add(SDLDatabaseExcerpt.text, source: "gamecontrollerdb.txt")
        return database
    }

    @Test("a pad's GUID is SDL's: bus, CRC-16 of the name, vendor, product, version, little-endian")
    func guid() {
        #expect(SDLGUID.crc16("123456789") == 0xBB3D)  // CRC-16/ARC's check value
        // The database's PS5 Access Controller line carries the CRC of the kernel's name.
        let access = SDLGUID.linux(bus: 3, vendor: 0x054c, product: 0x0e5f, version: 0x0111,
                                   name: "Sony Interactive Entertainment Access Controller")
        #expect(access.description == "0300004b4c0500005f0e000011010000")
        let xbox = SDLGUID.linux(bus: 3, vendor: 0x045e, product: 0x028e, version: 0x0104, name: "Microsoft X-Box 360 pad")
        #expect(xbox.clearingCRC().description == "030000005e0400008e02000004010000")
        // Without a vendor, the GUID holds the name's first 11 bytes.
        // (The GS Gamepad's line holds "GS gamepad": the device's own name, not the line's.)
        let named = SDLGUID.linux(bus: 5, vendor: 0, product: 0, version: 0, name: "GS gamepad")
        #expect(named.clearingCRC().description == "0500000047532067616d657061640000")
    }

    @Test("lookup as SDL: exact GUID, a line with a CRC only for that CRC, then ignoring the version; names; platforms")
    func lookup() throws {
        let database = Self.database
        #expect(database.entries.count == 5 && database.otherPlatform == 1 && database.warnings.isEmpty)
        // Exact version.
        let exact = database.entry(for: SDLGUID.linux(bus: 3, vendor: 0x045e, product: 0x028e, version: 0x0104, name: "Microsoft X-Box 360 pad"))
        #expect(exact?.source == "gamecontrollerdb.txt:3")
        // Another version: the first line of the vendor and product, as SDL's list order gives.
        let anyVersion = database.entry(for: SDLGUID.linux(bus: 3, vendor: 0x045e, product: 0x028e, version: 0x0114, name: "Microsoft X-Box 360 pad"))
        #expect(anyVersion?.source == "gamecontrollerdb.txt:1")
        // The Linux PS5 Access Controller line, not the Mac one, and only with the name's CRC.
        let access = database.entry(for: SDLGUID.linux(bus: 3, vendor: 0x054c, product: 0x0e5f, version: 0x0111,
                                                      name: "Sony Interactive Entertainment Access Controller"))
        #expect(access?.source == "gamecontrollerdb.txt:5")
        #expect(database.entry(for: SDLGUID.linux(bus: 3, vendor: 0x054c, product: 0x0e5f, version: 0x0111, name: "Other")) == nil)
        // A name GUID matches a pad without ids by its name.
        let named = database.entry(for: SDLGUID.linux(bus: 5, vendor: 0, product: 0, version: 0, name: "GS gamepad"))
        #expect(named?.mapping.name == "GS Gamepad")
        #expect(database.entry(for: SDLGUID.linux(bus: 5, vendor: 0, product: 0, version: 0, name: "GS Gamepad")) == nil)
    }

    @Test("a later line for the same GUID replaces the earlier one; an unusable line is skipped with its file and line")
    func replaceAndSkip() {
        var database = Self.database
        database.add("""
            # a comment
            030000005e0400008e02000004010000,Mine,a:b1,b:b0,platform:Linux,
            xyz,Broken,a:b0,platform:Linux,
            """, source: "mine.txt")
        #expect(database.entries.count == 5)
        let mine = database.entry(for: SDLGUID.linux(bus: 3, vendor: 0x045e, product: 0x028e, version: 0x0104, name: "x"))
        #expect(mine?.mapping.name == "Mine" && mine?.source == "mine.txt:2")
        #expect(database.warnings.count == 1 && database.warnings[0].hasPrefix("mine.txt:3: skipped: "))
    }

    @Test("a database with CRLF line ends reads line by line: each line is its own entry, a CR is no part of its last field")
    func crlfLines() {
        var database = GamepadDatabase()
        database.add(
            "030000005e0400008e02000004010000,One,a:b1,platform:Linux\r\n"
                + "03000000790000000600000010010000,Two,a:b2,platform:Windows\r\n"
                + "03000000790000000600000010010000,Three,a:b3,crc:beef,platform:Linux\r\n", source: "crlf.txt")
        #expect(database.entries.map(\.source) == ["crlf.txt:1", "crlf.txt:3"])
        #expect(database.otherPlatform == 1 && database.warnings.isEmpty)
        #expect(database.entries.last?.crc == 0xbeef)
    }

    @Test("a pad no profile maps is driven through the database alone; a profile's mapping wins; the reasons name the line")
    func databaseDrivesPad() throws {
        var database = GamepadDatabase()
        database.add("# header\n" + AxisMappingTests.genericMapping, source: "/etc/focusd/gamecontrollerdb.txt")
        let matcher = ProfileMatcher(profiles: [], database: database)
        let settings = matcher.settings(for: TestDevices.genericPad)
        #expect(settings.gamepadMappingSource == "/etc/focusd/gamecontrollerdb.txt:2")
        #expect(settings.reasons.last == "gamepad mapping 'Generic USB Joystick' from /etc/focusd/gamecontrollerdb.txt:2 (SDL GUID \(SDLGUID.linux(TestDevices.genericPad)))")
        var rig = Rig(TestDevices.genericPad, settings: settings)
        #expect(Rig.names(rig.key(E.BTN_THUMB2, 1) + rig.key(E.BTN_THUMB2, 0)) == ["select press", "select release"])
        #expect(Rig.names(rig.frame([(E.EV_ABS, E.ABS_HAT0Y, -1)])) == ["up press"])
        var profile = Profile(name: "mine")
        profile.gamepadMapping = try GamepadMapping.parse("03000000790000000600000010010000,Mine,a:b0,platform:Linux,")
        let mine = ProfileMatcher(profiles: [profile], database: database).settings(for: TestDevices.genericPad)
        #expect(mine.gamepadMapping?.name == "Mine" && mine.gamepadMappingSource == nil)
        // Not a gamepad: no mapping, whatever the database holds for its ids.
        var keyboard = TestDevices.usbKeyboard
        keyboard.vendor = 0x0079
        keyboard.product = 0x0006
        #expect(matcher.settings(for: keyboard).gamepadMapping == nil)
    }

    @Test("[gamepads] databases names the database files")
    func configuration() throws {
        let configuration = try Configuration.parse("[gamepads]\ndatabases = [\"/a.txt\", \"/b.txt\"]\n")
        #expect(configuration.gamepadDatabasePaths == ["/a.txt", "/b.txt"])
        #expect(try Configuration.parse("").gamepadDatabasePaths == nil)
        #expect(throws: ConfigError.self) { try Configuration.parse("[gamepads]\ndatabase = []\n") }
    }
}

@Suite("SDL mapping syntax SDL accepts")
struct SDLToleranceTests {
    @Test("misc2-6, an element bound twice, empty sources, unknown elements and long GUIDs are accepted as SDL accepts them")
    func tolerated() throws {
        let mapping = try GamepadMapping.parse(
            "030000007e0500006920000011010000ff,Pro,a:b0,misc2:b5,guide:b12,guide:b16,leftx:,wat:b3,platform:Linux,")
        #expect(mapping.guid == "030000007e0500006920000011010000")
        #expect(mapping.bindings.contains(.init(target: .button(E.BTN_TRIGGER_HAPPY7), source: .button(5))))
        #expect(mapping.bindings.filter { $0.target == .button(E.BTN_MODE) }.map(\.source) == [.button(12), .button(16)])
        #expect(mapping.warnings == ["'leftx:': empty source, ignored", "'wat:b3': unknown element 'wat', ignored"])
        var database = GamepadDatabase()
        database.add(
            "030000007e0500006920000011010000,Pro,a:b0,wat:b3,platform:Linux,", source: "db.txt")
        #expect(database.entries.count == 1 && database.warnings == ["db.txt:1: 'wat:b3': unknown element 'wat', ignored"])
    }

    @Test("a profile's SDL line with a zero GUID takes no device; a name GUID takes the pads of that name")
    func profileGUIDs() throws {
        var zero = Profile(name: "zero")
        zero.gamepadMapping = try GamepadMapping.parse("00000000000000000000000000000000,Any,a:b0,platform:Linux,")
        let matcher = ProfileMatcher(profiles: [zero])
        #expect(matcher.profile(for: TestDevices.usbKeyboard) == nil && matcher.profile(for: TestDevices.genericPad) == nil)
        var named = Profile(name: "gs")
        named.gamepadMapping = try GamepadMapping.parse("0500000047532067616d657061640000,GS Gamepad,a:b0,platform:Linux,")
        let pad = DeviceIdentity(name: "GS gamepad", bus: 5, capabilities: TestDevices.genericPad.capabilities)
        #expect(ProfileMatcher(profiles: [named]).profile(for: pad)?.name == "gs")
        #expect(ProfileMatcher(profiles: [named]).profile(for: TestDevices.usbKeyboard) == nil)
    }

    @Test("a profile's mapping line for another platform is a config error naming it")
    func profilePlatform() {
        let text = "[[profile]]\nname = \"w\"\ngamepadMapping = \"03000000790000000600000010010000,W,a:b0,platform:Windows,\"\n"
        do {
            _ = try Configuration.parse(text)
            Issue.record("a Windows line was accepted")
        } catch {
            #expect(error.message.hasSuffix("the line is for platform:Windows, and SDL's numbering differs there: use a platform:Linux line"))
            #expect(error.line == 3)
        }
    }

    @Test("a stick bound to hat halves moves focus (Joy-Con, Hori Fightstick lines)")
    func stickFromHat() throws {
        var profile = Profile(name: "joycon")
        profile.gamepadMapping = try GamepadMapping.parse(
            "03000000790000000600000010010000,Joy-Con-like,a:b0,+leftx:h0.2,-leftx:h0.8,+lefty:h0.4,-lefty:h0.1,platform:Linux,")
        var rig = Rig(TestDevices.genericPad, profile: profile)
        #expect(Rig.names(rig.frame([(E.EV_ABS, E.ABS_HAT0X, 1)])) == ["right press"])
        #expect(Rig.names(rig.frame([(E.EV_ABS, E.ABS_HAT0X, 0)])) == ["right release"])
        #expect(Rig.names(rig.frame([(E.EV_ABS, E.ABS_HAT0Y, -1)])) == ["up press"])
        #expect(Rig.names(rig.frame([(E.EV_ABS, E.ABS_HAT0Y, 0)])) == ["up release"])
    }

    @Test("a hat source with several direction bits (h0.3) is held while any of them is, as SDL binds it")
    func hatMaskOfSeveralBits() throws {
        var profile = Profile(name: "diagonal")
        // select on up-or-right (mask 3): SDL presses a hat binding while (hat & mask) != 0.
        profile.gamepadMapping = try GamepadMapping.parse(
            "03000000790000000600000010010000,Diagonal,a:h0.3,platform:Linux,")
        var rig = Rig(TestDevices.genericPad, profile: profile)
        #expect(Rig.names(rig.frame([(E.EV_ABS, E.ABS_HAT0X, 1)])) == ["select press"])
        // Up joins right: still held, no second press.
        #expect(Rig.names(rig.frame([(E.EV_ABS, E.ABS_HAT0Y, -1)])) == [])
        #expect(Rig.names(rig.frame([(E.EV_ABS, E.ABS_HAT0X, 0)])) == [])
        #expect(Rig.names(rig.frame([(E.EV_ABS, E.ABS_HAT0Y, 0)])) == ["select release"])
        // Down and left are not in the mask.
        #expect(Rig.names(rig.frame([(E.EV_ABS, E.ABS_HAT0Y, 1)])) == [])
        #expect(Rig.names(rig.frame([(E.EV_ABS, E.ABS_HAT0X, -1)])) == [])
    }
}

@Suite("SDL_GameControllerDB, the whole database")
struct WholeDatabaseTests {
    static let path = DeviceData.directory.replacingDevices + "Gamepads/gamecontrollerdb.txt"

    @Test("every Linux line is used or skipped with its line named, and a pad of each line's GUID gets that line")
    func wholeDatabase() throws {
        let text = String(decoding: try readFile(Self.path, limit: 8 << 20), as: UTF8.self)
        var database = GamepadDatabase()
        database.add(text, source: "gamecontrollerdb.txt")
        let linuxLines = text.split(separator: "\n").filter { $0.hasSuffix("platform:Linux,") || $0.hasSuffix("platform:Linux") }.count
        let skipped = database.warnings.filter { $0.hasPrefix("gamecontrollerdb.txt:") && $0.contains(": skipped: ") }
        #expect(linuxLines == 734)
        // Every Linux line is an entry (or replaced by a later one for its GUID) or a named skip.
        #expect(database.entries.count + skipped.count <= linuxLines)
        // SDL's special `xinput` GUID names no device on Linux (SDL uses it only for its built-in
        // Xbox 360 receiver fallback): the one line skipped, with its reason.
        #expect(skipped == ["gamecontrollerdb.txt:1921: skipped: gamepad mapping GUID must be 32 hex digits, found 'xinput'"])
        var own = 0
        for entry in database.entries {
            var guid = entry.guid
            guid.bytes[2] = UInt8((entry.crc ?? 0xBEEF) & 0xFF)
            guid.bytes[3] = UInt8((entry.crc ?? 0xBEEF) >> 8)
            if database.entry(for: guid) == entry { own += 1 }
        }
        #expect(own == database.entries.count)
        print("gamecontrollerdb.txt: \(linuxLines) Linux lines, \(database.entries.count) entries after later lines replace earlier ones, \(skipped.count) skipped, \(database.warnings.count - skipped.count) ignored fields, \(own) pads of an entry's GUID get that entry")
    }
}

extension String {
    /// `.../Devices/` → `.../` (the test target's directory).
    fileprivate var replacingDevices: String { String(dropLast("Devices/".count)) }
}
