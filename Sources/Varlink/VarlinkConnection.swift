import Logging
import NIOCore
import Synchronization

private let connectionCounter = Atomic<UInt64>(0)

/// One client connection: its peer credentials, its state, and close notification.
///
/// Lives on the server's event loop; use it only there. Calls on a connection are answered
/// strictly in order: a call is dispatched only when the previous one has been answered (a
/// stream: finished), so a `more` call holds back later calls on the same connection.
public final class VarlinkConnection {
    /// A number unique among this process's connections.
    public let id: UInt64
    /// The client's credentials (``PeerCredentials/unknown`` until read, i.e. only before acceptance).
    public internal(set) var peer = PeerCredentials.unknown
    /// The event loop the connection, its handlers and callbacks run on.
    public let eventLoop: any EventLoop
    /// Whether the connection is open.
    public private(set) var isOpen = true
    /// Bytes queued for the client and not yet written to the socket.
    public private(set) var queuedBytes = 0
    /// What carries the messages (a WebSocket connection has no peer credentials to read).
    public internal(set) var transport = VarlinkTransport.unixSocket

    let service: VarlinkService
    let configuration: VarlinkServer.Configuration
    var logger: Logger
    private var channelContext: ChannelHandlerContext?
    private var framer: MessageFramer
    private var accepted = false
    private var pendingCalls = CircularBuffer<(call: VarlinkCall, size: Int)>()
    private var started = false
    private var pendingCallBytes = 0
    private var current: VarlinkCallContext?
    private var dispatching = false
    private var inputClosed = false
    private var readHeld = false
    private var inChannelRead = false
    private var needsFlush = false
    private var behindStreams: [ObjectIdentifier: VarlinkStream] = [:]
    private var closeCallbacks: [() -> Void] = []
    private var stallCheck: Scheduled<Void>?
    private var lastWriteProgress = NIODeadline.now()
    private var lastBufferedBytes = 0

    /// Reads are held while this many bytes of calls wait behind the current one.
    private static let pendingCallByteLimit = 1 << 20
    private static let pendingCallCountLimit = 128

