import FocusEngine
import FocusWire

/// `focusd lint SCENE`: the problems `Lint` finds; exit 1 when there are any.
enum Lint {
    static let spec = CommandSpec(
        name: "lint",
        abstract: "Audits a scene file for focus problems and exits 1 when it finds any.",
        discussion: """
            Reports candidates no directional move reaches, moves that do not come back, dead \
            ends, ambiguous bindings, focusable nodes without a usable frame, overlapping and \
            offscreen candidates (focus.md §10).
            """,
        positionals: [.init(name: "scene", help: "The scene file (a Scene, or an example file with a `scene` member).")]
    )

    static func run(_ arguments: ParsedArguments) throws {
        let scene = arguments.positionals[0]
        let loaded: Scene
        do { loaded = try SceneFile.load(scene) } catch { throw CommandFailure(error.description) }
        let problems: [Problem]
        do { problems = try SceneSession.lint(loaded) } catch { throw CommandFailure("\(scene): \(error)") }
        for problem in problems {
            var line = "\(problem.kind.rawValue)\t\(problem.node)"
            if let other = problem.other { line += " -> \(other)" }
            if let direction = problem.direction { line += " (\(direction.rawValue))" }
            print(line + "\t" + problem.message)
        }
        if !problems.isEmpty { throw ExitStatus(code: 1) }
        print("no problems")
    }
}
