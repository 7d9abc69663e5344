// The service-side sections of the configuration file: socket, access policy, limits.

import InputMapping

/// `[socket]`: where the Varlink socket lives and who may open it (service.md §1).
public struct SocketSettings: Hashable, Sendable {
    /// Socket path; nil = the default (`--socket`, `$FOCUSD_SOCKET`, then the mode's default).
    public var path: String?
    /// Group owning the socket in system mode; nil = `focusd` (root when that group is missing).
    public var group: String?
    /// Permission bits of the socket; nil = 0660 (system mode) / 0600 (user mode). Never o+rwx.
    public var mode: UInt32?

    public init(path: String? = nil, group: String? = nil, mode: UInt32? = nil) {
        self.path = path
        self.group = group
        self.mode = mode
    }
}

/// `[access]`: who may call what, beyond root, the daemon's uid and the socket's group.
public struct AccessSettings: Hashable, Sendable {
    /// Uids and gids that may only read (GetState, ListScenes, Monitor, ListDevices).
    public var readOnlyUids: [UInt32]
    public var readOnlyGids: [UInt32]
    /// Uids and gids that may call everything, in addition to the defaults.
    public var allowedUids: [UInt32]
    public var allowedGids: [UInt32]

    public init(readOnlyUids: [UInt32] = [], readOnlyGids: [UInt32] = [], allowedUids: [UInt32] = [], allowedGids: [UInt32] = []) {
        self.readOnlyUids = readOnlyUids
        self.readOnlyGids = readOnlyGids
        self.allowedUids = allowedUids
        self.allowedGids = allowedGids
    }
}

/// `[limits]`: caps protecting the daemon from clients (service.md §2).
public struct LimitSettings: Hashable, Sendable {
    public var maxNodes: Int = 100_000
    public var maxDepth: Int = 100
    /// The incoming message cap: 16 MiB, as sd-varlink (a 100,000-node scene of plain nodes is
    /// about 9 MiB; bigger scenes are built with UpdateScene). Parsing a message takes several
    /// times its size, so the cap is what bounds one call's memory.
    public var maxMessageBytes: Int = 16 * 1024 * 1024
    public var maxConnectionsPerUid: Int = 64
    /// Connections open in all; nil = 4,096, lowered to leave a reserve under the fd limit.
    public var maxConnections: Int?
    /// Scenes one connection may own (persistent ones included, while it is open).
    public var maxScenesPerConnection: Int = 8
    /// Scenes and nodes all of one uid's scenes may hold, persistent ones included (they outlive
    /// the connection that set them, so only a per-uid cap bounds them).
    public var maxScenesPerUid: Int = 256
    public var maxNodesPerUid: Int = 400_000
    public var outgoingQueueBytes: Int = 256 * 1024
    /// Milliseconds a client may stay over its queue bound without write progress.
    public var slowClientTimeoutMs: Int = 10_000
    /// Calls of at most this many bytes that are parsed or built off the event loop (a web
    /// page's scene) run on a worker thread at the loop's own priority; larger ones, and all
    /// of them at 0, on the worker below it (docs/worker-priority.md). Applied at start.
    public var promptBuildBytes: Int = 2 << 20

    public init() {}
}

/// `[websocket]`: Varlink over WebSocket for web pages (service.md §3). Off unless `listen` (or
/// `--websocket`) is given.
public struct WebSocketSettings: Hashable, Sendable {
    /// Who a web client is: it has no peer credentials, so it gets one access class.
    public enum Access: String, Hashable, Sendable {
        case full, readOnly
    }

    /// Where to listen; nil = off.
    public var listen: ListenAddress?
    /// Allowed page origins; nil = the built-in default (pages from this machine and `file:`).
    public var origins: [String]?
    /// The token a page must present; required when `listen` is not a loopback address.
    public var token: String?
    /// nil = `full` on loopback, `readOnly` elsewhere.
    public var access: Access?
    /// Open WebSocket connections allowed at once.
    public var maxConnections: Int = 64
    /// Seconds of silence before a client is pinged (0: never).
    public var pingInterval: Double = 30

    public init() {}

    /// The access class in force for a listen address.
    public func effectiveAccess(for address: ListenAddress) -> Access {
        access ?? (address.isLoopback ? .full : .readOnly)
    }
}

/// `ADDR:PORT` as `--websocket` and `[websocket] listen` take it: `127.0.0.1:8080`,
/// `[::1]:8080`, `localhost:8080`, `0.0.0.0:8080`; a bare `PORT` or `:PORT` means loopback.
public struct ListenAddress: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `ADDR:PORT`; nil with a reason when it is not one.
    public static func parse(_ text: String) -> Result<ListenAddress, ConfigError> {
        var host = "127.0.0.1"
        var portText = Substring(text)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return .failure(ConfigError("'\(text)' is not ADDR:PORT (an IPv6 address is written [::1]:PORT)"))
            }
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = text[text.index(close, offsetBy: 2)...]
        } else if let colon = text.lastIndex(of: ":") {
            guard !text[..<colon].contains(Character(":")) else {
                return .failure(ConfigError("'\(text)' is not ADDR:PORT (an IPv6 address is written [::1]:PORT)"))
            }
            if colon != text.startIndex { host = String(text[..<colon]) }
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, let port = Int(portText), (0...65_535).contains(port) else {
            return .failure(ConfigError("'\(text)' is not ADDR:PORT with a port from 0 to 65535"))
        }
        return .success(ListenAddress(host: host, port: port))
    }

    /// 127.0.0.0/8, ::1 and `localhost`.
    public var isLoopback: Bool {
        if host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let parts = host.split(separator: Character("."), omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    public var description: String { host.contains(Character(":")) ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// `[adapters.chromium]`: settings focusd-adapter reads from the same file (adapters.md §2). focusd
/// itself only checks them; the adapter runs as the session's user and reads the file, which is
/// world-readable, because no method of focusd's public interfaces carries them.
public struct AdapterSettings: Hashable, Sendable {
    /// Who acts on a keyboard the browser also receives natively.
    public enum Keyboards: String, Hashable, Sendable, CaseIterable {
        /// The page, as without the adapter (the default).
        case browser
        /// focusd: the page never sees that keyboard's navigation keys.
        case focusd
    }

    /// `[adapters.chromium] keyboards`; nil when the file does not say (the adapter's default).
    public var chromiumKeyboards: Keyboards?

    public init(chromiumKeyboards: Keyboards? = nil) {
        self.chromiumKeyboards = chromiumKeyboards
    }
}
