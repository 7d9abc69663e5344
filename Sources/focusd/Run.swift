import FocusService
import Logging

/// `focusd run` (the default): the daemon.
enum Run {
    static let levels = "trace, debug, info, notice, warning, error, critical"

    static let spec = CommandSpec(
        name: "run",
        abstract: "Runs the daemon (the default when no subcommand is given).",
        discussion: """
            With no options focusd reads every input device with the built-in command map and \
            serves /run/focusd/focusd.sock (as root) or $XDG_RUNTIME_DIR/focusd/focusd.sock. \
            SIGTERM or SIGINT stops it cleanly (devices released, socket removed); SIGHUP \
            reloads the configuration file.
            """,
        options: [
            .init(name: "demo", help: "Also install the built-in demo scene (a TV home screen) so focus moves at once."),
            .init(name: "config", value: "file", help: "The configuration file (default: /etc/focusd/focusd.toml when it exists)."),
            .init(name: "socket", value: "path",
                  help: "The socket path (default: $FOCUSD_SOCKET, the config's socket.path, then the mode's default)."),
            .init(name: "websocket", value: "addr:port",
                  help: "Also serve Varlink over WebSocket for web pages (loopback unless a token is configured; see [websocket])."),
            .init(name: "no-devices", help: "Serve the socket only; read no input devices."),
            .init(name: "input-directory", value: "directory", help: "Where to watch for event nodes.", defaultValue: "/dev/input"),
            .init(name: "log-level", value: "level", help: "trace, debug, info, notice, warning, error or critical.",
                  defaultValue: "info"),
        ]
    )

    static func run(_ arguments: ParsedArguments) throws {
        let levelName = arguments.value("log-level") ?? "info"
        guard let level = Logger.Level(rawValue: levelName) else {
            throw UsageError(message: "--log-level must be one of \(levels), not '\(levelName)'", command: spec)
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var options = DaemonOptions()
        options.demo = arguments.flag("demo")
        options.configPath = arguments.value("config")
        options.socketPath = arguments.value("socket")
        if let text = arguments.value("websocket") {
            switch DaemonOptions.webSocketAddress(text) {
            case .success(let address): options.webSocket = address
            case .failure(let error): throw UsageError(message: "--websocket: \(error)", command: spec)
            }
        }
        options.devices = !arguments.flag("no-devices")
        options.inputDirectory = arguments.value("input-directory") ?? "/dev/input"
        options.logLevel = level
        do {
            try Daemon.run(options)
        } catch let error as Daemon.StartupError {
            throw CommandFailure(error.description)
        }
    }
}
