import CMalloc
import FocusConfig
import FocusEngine
import FocusWire
import InputDevices
import InputMapping
import Logging
import NIOCore
import NIOPosix
import Synchronization
import SystemCalls
import Varlink

#if canImport(Glibc)
import Glibc
#endif

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
        // Two worker threads for requests too heavy for the loop; idle, each sleeps on a
        // condition variable (no wake-ups). `worker`, below the loop's priority (nice 10, this
        // thread only), takes what may hold a core for a quarter of a second or more (a
        // 100,000-node scene, Lint, reloads, freeing): on a machine with more work than cores it
        // must not take the CPU from the loop. (Commit 43b382c set this in Daemon.swift; the
        // merge of 'offloop' after Daemon.swift was split lost it.) `promptWorker`, at the
        // loop's own priority, reads and builds the scenes of up to 2 MiB a client waits on (a
        // web page's first scene; `[limits] promptBuildBytes`): at nice 10 such a 20 ms build
        // waited 100-300 ms for the CPU whenever the machine was busy (a browser painting the
        // page it had just sent), and behind any large job queued first. A thread's own nice
        // only rises without CAP_SYS_NICE (the service runs as User=focusd), so the two
        // priorities are two threads, not one thread that changes its own per job
        // (docs/worker-priority.md).
        let worker = NIOThreadPool(numberOfThreads: 1)
        worker.start()
        worker.submit { [logger] _ in
            do { try Posix.setThreadNice(10) } catch { logger.warning("the worker thread keeps the loop's priority: \(error)") }
        }
        let promptBytes = configuration.limits.promptBuildBytes
        let promptWorker = promptBytes > 0 ? NIOThreadPool(numberOfThreads: 1) : nil
        promptWorker?.start()
        let core = try loop.submit {
            NIOLoopBound(
                DaemonCore(eventLoop: loop, configuration: configuration, socketGID: socket.accessGID, logger: logger, worker: worker,
                           promptWorker: promptWorker, promptBytes: promptBytes),
                eventLoop: loop)
        }.wait()

        var serverConfiguration = VarlinkServer.Configuration()
        serverConfiguration.maxMessageSize = configuration.limits.maxMessageBytes
        serverConfiguration.outgoingQueueLimit = configuration.limits.outgoingQueueBytes
        serverConfiguration.parser = worker
        serverConfiguration.promptParser = promptWorker
        serverConfiguration.promptParseLimit = promptBytes
        serverConfiguration.largeCallDecoder = SceneDecoding.largeCalls
        serverConfiguration.maxConnections = Self.connectionCap(configured: configuration.limits.maxConnections, logger: logger)
        serverConfiguration.stallTimeout = .milliseconds(Int64(configuration.limits.slowClientTimeoutMs))
        serverConfiguration.logger = logger
        // Before the socket serves: the first client already sees the demo scene.
        if options.demo {
            try loop.submit { try core.value.installDemoScene() }.wait()
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
        // Before the socket serves, so that a client's first ReloadConfig or Lend finds them.
        let inputLoop = options.devices ? startInput(core: core, loop: loop) : nil
        try loop.submit {
            core.value.input.inputLoop = inputLoop
            self.serveReloads(core: core, inputLoop: inputLoop, worker: worker, loop: loop)
        }.wait()
        // A socket that cannot be served ends the daemon: the devices it opened are released first.
        var started = false
        defer { if !started { inputLoop?.stop() } }
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
        started = true

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
        // A benchmark's played input thread connects its monitors first: it starts once the socket serves.
        if !options.devices, let feed = options.inputFeed {
            let listening = try loop.submit { core.value.router.listening }.wait()
            feed(InputLoopBridge(core: core, eventLoop: loop, listening: listening, timed: logger.logLevel <= .debug), loop)
        }
        // Every listener serves and the demo scene is in: tell the service manager (a
        // `Type=notify` unit, or a test waiting for the daemon) instead of letting it guess.
        do {
            try Posix.notifyServiceManager("READY=1", unsetEnvironment: true)
        } catch {
            logger.warning("cannot tell the service manager that focusd is ready: \(error)")
        }

        while true {
            let signal = signals.wait()
            guard signal == SIGHUP else { break }
            // Waits, so that signals in a burst reload one after another.
            _ = try? reload(core: core, inputLoop: inputLoop, worker: worker, loop: loop).wait()
        }
        logger.info("shutting down: releasing devices and removing the socket")
        // Releases what every device holds (on the input thread, queued to the loop before
        // `stop` returns) and ungrabs.
        inputLoop?.stop()
        if let times = try? loop.submit({ core.value.inputPathTimes?.summary }).wait() { logger.debug("\(times)") }
        try? webSocketServer?.close().wait()
        try? server.close().wait()
        try? group.syncShutdownGracefully()
        try? promptWorker?.syncShutdownGracefully()
        try? worker.syncShutdownGracefully()
    }

    /// The Varlink service with focusd's three interfaces and its access hooks (on the loop).
    static func makeVarlinkService(core: NIOLoopBound<DaemonCore>) -> VarlinkService {
        let varlink = VarlinkService(
            vendor: "focusd", product: "focusd", version: FocusdVersion.string, url: "https://github.com/focusd/focusd")
        core.value.varlink = varlink
        // The embedded interface texts are checked by tests; they always parse.
        try! varlink.register(description: EmbeddedResources.focusInterface) { context throws(VarlinkError) in
            try core.value.focus.handle(context)
        }
        try! varlink.register(description: EmbeddedResources.inputInterface) { context throws(VarlinkError) in
            try core.value.input.handle(context)
        }
        try! varlink.register(description: EmbeddedResources.inspectInterface) { context throws(VarlinkError) in
            if InspectMethod(rawValue: context.method) == .record {
                try core.value.input.record(context)
            } else {
                try core.value.focus.handleInspect(context)
            }
        }
        varlink.acceptConnection = { [unowned varlink] connection in
            let core = core.value
            // WebSocket clients have no uid; their server caps them (`[websocket] maxConnections`).
            if connection.transport != .unixSocket { return true }
            let open = varlink.connectionCount(ofUID: connection.peer.uid)
            guard open < core.maxConnectionsPerUID else {
                core.logger.warning(
                    "refusing a connection: uid \(connection.peer.uid) has \(open) open, the limit is \(core.maxConnectionsPerUID)")
                return false
            }
            return true
        }
        varlink.authorizeCall = { context in
            core.value.accessGrant.policy.check(context.qualifiedMethod, peer: context.peer, transport: context.connection.transport)
        }
        varlink.connectionClosed = { connection in
            core.value.hub.connectionClosed(connection.id)
            core.value.input.connectionClosed(connection.id)
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
        guard let shared = try? loop.submit({ (core.value.router.focusContext, core.value.router.listening) }).wait()
        else { return nil }
        let (focus, listening) = shared
        var configuration = InputLoopConfiguration(
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
                // The device's mapper runs with the settings decided here (once per open).
                policy.settings = settings
                return policy
            }
        )
        // The mappers and their timers run on the input thread (InputRouter's discussion), with
        // the settings every policy above carries: this default is never asked.
        configuration.mapping = { identity, _ in DeviceSettings(deviceClass: DeviceClassifier.classify(identity)) }
        configuration.focusContext = { focus.value.withLock { $0 } }
        do {
            let inputLoop = try InputLoop(configuration: configuration, delegate: InputLoopBridge(core: core, eventLoop: loop, listening: listening, timed: logger.logLevel <= .debug))
            try inputLoop.start()
            logger.info("watching input devices under \(options.inputDirectory)")
            return inputLoop
        } catch {
            logger.error("cannot watch input devices (\(error)); serving the socket without devices")
            return nil
        }
    }

    /// What one gamepad database line costs in memory, roughly (ServiceBench: 100,000 lines
    /// took 139 MiB).
    static let bytesPerDatabaseEntry = 1_500

    /// What a reload read on the worker thread, carried to the loop and back: the loop only
    /// swaps it in, and the configuration it replaces goes back to the worker to be freed (a
    /// database of 100,000 lines takes longer to free than a client may wait).
    private final class Reloaded: @unchecked Sendable {
        var read: Result<Configuration, ConfigError>?
        var replaced: ProfileMatcher?
    }

    /// Re-reads the config file and its gamepad databases on the worker thread (off the event
    /// loop: no client or device waits for the reading), then swaps the result in on the loop.
    /// Reloads are read and swapped in the order they were asked for (one worker thread). On
    /// error the running config stays and the error (`InvalidConfig`) names the line.
    /// Answers `io.focusd.Input.ReloadConfig` with ``reload(core:inputLoop:worker:loop:)`` (on
    /// the loop; the in-process test daemon serves reloads the same way).
    func serveReloads(core: NIOLoopBound<DaemonCore>, inputLoop: InputLoop?, worker: NIOThreadPool, loop: any EventLoop) {
        core.value.input.reload = { [weak self] in
            guard let self else { return loop.makeSucceededFuture(([], [])) }
            return self.reload(core: core, inputLoop: inputLoop, worker: worker, loop: loop)
        }
    }

    func reload(core: NIOLoopBound<DaemonCore>, inputLoop: InputLoop?, worker: NIOThreadPool, loop: any EventLoop)
        -> EventLoopFuture<([String], [String])>
    {
        let reloaded = Reloaded()
        let configPath = options.configPath
        return worker.runIfActive(eventLoop: loop) {
            do throws(ConfigError) {
                reloaded.read = .success(try Daemon.readConfiguration(configPath))
            } catch {
                reloaded.read = .failure(error)
            }
        }.flatMapThrowing { () throws(VarlinkError) -> ([String], [String]) in
            // The configuration replaced is freed on the worker after the swap, and its pages
            // go back to the system (a database of 100,000 lines is some 140 MB).
            defer {
                let freed = (reloaded.replaced?.database.entries.count ?? 0) * Self.bytesPerDatabaseEntry
                worker.submit { _ in reloaded.replaced = nil }
                core.value.memory.freed(bytes: freed)
            }
            switch reloaded.read.take()! {
            case .failure(let error): throw self.refused(error)
            case .success(let configuration): return self.apply(configuration, replacing: reloaded, core: core, inputLoop: inputLoop)
            }
        }
    }

    /// A config file a reload could not use: logged; the caller gets `InvalidConfig` with its line.
    private func refused(_ error: ConfigError) -> VarlinkError {
        logger.error("reload: \(options.configPath ?? Daemon.defaultConfigPath): \(error); keeping the running configuration")
        var parameters: [String: JSONValue] = ["reason": .string(error.message)]
        if let line = error.line { parameters["line"] = .integer(Int64(line)) }
        return VarlinkError("io.focusd.Input.InvalidConfig", parameters: .object(parameters))
    }

    /// Swaps a configuration read by `reload` in (on the event loop): profiles and databases for
    /// the input thread, limits, access, WebSocket settings; the profile decisions it replaces go
    /// into `replaced`. Returns the profile names and the warnings.
    private func apply(_ configuration: Configuration, replacing replaced: Reloaded, core: NIOLoopBound<DaemonCore>, inputLoop: InputLoop?)
        -> ([String], [String])
    {
        let path = options.configPath ?? Daemon.defaultConfigPath
        let matcher = ProfileMatcher(configuration: configuration)
        replaced.replaced = self.matcher.withLock { running in
            defer { running = matcher }
            return running
        }
        let core = core.value
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
        compare("limits", "promptBuildBytes", old.promptBuildBytes, new.promptBuildBytes) { "\($0)" }
        compare("limits", "slowClientTimeout", old.slowClientTimeoutMs, new.slowClientTimeoutMs) { "\(Double($0) / 1000)" }
        compare("limits", "maxConnections", old.maxConnections, new.maxConnections) { $0.map { "\($0)" } ?? "the default" }
        compare("socket", "path", running.socket.path, reloaded.socket.path) { $0.map { "\"\($0)\"" } ?? "the default" }
        compare("socket", "group", running.socket.group, reloaded.socket.group) { $0.map { "\"\($0)\"" } ?? "the default" }
        compare("socket", "mode", running.socket.mode, reloaded.socket.mode) { $0.map { "0o" + String($0, radix: 8) } ?? "the default" }
        return warnings
    }
}
