import Logging
import NIOCore
import NIOPosix
import Synchronization
import SystemCalls

private let connectionCounter = Atomic<UInt64>(0)

/// One client connection: the thin handler that carries out what its ``ConnectionCore`` decides
/// over a NIO channel (the Unix socket, the WebSocket) or, for the in-process local connection,
/// a reply sink; plus its peer credentials and close notification.
///
/// Lives on the server's event loop; use it only there. Calls on a connection are answered
/// strictly in order: a call is dispatched only when the previous one has been answered (a
/// stream: finished), so a `more` call holds back later calls on the same connection.
///
/// The state that decides lives in `core`, whose methods call nothing outside it: no access to
/// it can span another, so it is `@exclusivity(unchecked)` (each runtime check cost ~85
/// instructions and a `Move` with 8 monitors made ~190 of them, issue 13). The handler's own
/// flags below are only read or assigned whole.
public final class VarlinkConnection {
    /// A number unique among this process's connections.
    public let id: UInt64
    /// The client's credentials (``PeerCredentials/unknown`` until read, i.e. only before acceptance).
    public internal(set) var peer = PeerCredentials.unknown
    /// The event loop the connection, its handlers and callbacks run on.
    public let eventLoop: any EventLoop
    /// What carries the messages (a WebSocket connection has no peer credentials to read).
    public let transport: VarlinkTransport
    /// Whether queued messages are gathered into one write (a byte stream), as the core's
    /// limits say; asked here first on every message, where asking the core's queue copied the
    /// whole queue (a `memcpy` and a retain and release of what it holds) to read it.
    private let gathers: Bool

    /// Whether the connection is open.
    public var isOpen: Bool { core.isOpen }
    /// Bytes queued for the client and not yet written to the socket.
    public var queuedBytes: Int { core.queue.queuedBytes }
    /// Whether more than ``VarlinkServer/Configuration/outgoingQueueLimit`` bytes are queued.
    /// (Its two stored counts read here: a stream asks before each coalescible event, and asking
    /// the queue's computed `isOverLimit` copied the whole queue to call it.)
    public var isOverQueueLimit: Bool { core.queue.queuedBytes > core.limits.outgoingQueueLimit }
    /// Writes handed to the channel so far (each becomes one system call when flushed).
    var writes: Int { core.queue.writes }
    /// The queue size past which the connection is cut at once.
    var outgoingQueueHardLimit: Int { core.limits.outgoingQueueHardLimit }

    let service: VarlinkService
    let configuration: VarlinkServer.Configuration
    var logger: Logger
    @exclusivity(unchecked) private var core: ConnectionCore
    @exclusivity(unchecked) private var channelContext: ChannelHandlerContext?
    /// The context's channel, kept for the check before each straight write: asking the context
    /// went through NIO's pipeline (a checked access of its own on every write).
    @exclusivity(unchecked) private var channel: (any Channel)?
    /// ``channel`` again, read without a retain and a release before each straight write (~40
    /// instructions a write); `channel` keeps it alive, and both are set and cleared together.
    @exclusivity(unchecked) private unowned(unsafe) var channelUnretained: (any Channel)?
    /// Whether the channel's write-buffer watermarks make `isWritable` mean "NIO holds nothing".
    @exclusivity(unchecked) private var writableMeansEmpty = false
    @exclusivity(unchecked) private var started = false
    /// The Unix socket's descriptor (``SocketDescriptor``), -1 when unknown or closed: a write
    /// while NIO holds none of the channel's bytes goes straight to it.
    @exclusivity(unchecked) private var descriptor: Int32 = -1
    /// Writes the socket took whole straight from the connection, without NIO (for the tests).
    @exclusivity(unchecked) private(set) var directWrites = 0
    @exclusivity(unchecked) private var current: VarlinkCallContext?
    /// A pass over the input is under way (a call answered from inside its dispatch pumps again).
    @exclusivity(unchecked) private var pumping = false
    @exclusivity(unchecked) private var inChannelRead = false
    /// This connection's partly received bytes as counted in its uid's tally.
    @exclusivity(unchecked) private var countedPartialInput = 0
    /// Unchecked: each access is one dictionary operation that runs no code of ours while open
    /// (keys are identities; a value replaced is the same stream, `removeValue` hands the removed
    /// one back to release after the access, and `removeAll` runs only while a copy holds them).
    /// It is read after every write; checked, that cost each write ~63 instructions.
    @exclusivity(unchecked) private var behindStreams: [ObjectIdentifier: VarlinkStream] = [:]
    private var closeCallbacks: [() -> Void] = []
    private var stallCheck: Scheduled<Void>?
    /// How long the connection steps aside when its turn is over: enough for the loop to poll
    /// for I/O first (not `execute`: NIO runs tasks queued by tasks before it polls again).
    private static let turnPause = TimeAmount.microseconds(50)
    /// A call this large is reported to ``VarlinkService/memoryReleased`` once dispatched.
    private static let largeMessage = 64 << 10

