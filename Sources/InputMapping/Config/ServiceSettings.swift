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

    public init() {}
}
