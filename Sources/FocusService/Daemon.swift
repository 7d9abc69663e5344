import CMalloc
import FocusEngine
import FocusWire
import InputDevices
import InputMapping
import Logging
import NIOCore
import NIOPosix
import Synchronization
import Varlink

#if canImport(Glibc)
import Glibc
#endif

/// How `focusd` was asked to run (its command line).
public struct DaemonOptions: Sendable {
    /// `--socket`; nil: `$FOCUSD_SOCKET`, the config's `socket.path`, then the mode's default.
    public var socketPath: String?
    /// `--config`; nil: `/etc/focusd/focusd.toml` when it exists, else the built-in defaults.
    public var configPath: String?
    /// `--demo`: install the built-in demo scene (persistent) at start.
    public var demo = false
    /// `--no-devices` sets this false: socket only.
    public var devices = true
    /// Where event nodes live (tests point this elsewhere).
    public var inputDirectory = "/dev/input"
    public var logLevel: Logger.Level = .info
    /// `--websocket ADDR:PORT`: serve Varlink over WebSocket there (overrides `[websocket] listen`).
    public var webSocket: ListenAddress?

    public init() {}

    /// Parses `--websocket`'s `ADDR:PORT`, or says why it is not one.
    public static func webSocketAddress(_ text: String) -> Result<ListenAddress, ConfigError> {
        ListenAddress.parse(text)
    }
}

/// The running daemon: the Varlink server, the input loop and the state on the event loop.
///
/// Threads: one NIO event loop owns every scene, connection and device mapper (no locks); one
/// input thread (`InputLoop`) reads devices and hops each frame onto the event loop; the main
/// thread waits for signals in `sigwaitinfo`. No Swift concurrency runs in the daemon: as soon as
/// anything uses it, libdispatch's worker-pool monitor wakes the process once a second (measured
/// by ServiceBench), and an idle focusd must not wake up at all.
public enum Daemon {
    /// The default config file.
    public static let defaultConfigPath = "/etc/focusd/focusd.toml"

    /// Runs until SIGTERM or SIGINT; SIGHUP reloads the configuration.
    public static func run(_ options: DaemonOptions) throws {
        // Blocked before any thread starts, so every thread inherits the mask and only the
        // main thread's sigwaitinfo takes these signals.
        let signals = SignalSet.block([SIGTERM, SIGINT, SIGHUP])
        _ = cmalloc_single_arena()
        let logger = Logger(label: "focusd")
        let config = try loadConfiguration(options.configPath)
        for warning in config.warnings { logger.warning("\(options.configPath ?? defaultConfigPath): \(warning)") }
        let daemon = DaemonService(options: options, configuration: config, logger: logger)
        try daemon.run(signals: signals)
    }

    /// Why the daemon could not start or reload.
    public struct StartupError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads and parses the configuration; a missing default file means the defaults.
    static func loadConfiguration(_ path: String?) throws -> Configuration {
        do {
            return try readConfiguration(path)
        } catch {
            throw StartupError(description: "\(path ?? defaultConfigPath): \(error)")
        }
    }

    /// Reads and parses the configuration file (`path`, else the default one, which may be
    /// missing: then the built-in defaults). Start-up and reload share it.
    static func readConfiguration(_ path: String?) throws(ConfigError) -> Configuration {
        let bytes: [UInt8]
        do {
            bytes = try readFile(path ?? defaultConfigPath, limit: 1 << 20)
        } catch {
            // Only a missing default file means the defaults; one that is there but unreadable is
            // a mistake to report, not to paper over.
            if path == nil && error.isMissing {
                var defaults = Configuration.defaults
                GamepadDatabases.load(into: &defaults)
                return defaults
            }
            throw ConfigError("cannot read the configuration file: \(error)")
        }
        var configuration = try Configuration.parse(String(decoding: bytes, as: UTF8.self))
        GamepadDatabases.load(into: &configuration)
        return configuration
    }}

