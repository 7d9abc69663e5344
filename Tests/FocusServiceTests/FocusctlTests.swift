import Foundation
import Testing
import Varlink

#if canImport(Glibc)
import Glibc
#endif

/// Tests of the `focusctl` command line against a real `focusd --demo --no-devices`.
///
/// Both binaries are the package's own, in `.build/debug` (`swift build --build-tests` builds
/// them). Each test starts its own daemon on a private socket and stops it with SIGTERM.
@Suite("focusctl")
struct FocusctlTests {
    // MARK: Reading state

    @Test("state prints the demo scene's focused node, its path and the revision; -j and -r print the reply as JSON")
    func statePrintsFocus() throws {
        let daemon = try Daemon()
        defer { daemon.stop() }
        let state = daemon.focusctl("state")
        #expect(state.status == 0)
        #expect(state.lines.contains("scene: demo (active)"), "\(state)")
        #expect(state.lines.contains("focused: heroFeatured"), "\(state)")
        #expect(state.lines.contains("path: heroFeatured < heroRow < page < root"), "\(state)")
        #expect(state.lines.contains { $0.hasPrefix("bindings: ") && $0.contains("hero=featured") }, "\(state)")

        let pretty = daemon.focusctl("-j", "state")
        #expect(pretty.status == 0)
        #expect(pretty.lines.count > 5, "pretty printed over several lines")
        let prettyReply = try JSONValue.parse(Array(pretty.output.utf8))
        #expect(prettyReply["state"]?["focused"] == "heroFeatured")

        let raw = daemon.focusctl("state", "--raw")
        #expect(raw.status == 0)
        #expect(raw.lines.count == 1, "\(raw)")
        #expect(try JSONValue.parse(Array(raw.output.utf8)) == prettyReply)
    }

    @Test("scenes marks the active scene, and devices says there are none under --no-devices")
    func scenesAndDevices() throws {
        let daemon = try Daemon()
        defer { daemon.stop() }
        let scenes = daemon.focusctl("scenes")
        #expect(scenes.status == 0)
        #expect(scenes.lines == ["* demo"])
        let devices = daemon.focusctl("devices")
        #expect(devices.status == 0)
        #expect(devices.lines == ["(no devices)"])
        #expect(try JSONValue.parse(Array(daemon.focusctl("devices", "-r").output.utf8)) == ["devices": []])
    }

    // MARK: Moving focus

    @Test("move prints the newly focused node, and (blocked) with exit 0 when focus cannot move")
    func moveMovedAndBlocked() throws {
        let daemon = try Daemon()
        defer { daemon.stop() }
        #expect(daemon.focusctl("move", "right").lines == ["heroTrending"])
        #expect(daemon.focusctl("move", "up").lines == ["tabMovies"])
        let blocked = daemon.focusctl("move", "up")
        #expect(blocked.status == 0)
        #expect(blocked.lines == ["(blocked)"])
        let quiet = daemon.focusctl("-q", "move", "down")
        #expect(quiet.status == 0)
        #expect(quiet.output.isEmpty && quiet.errors.isEmpty)
        #expect(daemon.focusctl("state").lines.contains("focused: heroTrending"))
        let bad = daemon.focusctl("move", "sideways")
        #expect(bad.status == 1, "a usage error is a client error")
        #expect(bad.errors.contains("sideways"))
    }

    @Test("focus focuses a node by id and focus --none dismisses focus")
    func focusAndDismiss() throws {
        let daemon = try Daemon()
        defer { daemon.stop() }
        #expect(daemon.focusctl("focus", "tile05").lines == ["tile05"])
        #expect(daemon.focusctl("state").lines.contains("path: tile05 < continueItems < continueRail < page < root"))
        let none = daemon.focusctl("focus", "--none")
        #expect(none.status == 0)
        #expect(none.lines == ["(none)"])
        #expect(daemon.focusctl("state").lines.contains("focused: (none)"))
        let both = daemon.focusctl("focus", "tile05", "--none")
        #expect(both.status == 1)
        #expect(both.errors.contains("not both"))
    }

