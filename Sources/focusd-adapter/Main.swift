import AdapterKit
import ArgumentParser
import SystemCalls

#if canImport(Glibc)
import Glibc
#endif

/// `focusd-adapter`: focusd's focus for interfaces never written for it (adapters.md).
@main
struct FocusdAdapter: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "focusd-adapter",
        abstract: "Drive a web page or an application that knows nothing of focusd with focusd's focus.",
        discussion: """
            Each adapter reads an interface through what its toolkit exposes, keeps a scene of it \
            current in focusd, and applies focusd's focus, activation, editing and scrolling back \
            to it. It talks to focusd only through focusd's public Varlink socket, and reconnects \
            when focusd restarts.
            """,
        subcommands: adapterCommands
    )

    /// Usage errors exit with 1, as focusctl's do.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandleOutput.standardError(fullMessage(for: error))
                Glibc.exit(1)
            }
            exit(withError: error)
        }
    }
}

/// Every adapter's subcommand (one file each).
let adapterCommands: [any ParsableCommand.Type] = [ChromiumCommand.self, AtspiCommand.self]

/// The options every adapter takes.
struct AdapterOptions: ParsableArguments {
    @Option(
        name: [.short, .long],
        help: ArgumentHelp(
            "The path of focusd's socket.",
            discussion: "Default: $FOCUSD_SOCKET, else /run/focusd/focusd.sock when run as root, else $XDG_RUNTIME_DIR/focusd/focusd.sock.",
            valueName: "path"))
    var socket: String?

    @Flag(name: [.short, .long], help: "Log every exchange with focusd and the interface.")
    var verbose = false

    /// focusd's socket path, or a usage error naming what to pass.
    func socketPath() throws -> String {
        guard let path = FocusdLink.socketPath(option: socket) else {
            throw ValidationError("XDG_RUNTIME_DIR is not set, so focusd's socket has no default: pass --socket PATH or set FOCUSD_SOCKET")
        }
        return path
    }
}

enum FileHandleOutput {
    static func standardError(_ text: String) {
        try? Posix.writeAll(2, Array((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }
}
