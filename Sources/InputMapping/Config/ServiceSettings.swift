// The service-side sections of the configuration file: socket, access policy, limits.

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
    public var maxMessageBytes: Int = 32 * 1024 * 1024
    public var maxConnectionsPerUid: Int = 64
    public var outgoingQueueBytes: Int = 256 * 1024
    /// Milliseconds a client may stay over its queue bound without write progress.
    public var slowClientTimeoutMs: Int = 10_000

    public init() {}
}
