import FocusEngine
import InputMapping
import FocusService
import FocusWire
import Varlink

/// `focusd simulate SCENE CMD...`: the engine offline, one line per command.
enum Simulate {
    static let spec = CommandSpec(
        name: "simulate",
        abstract: "Runs the focus engine offline on a scene file and prints the focus after each command.",
        discussion: """
            SCENE is a JSON file holding a Scene (as io.focusd.Focus's SetScene takes it) or an \
            example file with a `scene` member. Each CMD is one of: up, down, left, right, next, \
            previous (moves); focus=ID (programmatic focus; `focus=` dismisses); reset or \
            reset=SCOPE; crown=N (N detents, negative turns back); any other word is sent as a \
            device command (select, back, search, menu, ...).

            With --input FILE (a recording of `focusctl record`, docs/bench-tools.md "Recording format") the \
            recorded devices' events are played through focusd's device mapping (each device's \
            recorded class, with the profiles of the configuration focusd would read, or --config) \
            and the engine on a virtual clock \
            (the recording's timestamps, timers included), and each command a device produced is \
            printed with the focus after it: TIME DEVICE COMMAND PHASE -> FOCUSED [EVENTS].
            """,
        options: [
            .init(name: "json", short: "j", help: "Print each FocusState and the events as JSON lines."),
            .init(name: "input", value: "file", help: "Play a recording of input devices instead of CMD words."),
            .init(name: "config", value: "file",
                  help: "With --input: the device profiles of this configuration (default: focusd's own file, if any)."),
        ],
        positionals: [
            .init(name: "scene", help: "The scene file."),
            .init(name: "commands", help: "Commands to run in order.", repeating: true),
        ]
    )

    static func run(_ arguments: ParsedArguments) throws {
        let scene = arguments.positionals[0]
        let commands = arguments.positionals.dropFirst()
        let json = arguments.flag("json")
        let loaded: Scene
        do { loaded = try SceneFile.load(scene) } catch { throw CommandFailure(error.description) }
        var session: SceneSession
        do { session = try SceneSession(scene: loaded) } catch { throw CommandFailure("\(scene): \(error)") }
        func show(_ label: String, _ outcome: Outcome?, _ state: FocusState) throws {
            if json {
                let events = outcome?.events ?? []
                let line = SimulateLine(command: label, state: state, events: events)
                print(try JSONValue(encoding: line).description)  // keys sorted: stable lines to diff
            } else {
                let kinds = (outcome?.events ?? []).map(\.kind.rawValue)
                let events = kinds.isEmpty ? "" : "  [" + kinds.joined(separator: ", ") + "]"
                print("\(label) -> \(state.focused ?? "(none)")\(events)")
            }
        }
        try show("start", nil, session.state(active: true))
        if arguments.value("config") != nil && arguments.value("input") == nil {
            throw CommandFailure("--config applies to --input")
        }
        if let input = arguments.value("input") {
            guard commands.isEmpty else { throw CommandFailure("give either --input or commands, not both") }
            let recording: Recording
            do {
                recording = try Recording(parsing: String(decoding: try readFile(input, limit: 256 << 20), as: UTF8.self))
            } catch let error as Recording.ParseError {
                throw CommandFailure("\(input): \(error)")
            } catch {
                throw CommandFailure("\(input): \(error)")
            }
            let matcher: ProfileMatcher
            do { matcher = try RecordingSimulation.matcher(configPath: arguments.value("config")) } catch {
                throw CommandFailure("\(error)")
            }
            var failure: (any Error)?
            RecordingSimulation.run(recording, session: &session, matcher: matcher) { step in
                guard failure == nil else { return }
                let c = step.command
                var label = "\(RecordingSimulation.timeText(step.timeUsec)) \(step.device) \(c.command)"
                if let d = c.detents { label += "=\(d)" }
                label += " \(c.phase.rawValue)"
                do { try show(label, step.outcome, step.state) } catch { failure = error }
            }
            if let failure { throw failure }
            return
        }
        for command in commands {
            let outcome: Outcome
            do { outcome = try Self.apply(command, to: &session) } catch { throw CommandFailure("\(command): \(error)") }
            try show(command, outcome, session.state(active: true))
        }
    }

    /// Runs one command word (see the discussion) on the session.
    static func apply(_ word: String, to session: inout SceneSession) throws(FocusError) -> Outcome {
        let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        let argument = parts.count > 1 ? String(parts[1]) : nil
        if let direction = Direction(rawValue: name), argument == nil {
            return try session.move(direction)
        }
        switch name {
        case "focus": return try session.focus(argument.flatMap { $0.isEmpty ? nil : $0 })
        case "reset": return try session.resetFocus(scope: argument)
        case "crown":
            guard let detents = Int(argument ?? "1") else { throw .invalidParameter(parameter: "detents") }
            return session.send("crown", detents: detents)
        default: return session.send(name)
        }
    }
}

private struct SimulateLine: Encodable {
    var command: String
    var state: FocusState
    var events: [Event]
}