    /// A fresh process-wide connection number.
    static func nextID() -> UInt64 {
        connectionCounter.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// Replaces the socket for connections made by ``VarlinkService/makeLocalConnection(peer:eventLoop:onReply:)``.
    private let replySink: ((VarlinkReply) -> Void)?

    init(
        id: UInt64, service: VarlinkService, configuration: VarlinkServer.Configuration, eventLoop: any EventLoop,
        transport: VarlinkTransport = .unixSocket, replySink: ((VarlinkReply) -> Void)? = nil
    ) {
        self.id = id
        self.replySink = replySink
        self.service = service
        self.configuration = configuration
        self.eventLoop = eventLoop
        self.transport = transport
        self.gathers = transport == .unixSocket
        self.core = ConnectionCore(
            limits: .init(
                maxMessageSize: configuration.maxMessageSize, outgoingQueueLimit: configuration.outgoingQueueLimit,
                outgoingQueueHardLimit: configuration.outgoingQueueHardLimit,
                parseOffLoopThreshold: configuration.parser == nil ? .max : configuration.parseOffLoopThreshold,
                stallTimeout: UInt64(max(configuration.stallTimeout.nanoseconds, 0)), gathers: transport == .unixSocket))
        var logger = configuration.logger
        logger[metadataKey: "varlink.connection"] = "\(id)"
        self.logger = logger
    }

    /// The loop's clock, as the core counts time.
    private static func now() -> ConnectionTime { NIODeadline.now().uptimeNanoseconds }

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

    /// Cuts off a client that stopped reading: like ``close()``, but what the kernel still holds
    /// for it (a TCP socket's send buffer grows to megabytes) is dropped at once with SO_LINGER 0,
    /// so a stuck client pins no memory after it is cut off, and it sees the end at once instead
    /// of after draining that backlog.
    func abort() {
        eventLoop.preconditionInEventLoop()
        guard let provider = channelContext?.channel as? any SocketOptionProvider else { return close() }
        provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in self.close() }
    }

    func closeFuture() -> EventLoopFuture<Void> {
        channelContext?.channel.closeFuture ?? eventLoop.makeSucceededVoidFuture()
    }

    /// What a queued message costs beyond its bytes (see ``OutgoingQueue/perMessageCost``).
    static let perMessageCost = OutgoingQueue.perMessageCost
    /// What an open connection costs the heap beyond its queues (NIO's channel, pipeline and
    /// read buffer, this object; measured: 1,000 idle connections took 4.2 MiB that stayed
    /// after they closed). Reported freed when it closes, so a burst of closes ends in a trim.
    static let perConnectionCost = 4 << 10

    // MARK: Channel events (from VarlinkChannelHandler)