    @Test("send select on a focused tile is consumed; a command the engine does not act on is not")
    func sendSelectConsumed() throws {
        let daemon = try Daemon()
        defer { daemon.stop() }
        let select = daemon.focusctl("send", "select")
        #expect(select.status == 0)
        #expect(select.lines == ["heroFeatured"])
        let selectReply = try JSONValue.parse(Array(daemon.focusctl("-r", "send", "select").output.utf8))
        #expect(selectReply["consumed"] == true)
        let menu = daemon.focusctl("send", "menu")
        #expect(menu.status == 0)
        #expect(menu.lines == ["(not consumed)"])
        #expect(daemon.focusctl("send", "right").lines == ["heroTrending"])
    }

    @Test("binding focuses through a value binding, a Bool binding takes true, and --null dismisses")
    func bindings() throws {
        let daemon = try Daemon()
        defer { daemon.stop() }
        #expect(daemon.focusctl("binding", "tab", "movies").lines == ["tabMovies"])
        let state = daemon.focusctl("state")
        #expect(state.lines.contains { $0.hasPrefix("bindings: ") && $0.contains("tab=movies") }, "\(state)")
        #expect(daemon.focusctl("binding", "tab", "--null").lines == ["(none)"])
        #expect(daemon.focusctl("binding", "isSearchFocused", "true").lines == ["search"])
        #expect(daemon.focusctl("state").lines.contains { $0.contains("isSearchFocused=true") })
        let unknown = daemon.focusctl("binding", "tab", "nonesuch")
        #expect(unknown.status == 2, "\(unknown)")
        #expect(unknown.errors.contains("io.focusd.Focus.NoSuchBinding"), "\(unknown)")
    }

    @Test("reset brings focus back to the scene's default focus; an undeclared scope is the daemon's error")
    func resetFocus() throws {
        let daemon = try Daemon()
        defer { daemon.stop() }
        #expect(daemon.focusctl("focus", "tile05").lines == ["tile05"])
        let reset = daemon.focusctl("reset")
        #expect(reset.status == 0)
        #expect(reset.lines == ["heroFeatured"])
        let noScope = daemon.focusctl("reset", "nowhere")
        #expect(noScope.status == 2)
        #expect(noScope.errors.contains("io.focusd.Focus.NoSuchScope: scope=\"nowhere\""), "\(noScope)")
    }

    // MARK: Scenes

    @Test("set-scene installs a scene that outlives focusctl (persist), and scenes lists it as active")
    func setSceneAndScenes() throws {
        let daemon = try Daemon()
        defer { daemon.stop() }
        let file = daemon.directory + "/mini.json"
        try Self.miniScene(name: "mini").write(toFile: file, atomically: true, encoding: .utf8)
        let set = daemon.focusctl("set-scene", file)
        #expect(set.status == 0, "\(set)")
        #expect(set.lines == ["mini: first"])
        #expect(daemon.focusctl("scenes").lines == ["  demo", "* mini"])
        #expect(daemon.focusctl("move", "right").lines == ["second"])

        // An example file (the scene under a `scene` member) is read too; without persist the
        // scene goes with focusctl's connection.
        let example = daemon.directory + "/example.json"
        try "{\"title\": \"x\", \"scene\": \(Self.miniScene(name: "brief"))}".write(
            toFile: example, atomically: true, encoding: .utf8)
        let brief = daemon.focusctl("set-scene", "--no-persist", example)
        #expect(brief.status == 0, "\(brief)")
        #expect(brief.lines == ["brief: first"])
        #expect(!daemon.focusctl("scenes").lines.contains { $0.hasSuffix("brief") })
    }

