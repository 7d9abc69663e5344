import FocusConfig
import Foundation
import Logging
import NIOCore
import NIOPosix
import Varlink

@testable import FocusService

/// focusd's service without its process or socket: the daemon's own `DaemonCore`, worker thread,
/// reload and Varlink service (``DaemonService/makeVarlinkService(core:)``, the one `focusd`
/// serves) on an event loop of the test, reached through Varlink's in-process connection. For
/// service behaviour (dispatch, method contract, access rules given a credential, scenes,
/// monitors, reloads): a call is dispatched, ordered, authorized and answered as over the
/// socket, and closing a connection runs its hooks before `close()` returns, so nothing waits.
/// The transport's own tests (framing, backpressure, caps on connections, SO_PEERCRED) keep
/// real sockets (docs/connection-core.md, "Where each suite runs").
final class InProcessFocusd: @unchecked Sendable {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    /// The daemon's worker thread (Lint, large scenes, reading the config on reload).
    let worker = NIOThreadPool(numberOfThreads: 1)
    let loop: any EventLoop
    /// Holds the config file (`focusd.toml`) that `io.focusd.Input.ReloadConfig` reads again.
    let directory: String
    var configPath: String { directory + "/focusd.toml" }
    /// Everything the daemon logged, at debug level and above.
    let log = CapturedLog()
    private let core: NIOLoopBound<DaemonCore>
    private let service: NIOLoopBound<VarlinkService>
    private let daemon: DaemonService

    /// - Parameters:
    ///   - config: the config file's text (as `focusd --config`).
    ///   - demo: install the demo scene (as `focusd --demo`).
    ///   - socketGID: the socket's group, whose members get full access (a root `focusd`
    ///     without a `focusd` group has group 0: what `FocusdProcess` runs as).
    init(config: String = "", demo: Bool = false, socketGID: UInt32? = nil) throws {
        directory = try FocusdProcess.makeTemporaryDirectory()
        try config.write(toFile: directory + "/focusd.toml", atomically: true, encoding: .utf8)
        var options = DaemonOptions()
        options.configPath = directory + "/focusd.toml"
        options.devices = false
        options.demo = demo
        let configuration = try Daemon.loadConfiguration(options.configPath)
        let loop = group.next()
        self.loop = loop
        let log = self.log
        var logger = Logger(label: "focusd-in-process") { _ in log }
        logger.logLevel = .debug
        daemon = DaemonService(options: options, configuration: configuration, logger: logger)
        worker.start()
        let worker = self.worker
        let core = try loop.submit {
            NIOLoopBound(
                DaemonCore(eventLoop: loop, configuration: configuration, socketGID: socketGID, logger: logger, worker: worker),
                eventLoop: loop)
        }.wait()
        self.core = core
        let daemon = self.daemon
        service = try loop.submit {
            if demo { try core.value.installDemoScene() }
            daemon.serveReloads(core: core, inputLoop: nil, worker: worker, loop: loop)
            return NIOLoopBound(DaemonService.makeVarlinkService(core: core), eventLoop: loop)
        }.wait()
    }

    deinit {
        try? group.syncShutdownGracefully()
        try? worker.syncShutdownGracefully()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// This process's credentials: root, as the tests run (full access, as root always has).
    static let me = PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid())

    /// A new connection, as a client with `peer`'s credentials (this process's by default): the
    /// access rules judge it exactly as a socket peer whose SO_PEERCRED reads `peer`.
    func connect(peer: PeerCredentials = InProcessFocusd.me) throws -> LocalClient {
        let client = LocalClient(daemon: self)
        guard let local = try service.makeLocalConnection(peer: peer, eventLoop: loop, onReply: client.replies.put) else {
            throw TestFailure("the service refused the connection")
        }
        client.attach(local, loop: loop)
        return client
    }

    /// Whether the service still answers a new connection (a call it broke on would have taken
    /// the test process with it; this shows it did not wedge either).
    var isServing: Bool {
        guard let client = try? connect() else { return false }
        defer { client.close() }
        return (try? client.call("org.varlink.service.GetInfo"))?["interfaces"] != nil
    }

    /// The first reply to each of `calls` (a stream's first reply), made one after another on
    /// one connection as `peer`: what a socket client would read.
    func replies(as peer: PeerCredentials, _ calls: [VarlinkCall]) throws -> [VarlinkReply] {
        let client = try connect(peer: peer)
        defer { client.close() }
        return try calls.map { call in
            try client.send(call)
            return try client.receive(timeout: nil)
        }
    }
}

/// A log handler that keeps every line, for the in-process daemon's log.
final class CapturedLog: LogHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var logLevel: Logger.Level = .debug
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lock.lock()
        lines.append("\(event.level): \(event.message)")
        lock.unlock()
    }

    /// Everything logged so far, one line each.
    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return lines.joined(separator: "\n")
    }

    func contains(_ text: String) -> Bool { self.text.contains(text) }
}

/// One in-process connection, with ``TestClient``'s calls (``ServiceClient``): each blocks until
/// its reply comes (the reply is the event; 10 s only bounds a service that never answers).
final class LocalClient: ServiceClient, @unchecked Sendable {
    /// Kept alive while a client uses its loop.
    private let daemon: InProcessFocusd
    /// Where the loop delivers replies: the loop holds this, never the client, so the client
    /// (and its daemon) always go on the test's thread.
    fileprivate let replies = ReplyBox()
    private var connection: NIOLoopBound<VarlinkLocalConnection>?
    private var loop: (any EventLoop)?

    fileprivate init(daemon: InProcessFocusd) { self.daemon = daemon }

    /// Closed when the test lets go of it, as a socket client's descriptor is.
    deinit { close() }

    fileprivate func attach(_ local: NIOLoopBound<VarlinkLocalConnection>, loop: any EventLoop) {
        connection = local
        self.loop = loop
    }

    func send(_ call: VarlinkCall) throws {
        guard let connection, let loop else { throw TestFailure("not connected") }
        try loop.submit { connection.value.receive(call) }.wait()
    }

    func receive(timeout: Duration?) throws -> VarlinkReply {
        let wait = timeout ?? .seconds(10)
        guard let reply = replies.take(timeout: wait) else { throw TestFailure("no reply within \(wait)") }
        return reply
    }

    /// The next reply's parameters (nil when none came within `timeout`); an error reply throws.
    func next(timeout: Duration) throws -> JSONValue? {
        guard let reply = replies.take(timeout: timeout) else { return nil }
        if let error = reply.error { throw VarlinkError(error, parameters: reply.parameters) }
        return reply.parameters
    }

    /// Closes the connection; its close hooks (its scenes dropped, its monitors gone) have run
    /// when this returns.
    func close() {
        guard let connection, let loop else { return }
        self.connection = nil
        try? loop.submit { connection.value.close() }.wait()
    }
}

/// Replies the loop delivers, taken in order by the test's thread.
final class ReplyBox: @unchecked Sendable {
    private let condition = NSCondition()
    private var replies: [VarlinkReply] = []

    func put(_ reply: VarlinkReply) {
        condition.lock()
        replies.append(reply)
        condition.broadcast()
        condition.unlock()
    }

    /// The next reply, or nil when none came within `timeout`.
    func take(timeout: Duration) -> VarlinkReply? {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while replies.isEmpty {
            guard condition.wait(until: deadline) else { break }
        }
        return replies.isEmpty ? nil : replies.removeFirst()
    }
}
