import ArgumentParser
import FocusService

/// `focusd`: the focus daemon. Without a subcommand it runs the daemon (`focusd run`).
@main
struct Focusd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "focusd",
        abstract: "Turns keyboards, remotes, gamepads, knobs and touchpads into tvOS-style focus moves.",
        discussion: """
            focusd reads input devices, moves focus in the scene a UI client describes, and \
            publishes focus state over a Varlink socket (io.focusd.Focus, io.focusd.Input). \
            Run it without arguments for the built-in defaults; add --demo to load a TV \
            home-screen scene and watch it with `focusctl watch`.
            """,
        version: FocusdVersion.string,
        subcommands: [Run.self, Simulate.self, Lint.self],
        defaultSubcommand: Run.self
    )
}