    @Test("lint exits 1 and names the problem for a scene with an ambiguous binding, 0 for a clean one")
    func lintExitCodes() throws {
        let daemon = try Daemon()
        defer { daemon.stop() }
        let clean = daemon.directory + "/clean.json"
        try Self.miniScene(name: "clean").write(toFile: clean, atomically: true, encoding: .utf8)
        let ok = daemon.focusctl("lint", clean)
        #expect(ok.status == 0)
        #expect(ok.lines == ["no problems"])

        let ambiguous = daemon.directory + "/ambiguous.json"
        try """
            {"name": "amb", "root": {"id": "root", "frame": {"x": 0, "y": 0, "width": 400, "height": 200}, "children": [
              {"id": "a", "focusable": true, "frame": {"x": 0, "y": 0, "width": 100, "height": 50},
               "bindings": [{"name": "field", "value": "name"}]},
              {"id": "b", "focusable": true, "frame": {"x": 200, "y": 0, "width": 100, "height": 50},
               "bindings": [{"name": "field", "value": "name"}]}]}}
            """.write(toFile: ambiguous, atomically: true, encoding: .utf8)
        let problems = daemon.focusctl("lint", ambiguous)
        #expect(problems.status == 1)
        #expect(problems.lines.contains { $0.hasPrefix("ambiguousBinding a -> b: ") }, "\(problems)")

        let broken = daemon.directory + "/broken.json"
        try "{\"name\": \"x\", \"root\": {\"frame\": {}}}".write(toFile: broken, atomically: true, encoding: .utf8)
        let notScene = daemon.focusctl("lint", broken)
        #expect(notScene.status == 1)
        #expect(notScene.errors.contains("\(broken): not a scene: missing field 'id' at root"), "\(notScene)")
        let missing = daemon.focusctl("lint", daemon.directory + "/absent.json")
        #expect(missing.status == 1)
        #expect(missing.errors.contains("absent.json: no such file"), "\(missing)")
    }

    @Test("a daemon reading devices, none of them a touch surface, does not load libinput (nor GLib)")
    func libinputOnlyForTouchSurfaces() throws {
        let inputs = try Self.temporaryDirectory()
        let daemon = try Daemon(arguments: ["--input-directory", inputs])
        defer { daemon.stop() }
        #expect(daemon.focusctl("devices").status == 0)
        let maps = try String(decoding: FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(daemon.pid)/maps")).readToEnd() ?? Data(), as: UTF8.self)
        #expect(maps.contains("focusd"), "the maps of the daemon were read")
        #expect(!maps.contains("libinput.so"))
        #expect(!maps.contains("libglib-2.0.so"))
    }

    // MARK: Exit codes

    @Test("an error answer from the daemon exits 2 and prints the error's name and parameters")
    func daemonErrorExits2() throws {
        let daemon = try Daemon()
        defer { daemon.stop() }
        let node = daemon.focusctl("focus", "nope")
        #expect(node.status == 2)
        #expect(node.output.isEmpty)
        #expect(node.errors == "focusctl: io.focusd.Focus.NoSuchNode: id=\"nope\"\n")
        let scene = daemon.focusctl("state", "--scene", "elsewhere")
        #expect(scene.status == 2)
        #expect(scene.errors.contains("io.focusd.Focus.NoSuchScene: scene=\"elsewhere\""))
        let lend = daemon.focusctl("lend", "input1-event1")
        #expect(lend.status == 2)
        #expect(lend.errors == "focusctl: io.focusd.Input.NoSuchDevice: id=\"input1-event1\"\n", "\(lend)")
        let quiet = daemon.focusctl("-q", "focus", "nope")
        #expect(quiet.status == 2)
        #expect(quiet.output.isEmpty && quiet.errors.isEmpty)
    }

    @Test("without a daemon, focusctl exits 1 and says that focusd is not running at that socket")
    func noDaemonExits1() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/focusd.sock"
        let result = Self.run(Self.binary("focusctl"), ["-s", socket, "state"])
        #expect(result.status == 1)
        #expect(result.errors.contains("no focusd socket at \(socket)"), "\(result)")
        #expect(result.errors.contains("focusd is not running"), "\(result)")
        let fromEnvironment = Self.run(Self.binary("focusctl"), ["scenes"], environment: ["FOCUSD_SOCKET": socket])
        #expect(fromEnvironment.status == 1)
        #expect(fromEnvironment.errors.contains(socket), "$FOCUSD_SOCKET names the socket")
    }

    // MARK: Streams and pictures

