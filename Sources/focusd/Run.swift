import ArgumentParser
import FocusService
import Logging

/// `focusd run` (the default): the daemon.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Runs the daemon (the default when no subcommand is given).",
        discussion: """
            With no options focusd reads every input device with the built-in command map and \
            serves /run/focusd/focusd.sock (as root) or $XDG_RUNTIME_DIR/focusd/focusd.sock. \
            SIGTERM or SIGINT stops it cleanly (devices released, socket removed); SIGHUP \
            reloads the configuration file.
            """
    )

    @Flag(help: "Also install the built-in demo scene (a TV home screen) so focus moves at once.")
    var demo = false

    @Option(help: "The configuration file (default: /etc/focusd/focusd.toml when it exists).")
    var config: String?

    @Option(help: "The socket path (default: $FOCUSD_SOCKET, the config's socket.path, then the mode's default).")
    var socket: String?

    @Flag(help: "Serve the socket only; read no input devices.")
    var noDevices = false

    @Option(help: "Where to watch for event nodes.")
    var inputDirectory = "/dev/input"

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
    }

    func run() throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var options = DaemonOptions()
        options.demo = demo
        options.configPath = config
        options.socketPath = socket
        options.devices = !noDevices
        options.inputDirectory = inputDirectory
        options.logLevel = level
        do {
            try Daemon.run(options)
        } catch let error as Daemon.StartupError {
            throw CommandFailure(error.description)
        }
    }
}
