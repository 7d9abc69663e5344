import Logging
import NIOCore
import NIOPosix
import Synchronization

private let connectionCounter = Atomic<UInt64>(0)

/// One client connection: its peer credentials, its state, and close notification.
///
/// Lives on the server's event loop; use it only there. Calls on a connection are answered
/// strictly in order: a call is dispatched only when the previous one has been answered (a
/// stream: finished), so a `more` call holds back later calls on the same connection.
///
/// Properties marked `@exclusivity(unchecked)` are only ever read or assigned whole (or with
/// `+=`/`-=`): never passed `inout`, never changed in place by a method, so no access to one can
/// span another access to it and the runtime check can never fire. Each check cost ~85
/// instructions (`swift_beginAccess`, its access set, a thread-local lookup) and a `Move` with 8
/// monitors made ~190 of them here and in ``VarlinkStream`` (issue 13). Keep the rule when adding
/// a use: a property mutated in place (`framer`, `pendingCalls`, `outgoing`, …) stays checked.
public final class VarlinkConnection {
    /// A number unique among this process's connections.
    public let id: UInt64
    /// The client's credentials (``PeerCredentials/unknown`` until read, i.e. only before acceptance).
    public internal(set) var peer = PeerCredentials.unknown
    /// The event loop the connection, its handlers and callbacks run on.
    public let eventLoop: any EventLoop
    /// Whether the connection is open.
    @exclusivity(unchecked) public private(set) var isOpen = true
    /// Bytes queued for the client and not yet written to the socket.
    @exclusivity(unchecked) public private(set) var queuedBytes = 0
    /// What carries the messages (a WebSocket connection has no peer credentials to read).
    @exclusivity(unchecked) public internal(set) var transport = VarlinkTransport.unixSocket

    let service: VarlinkService
    let configuration: VarlinkServer.Configuration
    var logger: Logger
    private var channelContext: ChannelHandlerContext?
    /// Whether the channel's write-buffer watermarks make `isWritable` mean "NIO holds nothing".
    @exclusivity(unchecked) private var writableMeansEmpty = false
    private var framer: MessageFramer
    @exclusivity(unchecked) private var accepted = false
    private var pendingCalls = CircularBuffer<(call: VarlinkCall, size: Int, decoded: (any Sendable)?)>()
    @exclusivity(unchecked) private var started = false
    @exclusivity(unchecked) private var pendingCallBytes = 0
    @exclusivity(unchecked) private var current: VarlinkCallContext?
    @exclusivity(unchecked) private var dispatching = false
    @exclusivity(unchecked) private var inputClosed = false
    @exclusivity(unchecked) private var readHeld = false
    /// A large message is being parsed on ``VarlinkServer/Configuration/parser``; later input
    /// waits for it (calls are answered in order).
    @exclusivity(unchecked) private var parsing = false
    /// This connection's partly received bytes as counted in its uid's tally.
    @exclusivity(unchecked) private var countedPartialInput = 0
    @exclusivity(unchecked) private var inChannelRead = false
    @exclusivity(unchecked) private var needsFlush = false
    /// Messages queued since the last write, written as one buffer (one write, one flush) when
    /// the read or the batch of writes that queued them ends; a message shared among
    /// connections (an event for every monitor) is held without a copy while it is alone.
    private var outgoing: ByteBuffer?
    @exclusivity(unchecked) private var outgoingMessages = 0
    /// Writes handed to the channel so far (each becomes one system call when flushed).
    @exclusivity(unchecked) private(set) var writes = 0
    /// Writes handed to the channel and not yet taken whole by the socket.
    @exclusivity(unchecked) private var writesInFlight = 0
    /// Gathered messages are written at this size even while a write is in flight: a write
    /// completes only when the socket took all of it, and a client reading a large backlog
    /// should see the queue shrink (and its next calls answered) as it reads, not only at the end.
    private static let gatheredWriteLimit = 64 << 10
    private var behindStreams: [ObjectIdentifier: VarlinkStream] = [:]
    private var closeCallbacks: [() -> Void] = []
    private var stallCheck: Scheduled<Void>?
    @exclusivity(unchecked) private var lastWriteProgress = NIODeadline.now()
    @exclusivity(unchecked) private var lastBufferedBytes = 0

