import FocusConfig
import Foundation
import Logging
import NIOCore
import NIOPosix
import Varlink

@testable import FocusService

/// focusd's service without its process or socket: the daemon's own `DaemonCore` and Varlink
/// service (``DaemonService/makeVarlinkService(core:)``, the one `focusd` serves) on an event
/// loop of the test, reached through Varlink's in-process connection. For service behaviour
/// (dispatch, access, scenes, monitors): a call is dispatched, ordered and answered as over the
/// socket, and closing a connection runs its hooks before `close()` returns, so nothing waits.
/// The transport's own tests (framing, backpressure, caps on connections) keep real sockets.
final class InProcessFocusd: @unchecked Sendable {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let loop: any EventLoop
    private let core: NIOLoopBound<DaemonCore>
    private let service: NIOLoopBound<VarlinkService>

    init(config: String = "") throws {
        var configuration = try Configuration.parse(config)
        GamepadDatabases.load(into: &configuration)
        let loop = group.next()
        self.loop = loop
        let logger = Logger(label: "focusd-in-process")
        let core = try loop.submit {
            NIOLoopBound(DaemonCore(eventLoop: loop, configuration: configuration, socketGID: nil, logger: logger), eventLoop: loop)
        }.wait()
        self.core = core
        service = try loop.submit { NIOLoopBound(DaemonService.makeVarlinkService(core: core), eventLoop: loop) }.wait()
    }

    deinit { try? group.syncShutdownGracefully() }

    /// A new connection, as a client with `peer`'s credentials (this process's uid by default).
    func connect(peer: PeerCredentials = PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid())) throws -> LocalClient {
        let client = LocalClient()
        let service = self.service
        let loop = self.loop
        let local = try loop.submit { () -> NIOLoopBound<VarlinkLocalConnection>? in
            service.value.makeLocalConnection(peer: peer, eventLoop: loop) { client.received($0) }
                .map { NIOLoopBound($0, eventLoop: loop) }
        }.wait()
        guard let local else { throw TestFailure("the service refused the connection") }
        client.attach(local, loop: loop)
        return client
    }
}

/// One in-process connection, with ``TestClient``'s calls (``ServiceClient``): each blocks until
/// its reply comes (the reply is the event; 10 s only bounds a service that never answers).
final class LocalClient: ServiceClient, @unchecked Sendable {
    private let condition = NSCondition()
    private var replies: [VarlinkReply] = []
    private var connection: NIOLoopBound<VarlinkLocalConnection>?
    private var loop: (any EventLoop)?

    fileprivate func attach(_ local: NIOLoopBound<VarlinkLocalConnection>, loop: any EventLoop) {
        connection = local
        self.loop = loop
    }

    fileprivate func received(_ reply: VarlinkReply) {
        condition.lock()
        replies.append(reply)
        condition.broadcast()
        condition.unlock()
    }

    func send(_ call: VarlinkCall) throws {
        guard let connection, let loop else { throw TestFailure("not connected") }
        try loop.submit { connection.value.receive(call) }.wait()
    }

    func receive(timeout: Duration?) throws -> VarlinkReply {
        let wait = timeout ?? .seconds(10)
        guard let reply = waitForReply(timeout: wait) else { throw TestFailure("no reply within \(wait)") }
        return reply
    }

    /// The next reply's parameters (nil when none came within `timeout`); an error reply throws.
    func next(timeout: Duration) throws -> JSONValue? {
        guard let reply = waitForReply(timeout: timeout) else { return nil }
        if let error = reply.error { throw VarlinkError(error, parameters: reply.parameters) }
        return reply.parameters
    }

    /// Closes the connection; its close hooks (its scenes dropped, its monitors gone) have run
    /// when this returns.
    func close() {
        guard let connection, let loop else { return }
        try? loop.submit { connection.value.close() }.wait()
    }

    private func waitForReply(timeout: Duration) -> VarlinkReply? {
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
