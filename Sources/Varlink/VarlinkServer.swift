import Logging
import NIOCore
import NIOPosix
import SystemCalls

#if canImport(Glibc)
import Glibc
#endif

/// A Varlink server on a Unix stream socket: a path it binds, or a socket systemd passed.
///
/// ```swift
/// let loop = MultiThreadedEventLoopGroup.singleton.next()
/// let service = VarlinkService(vendor: "focusd", product: "focusd", version: "1", url: "https://…")
/// try service.register(description: idlText) { call throws(VarlinkError) in
///     switch call.method {
///     case "Ping": call.reply(["text": call.parameters["text"] ?? ""])
///     default: throw .methodNotImplemented(call.call.method)
///     }
/// }
/// let server = try await VarlinkServer.start(
///     service: service, endpoint: .path("/run/x/x.sock", .init(socketMode: 0o660)), eventLoop: loop)
/// …
/// await server.shutdown()
/// ```
///
/// Every connection, handler and callback runs on the one `eventLoop` given.
public final class VarlinkServer: Sendable {
    /// Limits and logging.
    public struct Configuration: Sendable {
        /// The longest message accepted (bytes, excluding the NUL); longer closes the connection.
        public var maxMessageSize = 16 << 20
        /// Bytes of partly received messages all connections of one uid may hold (`nil`: twice
        /// ``maxMessageSize``); the connection whose input takes its uid past it is closed. With
        /// 64 connections a uid could otherwise park 64 messages just under the cap.
        public var maxPartialInputPerUID: Int? = nil
        /// Where messages of ``parseOffLoopThreshold`` bytes or more are parsed (`nil`: on the
        /// event loop). Parsing 16 MiB of JSON takes long enough to delay every other client.
        public var parser: NIOThreadPool? = nil
        public var parseOffLoopThreshold = 256 << 10
        /// Where messages parsed off the loop of at most ``promptParseLimit`` bytes are parsed
        /// instead of ``parser``, when set (focusd: a thread at the loop's own priority, where
        /// ``parser`` runs below it). A client waits on each parse, and a parse this size takes
        /// a few milliseconds; on a loaded machine a low-priority thread kept a web page's 400 KB
        /// first scene waiting 100-300 ms, and behind any larger message queued first. Memory
        /// of parsed calls is still released on ``parser``.
        public var promptParser: NIOThreadPool? = nil
        public var promptParseLimit = 2 << 20
        /// Reads the parameters of a call parsed off the loop (or a call of
        /// ``decodeOnLoopThreshold`` bytes or more parsed on it) straight from its bytes, when it
        /// can (a 100,000-node scene's JSON tree cost more than the scene); nil: the general way.
        public var largeCallDecoder: LargeCallDecoder? = nil
        /// Messages parsed on the loop of this many bytes or more are offered to
        /// ``largeCallDecoder`` too (a reflow's 100 KB `UpdateScene`); smaller ones (a `Move`)
        /// go the general way at once, without reading their envelope twice.
        public var decodeOnLoopThreshold = 4 << 10
        /// The deepest JSON nesting accepted; deeper closes the connection.
        public var maxDepth = JSONValue.defaultDepthLimit
        /// Bytes queued for one client beyond which coalescible replies are skipped and the stall
        /// timer runs; streams that skipped replies are told to catch up once the queue is down to
        /// half of it (the hysteresis keeps a slow client from getting a snapshot per message).
        public var outgoingQueueLimit = 256 << 10
        /// Bytes queued for one client past which it is disconnected at once (`nil`:
        /// ``outgoingQueueLimit`` plus the larger of itself and 256 KiB), each message counted
        /// with what NIO holds for it beside its bytes. Only stream replies can take a queue there: calls are read and
        /// answered only while the queue is under ``outgoingQueueLimit``, so a reply to a call
        /// (however large) never trips it, but events that may not be coalesced (a `Monitor`'s
        /// commands) keep coming to a client that never reads.
        public var outgoingQueueHardLimit: Int? = nil
        /// A client over the queue limit that makes no write progress for this long is disconnected.
        public var stallTimeout = TimeAmount.seconds(10)
        /// Open connections allowed per uid (`nil`: no cap); past it new ones are closed at once,
        /// before ``VarlinkService/acceptConnection`` is asked.
        public var maxConnectionsPerUID: Int? = nil
        /// Open connections allowed in all (`nil`: no cap); past it a new connection is closed as
        /// soon as it is accepted. Keep it below the process's file-descriptor limit.
        public var maxConnections: Int? = nil
        /// How long accepting pauses after `accept` failed for want of resources (EMFILE, ENFILE,
        /// ENOBUFS, ENOMEM), instead of retrying at once and spinning until clients leave.
        public var acceptBackoff = TimeAmount.milliseconds(250)
        /// Listen backlog.
        public var backlog: Int32 = 256
        /// Connections accepted and set up in one turn of the event loop at most: a client
        /// opening a thousand at once is taken a few per turn, and the calls of the clients
        /// already connected are answered in between (the rest wait in the backlog).
        public var acceptsPerLoopTurn: UInt = 4
        public var logger = Logger(label: "varlink")