    func channelActive(context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        channelContext = context
        channel = context.channel
        channelUnretained = channel
        if transport == .unixSocket {
            // A channel is writable exactly while NIO holds none of its bytes (every message is
            // at least 2 bytes): what ``writeUntracked`` asks after each flush, an atomic load,
            // where reading `bufferedWritableBytes` cost 1.5k instructions of dynamic casts.
            writableMeansEmpty =
                (try? context.channel.syncOptions?.setOption(ChannelOptions.writeBufferWaterMark, value: .init(low: 1, high: 1))) != nil
            descriptor = SocketDescriptor.find(of: context.channel) ?? -1
        }
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
            self.core.accept()
            self.logger.debug("connection accepted", metadata: ["peer": "\(self.peer)"])
            self.pump()
        }
    }

    func channelRead(_ bytes: ByteBuffer) {
        inChannelRead = true
        core.bytesRead(bytes)
        pump()
    }

    func channelReadComplete() {
        inChannelRead = false
        flushOutgoing()
    }

    func inputDidClose() {
        core.inputDidClose()
        pump()  // complete calls may still wait in the framer; a partial one is a truncation
    }

    func channelInactive() {
        descriptor = -1
        guard isOpen else { return }
        var (held, unrun) = core.closed()
        service.memoryReleased?(held + Self.perConnectionCost)
        if countedPartialInput > 0 {
            service.partialInput[peer.uid, default: 0] -= countedPartialInput
            countedPartialInput = 0
        }
        stallCheck?.cancel()
        stallCheck = nil
        let call = current
        current = nil
        // Large calls parsed and not yet run are freed where they were built, as run ones are.
        while !unrun.isEmpty {
            var pending = unrun.removeFirst()
            guard core.limits.isParsedOffLoop(size: pending.size) else { continue }
            let garbage = Garbage(pending.call.parameters, decoded: pending.decoded)
            pending.call.parameters = [:]
            pending.decoded = nil
            releaseOffLoop(garbage, size: pending.size)
        }
        call?.connectionClosed()
        behindStreams.removeAll()
        let callbacks = closeCallbacks
        closeCallbacks.removeAll()
        for callback in callbacks { callback() }
        if core.accepted { service.connectionDidClose(self) }
        logger.debug("connection closed")
        channelContext = nil
        channelUnretained = nil
        channel = nil
    }

    /// Whether to pass a read request on to the socket (false holds reads as backpressure; see
    /// ``ConnectionCore/shouldRead()``).
    func shouldRead() -> Bool { core.shouldRead() }

    // MARK: Input

    /// Starts a socket-less connection: no credentials to read, the given peer.
    func startLocal(peer: PeerCredentials) -> Bool {
        self.peer = peer
        started = true
        guard service.connectionAccepted(self) else {
            _ = core.closed()
            return false
        }
        core.accept()
        return true
    }

    /// Queues a call on a socket-less connection and dispatches what can be.
    func receiveLocal(_ call: VarlinkCall) {
        guard isOpen, core.accepted else { return }
        core.callReceived(call)
        pump()
    }

    /// Parses and dispatches what the core lets through, in order, then carries out what it
    /// says about reads and the end of input. Reentrant calls (a call answered from inside its
    /// dispatch) return at once: the outer pass goes on.
    private func pump() {
        guard !pumping else { return }
        pumping = true
        var progress = true
        while progress && isOpen {
            progress = false
            let turn = core.turnIsOver(now: Self.now())
            if turn.over {
                if turn.schedule {
                    eventLoop.assumeIsolated().scheduleTask(in: Self.turnPause) {
                        self.core.turnResumed()
                        self.pump()
                    }
                }
                break
            }
            do {
                while let parse = try core.nextMessage() {
                    progress = true
                    switch parse {
                    case .here(let framed):
                        let message = framed.joined()
                        // The service's decoder first for a message of some size (straight from the bytes).
                        if let decoder = configuration.largeCallDecoder, message.readableBytes >= configuration.decodeOnLoopThreshold,
                            let (call, decoded) = message.readableBytesView.withContiguousStorageIfAvailable({
                                VarlinkCall.large($0, depthLimit: configuration.maxDepth, decoder: decoder)
                            }) ?? nil
                        {
                            core.parsed(call, size: message.readableBytes, decoded: decoded)
                            continue
                        }
                        let call = try VarlinkCall(
                            message: message.readableBytesView, depthLimit: configuration.maxDepth, knownMethod: service.lastMethodName)
                        core.parsed(call, size: message.readableBytes)
                    case .offLoop(let framed):
                        parseOffLoop(framed)
                    }
                }
            } catch {
                pumping = false
                protocolViolation(error)
                return
            }
            // Whatever the calls answered here send to any connection (their events to every
            // monitor, their replies) goes out as one write per connection when they are done:
            // a client's pipelined calls are answered in one write, not one each.
            let dispatched = service.batchingWrites { () -> Bool in
                var any = false
                while let size = dispatchNext() {
                    any = true
                    // A large call reports what it freed once freed (``releaseOffLoop(_:size:)``).
                    if size >= Self.largeMessage && !core.limits.isParsedOffLoop(size: size) { service.memoryReleased?(size) }
                    if !core.dispatched(now: Self.now()) { break }
                }
                return any
            }
            if dispatched { progress = true }
        }
        pumping = false
        let settled = core.settle()
        guard isOpen, countPartialInput() else { return }
        if settled.truncated {
            protocolViolation(.truncatedMessage)
            return
        }
        if settled.resumeReading { channelContext?.read() }
        if settled.finished { close() }
    }

    /// Dispatches the next call the core lets through; its message's size, or nil when none
    /// (in a function of its own, so no copy of the call outlives it: a large call's parameters
    /// must have no owner left on the loop once the context lets go of them).
    private func dispatchNext() -> Int? {
        guard let next = core.nextCall() else { return nil }
        let resolved = service.resolve(next.call)
        let context = VarlinkCallContext(call: next.call, method: resolved.member, connection: self, decoded: next.decoded, messageSize: next.size)
        if core.limits.isParsedOffLoop(size: next.size) { context.releasedOffLoop = next.size }
        current = context
        service.dispatch(context, resolved: resolved)
        return next.size
    }

    /// Parses one large message on the parser thread (its chunks joined there); reads and later
    /// messages wait, then input processing resumes on the loop with the call queued in its place.
    private func parseOffLoop(_ message: FramedMessage) {
        guard let background = configuration.parser else { return }
        let size = message.size
        let parser = size <= configuration.promptParseLimit ? configuration.promptParser ?? background : background
        let depthLimit = configuration.maxDepth
        let decoder = configuration.largeCallDecoder
        // The call comes back in a box emptied here: the future keeps its result as long as
        // it lives, and must not keep the last copy of the parameters for the loop to free.
        parser.runIfActive(eventLoop: eventLoop) { () throws -> ParsedCall in
            let joined = message.joined()
            // The service's decoder first (straight from the bytes), else the general way.
            if let decoder,
                let (call, decoded) = joined.readableBytesView.withContiguousStorageIfAvailable({
                    VarlinkCall.large($0, depthLimit: depthLimit, decoder: decoder)
                }) ?? nil
            {
                return ParsedCall(call, decoded: decoded)
            }
            return ParsedCall(try VarlinkCall(message: joined.readableBytesView, depthLimit: depthLimit))
        }.assumeIsolated().whenComplete { result in
            // In a function of its own: when `pump` runs (and may answer the call and hand its
            // parameters to the parser thread to free), no local copy of the call is left here.
            // One left in this closure's scope raced the parser thread for the last reference,
            // and when it lost, the loop freed the 7.5 M-value tree of a 15 MiB message itself
            // (40-70 ms, one run in four).
            guard self.queueParsed(result, size: size) else { return }
            self.pump()
        }
    }

    /// Queues a call parsed off the loop (false: the connection closed or is closing).
    private func queueParsed(_ result: Result<ParsedCall, any Error>, size: Int) -> Bool {
        let parsed = result.map { $0.take() }
        guard isOpen else {
            if case .success(var (call, decoded)) = parsed {
                let garbage = Garbage(call.parameters, decoded: decoded)
                call.parameters = [:]
                decoded = nil
                releaseOffLoop(garbage, size: size)
            }
            return false
        }
        switch parsed {
        case .success(let (call, decoded)):
            core.parsed(call, size: size, decoded: decoded)
            return true
        case .failure(let error as VarlinkProtocolError):
            core.parseFailed()
            protocolViolation(error)
        case .failure(let error):
            core.parseFailed()
            logger.notice("closing connection: cannot parse a message", metadata: ["error": "\(error)"])
            close()
        }
        return false
    }

    /// Updates this uid's tally of partly received bytes; false (and the connection closed)
    /// when this connection took it past ``VarlinkServer/Configuration/maxPartialInputPerUID``.
    private func countPartialInput() -> Bool {
        guard replySink == nil else { return true }
        let now = core.framer.pendingBytes
        let delta = now - countedPartialInput
        guard delta != 0 else { return true }
        countedPartialInput = now
        let total = service.partialInput[peer.uid, default: 0] + delta
        service.partialInput[peer.uid] = total
        let budget = configuration.maxPartialInputPerUID ?? 2 * configuration.maxMessageSize
        if delta > 0 && total > budget {
            logger.notice(
                "closing connection: its uid's partly received messages passed their budget",
                metadata: ["bytes": "\(total)", "budget": "\(budget)"])
            close()
            return false
        }
        return true
    }

    private func protocolViolation(_ error: VarlinkProtocolError) {
        logger.notice("closing connection: protocol violation", metadata: ["reason": "\(error)"])
        close()
    }

    func callCompleted(_ context: VarlinkCallContext) {
        guard current === context else { return }
        current = nil
        core.callCompleted()
        pump()
    }

    /// Frees a large call's parameters on the parser thread, where they were built (`garbage`
    /// holding the last reference): the JSON tree of a 15 MiB message is millions of values,
    /// and freeing it on the loop held every client and device up for tens of milliseconds.
    /// What it freed is reported to ``VarlinkService/memoryReleased`` once it is gone. Called
    /// when the call's context goes (answered or not: its client may have left) and for calls
    /// parsed but never run.
    func releaseOffLoop(_ garbage: Garbage, size: Int) {
        guard let parser = configuration.parser else { return }
        let service = self.service
        let eventLoop = self.eventLoop
        parser.runIfActive(eventLoop: eventLoop) { () -> Bool in
            garbage.value = nil
            garbage.decoded = nil
            return !eventLoop.inEventLoop
        }.assumeIsolated().whenComplete { result in
            if case .success(true) = result { service.callsReleasedOffLoop += 1 }
            service.memoryReleased?(size)
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
        guard admit(size: message.count + 1), let context = channelContext else { return }
        if !gathers && core.queue.mustWriteBeforeGathering { writeOutgoing(flush: false) }
        core.queue.gather(message, allocator: context.channel.allocator)
        queued(size: message.count + 1)
    }

    /// Queues one message that ends with its NUL, shared with other connections (the bytes
    /// are not copied while it is the only message waiting to be written).
    func sendMessage(shared message: ByteBuffer) {
        if let replySink {
            if isOpen, let reply = try? VarlinkReply(message: message.readableBytesView.dropLast()) { replySink(reply) }
            return
        }
        let size = message.readableBytes
        guard admit(size: size) else { return }
        if !gathers && core.queue.mustWriteBeforeGathering { writeOutgoing(flush: false) }  // one message per write
        core.queue.gather(shared: message)
        queued(size: size)
    }

    /// Whether a message of `size` bytes may be queued; cuts the connection off when its queue
    /// would pass the hard cap.
    private func admit(size: Int) -> Bool {
        guard channelContext != nil else { return false }
        switch core.queue.admit(size: size) {
        case .admitted:
            return true
        case .closed:
            return false
        case .overHardCap:
            logger.notice(
                "closing connection: client stopped reading and its queue went past its hard cap",
                metadata: [
                    "queuedBytes": "\(core.queue.queuedBytes)", "queuedMessages": "\(core.queue.queuedMessages)",
                    "hardCap": "\(outgoingQueueHardLimit)",
                ])
            abort()
            return false
        }
    }

    /// Counts a message just gathered and writes it now, or when the read or the batch of
    /// writes under way ends.
    private func queued(size: Int) {
        let (decision, startStallWatch) = core.queue.queued(
            size: size, inRead: inChannelRead, batching: service.isBatchingWrites, now: Self.now())
        switch decision {
        case .held: break
        case .flushAfterBatch: service.flushAfterBatch(self)
        case .writeNow: writeOutgoing(flush: true)
        }
        if startStallWatch { scheduleStallCheck() }
    }

    /// Writes and flushes what is queued (the end of a read or of a batch of writes).
    func flushOutgoing() {
        if core.queue.flushDue() { writeOutgoing(flush: true) }
    }

    /// Hands what the queue gathered to the channel as one write, as the queue says.
    private func writeOutgoing(flush: Bool) {
        // The context is read only where it is used: holding it cost a retain and a release on
        // every write, which mostly goes straight to the socket without it.
        guard channelContext != nil, isOpen else {
            core.queue.discardGathered()
            return
        }
        let (write, flush) = core.queue.takeWrite(flush: flush)
        if let write {
            if write.untracked {
                writeUntracked(write)
                return
            }
            guard let context = channelContext else { return }
            writeTracked(NIOAny(write.buffer), size: write.size, messages: write.messages, context: context)
        }
        if flush { channelContext?.flush() }
    }

    /// One write whose promise says when the socket took all of it (and all written before it).
    private func writeTracked(_ data: NIOAny, size: Int, messages: Int, context: ChannelHandlerContext) {
        let promise = context.eventLoop.makePromise(of: Void.self)
        promise.futureResult.assumeIsolated().whenComplete { result in
            self.writeCompleted(size: size, messages: messages, succeeded: (try? result.get()) != nil, tracked: true)
        }
        context.write(data, promise: promise)
    }

    /// Whether NIO holds bytes of the channel not yet taken by the socket (nil: closed).
    private func heldByChannel(_ channel: any Channel) -> Int? {
        if writableMeansEmpty { return channel.isWritable ? 0 : 1 }
        return try? channel.syncOptions?.getOption(ChannelOptions.bufferedWritableBytes)
    }

    /// The usual case, nothing else in flight: the write without a promise, flushed; a socket
    /// with room takes it all inside the flush, which NIO then holds none of, so it is complete
    /// here (a promise, its future and its callback were a third of a write's cost). When the
    /// socket took only part, an empty write behind the rest carries the promise: it completes
    /// when the socket has taken everything before it, exactly when this write's own would have.
    ///
    /// On a Unix socket whose descriptor is known the bytes go straight to it first (NIO holds
    /// none of the channel's bytes here, so the order holds): a socket with room takes them all
    /// in one `send` and NIO is not involved (4.4k instructions a write). What the
    /// socket does not take (full, or an error such as a peer gone) is written through NIO as
    /// before, which waits for room, or fails and closes the channel.
    private func writeUntracked(_ write: OutgoingQueue.Write) {
        // `isActive`: NIO closes the descriptor before it tells the connection, and a write's
        // failure callback may run in between (the number may already name another file).
        // The buffer is read where it is, and copied (to move past what went) only when the
        // socket did not take it all: a copy per write was a retain and a release of its storage.
        var taken = 0
        if descriptor >= 0, channelUnretained?.isActive == true {
            taken = write.buffer.withUnsafeReadableBytes { bytes in (try? Posix.sendNow(descriptor, bytes))?.value ?? 0 }
            if taken == write.size {
                directWrites += 1
                writeCompleted(size: write.size, messages: write.messages, succeeded: true, tracked: false)
                return
            }
        }
        guard let context = channelContext else {
            // Not reached: `writeOutgoing` found the context, and nothing since closed it.
            core.queue.droppedAfterClose(size: write.size, messages: write.messages)
            return
        }
        var rest = write.buffer
        rest.moveReaderIndex(forwardBy: taken)
        context.writeAndFlush(NIOAny(rest), promise: nil)
        let channel = context.channel
        guard isOpen, channel.isActive, let held = heldByChannel(channel) else {
            // The write failed and NIO closed the channel (it drops what it held).
            guard isOpen else {
                // Already counted as released by channelInactive, which saw these bytes queued.
                core.queue.droppedAfterClose(size: write.size, messages: write.messages)
                return
            }
            writeCompleted(size: write.size, messages: write.messages, succeeded: false, tracked: false)
            return
        }
        if held == 0 {
            writeCompleted(size: write.size, messages: write.messages, succeeded: true, tracked: false)
        } else {
            core.queue.writeTracked()
            writeTracked(NIOAny(channel.allocator.buffer(capacity: 0)), size: write.size, messages: write.messages, context: context)
            context.flush()
        }
    }

    private func writeCompleted(size: Int, messages: Int, succeeded: Bool, tracked: Bool) {
        let written = core.queue.written(
            size: size, messages: messages, succeeded: succeeded, tracked: tracked, now: Self.now())
        if written.released > 0 { service.memoryReleased?(written.released) }
        guard isOpen else { return }
        if written.writeGathered { writeOutgoing(flush: true) }
        if written.catchUp && !behindStreams.isEmpty {
            let streams = behindStreams.values
            behindStreams.removeAll()
            for stream in streams { stream.caughtUp() }
        }
        switch core.afterWrite() {
        case .nothing: break
        case .pump: pump()  // also releases held reads
        case .close: close()
        }
    }

    func streamFellBehind(_ stream: VarlinkStream) {
        behindStreams[ObjectIdentifier(stream)] = stream
    }

    func streamEnded(_ stream: VarlinkStream) {
        behindStreams.removeValue(forKey: ObjectIdentifier(stream))
    }

    private func scheduleStallCheck() {
        stallCheck = eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(Int64(core.queue.stallCheckInterval))) {
            self.stallCheck = nil
            self.checkStall()
        }
    }

    /// Closes the connection when it has been over the queue bound without write progress for
    /// the stall timeout.
    private func checkStall() {
        let buffered = try? channelContext?.channel.syncOptions?.getOption(ChannelOptions.bufferedWritableBytes)
        switch core.queue.stallCheck(now: Self.now(), buffered: buffered) {
        case .over:
            break
        case .watching:
            scheduleStallCheck()
        case .cutOff:
            logger.notice(
                "closing connection: client stopped reading",
                metadata: ["queuedBytes": "\(queuedBytes)", "timeout": "\(configuration.stallTimeout)"])
            abort()
        }
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

    /// Not passed on: this is the last handler, the tail drops it, and a unix-socket channel's
    /// 1-byte watermarks (``VarlinkConnection/channelActive(context:)``) change its writability
    /// twice per write; the connection asks `isWritable` itself.
    func channelWritabilityChanged(context: ChannelHandlerContext) {}

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

/// What is freed on another thread: the last reference, dropped there.
final class Garbage: @unchecked Sendable {
    var value: JSONValue?
    /// What a ``LargeCallDecoder`` read from the same message (a whole scene).
    var decoded: (any Sendable)?
    init(_ value: JSONValue, decoded: (any Sendable)? = nil) {
        self.value = value
        self.decoded = decoded
    }
}

/// A call parsed on the parser thread, taken out on the loop.
private final class ParsedCall: @unchecked Sendable {
    private var call: VarlinkCall?
    private var decoded: (any Sendable)?
    init(_ call: VarlinkCall, decoded: (any Sendable)? = nil) {
        self.call = call
        self.decoded = decoded
    }
    func take() -> (VarlinkCall, (any Sendable)?) {
        defer {
            call = nil
            decoded = nil
        }
        return (call!, decoded)
    }
}
