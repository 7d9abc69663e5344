import FocusEngine
import FocusService
import FocusWire
import Foundation
import InputMapping
import Testing

/// The recording format (`focusctl record`, `replay`, `focusd simulate --input`) and its offline
/// playback through the device mapper and the engine.
@Suite("Recordings")
struct RecordingTests {
    static let keyboard = RecordedDevice(
        id: "kbd", name: #"test "quoted" keyboard\ one"#, bus: 3, vendor: 0x046d, product: 0xc31c, version: 0x111,
        phys: "usb-0000:00:14.0-1/input0", uniq: "", class: "keyboard",
        keys: [Int(EventCode.KEY_UP), Int(EventCode.KEY_DOWN), Int(EventCode.KEY_LEFT), Int(EventCode.KEY_RIGHT),
               Int(EventCode.KEY_ENTER), Int(EventCode.KEY_A), 0x2fe].sorted(),
        kernelRepeat: true)
    static let pad = RecordedDevice(
        id: "pad", name: "test pad", bus: 3, vendor: 0x045e, product: 0x028e, version: 0x110, class: "gamepad",
        keys: [Int(EventCode.BTN_SOUTH), Int(EventCode.BTN_EAST)],
        absoluteAxes: [RecordedAxis(code: Int(EventCode.ABS_X), minimum: -32768, maximum: 32767, fuzz: 16, flat: 128),
                       RecordedAxis(code: Int(EventCode.ABS_HAT0X), minimum: -1, maximum: 1),
                       RecordedAxis(code: Int(EventCode.ABS_HAT0Y), minimum: -1, maximum: 1)])
    static let knob = RecordedDevice(
        id: "knob", name: "test knob", bus: 3, vendor: 0x077d, product: 0x0410, class: "rotary",
        keys: [Int(EventCode.BTN_0)], relativeAxes: [Int(EventCode.REL_DIAL)], properties: [Int(EventCode.INPUT_PROP_POINTER)])

    /// Events of one frame at `t` seconds after a base time, followed by its SYN_REPORT.
    static func frame(_ device: String, _ t: Double, _ events: [(UInt16, UInt16, Int32)]) -> [RecordedEvent] {
        let time = 1_764_000_000_000_000 + Int64(t * 1_000_000)
        return events.map { RecordedEvent(device: device, type: $0.0, code: $0.1, value: $0.2, timeUsec: time) }
            + [RecordedEvent(device: device, type: 0, code: 0, value: 0, timeUsec: time)]
    }

    static func key(_ device: String, _ t: Double, _ code: UInt16, _ value: Int32) -> [RecordedEvent] {
        frame(device, t, [(EventCode.EV_MSC, 4, 458_833), (EventCode.EV_KEY, code, value)])
    }

    static var session: Recording {
        Recording(devices: [keyboard, pad, knob], events:
            key("kbd", 0.0, EventCode.KEY_UP, 1) + key("kbd", 0.08, EventCode.KEY_UP, 0)
            // Held 0.65 s: the press, then focusd's own repeat after 400 ms (kernel repeats ignored).
            + key("kbd", 1.0, EventCode.KEY_RIGHT, 1) + key("kbd", 1.25, EventCode.KEY_RIGHT, 2) + key("kbd", 1.65, EventCode.KEY_RIGHT, 0)
            + frame("knob", 1.8, [(EventCode.EV_REL, EventCode.REL_DIAL, 4)])
            + frame("pad", 2.0, [(EventCode.EV_ABS, EventCode.ABS_HAT0Y, 1)]) + frame("pad", 2.1, [(EventCode.EV_ABS, EventCode.ABS_HAT0Y, 0)])
            + frame("pad", 2.5, [(EventCode.EV_ABS, EventCode.ABS_HAT0Y, 1)]) + frame("pad", 2.6, [(EventCode.EV_ABS, EventCode.ABS_HAT0Y, 0)])
            // On an `edit` node (volume) the knob edits: focus stays, and the stream's end comes 150 ms later.
            + frame("knob", 3.0, [(EventCode.EV_REL, EventCode.REL_DIAL, -4)])
            + key("kbd", 4.0, EventCode.KEY_DOWN, 1) + key("kbd", 4.05, EventCode.KEY_DOWN, 0))
    }