    /// Reads are held while this many bytes of calls wait behind the current one.
    private static let pendingCallByteLimit = 1 << 20
    private static let pendingCallCountLimit = 128
    /// Loop time one connection's calls may take in one go before the others get a turn.
    private static let turnLength = TimeAmount.milliseconds(1)
    /// How long the connection then steps aside: enough for the loop to poll for I/O first.
    private static let turnPause = TimeAmount.microseconds(50)
    @exclusivity(unchecked) private var pumpScheduled = false
    /// When this connection's turn began (nil: no calls answered since it last caught up or paused).
    @exclusivity(unchecked) private var turnStart: NIODeadline?
    /// Unparsed whole calls read ahead while replies are over the queue bound.
    private static let unparsedInputLimit = 1 << 20
    /// Whether the framer may hold a whole message not yet taken (false once `next()` said no).
    @exclusivity(unchecked) private var framerHasMessage = false
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

    /// Messages queued and not yet written.
    @exclusivity(unchecked) private var queuedMessages = 0
    /// What a queued message costs beyond its bytes (NIO's buffer, pending-write entry and
    /// promise, measured: 200 monitors cut at 512 KiB of ~150-byte events held 387 MiB).
    static let perMessageCost = 384
    /// What an open connection costs the heap beyond its queues (NIO's channel, pipeline and
    /// read buffer, this object; measured: 1,000 idle connections took 4.2 MiB that stayed
    /// after they closed). Reported freed when it closes, so a burst of closes ends in a trim.
    static let perConnectionCost = 4 << 10
    /// The memory the queue holds, counted for the hard cap.
    private var queuedCost: Int { queuedBytes + queuedMessages * Self.perMessageCost }

    /// The queue size past which the connection is cut at once.
    var outgoingQueueHardLimit: Int {
        configuration.outgoingQueueHardLimit ?? configuration.outgoingQueueLimit + max(configuration.outgoingQueueLimit, 256 << 10)
    }

    /// Whether more than ``VarlinkServer/Configuration/outgoingQueueLimit`` bytes are queued.
    public var isOverQueueLimit: Bool { queuedBytes > configuration.outgoingQueueLimit }

    // MARK: Channel events (from VarlinkChannelHandler)

    func channelActive(context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        channelContext = context
        if transport == .unixSocket {
            // A channel is writable exactly while NIO holds none of its bytes (every message is
            // at least 2 bytes): what ``writeUntracked`` asks after each flush, an atomic load,
            // where reading `bufferedWritableBytes` cost 1.5k instructions of dynamic casts.
            writableMeansEmpty =
                (try? context.channel.syncOptions?.setOption(ChannelOptions.writeBufferWaterMark, value: .init(low: 1, high: 1))) != nil
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
            self.accepted = true
            self.logger.debug("connection accepted", metadata: ["peer": "\(self.peer)"])
            self.processInput()
        }
    }

    func channelRead(_ bytes: ByteBuffer) {
        inChannelRead = true
        framer.append(bytes)
        framerHasMessage = true
        processInput()
    }

    func channelReadComplete() {
        inChannelRead = false
        flushOutgoing()
    }

    func inputDidClose() {
        inputClosed = true
        pump()  // complete calls may still wait in the framer; a partial one is a truncation
    }

