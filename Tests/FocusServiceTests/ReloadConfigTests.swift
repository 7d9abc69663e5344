import FocusConfig
import Foundation
import Testing
import Varlink

extension ServiceSocketTests {
    /// What a reload shows only of the process: the worker thread it reads on, and start-up.
    /// What a reload answers and applies is ``ReloadConfigTests``.
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

        @Test("ReloadConfig is read on the worker thread: while the worker is busy other clients are answered, and the reload answers after the work queued before it, with the new file")
        func reloadIsReadOffTheLoop() throws {
            // At debug level, for occupyWorker (the daemon logs each Lint it queues).
            let daemon = try FocusdProcess(config: Self.shadowed, devices: ["--no-devices", "--log-level", "debug"])
            defer { daemon.stop() }
            let other = try daemon.connect()
            try other.call("io.focusd.Focus.SetScene", ["scene": TestScenes.row("live", count: 2)])
            try "[[profile]]\nname = \"after\"\n".write(toFile: daemon.directory + "/focusd.toml", atomically: true, encoding: .utf8)
            let (first, linter) = try ServiceSocketTests.OffLoopScenes.occupyWorker(daemon)
            defer { for client in first { client.close() } }
            let reloader = try daemon.connect(timeout: .seconds(60))
            try reloader.send(VarlinkCall(method: "io.focusd.Input.ReloadConfig", parameters: [:]))
            // The loop answers another client at once, the reload still waiting for the worker.
            for index in 0..<5 {
                let reply = try other.call("io.focusd.Focus.Move", ["direction": index % 2 == 0 ? "right" : "left", "scene": "live"])
                #expect(reply["moved"] == true)
            }
            #expect(try reloader.receiveText(timeout: .milliseconds(1)) == nil, "ReloadConfig was answered before the worker was free: it was read on the loop")
            let (reply, lintBegun) = try ServiceSocketTests.OffLoopScenes.reply(of: reloader, after: linter)
            #expect(lintBegun, "ReloadConfig was answered before the Lint that held the worker")
            #expect(reply.error == nil)
            #expect(reply.parameters["profiles"] == ["after"])
        }

        @Test("deeply nested TOML is InvalidConfig with its line, on reload and at start-up, and the daemon lives on")
        func deeplyNestedConfigIsRefused() throws {
            let daemon = try FocusdProcess(config: "")
            defer { daemon.stop() }
            let client = try daemon.connect()
            try ("[access]\nreadOnlyUids = " + String(repeating: "[", count: 100_000) + "\n")
                .write(toFile: daemon.directory + "/focusd.toml", atomically: true, encoding: .utf8)
            let error = try #require(try client.error(calling: "io.focusd.Input.ReloadConfig"))
            #expect(error.name == "io.focusd.Input.InvalidConfig")
            #expect(error.parameters["line"] == 2)
            #expect(daemon.isRunning)
            #expect(try daemon.connect().call("io.focusd.Focus.ListScenes")["scenes"] == [])

            // At start-up: a clear error and exit status 1, not a segfault (139).
            let file = daemon.directory + "/nested.toml"
            try ("a = " + String(repeating: "{ b = ", count: 20_000) + "1" + String(repeating: " }", count: 20_000) + "\n")
                .write(toFile: file, atomically: true, encoding: .utf8)
            let start = try Subprocess.run(ServiceTestPaths.focusd, [
                "--no-devices", "--socket", daemon.directory + "/other.sock", "--config", file,
            ])
            #expect(start.status == 1, "\(start.output)")
            #expect(start.output.contains("nest deeper than"), "\(start.output)")
        }

    }
}

/// `io.focusd.Input.ReloadConfig` (input.md §7): the file is read again; its warnings come
/// back; a bad file is answered with its line and the running configuration stays. Through
/// focusd's service in process, which reloads as the daemon does (`DaemonService.reload`, the
/// file read on the worker thread).
@Suite("Configuration reload", .timeLimit(.minutes(1)))
struct ReloadConfigTests {
    static let shadowed = ServiceSocketTests.ReloadConfig.shadowed

    @Test("ReloadConfig returns the profiles and the file's warnings; a bad file is InvalidConfig with its line and changes nothing")
    func reloadReportsWarningsAndErrors() throws {
        let daemon = try InProcessFocusd(config: Self.shadowed)
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


    @Test("a reload applies [limits] maxNodes and maxDepth to new and existing scenes; what needs a restart is a warning, in the reply and the log")
    func reloadAppliesLimits() throws {
        let daemon = try InProcessFocusd(config: "[limits]\nmaxNodes = 100\n")
        let client = try daemon.connect()
        try client.call("io.focusd.Focus.SetScene", ["scene": TestScenes.row("kept", count: 4)])
        try "[limits]\nmaxNodes = 5\nmaxMessageBytes = 1_048_576\npromptBuildBytes = 0\n"
            .write(toFile: daemon.directory + "/focusd.toml", atomically: true, encoding: .utf8)
        let reply = try client.call("io.focusd.Input.ReloadConfig")
        let warnings = reply["warnings"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(warnings == [
            "[limits] maxMessageBytes = 1048576 is not applied until focusd restarts (running with 16777216)",
            "[limits] promptBuildBytes = 0 is not applied until focusd restarts (running with 2097152)",
        ])
        // An 11-node scene (root and 10 tiles) is refused now, by SetScene and by an update
        // of the scene installed before the reload, which stays as it was.
        let refused = try client.error(calling: "io.focusd.Focus.SetScene", ["scene": TestScenes.row("big", count: 10)])
        #expect(refused == VarlinkError("io.focusd.Focus.TooManyNodes", parameters: ["limit": 5]))
        let grown = try client.error(
            calling: "io.focusd.Focus.UpdateScene",
            ["scene": "kept", "upsert": [["parent": "root", "node": TestScenes.tile("extra", x: 900, y: 0)]]])
        #expect(grown == VarlinkError("io.focusd.Focus.TooManyNodes", parameters: ["limit": 5]))
        #expect(try client.call("io.focusd.Focus.ListScenes")["scenes"] == ["kept"])
        let log = daemon.log.contains("maxMessageBytes = 1048576 is not applied until focusd restarts")
        #expect(log, "the log says what the reload did not apply:\n\(daemon.log.text)")
    }


    @Test("ReloadConfig reads the gamepad databases again: an unusable line is a warning naming its file and line, never an error")
    func reloadReadsGamepadDatabases() throws {
        let daemon = try InProcessFocusd(config: "")
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