/// Everything that lives on the event loop.
final class DaemonCore {
    let hub: SceneHub
    let memory: MemoryReturn
    let focus: FocusInterface
    let input: InputInterface
    let router: InputRouter
    var access: AccessPolicy
    /// The socket's group when it grants access (system mode), for recomputing `access` on reload.
    let socketGID: UInt32?
    var maxConnectionsPerUID: Int
    /// The socket file, for the read-only users' ACL (nil: an abstract or unknown socket).
    var socketPath: String?
    /// Whether focusd wrote that ACL (only then does a config without read-only users remove it:
    /// an ACL an administrator set by hand stays).
    var socketACLWritten = false
    /// Where WebSocket clients are served (fixed at start; its access class follows reloads).
    var webSocketListen: ListenAddress?
    /// The WebSocket server, whose origins, token and cap follow reloads.
    var webSocketServer: VarlinkWebSocketServer?
    let logger: Logger

    init(eventLoop: any EventLoop, configuration: Configuration, socketGID: UInt32?, logger: Logger, worker: NIOThreadPool? = nil) {
        hub = SceneHub(limits: Limits(configuration.limits), caps: SceneHub.Caps(configuration.limits))
        memory = MemoryReturn(eventLoop: eventLoop, worker: worker)
        focus = FocusInterface(hub: hub, logger: logger, worker: worker)
        router = InputRouter(eventLoop: eventLoop, hub: hub, matcher: ProfileMatcher(configuration: configuration))
        input = InputInterface(router: router)
        self.socketGID = socketGID
        access = AccessPolicy(settings: configuration.access, daemonUID: getuid(), socketGID: socketGID)
        maxConnectionsPerUID = configuration.limits.maxConnectionsPerUid
        self.logger = logger
        hub.nodesFreed = { [memory] nodes in memory.freed(nodes: nodes) }
        focus.memory = memory
    }

    /// The access policy of `configuration`, WebSocket clients included.
    func makeAccess(_ configuration: Configuration) -> AccessPolicy {
        var access = AccessPolicy(settings: configuration.access, daemonUID: getuid(), socketGID: socketGID)
        if let webSocketListen {
            access.webSocket = configuration.websocket.effectiveAccess(for: webSocketListen) == .full ? .full : .readOnly
        }
        return access
    }
}

/// The device thread's delegate: one hop per report onto the event loop.
final class InputLoopBridge: InputLoopDelegate {
    let core: NIOLoopBound<DaemonCore>
    let eventLoop: any EventLoop

    init(core: NIOLoopBound<DaemonCore>, eventLoop: any EventLoop) {
        self.core = core
        self.eventLoop = eventLoop
    }

    func deviceAdded(_ device: DeviceInfo) {
        eventLoop.execute { [core] in core.value.router.deviceAdded(device) }
    }
    func deviceRemoved(id: String) {
        eventLoop.execute { [core] in core.value.router.deviceRemoved(id) }
    }
    func deviceChanged(_ device: DeviceInfo) {
        eventLoop.execute { [core] in core.value.router.deviceChanged(device) }
    }
    func frame(id: String, events: [InputEvent]) {
        eventLoop.execute { [core] in core.value.router.frame(id, events) }
    }
    func resync(id: String, keysDown: Set<UInt16>, absValues: [UInt16: Int32]) {
        eventLoop.execute { [core] in core.value.router.resync(id, keysDown: keysDown, absValues: absValues) }
    }
    func gesture(id: String, gesture: Gesture) {
        eventLoop.execute { [core] in core.value.router.gesture(id, gesture) }
    }
    func pendingRead(id: String) {
        eventLoop.execute { [core] in core.value.router.pendingRead(id) }
    }
}

/// The daemon's life: starts everything, reloads on SIGHUP, and on SIGTERM/SIGINT releases every
/// device and removes the socket.
final class DaemonService: Sendable {
    let options: DaemonOptions
    let configuration: Configuration
    let logger: Logger
    /// The profile decisions the input thread consults; replaced on reload.
    let matcher: Mutex<ProfileMatcher>