    func channelInactive() {
        guard isOpen else { return }
        isOpen = false
        let held = framer.pendingBytes + queuedBytes + pendingCallBytes
        // Let go of a partial message's chunks now, not whenever the channel is deallocated:
        // they are reported freed, and the trim that follows must find them free.
        framer = MessageFramer(maxMessageSize: configuration.maxMessageSize)
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
        while !pendingCalls.isEmpty {
            var (queued, size, decoded) = pendingCalls.removeFirst()
            guard isParsedOffLoop(size: size) else { continue }
            let garbage = Garbage(queued.parameters, decoded: decoded)
            queued.parameters = [:]
            decoded = nil
            releaseOffLoop(garbage, size: size)
        }
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
    /// While the client has more replies unread than the queue bound, its calls are not parsed
    /// or answered; up to ``unparsedInputLimit`` bytes of them are still read (kept as bytes), so
    /// a client that writes thousands of calls before it reads a reply is not deadlocked against
    /// its own replies. Past that, reads are held: a client that pipelines and never reads
    /// grows the daemon by at most that much (and the stall timer cuts it off).
    func shouldRead() -> Bool {
        let backlog = framerHasMessage && framer.pendingBytes >= Self.unparsedInputLimit
        if !accepted || parsing || backlog || pendingCallBytes >= Self.pendingCallByteLimit
            || pendingCalls.count >= Self.pendingCallCountLimit
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
        pendingCalls.append((call, 0, nil))
        dispatchPending()
    }

    /// Whether more calls may be parsed now: not while replies are over the queue bound (the
    /// calls stay unparsed in the framer, a few bytes each) nor while many parsed calls wait.
    private var mayParse: Bool {
        !isOverQueueLimit && pendingCallBytes < Self.pendingCallByteLimit && pendingCalls.count < Self.pendingCallCountLimit
    }

    private func processInput() {
        pump()
    }

    private func dispatchPending() {
        pump()
    }

    /// Parses and dispatches what can be, in order, then releases held reads and notices the
    /// end of input. Reentrant calls (a call answered from inside its dispatch) return at once:
    /// the outer pass goes on.
    private func pump() {
        guard !dispatching else { return }
        dispatching = true
        var progress = true
        while progress && isOpen {
            progress = false
            if let turnStart, NIODeadline.now() - turnStart >= Self.turnLength {
                // Fairness: a client that pipelined thousands of calls has them answered for a
                // millisecond of loop time, then the other clients' turn comes (10,000 Moves in
                // one go held everyone else for 0.7 s), then its next turn. Not `execute`: NIO
                // runs tasks queued by tasks before it polls for I/O again; a task due a little
                // later lets the loop poll first.
                if !pumpScheduled {
                    pumpScheduled = true
                    eventLoop.assumeIsolated().scheduleTask(in: Self.turnPause) {
                        self.pumpScheduled = false
                        self.turnStart = nil
                        self.pump()
                    }
                }
                break
            }
            if accepted, !parsing {
                do {
                    while isOpen, !parsing, mayParse {
                        guard let framed = try framer.nextMessage() else {
                            framerHasMessage = false
                            break
                        }
                        progress = true
                        if isParsedOffLoop(size: framed.size), let parser = configuration.parser {
                            parseOffLoop(framed, on: parser)
                            break
                        }
                        let message = framed.joined()
                        let call = try VarlinkCall(message: message.readableBytesView, depthLimit: configuration.maxDepth)
                        pendingCalls.append((call, message.readableBytes, nil))
                        pendingCallBytes += message.readableBytes
                    }
                } catch {
                    dispatching = false
                    protocolViolation(error)
                    return
                }
            }
            // Whatever the calls answered here send to any connection (their events to every
            // monitor, their replies) goes out as one write per connection when they are done:
            // a client's pipelined calls are answered in one write, not one each.
            let dispatched = service.batchingWrites { () -> Bool in
                var any = false
                while isOpen, current == nil, !isOverQueueLimit, let size = pendingCalls.first?.size {
                    any = true
                    pendingCallBytes -= size
                    let context = nextContext()
                    if isParsedOffLoop(size: size) { context.releasedOffLoop = size }
                    current = context
                    service.dispatch(context)
                    // A large call reports what it freed once freed (``releaseOffLoop(_:size:)``).
                    if size >= Self.largeMessage && !isParsedOffLoop(size: size) { service.memoryReleased?(size) }
                    // The turn spans every pump until the connection catches up (write completions
                    // and reads call pump too); a client answered one call at a time never runs out.
                    let now = NIODeadline.now()
                    guard let start = turnStart else {
                        turnStart = now
                        continue
                    }
                    if now - start >= Self.turnLength { break }
                }
                return any
            }
            if dispatched { progress = true }
        }
        if pendingCalls.isEmpty && !framerHasMessage { turnStart = nil }  // caught up
        dispatching = false
        guard isOpen, countPartialInput() else { return }
        if inputClosed, !parsing, !framerHasMessage, framer.pendingBytes > 0 {
            protocolViolation(.truncatedMessage)
            return
        }
        if readHeld, shouldRead() {
            readHeld = false
            channelContext?.read()
        }
        closeIfFinished()
    }

    /// Whether a message of `size` bytes is parsed on ``VarlinkServer/Configuration/parser`` (and
    /// its call freed there).
    private func isParsedOffLoop(size: Int) -> Bool {
        configuration.parser != nil && size >= configuration.parseOffLoopThreshold
    }

    /// Parses one large message on the parser thread (its chunks joined there); reads and later
    /// messages wait, then input processing resumes on the loop with the call queued in its place.
    private func parseOffLoop(_ message: FramedMessage, on parser: NIOThreadPool) {
        parsing = true
        let depthLimit = configuration.maxDepth
        let size = message.size
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
            self.parsing = false
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
            pendingCalls.append((call, size, decoded))
            pendingCallBytes += size
            return true
        case .failure(let error as VarlinkProtocolError):
            protocolViolation(error)
        case .failure(let error):
            logger.notice("closing connection: cannot parse a message", metadata: ["error": "\(error)"])
            close()
        }
        return false
    }