    @Test("a recording written as text reads back the same: descriptions, axis ranges, properties, timestamps, odd names")
    func roundTrip() throws {
        let recording = Self.session
        let text = recording.text
        #expect(text.hasPrefix("# focusd recording 1"))
        #expect(text.contains("\n  absolute ABS_X min -32768 max 32767 fuzz 16 flat 128 resolution 0\n"), "\(text)")
        #expect(text.contains("\n  properties INPUT_PROP_POINTER\n"), "\(text)")
        #expect(text.contains("\n1764000000.080000 kbd EV_KEY KEY_UP 0\n"), "\(text)")
        #expect(text.contains("kbd EV_MSC MSC_SCAN 458833"), "\(text)")
        #expect(text.contains(" 0x2fe"), "a key without a kernel name is written as a number: \(text)")
        let back = try Recording(parsing: text)
        #expect(back == recording)
    }

    @Test("the example recording of docs/bench-tools.md reads, and writes back as the same text")
    func readmeExample() throws {
        let readme = try String(contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/bench-tools.md").path, encoding: .utf8)
        let section = try #require(readme.range(of: "**Recording format**"))
        let rest = readme[section.upperBound...]
        let open = try #require(rest.range(of: "```\n"))
        let close = try #require(rest[open.upperBound...].range(of: "```"))
        let example = String(rest[open.upperBound..<close.lowerBound])
        let recording = try Recording(parsing: example)
        #expect(recording.devices.map(\.class) == ["keyboard", "gamepad"] && recording.events.count == 7)
        #expect(recording.text == example)
    }

    @Test("a hand-edited recording with a mistake is refused with its line and the reason")
    func parseErrors() {
        let head = "# focusd recording 1\ndevice k\n  name \"k\"\n  keys KEY_A\nevents\n"
        let cases: [(String, String)] = [
            (head + "1.000000 k EV_KEY KEY_NOPE 1\n", "line 6: unknown code `KEY_NOPE` for EV_KEY"),
            (head + "1.000000 x EV_KEY KEY_A 1\n", "line 6: device x is not described above `events`"),
            (head + "2.000000 k EV_KEY KEY_A 1\n1.000000 k EV_KEY KEY_A 0\n", "line 7: time goes backwards for device k"),
            (head + "1.5 k EV_KEY KEY_A 1\n", "line 6: the time `1.5` is not SECONDS.MICROSECONDS (six digits)"),
            (head + "1.000000 k EV_REL KEY_A 1\n", "line 6: unknown code `KEY_A` for EV_REL"),
            ("device k\n  name \"k\n", "line 2: a quoted string is not closed"),
            ("device k\n  colour blue\n", "line 2: unknown device field `colour`"),
            ("device k\n  name \"k\"\n", "line 3: no `events` line: a recording lists its devices, then `events`"),
        ]
        for (text, message) in cases {
            #expect(throws: Recording.ParseError.self, "\(message)") { try Recording(parsing: text) }
            do { _ = try Recording(parsing: text) } catch { #expect(error.description == message) }
        }
    }

    @Test("played offline on the demo scene: each command, its timing from the recording's clock, and the focus after it")
    func simulation() throws {
        let scene = try JSONDecoder().decode(Scene.self, from: Data(EmbeddedResources.demoScene.utf8))
        func play() throws -> [String] {
            var session = try SceneSession(scene: scene)
            var lines: [String] = []
            RecordingSimulation.run(Self.session, session: &session) { step in
                lines.append("\(RecordingSimulation.timeText(step.timeUsec)) \(step.device) \(step.command.command) \(step.command.phase.rawValue)\(step.command.detents.map { " \($0)" } ?? "") -> \(step.focused ?? "-")")
            }
            return lines
        }
        let lines = try play()
        // Up from heroFeatured enters the tab bar at the tab over it; the held right key repeats
        // along the tabs; the crown on a node without `edit` moves to the next (search); the hat
        // enters the settings section from above at its top, then steps down onto `volume`, where
        // the crown edits and focus stays.
        #expect(lines == [
            "1764000000.000000 kbd up press -> tabHome",
            "1764000000.080000 kbd up release -> tabHome",
            "1764000001.000000 kbd right press -> tabMovies",
            "1764000001.400000 kbd right repeat -> tabShows",
            "1764000001.500000 kbd right repeat -> tabMusic",
            "1764000001.600000 kbd right repeat -> tabSettings",
            "1764000001.650000 kbd right release -> tabSettings",
            "1764000001.800000 knob crown rotate 1 -> search",
            "1764000002.000000 pad down press -> subtitles",
            "1764000002.100000 pad down release -> subtitles",
            "1764000002.500000 pad down press -> volume",
            "1764000002.600000 pad down release -> volume",
            "1764000003.000000 knob crown rotate -1 -> volume",
            "1764000003.150000 knob crown release 0 -> volume",
            "1764000004.000000 kbd down press -> brightness",
            "1764000004.050000 kbd down release -> brightness",
        ], "\(lines.joined(separator: "\n"))")
        #expect(try play() == lines, "deterministic")
    }

