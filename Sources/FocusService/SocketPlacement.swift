import FocusConfig
import InputMapping
import Logging
import Varlink

#if canImport(Glibc)
import Glibc
#endif

/// Where the socket goes and who may open it (service.md §1).
///
/// Path: `--socket`, else `$FOCUSD_SOCKET`, else the config's `socket.path`, else
/// `/run/focusd/focusd.sock` as root (system mode) or `$XDG_RUNTIME_DIR/focusd/focusd.sock`
/// (user mode). A socket passed by systemd (`LISTEN_FDS`) wins over all of them.
/// System mode: socket 0660 (never world bits) with the config's group (default `focusd`; root
/// when that group does not exist) in a 0750 directory; user mode: 0600 in 0700.
struct SocketPlacement {
    var endpoint: VarlinkServer.Endpoint
    /// The group whose members get full access (system mode only).
    var accessGID: UInt32?

    static func resolve(options: DaemonOptions, configuration: Configuration, logger: Logger) throws -> SocketPlacement {
        let systemMode = getuid() == 0
        let groupName = configuration.socket.group ?? "focusd"
        let gid: UInt32? = systemMode ? (groupID(named: groupName) ?? 0) : nil
        if systemMode, groupID(named: groupName) == nil {
            logger.warning("group '\(groupName)' does not exist; the socket's group is root")
        }
        if let inherited = VarlinkServer.Endpoint.systemdSocket() {
            logger.info("using the socket passed by systemd")
            return SocketPlacement(endpoint: inherited, accessGID: gid)
        }
        let environment = ProcessEnvironment.self
        let path: String
        if let explicit = options.socketPath ?? environment.value("FOCUSD_SOCKET") ?? configuration.socket.path {
            path = explicit
        } else if systemMode {
            path = "/run/focusd/focusd.sock"
        } else if let runtime = environment.value("XDG_RUNTIME_DIR"), !runtime.isEmpty {
            path = runtime + "/focusd/focusd.sock"
        } else {
            throw Daemon.StartupError(description: "XDG_RUNTIME_DIR is not set: pass --socket PATH or set FOCUSD_SOCKET")
        }
        // Never world-accessible, whatever the config says.
        let mode = (configuration.socket.mode.map { mode_t($0) } ?? (systemMode ? 0o660 : 0o600)) & 0o770
        let options = VarlinkServer.SocketFileOptions(
            socketMode: mode, directoryMode: systemMode ? 0o750 : 0o700, group: systemMode ? gid : nil)
        return SocketPlacement(endpoint: .path(path, options), accessGID: gid)
    }

    static func groupID(named name: String) -> UInt32? {
        guard let entry = getgrnam(name) else { return nil }
        return entry.pointee.gr_gid
    }
}

/// Reads the process environment.
enum ProcessEnvironment {
    static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
