import ArgumentParser
import FocusEngine
import FocusWire
import SystemCalls
import Varlink

import Glibc

/// `focusctl state`: the focus state of a scene.
struct StateCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Print the focus state of a scene: the focused node, its path, bindings and values."
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "The scene to read; the active scene when omitted.")
    var scene: String?

    func execute(_ output: Output) throws {
        let reply = try call(FocusMethod.getState.qualified, ["scene": scene.map(JSONValue.string)])
        let state = try reply.member("state", as: FocusState.self)
        output.reply(reply) { StateText.lines(state) }
    }
}

/// `focusctl scenes`: the scenes focusd holds.
struct ScenesCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenes",
        abstract: "List the scenes focusd holds, marking the active one with an asterisk."
    )

    @OptionGroup var global: GlobalOptions

    func execute(_ output: Output) throws {
        let reply = try call(FocusMethod.listScenes.qualified)
        let scenes = try reply.member("scenes", as: [String].self)
        let active = try reply.member("active", as: String?.self)
        output.reply(reply) {
            scenes.isEmpty ? ["(no scenes)"] : scenes.map { $0 == active ? "* \($0)" : "  \($0)" }
        }
    }
}

/// `focusctl devices`: the input devices focusd sees.
struct DevicesCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the input devices focusd has attached, how each was classified and why, and any problem."
    )

    @OptionGroup var global: GlobalOptions

    func execute(_ output: Output) throws {
        let reply = try call(InputMethod.listDevices.qualified)
        let devices = try reply.member("devices", as: [InputDevice].self)
        output.reply(reply) {
            if devices.isEmpty { return ["(no devices)"] }
            return devices.flatMap { device in
                var line = "\(device.id)  \(device.class)  \(device.node)  \"\(device.name)\"  \(device.backend)"
                if device.grabbed { line += "  grabbed" }
                if device.lent == true { line += "  lent" }
                if let passthrough = device.passthrough { line += "  passthrough=\(passthrough)" }
                if let profile = device.profile { line += "  profile=\(profile)" }
                if let problem = device.problem { line += "  problem: \(problem)" }
                // The facts that decided class and grab (input.md §9), one per line under the device.
                return [line] + (device.reasons ?? []).map { "    because \($0)" }
            }
        }
    }
}

/// `focusctl lend DEVICE`: `io.focusd.Input.Lend`, held while the command runs.
struct LendCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "lend",
        abstract: "Lend a device to another program while this runs: focusd releases, ungrabs and stops mapping it.",
        discussion: """
            focusd answers once the device is ungrabbed, so another program (a game, a test bench) \
            can grab it at once. The device stays lent until this command ends: on SIGINT, SIGTERM \
            or the end of its standard input; then focusd takes it back and grabs it again once no \
            key is down (it also does when this process dies). Exit 2 with NoSuchDevice or \
            DeviceLent (lent to another client).
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The device's id (focusctl devices).")
    var device: String

    func execute(_ output: Output) throws {
        // Blocked before any thread starts, so only `wait` receives them.
        let signals = SignalSet.block([SIGINT, SIGTERM])
        let client = try global.connect()
        defer { client.close() }
        let reply = try client.call(InputMethod.lend.qualified, ["device": .string(device)])
        let lent = try reply.member("device", as: InputDevice.self)
        output.reply(reply) {
            ["lent \(lent.id) (\(lent.node), \"\(lent.name)\"): focusd takes it back when this ends (Ctrl-C or end of input)"]
        }
        StandardInputEnd.signalOnEOF()
        _ = signals.wait()
        _ = try client.call(InputMethod.reclaim.qualified, ["device": .string(device)])
    }
}

/// Sends SIGTERM to this process when standard input ends, from a thread that blocks in read.
enum StandardInputEnd {
    static func signalOnEOF() {
        var thread = pthread_t()
        _ = pthread_create(&thread, nil, { _ in
            var buffer: [UInt8] = []
            while let count = try? Posix.read(STDIN_FILENO, into: &buffer, capacity: 4096), count > 0 {
                buffer.removeAll(keepingCapacity: true)
            }
            kill(getpid(), SIGTERM)
            return nil
        }, nil)
        pthread_detach(thread)
    }
}

/// `focusctl reload`: `io.focusd.Input.ReloadConfig`.
struct ReloadCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload",
        abstract: "Make focusd read its configuration file again; print its profiles and any warnings.",
        discussion: """
            A bad file is answered with InvalidConfig and the line of the problem (exit 2); the \
            running configuration then stays. Same as SIGHUP or `systemctl reload focusd`.
            """
    )

    @OptionGroup var global: GlobalOptions

    func execute(_ output: Output) throws {
        let reply = try call(InputMethod.reloadConfig.qualified)
        let profiles = try reply.member("profiles", as: [String].self)
        let warnings = try reply.member("warnings", as: [String].self)
        output.reply(reply) {
            ["reloaded: \(profiles.isEmpty ? "no profiles" : "profiles " + profiles.joined(separator: ", "))"]
                + warnings.map { "warning: \($0)" }
        }
    }
}

/// The short text form of a focus state.
enum StateText {
    static func lines(_ state: FocusState) -> [String] {
        var lines = [
            "scene: \(state.scene)\(state.active ? " (active)" : "")",
            "focused: \(state.focusedText)",
        ]
        if !state.path.isEmpty { lines.append("path: \(state.path.joined(separator: " < "))") }
        if !state.bindings.isEmpty { lines.append("bindings: \(bindings(state.bindings))") }
        if !state.focusedValues.isEmpty { lines.append("values: \(values(state.focusedValues))") }
        if !state.sceneValues.isEmpty { lines.append("scene values: \(values(state.sceneValues))") }
        if !state.focusEffectEnabled { lines.append("focus effect: disabled") }
        if let accessibility = state.accessibilityFocused { lines.append("accessibility focused: \(accessibility)") }
        if !state.accessibilityBindings.isEmpty {
            lines.append("accessibility bindings: \(bindings(state.accessibilityBindings))")
        }
        lines.append("revision: \(state.revision)")
        return lines
    }

    /// `name=value` for value bindings (`name=nil` when none is focused), `name=true|false` for Bool ones.
    static func bindings(_ bindings: [BindingState]) -> String {
        bindings.map { binding in
            if let isTrue = binding.isTrue { return "\(binding.name)=\(isTrue)" }
            return "\(binding.name)=\(binding.value ?? "nil")"
        }.joined(separator: " ")
    }

    static func values(_ values: [String: String]) -> String {
        values.keys.sorted().map { "\($0)=\(values[$0]!)" }.joined(separator: " ")
    }
}