    @Test("monitor prints the state, then one JSON line per event as it happens")
    func monitorPrintsLines() throws {
        let daemon = try Daemon()
        defer { daemon.stop() }
        let monitor = try LineStream(Self.binary("focusctl"), ["-s", daemon.socket, "monitor"])
        defer { monitor.stop() }
        let first = try #require(monitor.nextLine(timeout: 10))
        #expect(try JSONValue.parse(Array(first.utf8))["state"]?["focused"] == "heroFeatured")
        #expect(daemon.focusctl("move", "right").lines == ["heroTrending"])
        let line = try #require(monitor.nextLine(timeout: 10), "an event line while focusctl monitor still runs")
        let event = try #require(try JSONValue.parse(Array(line.utf8))["event"])
        #expect(event["kind"] == "focus")
        #expect(event["from"] == "heroFeatured")
        #expect(event["to"] == "heroTrending")
        #expect(event["cause"]?["direction"] == "right")
    }

    @Test("monitor --input prints the attached devices first (none under --no-devices)")
    func monitorInput() throws {
        let daemon = try Daemon()
        defer { daemon.stop() }
        let monitor = try LineStream(Self.binary("focusctl"), ["-s", daemon.socket, "monitor", "--input"])
        defer { monitor.stop() }
        let first = try #require(monitor.nextLine(timeout: 10))
        #expect(try JSONValue.parse(Array(first.utf8)) == ["devices": []])
    }

    @Test("watch --once draws the scene's nodes and marks the focused one, which follows a move")
    func watchOnceMarksFocus() throws {
        let daemon = try Daemon()
        defer { daemon.stop() }
        let picture = daemon.focusctl("watch", "--once", "--size", "120x40")
        #expect(picture.status == 0)
        #expect(picture.lines.count == 40)
        #expect(picture.lines.allSatisfy { $0.count <= 120 })
        #expect(picture.lines[0].contains("focused heroFeatured"))
        // The last line is the legend, which shows the marker too.
        let marked = picture.lines.dropLast().filter { $0.contains("▶") }
        #expect(marked.count == 1)
        #expect(marked.first?.contains("▶heroFeatured") == true, "\(picture.output)")
        for id in ["tabHome", "search", "heroTrending", "tile00", "tile03", "movie0", "volume", "signOut"] {
            #expect(picture.output.contains(id), "\(id) is drawn")
        }
        #expect(daemon.focusctl("move", "right").status == 0)
        let moved = daemon.focusctl("watch", "--once")
        #expect(moved.lines.count == 30, "100x30 when standard output is not a terminal")
        #expect(moved.lines.dropLast().filter { $0.contains("▶") }.count == 1)
        #expect(moved.output.contains("▶heroTrending"), "\(moved.output)")
    }

