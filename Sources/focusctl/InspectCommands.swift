import ArgumentParser
import FocusEngine
import FocusWire
import Varlink

/// `focusctl why [--direction D]`: why a directional move goes where it does
/// (io.focusd.Inspect.ExplainMove).
struct WhyCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "why",
        abstract: "Explain the last directional move of the scene, or a move from the current focus with --direction.",
        discussion: """
            Prints the source frame, each container searched (innermost section first, then \
            outward; the modal bound; the wrap retry), every candidate considered with its \
            in-direction, in-beam, major, minor and score values (focus.md §2), the rule that \
            decided, and why nothing was found when the move is blocked. Focus does not move.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var target: SceneOption

    @Option(help: "Explain a move in this direction from the current focus instead of the last move.")
    var direction: Direction?

    @Option(help: "The most candidates listed per container (the best are kept).")
    var limit: Int?

    func validate() throws {
        if let direction, !direction.isDirectional { throw ValidationError("--direction takes up, down, left or right.") }
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1.") }
    }

    func execute(_ output: Output) throws {
        let reply = try call(
            InspectMethod.explainMove.qualified,
            ["scene": target.json, "direction": direction.map { .string($0.rawValue) },
             "limit": limit.map { .integer(Int64($0)) }])
        let why = try reply.member("explanation", as: MoveExplanation.self)
        let revision = try reply.member("revision", as: Int?.self)
        output.reply(reply) { Self.lines(why, revision: revision) }
    }

    static func text(_ r: Rect) -> String { "(\(number(r.x)), \(number(r.y)), \(number(r.width))×\(number(r.height)))" }

    static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }

    static func lines(_ why: MoveExplanation, revision: Int?) -> [String] {
        var out: [String] = []
        let head = revision.map { "last move (revision \($0))" } ?? "move"
        out.append("\(head): \(why.direction.rawValue) from \(why.from ?? "(nothing focused)"), policy \(why.policy.rawValue)")
        if let s = why.source { out.append("source frame \(text(s))") }
        if let o = why.override { out.append("override: next[\(why.direction.rawValue)] = \(o.isEmpty ? "\"\" (blocks)" : o)") }
        for c in why.containers {
            var title = "searched \(c.kind) \(c.id)"
            if c.wrapped { title += " again after wrapping, from \(text(c.source))" }
            out.append("\(title): \(c.winner.map { "winner \($0) by \(c.rule)" } ?? c.rule)")
            for x in c.candidates {
                let flags = [x.inBeam ? "in beam" : "out of beam", x.fullyBeyond ? "fully beyond" : nil, x.section ? "section frame" : nil]
                    .compactMap { $0 }.joined(separator: ", ")
                out.append("  \(x.id) \(text(x.frame)) \(flags): major \(number(x.major)) minor \(number(x.minor)) score \(number(x.score))")
            }
            if c.omitted > 0 { out.append("  … \(c.omitted) more in direction") }
            if c.notConsidered > 0 { out.append("  (\(c.notConsidered) not considered: not in direction\(why.policy == .tvos ? " or not in beam" : ""))") }
        }
        if let r = why.result {
            out.append("focus → \(r), decided by \(why.decidedBy)\(why.winner.map { $0 != r ? " (search winner \($0))" : "" } ?? "")")
        } else {
            out.append("blocked: \(why.reason ?? "nothing found")")
        }
        return out
    }
}

/// `focusctl goto ID [--do]`: the shortest command sequence to a node (io.focusd.Inspect.PlanPath).
struct GotoCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "goto",
        abstract: "Print the shortest command sequence that takes focus to a node, one per line; --do sends them.",
        discussion: """
            Directional moves are preferred, then next/previous, then the crown (crown=1, \
            crown=-1). focusd computes the plan on a copy of the scene: focus does not move unless \
            --do is given. An unreachable node is reported (exit 1 with --do) with the nearest \
            node that can be reached and the commands that lead there.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var target: SceneOption

    @Argument(help: "The id of the node to reach.")
    var id: String

    @Flag(name: .customLong("do"), help: "Send the commands (io.focusd.Focus.Send), then print the focused node.")
    var perform = false

    func execute(_ output: Output) throws {
        let client = try global.connect()
        defer { client.close() }
        let reply = try client.call(InspectMethod.planPath.qualified, .object(
            ["target": .string(id), "scene": target.json].compactMapValues { $0 }))
        let plan = try reply.member("plan", as: PathPlan.self)
        output.reply(reply) {
            if plan.reachable { return plan.commands.isEmpty ? ["(already focused)"] : plan.commands }
            return ["(unreachable: \(id); nearest reachable \(plan.nearest ?? "(none)"))"] + plan.commands
        }
        guard perform else { return }
        var focused: String?
        for command in plan.commands {
            var parameters: [String: JSONValue?] = ["command": .string(command), "scene": target.json]
            if command.hasPrefix("crown=") {
                parameters["command"] = .string("crown")
                parameters["detents"] = .integer(Int64(command.dropFirst(6))!)
            }
            let sent = try client.call(FocusMethod.send.qualified, .object(parameters.compactMapValues { $0 }))
            focused = try sent.member("state", as: FocusState.self).focused
        }
        if !output.isJSON, let focused { output.line("focused \(focused)") }
        if !plan.reachable {
            throw CommandFailure.input("\(id) cannot be reached; focus went to the nearest reachable node, \(plan.nearest ?? "(none)")")
        }
    }
}
