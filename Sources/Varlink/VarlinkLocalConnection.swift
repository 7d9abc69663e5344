import NIOCore

extension VarlinkService {
    /// A connection without a socket, for testing handlers: calls go in with
    /// ``VarlinkLocalConnection/receive(_:)``, replies come out through `onReply`, in order, with
    /// the same dispatch, ordering, hooks and errors as over a socket. Returns `nil` when
    /// ``acceptConnection`` refuses it. Use on `eventLoop` only (an `EmbeddedEventLoop` works).
    public func makeLocalConnection(
        peer: PeerCredentials, eventLoop: any EventLoop,
        configuration: VarlinkServer.Configuration = VarlinkServer.Configuration(),
        onReply: @escaping (VarlinkReply) -> Void
    ) -> VarlinkLocalConnection? {
        eventLoop.preconditionInEventLoop()
        let connection = VarlinkConnection(
            id: VarlinkConnection.nextID(), service: self, configuration: configuration, eventLoop: eventLoop,
            replySink: onReply)
        guard connection.startLocal(peer: peer) else { return nil }
        return VarlinkLocalConnection(connection: connection)
    }
}

/// A socket-less connection to a ``VarlinkService`` (see ``VarlinkService/makeLocalConnection(peer:eventLoop:configuration:onReply:)``).
public struct VarlinkLocalConnection {
    /// The connection handlers see.
    public let connection: VarlinkConnection

    /// Delivers one call, as if it had arrived on a socket.
    public func receive(_ call: VarlinkCall) {
        connection.receiveLocal(call)
    }

    /// Closes the connection: streams end, close callbacks run.
    public func close() {
        connection.close()
    }
}

extension NIOLoopBound where Value == VarlinkService {
    /// ``VarlinkService/makeLocalConnection(peer:eventLoop:configuration:onReply:)`` from another
    /// thread: made on `eventLoop` (the service's; waits for it, so never call this on it), and
    /// bound to it. `nil` when ``VarlinkService/acceptConnection`` refuses the connection.
    public func makeLocalConnection(
        peer: PeerCredentials, eventLoop: any EventLoop,
        configuration: VarlinkServer.Configuration = VarlinkServer.Configuration(),
        onReply: @escaping @Sendable (VarlinkReply) -> Void
    ) throws -> NIOLoopBound<VarlinkLocalConnection>? {
        try eventLoop.submit { () -> NIOLoopBound<VarlinkLocalConnection>? in
            value.makeLocalConnection(peer: peer, eventLoop: eventLoop, configuration: configuration, onReply: onReply)
                .map { NIOLoopBound<VarlinkLocalConnection>($0, eventLoop: eventLoop) }
        }.wait()
    }
}
