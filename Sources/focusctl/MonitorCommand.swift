import ArgumentParser
import FocusWire
import Varlink

/// `focusctl monitor`: streams focus events (or, with --input, device commands) as JSON lines.
struct MonitorCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Print focus events as they happen, one JSON object per line, until interrupted.",
        discussion: """
            The first line carries the scene's state ({"state": ...}; {} while no scene is \
            installed), each later line one event \
            ({"event": ...}); a monitor that falls behind gets the latest state again in place of \
            the events it missed. With --input, the lines are io.focusd.Input.Monitor's instead: \
            first the attached devices, then each device added or removed and each command a \
            device sends. Every line is flushed as it is written, so the output can be piped.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "The scene to follow; the active scene (whichever it is at the time) when omitted.")
    var scene: String?

    @Flag(help: "Monitor input devices and the commands they send instead of focus events.")
    var input = false

    func validate() throws {
        if input && scene != nil { throw ValidationError("--scene applies to focus events, not to --input.") }
    }

    func execute(_ output: Output) throws {
        let client = try global.connect(timeout: nil)
        defer { client.close() }
        let replies: VarlinkReplySequence
        if input {
            replies = try client.callMore(InputMethod.monitor.qualified)
        } else {
            replies = try client.callMore(FocusMethod.monitor.qualified, scene.map { ["scene": .string($0)] } ?? [:])
        }
        while let reply = try replies.next(timeout: nil) {
            output.jsonLine(reply)
        }
    }
}