    /// The next queued call, moved into its context (in a function of its own, so no copy of
    /// the call outlives it: a large call's parameters must have no owner left on the loop once
    /// the context lets go of them).
    private func nextContext() -> VarlinkCallContext {
        let (call, _, decoded) = pendingCalls.removeFirst()
        return VarlinkCallContext(call: call, connection: self, decoded: decoded)
    }

    /// Updates this uid's tally of partly received bytes; false (and the connection closed)
    /// when this connection took it past ``VarlinkServer/Configuration/maxPartialInputPerUID``.
    private func countPartialInput() -> Bool {
        guard replySink == nil else { return true }
        let now = framer.pendingBytes
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
        dispatchPending()
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

    /// After the client shut its sending side: close once every call is answered and written.
    private func closeIfFinished() {
        if inputClosed, isOpen, !parsing, current == nil, pendingCalls.isEmpty, queuedBytes == 0 {
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
        guard admit(size: message.count + 1) else { return }
        if outgoing == nil || transport != .unixSocket {
            writeOutgoing(flush: false)
            guard let context = channelContext else { return }
            var buffer = context.channel.allocator.buffer(capacity: message.count + 1)
            buffer.writeBytes(message)
            buffer.writeInteger(UInt8(0))
            outgoing = buffer
        } else {
            outgoing!.writeBytes(message)
            outgoing!.writeInteger(UInt8(0))
        }
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
        if outgoing == nil {
            outgoing = message  // nothing waits to be written before it
        } else if transport == .unixSocket {
            outgoing!.writeImmutableBuffer(message)
        } else {
            writeOutgoing(flush: false)  // one message per write (a WebSocket frame each)
            outgoing = message
        }
        queued(size: size)
    }

    /// Whether a message of `size` bytes may be queued; cuts the connection off when its queue
    /// would pass the hard cap.
    private func admit(size: Int) -> Bool {
        guard isOpen, channelContext != nil else { return false }
        if isOverQueueLimit && queuedCost + size + Self.perMessageCost > outgoingQueueHardLimit {
            // Already over the bound and still not reading: holding more would let one client
            // grow the daemon without limit until the stall timeout.
            logger.notice(
                "closing connection: client stopped reading and its queue went past its hard cap",
                metadata: ["queuedBytes": "\(queuedBytes)", "queuedMessages": "\(queuedMessages)", "hardCap": "\(outgoingQueueHardLimit)"])
            abort()
            return false
        }
        return true
    }

    /// Counts a message just put in ``outgoing`` and writes it now, or when the read or the
    /// batch of writes under way ends.
    private func queued(size: Int) {
        queuedBytes += size
        queuedMessages += 1
        outgoingMessages += 1
        if inChannelRead {
            needsFlush = true
        } else if service.isBatchingWrites {
            if !needsFlush {
                needsFlush = true
                service.flushAfterBatch(self)
            }
        } else {
            writeOutgoing(flush: true)
        }
        if isOverQueueLimit && stallCheck == nil {
            lastWriteProgress = .now()
            lastBufferedBytes = queuedBytes
            scheduleStallCheck()
        }
    }

    /// Writes and flushes what is queued (the end of a read or of a batch of writes).
    func flushOutgoing() {
        guard needsFlush else { return }
        needsFlush = false
        writeOutgoing(flush: true)
    }

    /// Hands ``outgoing`` to the channel as one write. While an earlier write is not yet
    /// taken whole by the socket (the client is slow or stopped reading), messages gather in
    /// ``outgoing`` and go as one write when it completes: a client that stopped reading
    /// costs one pending write and no system call per message, and cutting it off fails one
    /// write, not thousands (200 such monitors cut at once held the loop for 177 ms).
    private func writeOutgoing(flush: Bool) {
        guard let context = channelContext, isOpen else {
            outgoing = nil
            outgoingMessages = 0
            return
        }
        if writesInFlight > 0 && transport == .unixSocket && (outgoing?.readableBytes ?? 0) < Self.gatheredWriteLimit { return }
        if let buffer = outgoing {
            let size = buffer.readableBytes
            let messages = outgoingMessages
            outgoing = nil
            outgoingMessages = 0
            writes += 1
            if flush && writesInFlight == 0 && transport == .unixSocket {
                writeUntracked(buffer, size: size, messages: messages, context: context)
                return
            }
            writeTracked(NIOAny(buffer), size: size, messages: messages, context: context)
        }
        if flush { context.flush() }
    }

    /// One write whose promise says when the socket took all of it (and all written before it).
    private func writeTracked(_ data: NIOAny, size: Int, messages: Int, context: ChannelHandlerContext) {
        let promise = context.eventLoop.makePromise(of: Void.self)
        promise.futureResult.assumeIsolated().whenComplete { result in
            self.writesInFlight -= 1
            self.writeCompleted(size: size, messages: messages, succeeded: (try? result.get()) != nil)
        }
        writesInFlight += 1
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
    private func writeUntracked(_ buffer: ByteBuffer, size: Int, messages: Int, context: ChannelHandlerContext) {
        context.writeAndFlush(NIOAny(buffer), promise: nil)
        let channel = context.channel
        guard isOpen, channel.isActive, let held = heldByChannel(channel) else {
            // The write failed and NIO closed the channel (it drops what it held).
            guard isOpen else {
                // Already counted as released by channelInactive, which saw these bytes queued.
                queuedBytes -= size
                queuedMessages -= messages
                return
            }
            writeCompleted(size: size, messages: messages, succeeded: false)
            return
        }
        if held == 0 {
            writeCompleted(size: size, messages: messages, succeeded: true)
        } else {
            writeTracked(NIOAny(channel.allocator.buffer(capacity: 0)), size: size, messages: messages, context: context)
            context.flush()
        }
    }

    private func writeCompleted(size: Int, messages: Int, succeeded: Bool) {
        queuedBytes -= size
        queuedMessages -= messages
        // Dropped on close: NIO fails the pending writes before the channel goes inactive.
        if !succeeded { service.memoryReleased?(size + messages * Self.perMessageCost) }
        // Progress matters only while the stall check watches (`queued` starts it with the time).
        if succeeded && stallCheck != nil { lastWriteProgress = .now() }
        guard isOpen else { return }
        if writesInFlight == 0 && outgoing != nil && !needsFlush { writeOutgoing(flush: true) }
        if !behindStreams.isEmpty && queuedBytes <= configuration.outgoingQueueLimit / 2 {
            let streams = behindStreams.values
            behindStreams.removeAll()
            for stream in streams { stream.caughtUp() }
        }
        if !isOverQueueLimit && (readHeld || framerHasMessage || (current == nil && !pendingCalls.isEmpty)) {
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
            abort()
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