        public init() {}
    }

    /// How a socket file is created.
    public struct SocketFileOptions: Sendable {
        /// Mode set on the socket file after bind, whatever the umask (e.g. 0o660, 0o600).
        public var socketMode: mode_t
        /// Mode of the directory, set when it is created (`nil`: the directory must exist).
        public var directoryMode: mode_t?
        /// Group given to the socket file (`nil`: leave the process's group).
        public var group: gid_t?

        public init(socketMode: mode_t = 0o600, directoryMode: mode_t? = 0o700, group: gid_t? = nil) {
            self.socketMode = socketMode
            self.directoryMode = directoryMode
            self.group = group
        }
    }

    /// Where to listen.
    public enum Endpoint: Sendable {
        /// Bind a socket file at this path (a stale socket file there is replaced; a live server
        /// there is an error).
        case path(String, SocketFileOptions = SocketFileOptions())
        /// Adopt a listening socket (e.g. from systemd socket activation).
        case listeningDescriptor(CInt)

        /// The socket systemd passed, when `LISTEN_PID` is this process and `LISTEN_FDS` ≥ 1
        /// (the first one, fd 3; further ones are ignored). Clears the variables so children do
        /// not inherit them.
        public static func systemdSocket() -> Endpoint? {
            guard let pid = Posix.environment("LISTEN_PID").flatMap(Int32.init), pid == Posix.processID(),
                let count = Posix.environment("LISTEN_FDS").flatMap(Int.init), count >= 1
            else { return nil }
            for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { Posix.unsetEnvironment(name) }
            return .listeningDescriptor(3)
        }
    }

    /// Why the server could not start.
    public enum StartError: Error, Sendable, CustomStringConvertible {
        case addressInUse(String)
        case notAListeningSocket(CInt)
        case system(PosixError)

        public var description: String {
            switch self {
            case .addressInUse(let path): return "another server is listening on \(path)"
            case .notAListeningSocket(let fd): return "file descriptor \(fd) is not a listening stream socket"
            case .system(let error): return error.description
            }
        }
    }

    /// The event loop everything runs on.
    public let eventLoop: any EventLoop
    /// The socket file, when the server bound one (removed by ``shutdown()``).
    public let socketPath: String?
    private let serverChannel: any Channel
    private let service: NIOLoopBoundBox<VarlinkService>

    private init(eventLoop: any EventLoop, socketPath: String?, serverChannel: any Channel, service: NIOLoopBoundBox<VarlinkService>) {
        self.eventLoop = eventLoop
        self.socketPath = socketPath
        self.serverChannel = serverChannel
        self.service = service
    }

    /// Starts listening and serving `service` on `eventLoop`, from anywhere: the service (and
    /// whatever its handlers captured) is handed over to the loop.
    public static func start(
        service: sending VarlinkService,
        endpoint: Endpoint,
        configuration: Configuration = Configuration(),
        eventLoop: any EventLoop
    ) async throws -> VarlinkServer {
        let box = NIOLoopBoundBox.makeBoxSendingValue(service, eventLoop: eventLoop)
        return try await start(box: box, endpoint: endpoint, configuration: configuration, eventLoop: eventLoop).get()
    }

    /// Starts listening and serving `service`; call it on `eventLoop`, where the service and the
    /// state its handlers share stay (the way to set up a daemon whose other parts, e.g. input
    /// devices, touch that state from the same loop). The future completes once listening.
    public static func startOnEventLoop(
        service: VarlinkService,
        endpoint: Endpoint,
        configuration: Configuration = Configuration(),
        eventLoop: any EventLoop
    ) -> EventLoopFuture<VarlinkServer> {
        let box = NIOLoopBoundBox(service, eventLoop: eventLoop)
        return start(box: box, endpoint: endpoint, configuration: configuration, eventLoop: eventLoop)
    }