    @Test("focusd simulate --input prints each recorded command with the focus after it; a bad file names its line")
    func simulateCommand() throws {
        let directory = try FocusctlTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let scene = directory + "/demo.json", input = directory + "/session.rec", bad = directory + "/bad.rec"
        try EmbeddedResources.demoScene.write(toFile: scene, atomically: true, encoding: .utf8)
        try Self.session.text.write(toFile: input, atomically: true, encoding: .utf8)
        let result = FocusctlTests.run(FocusctlTests.binary("focusd"), ["simulate", scene, "--input", input])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.first == "start -> heroFeatured")
        #expect(result.lines.dropFirst().first == "1764000000.000000 kbd up press -> tabHome  [focus, bindings, values]", "\(result)")
        #expect(result.lines.contains("1764000003.000000 knob crown=-1 rotate -> volume  [edit]"), "\(result)")
        #expect(result.lines.last == "1764000004.050000 kbd down release -> brightness", "\(result)")
        // The knob's profile from a configuration: 2 counts per detent, so 4 counts are 2 detents.
        let config = directory + "/focusd.toml"
        try "[[profile]]\nname = \"knob\"\nmatch = { capabilities = [\"REL_DIAL\"] }\n[profile.rotary]\ncountsPerDetent = 2\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let profiled = FocusctlTests.run(FocusctlTests.binary("focusd"), ["simulate", scene, "--input", input, "--config", config])
        #expect(profiled.status == 0, "\(profiled)")
        #expect(profiled.lines.contains { $0.hasPrefix("1764000001.800000 knob crown=2 rotate -> ") }, "\(profiled)")
        let noConfig = FocusctlTests.run(FocusctlTests.binary("focusd"), ["simulate", scene, "--input", input, "--config", directory + "/absent.toml"])
        #expect(noConfig.status == 1 && noConfig.errors.contains("absent.toml"), "\(noConfig)")
        try (Self.session.text + "1764000005.000000 kbd EV_KEY KEY_DOWN x\n").write(toFile: bad, atomically: true, encoding: .utf8)
        let failed = FocusctlTests.run(FocusctlTests.binary("focusd"), ["simulate", scene, "--input", bad])
        #expect(failed.status == 1 && failed.errors.contains("bad.rec: line "), "\(failed)")
        #expect(failed.errors.contains("the value `x` is not a 32-bit integer"), "\(failed)")
    }
}

/// `focusctl record` and `replay` where the host allows them (no /dev/uinput, no devices here:
/// the real-kernel scenario 84 records and replays real ones).
@Suite("focusctl record and replay")
struct RecordCommandTests {
    @Test("record writes a recording that reads back; an unknown --device is the daemon's NoSuchDevice")
    func recordWithoutDevices() throws {
        let daemon = try FocusctlTests.Daemon()
        defer { daemon.stop() }
        let file = daemon.directory + "/r.rec"
        let result = daemon.focusctl("record", file, "--duration", "0.2")
        #expect(result.status == 0 && result.lines == ["recorded 0 frames of 0 devices to \(file)"], "\(result)")
        let recording = try Recording(parsing: String(contentsOfFile: file, encoding: .utf8))
        #expect(recording.devices.isEmpty && recording.events.isEmpty)
        let unknown = daemon.focusctl("record", file, "--device", "input99-event99", "--duration", "0.2")
        #expect(unknown.status == 2 && unknown.errors.contains("io.focusd.Inspect.NoSuchDevice"), "\(unknown)")
    }

    @Test("replay refuses a device named like focusd's own virtual devices, and says why it cannot create one")
    func replayRefusals() throws {
        let directory = try FocusctlTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var own = RecordingTests.session
        own.devices[0].name = "focusd virtual keyboard"
        try own.text.write(toFile: directory + "/own.rec", atomically: true, encoding: .utf8)
        let refused = FocusctlTests.run(FocusctlTests.binary("focusctl"), ["replay", directory + "/own.rec", "--no-wait"])
        #expect(refused.status == 1 && refused.errors.contains("focusd takes names starting with \"focusd\""), "\(refused)")
        guard access("/dev/uinput", W_OK) != 0 else { return }  // can create devices here: scenario 84's job
        try RecordingTests.session.text.write(toFile: directory + "/s.rec", atomically: true, encoding: .utf8)
        let failed = FocusctlTests.run(FocusctlTests.binary("focusctl"), ["replay", directory + "/s.rec", "--no-wait"])
        #expect(failed.status == 1 && failed.errors.contains("cannot create a uinput device for kbd"), "\(failed)")
    }
}