    init(options: DaemonOptions, configuration: Configuration, logger: Logger) {
        self.options = options
        self.configuration = configuration
        self.logger = logger
        matcher = Mutex(ProfileMatcher(configuration: configuration))
    }

    /// Starts everything, serves until SIGTERM/SIGINT (SIGHUP reloads), then shuts down cleanly:
    /// devices released and ungrabbed, connections closed, the socket file removed.
    func run(signals: SignalSet) throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let socket = try SocketPlacement.resolve(options: options, configuration: configuration, logger: logger)
        let configuration = self.configuration
        let logger = self.logger
        // One worker thread for requests too heavy for the loop (Lint, big scenes, trims); idle, it sleeps on a
        // condition variable (no wake-ups).
        let worker = NIOThreadPool(numberOfThreads: 1)
        worker.start()
        // Below the loop's priority (nice 10, this thread only): a 100,000-node scene built on
        // the worker must not take the CPU from the loop on a machine with more work than cores.
        worker.submit { _ in _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10) }  // 0: the calling thread, on Linux
        let core = try loop.submit {
            NIOLoopBound(
                DaemonCore(eventLoop: loop, configuration: configuration, socketGID: socket.accessGID, logger: logger, worker: worker),
                eventLoop: loop)
        }.wait()

        var serverConfiguration = VarlinkServer.Configuration()
        serverConfiguration.maxMessageSize = configuration.limits.maxMessageBytes
        serverConfiguration.outgoingQueueLimit = configuration.limits.outgoingQueueBytes
        serverConfiguration.parser = worker
        serverConfiguration.maxConnections = Self.connectionCap(configured: configuration.limits.maxConnections, logger: logger)
        serverConfiguration.stallTimeout = .milliseconds(Int64(configuration.limits.slowClientTimeoutMs))
        serverConfiguration.logger = logger
        // Before the socket serves: the first client already sees the demo scene.
        if options.demo {
            try loop.submit {
                let scene = try JSONValue.parse(EmbeddedResources.demoScene).decode(Scene.self)
                _ = try core.value.hub.setScene(scene, by: 0)
            }.wait()
            logger.info("demo scene installed: try `focusctl watch` and `focusctl move right`")
        }
        let varlinkConfiguration = serverConfiguration
        let webSocket = try webSocketConfiguration(limits: serverConfiguration)
        if let webSocket {
            try loop.submit {
                core.value.webSocketListen = webSocket.address
                core.value.access = core.value.makeAccess(configuration)
            }.wait()
        }
        let (server, webSocketServer) = try loop.flatSubmit {
            let service = Self.makeVarlinkService(core: core)
            // Both servers serve the one service, which stays on the loop.
            return VarlinkServer.startOnEventLoop(
                service: service, endpoint: socket.endpoint, configuration: varlinkConfiguration, eventLoop: loop
            ).assumeIsolated().flatMap { server -> EventLoopFuture<(VarlinkServer, VarlinkWebSocketServer?)> in
                guard let webSocket else { return loop.makeSucceededFuture((server, nil)) }
                return VarlinkWebSocketServer.startOnEventLoop(
                    service: service, host: webSocket.address.host, port: webSocket.address.port,
                    configuration: webSocket.configuration, eventLoop: loop
                ).map { (server, $0) }.flatMapError { error in
                    server.close().flatMapThrowing {
                        throw Daemon.StartupError(description: "cannot serve WebSocket on \(webSocket.address): \(error)")
                    }
                }
            }.nonisolated()
        }.wait()

        let socketPath: String?
        switch socket.endpoint {
        case .path(let path, _): socketPath = path
        case .listeningDescriptor(let fd): socketPath = SocketACL.boundPath(of: fd)
        }
        try loop.submit {
            core.value.socketPath = socketPath
            for problem in Self.grantReadOnlyUsers(configuration.access, core: core.value) { logger.warning("\(problem)") }
        }.wait()

        if let webSocketServer { try loop.submit { core.value.webSocketServer = webSocketServer }.wait() }
        let inputLoop = options.devices ? startInput(core: core, loop: loop) : nil
        try loop.submit {
            if let inputLoop {
                // Repeats wait until the device's pending input is read (InputRouter.readPending).
                core.value.router.readPending = { id in inputLoop.readPending(id: id) }
            }
            core.value.input.reload = { [weak self] () throws(VarlinkError) in
                guard let self else { return ([], []) }
                return try self.reload(core: core, inputLoop: inputLoop)
            }
        }.wait()

        while true {
            let signal = signals.wait()
            guard signal == SIGHUP else { break }
            try? loop.submit { () throws -> Void in _ = try self.reload(core: core, inputLoop: inputLoop) }.wait()
        }
        logger.info("shutting down: releasing devices and removing the socket")
        inputLoop?.stop()
        try? loop.submit { core.value.router.releaseAll() }.wait()
        try? webSocketServer?.close().wait()
        try? server.close().wait()
        try? group.syncShutdownGracefully()
        try? worker.syncShutdownGracefully()
    }

    /// The Varlink service with focusd's three interfaces and its access hooks (on the loop).
    private static func makeVarlinkService(core: NIOLoopBound<DaemonCore>) -> VarlinkService {
        let varlink = VarlinkService(
            vendor: "focusd", product: "focusd", version: FocusdVersion.string, url: "https://github.com/focusd/focusd")
        // The embedded interface texts are checked by tests; they always parse.
        try! varlink.register(description: EmbeddedResources.focusInterface) { context throws(VarlinkError) in
            try core.value.focus.handle(context)
        }
        try! varlink.register(description: EmbeddedResources.inputInterface) { context throws(VarlinkError) in
            try core.value.input.handle(context)
        }
        try! varlink.register(description: EmbeddedResources.inspectInterface) { context throws(VarlinkError) in
            if context.method == "Record" {
                try core.value.input.record(context)
            } else {
                try core.value.focus.handleInspect(context)
            }
        }
        varlink.acceptConnection = { [unowned varlink] connection in
            let core = core.value
            // WebSocket clients have no uid; their server caps them (`[websocket] maxConnections`).
            if connection.transport != .unixSocket { return true }
            let open = varlink.connections(ofUID: connection.peer.uid).count
            guard open < core.maxConnectionsPerUID else {
                core.logger.warning(
                    "refusing a connection: uid \(connection.peer.uid) has \(open) open, the limit is \(core.maxConnectionsPerUID)")
                return false
            }
            return true
        }
        varlink.authorizeCall = { context in
            core.value.access.check(context.call.method, peer: context.peer, transport: context.connection.transport)
        }
        varlink.connectionClosed = { connection in
            core.value.hub.connectionClosed(connection.id)
        }
        varlink.memoryReleased = { bytes in
            core.value.memory.freed(messageBytes: bytes)
        }
        return varlink
    }

    /// The WebSocket server's settings (`--websocket` over `[websocket] listen`), nil when off.
    /// Listening beyond loopback without a token is refused: the page's origin alone proves
    /// nothing to a client that is not a browser.
    private func webSocketConfiguration(
        limits: VarlinkServer.Configuration
    ) throws -> (address: ListenAddress, configuration: VarlinkWebSocketServer.Configuration)? {
        let settings = configuration.websocket
        guard let address = options.webSocket ?? settings.listen else { return nil }
        if !address.isLoopback && settings.token == nil {
            throw Daemon.StartupError(
                description: "--websocket \(address) is not a loopback address: set [websocket] token in the configuration")
        }
        var webSocket = VarlinkWebSocketServer.Configuration()
        webSocket.limits = limits
        if let origins = settings.origins { webSocket.origins = origins }
        webSocket.token = settings.token
        webSocket.maxConnections = settings.maxConnections
        webSocket.pingInterval = settings.pingInterval > 0 ? .milliseconds(Int64(settings.pingInterval * 1000)) : nil
        if options.demo {
            // Only in demo mode: the page that shows the quick start in a browser, and the module.
            webSocket.pages = [
                "/": .init(contentType: "text/html; charset=utf-8", body: Array(EmbeddedResources.webDemoPage.utf8)),
                "/focusd.js": .init(contentType: "text/javascript; charset=utf-8", body: Array(EmbeddedResources.webModule.utf8)),
            ]
        }
        let summary =
            "WebSocket for web pages on \(address): access \(settings.effectiveAccess(for: address).rawValue), "
            + (settings.token == nil ? "no token" : "token required") + (options.demo ? ", demo page at http://\(address)/" : "")
        logger.info("\(summary)")
        return (address, webSocket)
    }

    /// File descriptors kept for everything but connections: input devices, udev or inotify,
    /// epoll, timers, the config and log files.
    static let descriptorReserve = 64

    /// The global connection cap: the configured one, else 4,096 lowered to stay
    /// ``descriptorReserve`` under the soft `RLIMIT_NOFILE` (the unit sets `LimitNOFILE=8192`).
    /// A configured cap above that is kept, with a warning: `accept` failing with EMFILE then
    /// pauses accepting instead of spinning.
    static func connectionCap(configured: Int?, logger: Logger) -> Int {
        var limit = rlimit()
        let known = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 && limit.rlim_cur < rlim_t(1 << 30)
        let descriptors = known ? Int(limit.rlim_cur) : 1 << 30
        let ceiling = max(1, descriptors - descriptorReserve)
        if let configured {
            if configured > ceiling {
                logger.warning(
                    "maxConnections = \(configured) is above the file-descriptor limit (\(descriptors)) less a reserve of \(descriptorReserve): raise LimitNOFILE")
            }
            return configured
        }
        return min(4096, ceiling)
    }

    private func startInput(core: NIOLoopBound<DaemonCore>, loop: any EventLoop) -> InputLoop? {
        let configuration = InputLoopConfiguration(
            inputDirectory: options.inputDirectory,
            classify: { DeviceClassifier.classify($0) },
            policy: { [self] identity, siblings in
                let settings = self.matcher.withLock { $0.settings(for: identity, siblings: siblings) }
                var reason = settings.ignoreReason
                if reason == nil, DeviceClassifier.isIgnoredByUdev(identity) { reason = "tagged FOCUSD_IGNORE=1 by udev" }
                if reason == nil, settings.grab == .none, settings.deviceClass != .other {
                    reason = "profile '\(settings.profileName ?? "")' says grab = \"none\": listed, not read"
                }
                var policy = DevicePolicy(
                    deviceClass: settings.deviceClass, backend: settings.backend, grab: settings.grab,
                    ignoreReason: reason, profile: settings.profileName)
                policy.reasons = settings.reasons
                return policy
            }
        )
        do {
            let inputLoop = try InputLoop(configuration: configuration, delegate: InputLoopBridge(core: core, eventLoop: loop))
            try inputLoop.start()
            logger.info("watching input devices under \(options.inputDirectory)")
            return inputLoop
        } catch {
            logger.error("cannot watch input devices (\(error)); serving the socket without devices")
            return nil
        }
    }

    /// Re-reads the config file (on the event loop). On error the running config stays and the
    /// error names the line.
    func reload(core: NIOLoopBound<DaemonCore>, inputLoop: InputLoop?) throws(VarlinkError) -> ([String], [String]) {
        let path = options.configPath ?? Daemon.defaultConfigPath
        let configuration: Configuration
        do {
            configuration = try Daemon.readConfiguration(options.configPath)
        } catch {
            logger.error("reload: \(path): \(error); keeping the running configuration")
            var parameters: [String: JSONValue] = ["reason": .string(error.message)]
            if let line = error.line { parameters["line"] = .integer(Int64(line)) }
            throw VarlinkError("io.focusd.Input.InvalidConfig", parameters: .object(parameters))
        }
        let matcher = ProfileMatcher(configuration: configuration)
        self.matcher.withLock { $0 = matcher }
        let core = core.value
        core.router.reconfigure(matcher)
        core.maxConnectionsPerUID = configuration.limits.maxConnectionsPerUid
        core.hub.limits = Limits(configuration.limits)
        core.hub.caps = SceneHub.Caps(configuration.limits)
        core.access = core.makeAccess(configuration)
        if let server = core.webSocketServer {
            let settings = configuration.websocket
            if settings.listen.map({ $0 != core.webSocketListen }) ?? false {
                logger.warning("reload: websocket.listen changes only when focusd restarts")
            }
            if let listen = core.webSocketListen, !listen.isLoopback, settings.token == nil {
                // Keep the running token rather than open a non-loopback port to anyone.
                logger.error("reload: websocket.token is required on \(listen); keeping the running WebSocket settings")
            } else {
                server.reconfigure(
                    origins: settings.origins ?? VarlinkWebSocketServer.Configuration.defaultOrigins, token: settings.token,
                    maxConnections: settings.maxConnections)
            }
        }
        inputLoop?.reapplyPolicies()
        let names = configuration.profiles.map(\.name)
        let warnings = configuration.warnings + Self.needsRestart(running: self.configuration, reloaded: configuration)
            + Self.grantReadOnlyUsers(configuration.access, core: core)
        for warning in warnings { logger.warning("reload: \(path): \(warning)") }
        logger.info("configuration reloaded from \(path): \(names.count) profile(s)")
        return (names, warnings)
    }

    /// Lets the read-only uids and gids reach the socket (an ACL on it and its directory; see
    /// `SocketACL`). Returns the problems, for the log and a reload's warnings.
    static func grantReadOnlyUsers(_ access: AccessSettings, core: DaemonCore) -> [String] {
        let none = access.readOnlyUids.isEmpty && access.readOnlyGids.isEmpty
        guard let path = core.socketPath else {
            return none ? [] : ["the socket has no path: read-only uids and gids must be let in by other means"]
        }
        if none && !core.socketACLWritten { return [] }
        core.socketACLWritten = !none
        return SocketACL.apply(access, socketPath: path)
    }

    /// What a reload cannot apply while focusd runs, one warning each: the socket (already bound)
    /// and the limits every connection was set up with at accept (message cap, queue bound,
    /// stall time). Scene limits, the connection cap per uid, access and profiles apply at once.
    static func needsRestart(running: Configuration, reloaded: Configuration) -> [String] {
        var warnings: [String] = []
        func compare<T: Equatable>(_ section: String, _ key: String, _ old: T, _ new: T, _ show: (T) -> String) {
            guard old != new else { return }
            warnings.append("[\(section)] \(key) = \(show(new)) is not applied until focusd restarts (running with \(show(old)))")
        }
        let old = running.limits, new = reloaded.limits
        compare("limits", "maxMessageBytes", old.maxMessageBytes, new.maxMessageBytes) { "\($0)" }
        compare("limits", "outgoingQueueBytes", old.outgoingQueueBytes, new.outgoingQueueBytes) { "\($0)" }
        compare("limits", "slowClientTimeout", old.slowClientTimeoutMs, new.slowClientTimeoutMs) { "\(Double($0) / 1000)" }
        compare("limits", "maxConnections", old.maxConnections, new.maxConnections) { $0.map { "\($0)" } ?? "the default" }
        compare("socket", "path", running.socket.path, reloaded.socket.path) { $0.map { "\"\($0)\"" } ?? "the default" }
        compare("socket", "group", running.socket.group, reloaded.socket.group) { $0.map { "\"\($0)\"" } ?? "the default" }
        compare("socket", "mode", running.socket.mode, reloaded.socket.mode) { $0.map { "0o" + String($0, radix: 8) } ?? "the default" }
        return warnings
    }
}

/// The scene limits and caps of `[limits]`, read the same way at start and on reload.
extension Limits {
    init(_ settings: LimitSettings) {
        self.init(maxNodes: settings.maxNodes, maxDepth: settings.maxDepth)
    }
}

extension SceneHub.Caps {
    init(_ settings: LimitSettings) {
        self.init(
            scenesPerConnection: settings.maxScenesPerConnection, scenesPerUid: settings.maxScenesPerUid,
            nodesPerUid: settings.maxNodesPerUid)
    }
}