    private static func start(
        box: NIOLoopBoundBox<VarlinkService>, endpoint: Endpoint, configuration: Configuration, eventLoop: any EventLoop
    ) -> EventLoopFuture<VarlinkServer> {
        let bootstrap = ServerBootstrap(group: eventLoop)
            .serverChannelOption(ChannelOptions.backlog, value: configuration.backlog)
            .serverChannelOption(ChannelOptions.maxMessagesPerRead, value: max(configuration.acceptsPerLoopTurn, 1))
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        AcceptPauseHandler(backoff: configuration.acceptBackoff, logger: configuration.logger))
                }
            }
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let service = box.value
                    service.connectionSetUp(eventLoop: channel.eventLoop)
                    if let cap = configuration.maxConnections, service.openChannels >= cap {
                        service.refusedOverCap += 1
                        if service.refusedOverCap == 1 || service.refusedOverCap.isMultiple(of: 1000) {
                            configuration.logger.warning(
                                "refusing connections: \(cap) open, the limit",
                                metadata: ["refused": "\(service.refusedOverCap)"])
                        }
                        channel.close(promise: nil)
                        return
                    }
                    service.openChannels += 1
                    channel.closeFuture.assumeIsolated().whenComplete { _ in service.openChannels -= 1 }
                    let connection = VarlinkConnection(
                        id: VarlinkConnection.nextID(), service: box.value, configuration: configuration, eventLoop: channel.eventLoop)
                    try channel.pipeline.syncOperations.addHandler(VarlinkChannelHandler(connection: connection))
                }
            }
        switch endpoint {
        case .listeningDescriptor(let fd):
            guard Posix.isListeningStreamSocket(fd) else {
                return eventLoop.makeFailedFuture(StartError.notAListeningSocket(fd))
            }
            return bootstrap.withBoundSocket(fd).map { channel in
                configuration.logger.info("listening on an inherited socket", metadata: ["fd": "\(fd)"])
                return VarlinkServer(eventLoop: eventLoop, socketPath: nil, serverChannel: channel, service: box)
            }
        case .path(let path, let options):
            do {
                if let directoryMode = options.directoryMode, let slash = path.lastIndex(of: "/"), slash != path.startIndex {
                    try Posix.makeDirectory(String(path[..<slash]), mode: directoryMode)
                }
                if Posix.isSocket(path) {
                    if Posix.isListening(path: path) { throw StartError.addressInUse(path) }
                    try Posix.removeFile(path)
                }
            } catch let error as PosixError {
                return eventLoop.makeFailedFuture(StartError.system(error))
            } catch {
                return eventLoop.makeFailedFuture(error)
            }
            return bootstrap.bind(unixDomainSocketPath: path).flatMap { channel in
                do throws(PosixError) {
                    if let group = options.group { try Posix.setGroup(path, group) }
                    try Posix.setMode(path, options.socketMode)
                } catch {
                    try? Posix.removeFile(path)
                    return channel.close().flatMapThrowing { throw StartError.system(error) }
                }
                configuration.logger.info("listening", metadata: ["path": "\(path)"])
                return eventLoop.makeSucceededFuture(
                    VarlinkServer(eventLoop: eventLoop, socketPath: path, serverChannel: channel, service: box))
            }
        }
    }

    /// Runs `body` with the service on the event loop (to change hooks, inspect connections…).
    public func withService<T: Sendable>(_ body: @escaping @Sendable (VarlinkService) throws -> T) async throws -> T {
        try await eventLoop.submit { try body(self.service.value) }.get()
    }

    /// Stops accepting, closes every connection and removes the socket file. Idempotent.
    public func shutdown() async {
        try? await close().get()
    }

    /// ``shutdown()`` for callers without Swift concurrency: the future completes once every
    /// connection is closed and the socket file is removed.
    public func close() -> EventLoopFuture<Void> {
        let socketPath = self.socketPath
        let serverChannel = self.serverChannel
        return eventLoop.submit { [service] in service.value.isShuttingDown = true }
            .flatMap { serverChannel.close() }
            .flatMapError { _ in self.eventLoop.makeSucceededVoidFuture() }
            .flatMap { [service] () -> EventLoopFuture<Void> in
                let channels = service.value.connections.map { $0.closeFuture() }
                for connection in service.value.connections { connection.close() }
                return EventLoopFuture.andAllComplete(channels, on: self.eventLoop)
            }
            .map { if let socketPath { try? Posix.removeFile(socketPath) } }
    }
}

/// Pauses accepting for a while when `accept` fails for want of resources.
///
/// NIO's listening channel retries a failed `accept` on the next loop turn, and the socket stays
/// readable while clients wait in the backlog, so running out of descriptors made the daemon
/// spin at 100% CPU until clients left. (NIO's own `AcceptBackoffHandler` cannot help: after a
/// failed accept the channel still counts a read as pending and stays registered.) Turning
/// `autoRead` off unregisters the socket from epoll; it is turned on again after the back-off,
/// and waiting clients are accepted once descriptors are free.
final class AcceptPauseHandler: ChannelInboundHandler {
    typealias InboundIn = any Channel

    let backoff: TimeAmount
    let logger: Logger
    private var paused = false
    private var pauses = 0

    init(backoff: TimeAmount, logger: Logger) {
        self.backoff = backoff
        self.logger = logger
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? IOError, [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.errnoCode) else {
            context.fireErrorCaught(error)
            return
        }
        guard !paused, let options = context.channel.syncOptions else { return }
        paused = true
        pauses += 1
        if pauses == 1 || pauses.isMultiple(of: 100) {
            logger.warning(
                "cannot accept connections: \(error); pausing accept for \(backoff)", metadata: ["pauses": "\(pauses)"])
        }
        try? options.setOption(ChannelOptions.autoRead, value: false)
        context.eventLoop.assumeIsolated().scheduleTask(in: backoff) {
            self.paused = false
            try? options.setOption(ChannelOptions.autoRead, value: true)
        }
    }
}
