import ArgumentParser
import FocusEngine
import FocusWire
import Varlink

/// `focusctl set-scene FILE`: installs a scene from a file.
struct SetSceneCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-scene",
        abstract: "Install (or replace) a scene from a JSON file and print its name and focused node.",
        discussion: """
            FILE holds a Scene object, or an example file with a `scene` member. A scene belongs to \
            the connection that set it and is removed when that connection closes; focusctl's \
            connection closes as soon as it exits, so set-scene marks the scene persistent \
            (`persist: true`) unless --no-persist is given. Remove it again by setting another \
            scene of the same name, or from a client with io.focusd.Focus.RemoveScene.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The scene file (JSON).", completion: .file(extensions: ["json"]))
    var file: String

    @Flag(
        name: .customLong("persist"), inversion: .prefixedNo,
        help: "Keep the scene after focusctl exits (without it, the scene vanishes at once).")
    var persist = true

    func execute(_ output: Output) throws {
        var scene = try SceneLoading.load(file)
        scene.persist = persist ? true : scene.persist
        let reply = try call(FocusMethod.setScene.qualified, ["scene": try JSONValue(encoding: scene)])
        for warning in try reply.member("warnings", as: [String]?.self) ?? [] { output.message("warning: \(warning)") }
        let state = try reply.member("state", as: FocusState.self)
        output.reply(reply) { ["\(state.scene): \(state.focusedText)"] }
    }
}

/// `focusctl lint FILE`: audits a scene without installing it.
struct LintCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Audit a scene file for focus problems without installing it; exit 1 when there are any.",
        discussion: """
            Problems: unreachable nodes, asymmetric moves, dead ends, ambiguous bindings, empty \
            frames, overlaps and nodes off screen. One line each: kind, node, other node or \
            direction when there is one, and the explanation.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The scene file (JSON).", completion: .file(extensions: ["json"]))
    var file: String

    func execute(_ output: Output) throws {
        let scene = try SceneLoading.load(file)
        let reply = try call(FocusMethod.lint.qualified, ["scene": try JSONValue(encoding: scene)])
        let problems = try reply.member("problems", as: [Problem].self)
        output.reply(reply) {
            if problems.isEmpty { return ["no problems"] }
            return problems.map { problem in
                var subject = "\(problem.kind.rawValue) \(problem.node)"
                if let other = problem.other { subject += " -> \(other)" }
                if let direction = problem.direction { subject += " (\(direction.rawValue))" }
                return "\(subject): \(problem.message)"
            }
        }
        if !problems.isEmpty { throw CommandFailure.findings }
    }
}
