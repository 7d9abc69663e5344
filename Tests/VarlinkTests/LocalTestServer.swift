import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Varlink

/// The test service on an event loop of its own, reached through the in-process connection
/// (``VarlinkService/makeLocalConnection(peer:eventLoop:configuration:onReply:)``): the same
/// connection core as a socket's (order, turns, dispatch, hooks, errors), without the socket.
/// For what the service and the connection decide; framing, caps on connections, credentials
/// read from a socket and slow readers keep ``TestServer``.
final class LocalTestServer: @unchecked Sendable {
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let loop: any EventLoop
    private let service: NIOLoopBound<VarlinkService>

    /// The peer the tests' clients are by default: this process, as SO_PEERCRED would read it.
    static let me = PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid())

    /// A refused connection (the service's `acceptConnection` said no).
    struct Refused: Error {}

    /// - Parameter make: builds the service, on the loop (the test service by default).
    init(make: @escaping @Sendable () -> VarlinkService = { makeTestService() }) throws {
        let loop = group.next()
        self.loop = loop
        service = try loop.submit { NIOLoopBound(make(), eventLoop: loop) }.wait()
    }

    deinit { try? group.syncShutdownGracefully() }

    /// A new connection as `peer`; throws ``Refused`` when the service refuses it.
    func client(peer: PeerCredentials = LocalTestServer.me) throws -> LocalTestClient {
        let client = LocalTestClient(server: self)
        guard let local = try service.makeLocalConnection(peer: peer, eventLoop: loop, onReply: client.replies.put) else {
            throw Refused()
        }
        client.connection = local
        return client
    }
}

/// One in-process connection with ``VarlinkClient``'s calls: each reply is waited for on a
/// condition (it is the event; the timeout only bounds a service that never answers).
final class LocalTestClient: @unchecked Sendable {
    /// Kept alive while a client uses its loop.
    private let server: LocalTestServer
    private var loop: any EventLoop { server.loop }
    fileprivate var connection: NIOLoopBound<VarlinkLocalConnection>?
    /// Where the loop delivers replies: the loop holds this, never the client, so the client
    /// (and its server) always go on the test's thread.
    fileprivate let replies = LocalReplyBox()

    fileprivate init(server: LocalTestServer) { self.server = server }

    deinit { close() }

    /// Delivers one call, as a socket's bytes would.
    func send(_ call: VarlinkCall) throws {
        guard let connection else { throw VarlinkClientError.connectionClosed }
        try loop.submit { connection.value.receive(call) }.wait()
    }

    /// The next reply (10 s bounds a service that never answers).
    func receive(timeout: Duration = .seconds(10)) throws -> VarlinkReply {
        guard let reply = replies.take(timeout: timeout) else { throw VarlinkClientError.timedOut }
        return reply
    }

    @discardableResult
    func call(_ method: String, _ parameters: JSONValue = [:]) throws -> JSONValue {
        try send(VarlinkCall(method: method, parameters: parameters))
        let reply = try receive()
        if let error = reply.error { throw VarlinkError(error, parameters: reply.parameters) }
        return reply.parameters
    }

    func callOneway(_ method: String, _ parameters: JSONValue = [:]) throws {
        try send(VarlinkCall(method: method, parameters: parameters, oneway: true))
    }

    /// Sends a `more` call; its replies' parameters come from `next()`, nil after the final one.
    func callMore(_ method: String, _ parameters: JSONValue = [:]) throws -> LocalReplies {
        try send(VarlinkCall(method: method, parameters: parameters, more: true))
        return LocalReplies(client: self)
    }

    /// Closes the connection; its close hooks have run when this returns.
    func close() {
        guard let connection else { return }
        self.connection = nil
        try? loop.submit { connection.value.close() }.wait()
    }
}

/// Replies the loop delivers, taken in order by the test's thread.
final class LocalReplyBox: @unchecked Sendable {
    private let queue = Mutex<[VarlinkReply]>([])
    private let arrived = DispatchSemaphore(value: 0)

    func put(_ reply: VarlinkReply) {
        queue.withLock { $0.append(reply) }
        arrived.signal()
    }

    /// The next reply, or nil when none came within `timeout`.
    func take(timeout: Duration) -> VarlinkReply? {
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        guard arrived.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success else { return nil }
        return queue.withLock { $0.removeFirst() }
    }
}

/// The replies to a `more` call on a ``LocalTestClient``.
final class LocalReplies {
    private let client: LocalTestClient
    private var finished = false

    fileprivate init(client: LocalTestClient) { self.client = client }

    func next() throws -> JSONValue? {
        guard !finished else { return nil }
        let reply = try client.receive()
        if !reply.continues { finished = true }
        if let error = reply.error { throw VarlinkError(error, parameters: reply.parameters) }
        return reply.parameters
    }
}
