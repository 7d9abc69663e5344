import Foundation
import Testing
import Varlink

extension ServiceSocketTests {
    /// `io.focusd.Input.ReloadConfig` (input.md §7): the file is read again; its warnings come
    /// back; a bad file is answered with its line and the running configuration stays.
    @Suite("Configuration reload over the socket")
    struct ReloadConfig {
        static let shadowed = """
            [[profile]]
            name = "all"

            [[profile]]
            name = "never"
            [profile.match]
            class = "remote"

            """

        @Test("ReloadConfig returns the profiles and the file's warnings; a bad file is InvalidConfig with its line and changes nothing")
        func reloadReportsWarningsAndErrors() throws {
            let daemon = try FocusdProcess(config: Self.shadowed)
            defer { daemon.stop() }
            let client = try daemon.connect()
            let reply = try client.call("io.focusd.Input.ReloadConfig")
            #expect(reply["profiles"] == ["all", "never"])
            let warnings = reply["warnings"]?.arrayValue ?? []
            #expect(warnings.count == 1)
            #expect(warnings.first?.stringValue?.contains("'never' never matches") == true)

            let file = daemon.directory + "/focusd.toml"
            try (Self.shadowed + "[[profile]]\nname = \"late\"\nbogus = = 1\n").write(toFile: file, atomically: true, encoding: .utf8)
            let error = try #require(try client.error(calling: "io.focusd.Input.ReloadConfig"))
            #expect(error.name == "io.focusd.Input.InvalidConfig")
            #expect(error.parameters["line"] == 10)  // the line of `bogus = = 1`

            // The running configuration stayed: a good file reloads as before.
            try Self.shadowed.write(toFile: file, atomically: true, encoding: .utf8)
            #expect(try client.call("io.focusd.Input.ReloadConfig")["profiles"] == ["all", "never"])
        }

        @Test("ReloadConfig reads the gamepad databases again: an unusable line is a warning naming its file and line, never an error")
        func reloadReadsGamepadDatabases() throws {
            let daemon = try FocusdProcess(config: "")
            defer { daemon.stop() }
            let database = daemon.directory + "/gamecontrollerdb.txt"
            try "03000000790000000600000010010000,Pad,a:b0,platform:Linux,\n".write(toFile: database, atomically: true, encoding: .utf8)
            try "[gamepads]\ndatabases = [\"\(database)\", \"\(daemon.directory)/absent.txt\"]\n"
                .write(toFile: daemon.directory + "/focusd.toml", atomically: true, encoding: .utf8)
            let client = try daemon.connect()
            let first = try client.call("io.focusd.Input.ReloadConfig")["warnings"]?.arrayValue ?? []
            #expect(first == [.string("gamepad database \(daemon.directory)/absent.txt: no such file")])
            try "03000000790000000600000010010000,Pad,a:b0,platform:Linux,\nxyz,Bad,a:b0,platform:Linux,\n"
                .write(toFile: database, atomically: true, encoding: .utf8)
            let second = try client.call("io.focusd.Input.ReloadConfig")["warnings"]?.arrayValue ?? []
            #expect(second.contains(.string("\(database):2: skipped: gamepad mapping GUID must be 32 hex digits, found 'xyz'")), "\(second)")
        }
    }
}
