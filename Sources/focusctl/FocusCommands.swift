import ArgumentParser
import FocusEngine
import FocusWire
import Varlink

extension Direction: ExpressibleByArgument {}
extension Track: ExpressibleByArgument {}

/// Options shared by the commands that act on one scene.
struct SceneOption: ParsableArguments {
    @Option(help: "The scene to act on; the active scene when omitted.")
    var scene: String?

    var json: JSONValue? { scene.map(JSONValue.string) }
}

/// `focusctl move DIR`: a directional or sequential move, as a remote's arrow would make.
struct MoveCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "Move focus in a direction and print the newly focused node, or (blocked).",
        discussion: "Directions: up, down, left, right, next, previous."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var target: SceneOption

    @Argument(help: "The direction to move: up, down, left, right, next or previous.")
    var direction: Direction

    @Flag(help: "Wrap around at the edge of the scene, as a focus section with wrapping does.")
    var wrap = false

    @Option(help: "The focus track to move: main, or accessibility (which moves only with next/previous).")
    var track: Track?

    func execute(_ output: Output) throws {
        let reply = try call(
            FocusMethod.move.qualified,
            [
                "direction": .string(direction.rawValue), "scene": target.json,
                "wrap": wrap ? .bool(true) : nil, "track": track.map { .string($0.rawValue) },
            ])
        let moved = try reply.member("moved", as: Bool.self)
        let state = try reply.member("state", as: FocusState.self)
        output.reply(reply) {
            guard moved else { return ["(blocked)"] }
            return [track == .accessibility ? state.accessibilityFocused ?? "(none)" : state.focusedText]
        }
    }
}

/// `focusctl focus ID`: programmatic focus, like setting a FocusState.
struct FocusCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "focus",
        abstract: "Focus a node by its id, or dismiss focus with --none, and print the focused node."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var target: SceneOption

    @Argument(help: "The id of the node to focus; it must be a focus candidate.")
    var id: String?

    @Flag(help: "Dismiss focus: no node is focused afterwards.")
    var none = false

    @Option(help: "The focus track to set: main, or accessibility.")
    var track: Track?

    func validate() throws {
        if none == (id != nil) { throw ValidationError("Give either a node id or --none, not both or neither.") }
    }

    func execute(_ output: Output) throws {
        let reply = try call(
            FocusMethod.focus.qualified,
            ["id": id.map(JSONValue.string) ?? .null, "scene": target.json, "track": track.map { .string($0.rawValue) }])
        let state = try reply.member("state", as: FocusState.self)
        output.reply(reply) {
            [track == .accessibility ? state.accessibilityFocused ?? "(none)" : state.focusedText]
        }
    }
}

