import ArgumentParser
import FocusEngine
import FocusService
import FoundationEssentials

/// `focusd simulate SCENE CMD...`: the engine offline, one line per command.
struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Runs the focus engine offline on a scene file and prints the focus after each command.",
        discussion: """
            SCENE is a JSON file holding a Scene (as io.focusd.Focus's SetScene takes it) or an \
            example file with a `scene` member. Each CMD is one of: up, down, left, right, next, \
            previous (moves); focus=ID (programmatic focus; `focus=` dismisses); reset or \
            reset=SCOPE; crown=N (N detents, negative turns back); any other word is sent as a \
            device command (select, back, search, menu, ...).
            """
    )

    @Argument(help: "The scene file.")
    var scene: String

    @Argument(help: "Commands to run in order.")
    var commands: [String] = []

    @Flag(name: [.short, .long], help: "Print each FocusState and the events as JSON lines.")
    var json = false

    func run() throws {
        let loaded: Scene
        do { loaded = try SceneFile.load(scene) } catch { throw CommandFailure(error.description) }
        var session: SceneSession
        do { session = try SceneSession(scene: loaded) } catch { throw CommandFailure("\(scene): \(error)") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        func show(_ label: String, _ outcome: Outcome?) throws {
            let state = session.state(active: true)
            if json {
                let events = outcome?.events ?? []
                let line = SimulateLine(command: label, state: state, events: events)
                print(String(decoding: try encoder.encode(line), as: UTF8.self))
            } else {
                let kinds = (outcome?.events ?? []).map(\.kind.rawValue)
                let events = kinds.isEmpty ? "" : "  [" + kinds.joined(separator: ", ") + "]"
                print("\(label) -> \(state.focused ?? "(none)")\(events)")
            }
        }
        try show("start", nil)
        for command in commands {
            let outcome: Outcome
            do { outcome = try Self.apply(command, to: &session) } catch { throw CommandFailure("\(command): \(error)") }
            try show(command, outcome)
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
