import ArgumentParser

import Glibc

/// `focusctl`: talks to focusd over its Varlink socket, in the manner of swaymsg and varlinkctl.
@main
struct Focusctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "focusctl",
        abstract: "Inspect and drive focusd, the focus navigation daemon.",
        discussion: """
            Each command makes one call to focusd over its Varlink socket and prints the answer in \
            short lines, or as JSON with --json. Exit status: 0 on success, 1 when focusd cannot \
            be reached or the command's input is wrong, 2 when focusd answered with an error \
            (its name and parameters are printed).
            """,
        subcommands: [
            StateCommand.self, ScenesCommand.self, DevicesCommand.self,
            MoveCommand.self, FocusCommand.self, BindingCommand.self, ResetCommand.self, SendCommand.self, ScrollCommand.self,
            SetSceneCommand.self, LintCommand.self,
            MonitorCommand.self, WatchCommand.self, ReloadCommand.self, LendCommand.self, WhyCommand.self, GotoCommand.self,
            RecordCommand.self, ReplayCommand.self,
        ]
    )

    /// The global options may also come before the command (`focusctl -j state`), as in swaymsg.
    @OptionGroup var global: GlobalOptions

    /// Runs the command line; usage errors exit with 1 (a client error), as the spec's exit codes
    /// say, instead of ArgumentParser's 64.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                Output.standardError(fullMessage(for: error))
                Glibc.exit(1)
            }
            exit(withError: error)
        }
    }
}