/// `focusctl binding NAME VALUE`: writes a focus binding, as a client's `@FocusState` does.
struct BindingCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "binding",
        abstract: "Set a focus binding and print the focused node.",
        discussion: """
            A Bool binding (focused(_:)) takes true or false; a value binding (focused(_:equals:)) \
            takes the value of the node to focus, or --null to dismiss focus from it. Whether the \
            binding is a Bool one is read from the scene's state first.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var target: SceneOption

    @Argument(help: "The binding's name.")
    var name: String

    @Argument(help: "true or false for a Bool binding; the value to focus for a value binding.")
    var value: String?

    @Flag(help: "Set a value binding to null, which dismisses focus from the nodes bound to it.")
    var null = false

    @Option(help: "The focus track whose bindings to write: main, or accessibility.")
    var track: Track?

    func validate() throws {
        if null == (value != nil) { throw ValidationError("Give either a value or --null, not both or neither.") }
    }

    func execute(_ output: Output) throws {
        let client = try global.connect()
        defer { client.close() }
        var parameters: [String: JSONValue] = ["name": .string(name)]
        if let scene = target.scene { parameters["scene"] = .string(scene) }
        if let track { parameters["track"] = .string(track.rawValue) }
        if let value {
            if let flag = Bool(value), try isBoolBinding(client) ?? true {
                parameters["isTrue"] = .bool(flag)
            } else {
                parameters["value"] = .string(value)
            }
        } else {
            parameters["value"] = .null
        }
        let reply = try client.call(FocusMethod.setBinding.qualified, .object(parameters))
        for warning in try reply.member("warnings", as: [String]?.self) ?? [] { output.message("warning: \(warning)") }
        let state = try reply.member("state", as: FocusState.self)
        output.reply(reply) {
            [track == .accessibility ? state.accessibilityFocused ?? "(none)" : state.focusedText]
        }
    }

    /// Whether the scene's state reads `name` as a Bool binding (nil when the scene has no such binding).
    private func isBoolBinding(_ client: VarlinkClient) throws -> Bool? {
        let reply = try client.call(FocusMethod.getState.qualified, target.scene.map { ["scene": .string($0)] } ?? [:])
        let state = try reply.member("state", as: FocusState.self)
        let bindings = track == .accessibility ? state.accessibilityBindings : state.bindings
        return bindings.first { $0.name == name }.map { $0.isTrue != nil }
    }
}

/// `focusctl reset [SCOPE]`: resetFocus(in:).
struct ResetCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Re-evaluate default focus in a scope (the whole scene by default) and print the focused node."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var target: SceneOption

    @Argument(help: "The focus scope to reset, as declared by a node's `scope`; the whole scene when omitted.")
    var scope: String?

    func execute(_ output: Output) throws {
        let reply = try call(FocusMethod.resetFocus.qualified, ["scope": scope.map(JSONValue.string), "scene": target.json])
        let state = try reply.member("state", as: FocusState.self)
        output.reply(reply) { [state.focusedText] }
    }
}

/// `focusctl send COMMAND`: injects a device command as if a remote sent it.
struct SendCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send a device command as if a remote had, and print the focused node, or (not consumed).",
        discussion: """
            Commands: up, down, left, right, next, previous, select, back, home, menu, search, \
            playPause, channelUp, channelDown, info, crown (with --detents), ... A command the engine \
            does not act on is published to monitors as a `command` event.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var target: SceneOption

    @Argument(help: "The command to send, e.g. select or crown.")
    var command: String

    @Option(help: "For crown: the rotation in detents (negative turns the other way).")
    var detents: Int?

    func execute(_ output: Output) throws {
        let reply = try call(
            FocusMethod.send.qualified,
            ["command": .string(command), "detents": detents.map { .integer(Int64($0)) }, "scene": target.json])
        let consumed = try reply.member("consumed", as: Bool.self)
        let state = try reply.member("state", as: FocusState.self)
        output.reply(reply) { [consumed ? state.focusedText : "(not consumed)"] }
    }
}

/// `focusctl scroll NODE X Y`: sets a scroll container's offset (focus.md §12), as a touch scroll
/// or a page key in the UI would, and prints the offset it took (clamped to its range).
struct ScrollCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "scroll",
        abstract: "Scroll a scroll container to an offset and print the offset it took.",
        discussion: "The offset is clamped to the container's range (an axis it does not scroll stays 0); focus does not move."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var target: SceneOption

    @Argument(help: "The id of the scroll container.")
    var node: String

    @Argument(help: "The horizontal offset, in points from the content's left edge.")
    var x: Double

    @Argument(help: "The vertical offset, in points from the content's top edge.")
    var y: Double

    func execute(_ output: Output) throws {
        let reply = try call(
            FocusMethod.scrollTo.qualified,
            ["node": .string(node), "offsetX": .double(x), "offsetY": .double(y), "scene": target.json])
        let state = try reply.member("state", as: FocusState.self)
        output.reply(reply) {
            guard let offset = state.scroll.first(where: { $0.node == node }) else { return [node] }
            return ["\(node) \(ScenePicture.number(offset.offsetX)) \(ScenePicture.number(offset.offsetY))"]
        }
    }
}
