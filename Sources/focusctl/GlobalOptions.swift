import ArgumentParser
import Varlink

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The options every command takes: where focusd listens and how to print its replies.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: [.short, .long],
        help: ArgumentHelp(
            "The path of focusd's socket.",
            discussion: """
                Default: $FOCUSD_SOCKET, else /run/focusd/focusd.sock when run as root, \
                else $XDG_RUNTIME_DIR/focusd/focusd.sock.
                """,
            valueName: "path"))
    var socket: String?

    @Flag(name: [.short, .long], help: "Print the daemon's reply as JSON instead of short lines.")
    var json = false

    @Flag(name: [.short, .long], help: "Print JSON replies compactly, one per line (implies --json).")
    var raw = false

    @Flag(name: .customShort("q"), help: "Print nothing; report the outcome by the exit code only.")
    var quiet = false

    /// The socket path to use: `--socket`, else the daemon's own default (service.md §1); nil
    /// when that default needs `$XDG_RUNTIME_DIR` and it is not set.
    var socketPath: String? {
        if let socket { return socket }
        return Self.defaultSocketPath(environment: Environment.value)
    }

    /// The default socket path for a given environment lookup, as focusd places it.
    static func defaultSocketPath(environment: (String) -> String?) -> String? {
        if let path = environment("FOCUSD_SOCKET"), !path.isEmpty { return path }
        if getuid() == 0 { return "/run/focusd/focusd.sock" }
        guard let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty else { return nil }
        return "\(runtime)/focusd/focusd.sock"
    }

    /// How replies are printed.
    var output: Output {
        Output(format: quiet ? .quiet : raw ? .compactJSON : json ? .prettyJSON : .text)
    }

    /// Connects to focusd, turning a failure into a message that says what to do.
    func connect(timeout: Duration? = .seconds(30)) throws(CommandFailure) -> VarlinkClient {
        guard let path = socketPath else {
            throw .connection("XDG_RUNTIME_DIR is not set, so focusd's socket has no default: pass -s/--socket PATH or set FOCUSD_SOCKET")
        }
        do {
            return try VarlinkClient(path: path, timeout: timeout)
        } catch {
            throw .connection(Self.explain(error, path: path))
        }
    }

    /// A connection failure in words, with the likely remedy.
    static func explain(_ error: VarlinkClientError, path: String) -> String {
        guard case .system(let posix) = error else { return "cannot talk to focusd at \(path): \(error)" }
        switch posix.errno {
        case ENOENT, ENOTDIR:
            return """
                no focusd socket at \(path): focusd is not running, or listens elsewhere \
                (start it, or pass -s/--socket PATH or set FOCUSD_SOCKET)
                """
        case ECONNREFUSED:
            return """
                nothing listens at \(path): focusd has stopped and left its socket behind \
                (start focusd again, or pass -s/--socket PATH)
                """
        case EACCES, EPERM:
            return """
                permission denied on \(path): run as root or as a member of the socket's group \
                (focusd by default)
                """
        case ENAMETOOLONG:
            return "the socket path \(path) is too long for a Unix socket (at most 107 bytes)"
        default:
            return "cannot connect to focusd at \(path): \(posix)"
        }
    }
}

/// Reads environment variables.
enum Environment {
    static func value(_ name: String) -> String? {
        guard let pointer = getenv(name) else { return nil }
        return String(cString: pointer)
    }
}