    @Test("watch --once draws a scene whose frames have negative and mixed-sign coordinates, and moves through it")
    func watchNegativeCoordinates() throws {
        let daemon = try Daemon()
        defer { daemon.stop() }
        let file = daemon.directory + "/around-origin.json"
        try #"""
            {"name": "origin", "root": {"id": "root", "frame": {"x": -400, "y": -300, "width": 800, "height": 600},
              "children": [
                {"id": "westTile", "focusable": true, "frame": {"x": -380, "y": -100, "width": 200, "height": 120}},
                {"id": "midTile", "focusable": true, "frame": {"x": -100, "y": -100, "width": 200, "height": 120}},
                {"id": "eastTile", "focusable": true, "frame": {"x": 180, "y": -100, "width": 200, "height": 120}}]}}
            """#.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(daemon.focusctl("set-scene", file).status == 0)
        #expect(daemon.focusctl("focus", "westTile").status == 0)
        let picture = daemon.focusctl("watch", "--once", "--size", "80x24")
        #expect(picture.status == 0, "\(picture.output)")
        let rows = picture.lines.dropLast()
        for id in ["westTile", "midTile", "eastTile"] {
            #expect(rows.contains { $0.contains(id) }, "\(id) is drawn:\n\(picture.output)")
        }
        // Left to right as in the scene: the tile left of the origin, the one across it, the one right of it.
        let row = try #require(rows.first { $0.contains("westTile") && $0.contains("eastTile") }, "\(picture.output)")
        let columns = ["westTile", "midTile", "eastTile"].map { row.range(of: $0).map { row.distance(from: row.startIndex, to: $0.lowerBound) } ?? -1 }
        #expect(columns[0] < columns[1] && columns[1] < columns[2], "\(picture.output)")
        #expect(row.contains("▶westTile"), "\(picture.output)")
        #expect(daemon.focusctl("move", "right").lines == ["midTile"])
        #expect(daemon.focusctl("move", "right").lines == ["eastTile"])
    }

    @Test("reload makes focusd read its config again: profiles and warnings printed, a bad file exits 2 with its line")
    func reloadReadsConfig() throws {
        let configDirectory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: configDirectory) }
        let config = configDirectory + "/focusd.toml"
        try "".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try Daemon(arguments: ["--demo", "--no-devices", "--config", config])
        defer { daemon.stop() }
        try "[[profile]]\nname = \"all\"\n[[profile]]\nname = \"never\"\nmatch = { class = \"remote\" }\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let reloaded = daemon.focusctl("reload")
        #expect(reloaded.status == 0, "\(reloaded.output)")
        #expect(reloaded.lines.first == "reloaded: profiles all, never", "\(reloaded.output)")
        #expect(reloaded.lines.dropFirst().contains { $0.hasPrefix("warning: ") && $0.contains("'never' never matches") }, "\(reloaded.output)")
        try "[limits]\nmaxNodes = = 5\n".write(toFile: config, atomically: true, encoding: .utf8)
        let broken = daemon.focusctl("reload")
        #expect(broken.status == 2)
        #expect(broken.errors.contains("io.focusd.Input.InvalidConfig") && broken.errors.contains("line=2"), "\(broken.errors)")
    }

    @Test("scroll sets a container's offset (clamped) and watch draws its viewport, its offset and the virtual items it shows")
    func scrollAndWatchViewports() throws {
        let daemon = try Daemon()
        defer { daemon.stop() }
        let scrolled = daemon.focusctl("scroll", "continueRail", "3300", "99")
        #expect(scrolled.status == 0)
        #expect(scrolled.lines == ["continueRail 3300 0"], "\(scrolled)")
        let picture = daemon.focusctl("watch", "--once", "--size", "200x50")
        // Items 10 to 13 start at content x 3320: virtual (dotted), built items 0 to 7 scrolled out.
        #expect(picture.output.contains("continueItems#10") && picture.output.contains("┄"), "\(picture.output)")
        #expect(!picture.output.contains("tile00"), "\(picture.output)")
        #expect(picture.output.contains("continueRail ↔3300"), "\(picture.output)")
        #expect(daemon.focusctl("state").lines.contains("focused: heroFeatured"))
        let notContainer = daemon.focusctl("scroll", "tile00", "0", "0")
        #expect(notContainer.status == 2)
        #expect(notContainer.errors.contains("io.focusd.Focus.NoSuchNode"), "\(notContainer)")
    }

    @Test("focusctl --help lists every command with its summary")
    func helpListsCommands() throws {
        let help = Self.run(Self.binary("focusctl"), ["--help"])
        #expect(help.status == 0)
        let commands = [
            "state", "scenes", "devices", "move", "focus", "binding", "reset", "send", "scroll", "set-scene", "lint",
            "monitor", "watch", "reload", "lend", "why", "goto", "record", "replay",
        ]
        // The section runs from its heading to the first blank line; each entry starts at column
        // 3 with the command's name, followed by its summary.
        let section = help.lines.drop { $0 != "SUBCOMMANDS:" }.dropFirst().prefix { !$0.isEmpty }
        let entries = section.filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }.map { $0.split(separator: " ") }
        #expect(entries.map { String($0[0]) } == commands, "\(help.output)")
        #expect(entries.allSatisfy { $0.count > 3 }, "every command has a summary")
        for option in ["-s, --socket", "-j, --json", "-r, --raw", "-q"] {
            #expect(help.output.contains(option))
        }
        let setScene = Self.run(Self.binary("focusctl"), ["set-scene", "--help"])
        #expect(setScene.output.contains("persist"), "set-scene says why scenes persist")
    }

    // MARK: Harness

    /// A scene of two focusable nodes side by side, `first` and `second`.
    static func miniScene(name: String) -> String {
        """
        {"name": "\(name)", "root": {"id": "root", "frame": {"x": 0, "y": 0, "width": 400, "height": 200}, "children": [
          {"id": "first", "focusable": true, "frame": {"x": 0, "y": 0, "width": 100, "height": 50}},
          {"id": "second", "focusable": true, "frame": {"x": 200, "y": 0, "width": 100, "height": 50}}]}}
        """
    }

    /// What a finished subprocess printed and how it ended.
    struct Result: CustomStringConvertible {
        var status: Int32
        var output: String
        var errors: String
        var lines: [String] { output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
        var description: String { "exit \(status)\nstdout:\n\(output)stderr:\n\(errors)" }
    }

    /// The package's built executable `name`.
    static func binary(_ name: String) -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/\(name)").path
    }

    static func temporaryDirectory() throws -> String {
        var template = Array((NSTemporaryDirectory() + "/focusctl-test.XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
        return String(cString: made)
    }

    /// Runs `path` with `arguments` to completion (killed after 30 s), capturing its output.
    static func run(_ path: String, _ arguments: [String], environment: [String: String] = [:]) -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        merged["FOCUSD_SOCKET"] = nil
        merged.merge(environment) { $1 }
        process.environment = merged
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return Result(status: -1, output: "", errors: "cannot run \(path): \(error)") }
        let killer = DispatchWorkItem { if process.isRunning { process.interrupt(); kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: killer)
        // Both pipes are read to the end before waiting; the outputs are small, so stderr cannot
        // fill while stdout is drained.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        return Result(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData, as: UTF8.self))
    }

    /// A `focusd --demo --no-devices` (or other `arguments`) on a private socket, stopped with SIGTERM.
    final class Daemon {
        let directory: String
        let socket: String
        private let process = Process()
        private var exited: ExitSignal?
        var pid: Int32 { process.processIdentifier }

        init(arguments: [String] = ["--demo", "--no-devices"]) throws {
            directory = try FocusctlTests.temporaryDirectory()
            socket = directory + "/focusd.sock"
            process.executableURL = URL(fileURLWithPath: FocusctlTests.binary("focusd"))
            process.arguments = arguments + ["--socket", socket]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            // Ready when it says so (READY=1 on its $NOTIFY_SOCKET), not when a retried connection gets through.
            let readiness = try ReadinessSocket(directory: directory)
            process.environment = readiness.environment
            exited = ExitSignal(process, also: readiness.processExited)
            try process.run()
            if readiness.waitForReady(seconds: 20) { return }
            stop()
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "focusd did not start listening"])
        }

        /// Runs focusctl against this daemon.
        func focusctl(_ arguments: String...) -> Result {
            FocusctlTests.run(FocusctlTests.binary("focusctl"), arguments, environment: ["FOCUSD_SOCKET": socket])
        }

        /// SIGTERM, then SIGKILL if it has not gone within 10 s; removes the directory.
        func stop() {
            if process.isRunning {
                process.terminate()
                if exited?.wait(seconds: 10) != true { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
            }
            #expect(!process.isRunning)
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// A running subprocess whose standard output is read line by line, with a timeout.
    final class LineStream {
        private let process = Process()
        private let pipe = Pipe()
        private var buffer: [UInt8] = []
        private var exited: ExitSignal?

        init(_ path: String, _ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            exited = ExitSignal(process)
            try process.run()
        }

        /// The next line, or nil when none arrives within `timeout` seconds or the process ends.
        func nextLine(timeout: Double) -> String? {
            let descriptor = pipe.fileHandleForReading.fileDescriptor
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[..<end], as: UTF8.self)
                    buffer.removeSubrange(...end)
                    return line
                }
                let left = deadline.timeIntervalSinceNow
                guard left > 0 else { return nil }
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, Int32(left * 1000) + 1) > 0 else { continue }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = read(descriptor, &chunk, chunk.count)
                guard count > 0 else { return nil }
                buffer += chunk[..<count]
            }
        }

        /// Ends the process (SIGTERM, then SIGKILL) and waits for it.
        func stop() {
            if process.isRunning {
                process.terminate()
                if exited?.wait(seconds: 5) != true { kill(process.processIdentifier, SIGKILL) }
            }
            process.waitUntilExit()
            #expect(!process.isRunning)
        }
    }
}