    /// A fresh process-wide connection number.
    static func nextID() -> UInt64 {
        connectionCounter.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// Replaces the socket for connections made by ``VarlinkService/makeLocalConnection(peer:eventLoop:onReply:)``.
    private let replySink: ((VarlinkReply) -> Void)?

    init(
        id: UInt64, service: VarlinkService, configuration: VarlinkServer.Configuration, eventLoop: any EventLoop,
        replySink: ((VarlinkReply) -> Void)? = nil
    ) {
        self.id = id
        self.replySink = replySink
        self.service = service
        self.configuration = configuration
        self.eventLoop = eventLoop
        self.framer = MessageFramer(maxMessageSize: configuration.maxMessageSize)
        var logger = configuration.logger
        logger[metadataKey: "varlink.connection"] = "\(id)"
        self.logger = logger
    }

    /// Registers `callback` to run once when the connection closes (at once if already closed).
    public func onClose(_ callback: @escaping () -> Void) {
        eventLoop.preconditionInEventLoop()
        if isOpen { closeCallbacks.append(callback) } else { callback() }
    }

    /// Closes the connection; queued replies are dropped.
    public func close() {
        eventLoop.preconditionInEventLoop()
        if let channelContext {
            channelContext.close(promise: nil)
        } else if replySink != nil {
            channelInactive()
        }
    }

    func closeFuture() -> EventLoopFuture<Void> {
        channelContext?.channel.closeFuture ?? eventLoop.makeSucceededVoidFuture()
    }

    /// Whether more than ``VarlinkServer/Configuration/outgoingQueueLimit`` bytes are queued.
    public var isOverQueueLimit: Bool { queuedBytes > configuration.outgoingQueueLimit }

    // MARK: Channel events (from VarlinkChannelHandler)

    func channelActive(context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        channelContext = context
        let credentials =
            transport == .unixSocket
            ? PeerCredentials.read(from: context.channel) : context.eventLoop.makeSucceededFuture(PeerCredentials.unknown)
        credentials.assumeIsolated().whenComplete { result in
            guard self.isOpen else { return }
            switch result {
            case .success(let credentials):
                self.peer = credentials
            case .failure(let error):
                self.logger.warning("cannot read peer credentials; treating peer as unknown", metadata: ["error": "\(error)"])
            }
            self.logger[metadataKey: "varlink.peer"] = "\(self.peer.uid)/\(self.peer.pid)"
            guard self.service.connectionAccepted(self) else {
                self.logger.notice("connection refused by the service", metadata: ["peer": "\(self.peer)"])
                self.close()
                return
            }
            self.accepted = true
            self.logger.debug("connection accepted", metadata: ["peer": "\(self.peer)"])
            self.processInput()
        }
    }

    func channelRead(_ bytes: ByteBuffer) {
        inChannelRead = true
        framer.append(bytes)
        processInput()
    }

    func channelReadComplete() {
        inChannelRead = false
        if needsFlush {
            needsFlush = false
            channelContext?.flush()
        }
    }

    func inputDidClose() {
        inputClosed = true
        if framer.pendingBytes > 0 {
            protocolViolation(.truncatedMessage)
            return
        }
        closeIfFinished()
    }

    func channelInactive() {
        guard isOpen else { return }
        isOpen = false
        stallCheck?.cancel()
        stallCheck = nil
        let call = current
        current = nil
        pendingCalls.removeAll()
        call?.connectionClosed()
        behindStreams.removeAll()
        let callbacks = closeCallbacks
        closeCallbacks.removeAll()
        for callback in callbacks { callback() }
        if accepted { service.connectionDidClose(self) }
        logger.debug("connection closed")
        channelContext = nil
    }

    /// Whether to pass a read request on to the socket (false holds reads as backpressure).
    /// Reads are also held while the client has more replies unread than the queue bound: a
    /// client that pipelines calls and never reads must not grow the daemon (the stall timer
    /// then cuts it off).
    func shouldRead() -> Bool {
        if pendingCallBytes >= Self.pendingCallByteLimit || pendingCalls.count >= Self.pendingCallCountLimit || !accepted
            || isOverQueueLimit
        {
            readHeld = true
            return false
        }
        return true
    }

    // MARK: Input

    /// Starts a socket-less connection: no credentials to read, the given peer.
    func startLocal(peer: PeerCredentials) -> Bool {
        self.peer = peer
        started = true
        guard service.connectionAccepted(self) else {
            isOpen = false
            return false
        }
        accepted = true
        return true
    }

    /// Queues a call on a socket-less connection and dispatches what can be.
    func receiveLocal(_ call: VarlinkCall) {
        guard isOpen, accepted else { return }
        pendingCalls.append((call, 0))
        dispatchPending()
    }

    private func processInput() {
        guard accepted, isOpen else { return }
        do {
            while isOpen, let message = try framer.next() {
                let call = try VarlinkCall(message: message.readableBytesView, depthLimit: configuration.maxDepth)
                pendingCalls.append((call, message.readableBytes))
                pendingCallBytes += message.readableBytes
            }
        } catch {
            protocolViolation(error)
            return
        }
        dispatchPending()
    }

    private func protocolViolation(_ error: VarlinkProtocolError) {
        logger.notice("closing connection: protocol violation", metadata: ["reason": "\(error)"])
        close()
    }

    private func dispatchPending() {
        guard !dispatching else { return }
        dispatching = true
        while isOpen, current == nil, !isOverQueueLimit, let (call, size) = pendingCalls.popFirst() {
            pendingCallBytes -= size
            let context = VarlinkCallContext(call: call, connection: self)
            current = context
            service.dispatch(context)
        }
        dispatching = false
        if readHeld, isOpen, shouldRead() {
            readHeld = false
            channelContext?.read()
        }
        closeIfFinished()
    }

    func callCompleted(_ context: VarlinkCallContext) {
        guard current === context else { return }
        current = nil
        dispatchPending()
    }

    /// After the client shut its sending side: close once every call is answered and written.
    private func closeIfFinished() {
        if inputClosed, isOpen, current == nil, pendingCalls.isEmpty, queuedBytes == 0 {
            close()
        }
    }

    // MARK: Output

    func send(_ reply: VarlinkReply) {
        if let replySink {
            if isOpen { replySink(reply) }
            return
        }
        sendMessage(reply.serialized())
    }

    /// Queues one message (without its NUL) for the client.
    func sendMessage(_ message: [UInt8]) {
        if let replySink {
            if isOpen, let reply = try? VarlinkReply(message: message) { replySink(reply) }
            return
        }
        guard isOpen, let context = channelContext else { return }
        var bytes = message
        bytes.append(0)
        let size = bytes.count
        var buffer = context.channel.allocator.buffer(capacity: size)
        buffer.writeBytes(bytes)
        queuedBytes += size
        let promise = context.eventLoop.makePromise(of: Void.self)
        promise.futureResult.assumeIsolated().whenComplete { result in
            self.writeCompleted(size: size, succeeded: (try? result.get()) != nil)
        }
        context.write(NIOAny(buffer), promise: promise)
        if inChannelRead {
            needsFlush = true
        } else {
            context.flush()
        }
        if isOverQueueLimit && stallCheck == nil {
            lastWriteProgress = .now()
            lastBufferedBytes = queuedBytes
            scheduleStallCheck()
        }
    }

    private func writeCompleted(size: Int, succeeded: Bool) {
        queuedBytes -= size
        if succeeded { lastWriteProgress = .now() }
        guard isOpen else { return }
        if !behindStreams.isEmpty && queuedBytes <= configuration.outgoingQueueLimit / 2 {
            let streams = behindStreams.values
            behindStreams.removeAll()
            for stream in streams { stream.caughtUp() }
        }
        if !isOverQueueLimit && (readHeld || (current == nil && !pendingCalls.isEmpty)) {
            dispatchPending()  // also releases held reads
            return
        }
        closeIfFinished()
    }

    func streamFellBehind(_ stream: VarlinkStream) {
        behindStreams[ObjectIdentifier(stream)] = stream
    }

    func streamEnded(_ stream: VarlinkStream) {
        behindStreams.removeValue(forKey: ObjectIdentifier(stream))
    }

    private func scheduleStallCheck() {
        let interval = TimeAmount.nanoseconds(max(configuration.stallTimeout.nanoseconds / 5, 10_000_000))
        stallCheck = eventLoop.assumeIsolated().scheduleTask(in: interval) {
            self.stallCheck = nil
            self.checkStall()
        }
    }

    /// Closes the connection when it has been over the queue bound without write progress for
    /// the stall timeout.
    private func checkStall() {
        guard isOpen, isOverQueueLimit else { return }
        let buffered = (try? channelContext?.channel.syncOptions?.getOption(ChannelOptions.bufferedWritableBytes)) ?? queuedBytes
        if buffered < lastBufferedBytes { lastWriteProgress = .now() }
        lastBufferedBytes = buffered
        if NIODeadline.now() - lastWriteProgress >= configuration.stallTimeout {
            logger.notice(
                "closing connection: client stopped reading",
                metadata: ["queuedBytes": "\(queuedBytes)", "timeout": "\(configuration.stallTimeout)"])
            close()
            return
        }
        scheduleStallCheck()
    }
}

/// The NIO handler feeding a ``VarlinkConnection``.
final class VarlinkChannelHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let connection: VarlinkConnection

    init(connection: VarlinkConnection) {
        self.connection = connection
    }

    func channelActive(context: ChannelHandlerContext) {
        connection.channelActive(context: context)
        context.fireChannelActive()
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { connection.channelActive(context: context) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        connection.channelRead(unwrapInboundIn(data))
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        connection.channelReadComplete()
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection.channelInactive()
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            connection.inputDidClose()
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        connection.logger.debug("connection error", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }

    func read(context: ChannelHandlerContext) {
        if connection.shouldRead() { context.read() }
    }
}
