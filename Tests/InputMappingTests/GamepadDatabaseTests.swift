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
            030000005e0400008e02000004010000,Broken,a:q7,platform:Linux,
            """, source: "mine.txt")
        #expect(database.entries.count == 5)
        let mine = database.entry(for: SDLGUID.linux(bus: 3, vendor: 0x045e, product: 0x028e, version: 0x0104, name: "x"))
        #expect(mine?.mapping.name == "Mine" && mine?.source == "mine.txt:2")
        #expect(database.warnings.count == 1 && database.warnings[0].hasPrefix("mine.txt:3: skipped: "))
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
