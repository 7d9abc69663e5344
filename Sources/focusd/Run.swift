import ArgumentParser
import FocusService

/// `focusd run` (the default): the daemon.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Runs the daemon (the default when no subcommand is given)."
    )

    func run() async throws {
        print("focusd: the daemon is not wired yet")
    }
}
