import Foundation
import Testing
import Varlink

/// Tests of `focusd`'s own command line (service.md §3): help, version, usage errors, and the
/// offline `simulate` and `lint` commands, run as the built binary.
@Suite("focusd command line")
struct FocusdCommandLineTests {
    private static func focusd(_ arguments: String...) -> FocusctlTests.Result {
        FocusctlTests.run(FocusctlTests.binary("focusd"), arguments)
    }

    private static func sceneFile(_ text: String) throws -> String {
        let directory = try FocusctlTests.temporaryDirectory()
        let path = directory + "/scene.json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("--help lists the subcommands; run --help and help run list run's options with their defaults")
    func help() {
        let top = Self.focusd("--help")
        #expect(top.status == 0, "\(top)")
        for name in ["run (default)", "simulate", "lint", "--version"] { #expect(top.output.contains(name), "\(name)\n\(top)") }
        for arguments in [["run", "--help"], ["help", "run"], ["run", "-h"]] {
            let run = FocusctlTests.run(FocusctlTests.binary("focusd"), arguments)
            #expect(run.status == 0, "\(run)")
            for option in ["--demo", "--config <file>", "--socket <path>", "--no-devices", "(default: /dev/input)", "(default: info)"] {
                #expect(run.output.contains(option), "\(arguments): \(option)\n\(run)")
            }
        }
        #expect(Self.focusd("simulate", "--help").output.contains("USAGE: focusd simulate [--json] [--input <file>] [--config <file>] <scene> [<commands> ...]"))
        #expect(Self.focusd("help", "nonsense").status == 64)
    }

    @Test("--version prints the version alone on one line")
    func version() {
        let result = Self.focusd("--version")
        #expect(result.status == 0)
        #expect(result.lines.count == 1)
        #expect(result.lines.first?.split(separator: ".").count == 3, "\(result)")
    }

    @Test("usage mistakes exit 64 with the mistake and the usage line, before anything starts", arguments: [
        (["--bogus"], "Unknown option '--bogus'"),
        (["--socket"], "Missing value for '--socket <path>'"),
        (["--log-level", "loud"], "--log-level must be one of trace, debug, info, notice, warning, error, critical, not 'loud'"),
        (["--demo=yes"], "'--demo' takes no value"),
        (["lint"], "Missing expected argument '<scene>'"),
        (["lint", "a.json", "b.json"], "Unexpected argument 'b.json'"),
    ])
    func usageErrors(arguments: [String], message: String) {
        let result = FocusctlTests.run(FocusctlTests.binary("focusd"), arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.errors.contains("Error: \(message)"), "\(result)")
        #expect(result.errors.contains("Usage: focusd "), "\(result)")
    }

    @Test("options take their value after '=' or as the next argument")
    func optionValueForms() throws {
        let directory = try FocusctlTests.temporaryDirectory()
        for arguments in [["--config=\(directory)/absent.toml"], ["--config", "\(directory)/absent.toml"]] {
            let result = FocusctlTests.run(FocusctlTests.binary("focusd"), arguments + ["--no-devices", "--socket", directory + "/s"])
            #expect(result.status == 1, "\(result)")
            #expect(result.errors.contains("absent.toml: cannot read the configuration file: no such file"), "\(result)")
        }
    }

    @Test("simulate prints the focus after each command; --json prints each state and its events as a JSON line")
    func simulate() throws {
        let scene = try Self.sceneFile(FocusctlTests.miniScene(name: "mini"))
        let text = Self.focusd("simulate", scene, "right", "left", "crown=1")
        #expect(text.status == 0, "\(text)")
        #expect(text.lines.first == "start -> first")
        #expect(text.lines.dropFirst().first?.hasPrefix("right -> second  [focus") == true, "\(text)")
        #expect(text.lines.count == 4)

        let json = Self.focusd("simulate", "-j", scene, "right")
        #expect(json.status == 0, "\(json)")
        let values = try json.lines.map { try JSONValue.parse($0) }
        #expect(values.map { $0["command"] } == ["start", "right"])
        #expect(values.last?["state"]?["focused"] == "second")
        #expect(values.last?["events"]?.arrayValue?.isEmpty == false)
        #expect(json.lines.last?.hasPrefix(#"{"command":"right","events":["#) == true, "keys sorted: \(json)")

        let bad = Self.focusd("simulate", scene, "crown=many")
        #expect(bad.status == 1, "\(bad)")
        #expect(bad.errors.contains("crown=many:"), "\(bad)")
    }

    @Test("lint: 'no problems' and exit 0, or one line per problem and exit 1; unreadable files say why")
    func lint() throws {
        let clean = try Self.sceneFile(FocusctlTests.miniScene(name: "clean"))
        let ok = Self.focusd("lint", clean)
        #expect(ok.status == 0, "\(ok)")
        #expect(ok.lines == ["no problems"])

        let lonely = try Self.sceneFile("""
            {"scene": {"name": "off", "root": {"id": "root", "frame": {"x": 0, "y": 0, "width": 400, "height": 200}, "children": [
              {"id": "a", "focusable": true, "frame": {"x": 0, "y": 0, "width": 100, "height": 50}},
              {"id": "b", "focusable": true, "frame": {"x": 900, "y": 900, "width": 100, "height": 50}}]}}}
            """)
        let problems = Self.focusd("lint", lonely)
        #expect(problems.status == 1, "\(problems)")
        #expect(problems.lines.contains { $0.hasPrefix("offscreen\tb") }, "\(problems)")

        let syntax = try Self.sceneFile("{\"name\": \"x\",\n  \"root\": [}")
        let broken = Self.focusd("lint", syntax)
        #expect(broken.status == 1)
        #expect(broken.errors.contains("not JSON: line 2, column 12:"), "\(broken)")

        let missing = Self.focusd("lint", "/nonexistent/scene.json")
        #expect(missing.status == 1)
        #expect(missing.errors.contains("Error: /nonexistent/scene.json: no such file"), "\(missing)")
    }

    @Test("classify prints class, grab, backend and reasons per description; --no-udev drops udev's properties; a profile wins")
    func classify() throws {
        let file = try Self.sceneFile("""
            [{"name": "QEMU USB Tablet", "bus": 3, "events": {"EV_KEY": ["BTN_LEFT"], "EV_REL": ["REL_WHEEL"],
               "EV_ABS": {"ABS_X": {"min": 0, "max": 32767}, "ABS_Y": {"min": 0, "max": 32767}}}},
             {"name": "Knob", "bus": 3, "events": {"EV_KEY": ["BTN_0"], "EV_REL": ["REL_DIAL"]},
              "udev": {"ID_INPUT": "1", "ID_INPUT_TABLET_PAD": "1"}}]
            """)
        let result = Self.focusd("classify", file)
        #expect(result.status == 0, "\(result)")
        let objects = try result.lines.map { try JSONValue.parse($0) }
        #expect(objects.count == 2)
        #expect(objects[0]["class"] == .string("pointer") && objects[0]["grab"] == .string("shared"))
        #expect(objects[0]["backend"] == .string("libevdev") && objects[0]["mapping"] == .null)
        #expect(objects[0]["reasons"]?.arrayValue?.first == .string("no udevd; udev's input_id rules give ID_INPUT_MOUSE"))
        #expect(objects[1]["class"] == .string("other") && objects[1]["grab"] == .string("none") && objects[1]["backend"] == .null)
        let bare = try Self.focusd("classify", "--no-udev", file).lines.map { try JSONValue.parse($0) }
        #expect(bare[1]["class"] == .string("rotary") && bare[1]["grab"] == .string("exclusive"))

        let directory = try FocusctlTests.temporaryDirectory()
        try "[[profile]]\nname = \"pad\"\nmatch = { name = \"Knob\" }\nclass = \"rotary\"\ngrab = \"exclusive\"\n"
            .write(toFile: directory + "/focusd.toml", atomically: true, encoding: .utf8)
        let configured = try Self.focusd("classify", "--config", directory + "/focusd.toml", file).lines.map { try JSONValue.parse($0) }
        #expect(configured[1]["class"] == .string("rotary") && configured[1]["grab"] == .string("exclusive"))
        #expect(configured[1]["reasons"]?.arrayValue?.last == .string("profile 'pad' matched: class = \"rotary\", grab = \"exclusive\""))
    }

    @Test("classify --config reports the database line a gamepad uses as its mapping; an unusable line is a warning")
    func classifyMapping() throws {
        let directory = try FocusctlTests.temporaryDirectory()
        let database = directory + "/gamecontrollerdb.txt"
        try """
            # Linux
            03000000790000000600000010010000,Generic USB Joystick,a:b2,b:b1,dpup:h0.1,dpdown:h0.4,dpleft:h0.8,dpright:h0.2,leftx:a0,lefty:a1,platform:Linux,
            03000000790000000700000010010000,Broken,a:z9,platform:Linux,
            """.write(toFile: database, atomically: true, encoding: .utf8)
        try "[gamepads]\ndatabases = [\"\(database)\"]\n".write(toFile: directory + "/focusd.toml", atomically: true, encoding: .utf8)
        let pad = try Self.sceneFile("""
            {"name": "Generic USB Joystick", "bus": 3, "vendor": 121, "product": 6, "version": 272,
             "events": {"EV_KEY": ["BTN_TRIGGER", "BTN_THUMB", "BTN_THUMB2", "BTN_TOP"],
                        "EV_ABS": {"ABS_X": {"min": 0, "max": 255}, "ABS_Y": {"min": 0, "max": 255},
                                   "ABS_RZ": {"min": 0, "max": 255}, "ABS_HAT0X": {"min": -1, "max": 1}, "ABS_HAT0Y": {"min": -1, "max": 1}}}}
            """)
        let result = Self.focusd("classify", "--config", directory + "/focusd.toml", pad)
        #expect(result.status == 0, "\(result)")
        let answer = try JSONValue.parse(result.lines[0])
        #expect(answer["class"] == .string("gamepad"))
        #expect(answer["mapping"] == .object(["name": .string("Generic USB Joystick"), "source": .string(database + ":2")]))
        #expect(result.errors.contains("\(database):3: 'a:z9': source 'z9' is not bN, hN.M or aN, ignored"), "\(result)")
    }

    @Test("classify answers a malformed description with exit 2 and an error naming the file, index and field")
    func classifyMalformed() throws {
        let file = try Self.sceneFile(#"[{"name": "a", "events": {}}, {"name": "b", "events": {"EV_KEY": ["KEY_NOPE"]}}]"#)
        let result = Self.focusd("classify", file)
        #expect(result.status == 2, "\(result)")
        #expect(result.output.isEmpty)
        #expect(result.errors == "Error: \(file): description 1: field events.EV_KEY[0]: unknown code name KEY_NOPE\n", "\(result)")
        let noName = try Self.sceneFile(#"{"events": {}}"#)
        #expect(Self.focusd("classify", noName).errors.contains("\(noName): description 0: field name: missing"))
    }

    @Test("the daemon binary needs neither FoundationEssentials nor libinput (its memory budget, docs/performance.md)")
    func lean() {
        let dynamic = FocusctlTests.run("/usr/bin/readelf", ["-d", FocusctlTests.binary("focusd")])
        #expect(dynamic.status == 0, "\(dynamic)")
        let needed = dynamic.lines.filter { $0.contains("(NEEDED)") }
        #expect(needed.contains { $0.contains("libevdev") }, "\(dynamic)")
        #expect(!needed.contains { $0.contains("Foundation") }, "\(needed)")
        #expect(!needed.contains { $0.contains("libinput") }, "\(needed)")
    }
}
