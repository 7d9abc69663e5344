// A Varlink connection's decisions as a pure state machine: what was read, parsed, answered and
// written goes in; what to do next comes out (parse here or off the loop, dispatch, write, stop
// or resume reading, let a behind stream catch up, cut the client off).
//
// No sockets, no channel, no clock: ``VarlinkConnection`` (the thin handler over NIO) reads the
// clock, performs each answer and tells the core the outcome. The same core serves the Unix
// socket, the WebSocket and the in-process local connection; ConnectionCoreTests drive it with
// bytes and a virtual time. Its mutating methods call nothing outside it, so no access to the
// core can ever overlap another (``VarlinkConnection/core`` relies on that).
import NIOCore

/// Monotonic nanoseconds (NIODeadline's uptime on the loop; any counter in tests).
typealias ConnectionTime = UInt64

/// A call parsed and waiting for its turn: the call, its message's size, what a
/// ``LargeCallDecoder`` read from it.
struct PendingCall {
    var call: VarlinkCall
    var size: Int
    var decoded: (any Sendable)?
}

/// The calls parsed and waiting, in order: the first held apart, the rest in a ring. A client
/// answered one call at a time never has more than one waiting, and taking it is a move out of
/// an optional, where `CircularBuffer.removeFirst()` cost ~550 instructions a call.
struct PendingCalls {
    private var first: PendingCall?
    private var rest = CircularBuffer<PendingCall>()
    /// Counted apart: asking `first` whether it is nil copied the whole call out to ask.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ call: PendingCall) {
        if count == 0 { first = call } else { rest.append(call) }
        count += 1
    }

    /// The first call (there is one), taken out.
    mutating func removeFirst() -> PendingCall {
        let next = first.take()!
        count -= 1
        if count > 0 { first = rest.removeFirst() }
        return next
    }

    /// Every call, in order, taken out.
    mutating func removeAll() -> [PendingCall] {
        var all: [PendingCall] = []
        while !isEmpty { all.append(removeFirst()) }
        return all
    }
}

struct ConnectionCore {
    /// The bounds one connection is held to.
    struct Limits: Sendable {
        /// The longest message accepted (without its NUL).
        var maxMessageSize: Int
        /// Replies queued past this many bytes stop the parsing of calls (backpressure).
        var outgoingQueueLimit: Int
        /// Queued bytes plus ``OutgoingQueue/perMessageCost`` per message past this cut the client off.
        var outgoingQueueHardLimit: Int
        /// Messages this large are parsed off the loop (`Int.max`: never).
        var parseOffLoopThreshold: Int
        /// Over the queue bound this long without write progress cuts the client off (ns).
        var stallTimeout: UInt64
        /// Whether queued messages are gathered into one write (a byte stream: the Unix socket)
        /// or each message is its own write (a WebSocket frame each).
        var gathers: Bool

        init(
            maxMessageSize: Int = 16 << 20, outgoingQueueLimit: Int = 256 << 10, outgoingQueueHardLimit: Int? = nil,
            parseOffLoopThreshold: Int = .max, stallTimeout: UInt64 = 10_000_000_000, gathers: Bool = true
        ) {
            self.maxMessageSize = maxMessageSize
            self.outgoingQueueLimit = outgoingQueueLimit
            self.outgoingQueueHardLimit = outgoingQueueHardLimit ?? outgoingQueueLimit + max(outgoingQueueLimit, 256 << 10)
            self.parseOffLoopThreshold = parseOffLoopThreshold
            self.stallTimeout = stallTimeout
            self.gathers = gathers
        }

        /// Whether a message of `size` bytes is parsed off the loop (and its call freed there).
        /// Here, not only on the core: the handler asks for every call, and a non-mutating
        /// method of the core it stores copied the whole core to call it.
        func isParsedOffLoop(size: Int) -> Bool { size >= parseOffLoopThreshold }
    }

    /// Reads are held while this many bytes of calls wait behind the current one.
    static let pendingCallByteLimit = 1 << 20
    static let pendingCallCountLimit = 128
    /// Unparsed whole calls read ahead while replies are over the queue bound.
    static let unparsedInputLimit = 1 << 20
    /// Loop time one connection's calls may take in one go before the others get a turn.
    static let turnLength: UInt64 = 1_000_000

    let limits: Limits
    private(set) var framer: MessageFramer
    /// Parsed calls waiting behind the one being answered.
    private(set) var pendingCalls = PendingCalls()
    private(set) var pendingCallBytes = 0
    /// Replies (and events) for the client, not yet taken by the socket.
    var queue: OutgoingQueue

    private(set) var isOpen = true
    /// The service accepted the connection (calls are parsed only then).
    private(set) var accepted = false
    /// The client shut its sending side.
    private(set) var inputClosed = false
    /// A read was not passed on (backpressure); pass one on when the hold ends.
    private(set) var readHeld = false
    /// A large message is being parsed off the loop; later input waits for it (calls are
    /// answered in order).
    private(set) var parsing = false
    /// Whether the framer may hold a whole message not yet taken (false once it said no).
    private(set) var framerHasMessage = false
    /// A call was dispatched and not yet answered (a stream: not finished).
    private(set) var callInFlight = false
    /// When this connection's turn began (nil: no calls answered since it last caught up or paused).
    private var turnStart: ConnectionTime?
    /// The turn is over and the loop was asked to come back (``turnResumed()``).
    private(set) var turnPaused = false

    init(limits: Limits) {
        self.limits = limits
        framer = MessageFramer(maxMessageSize: limits.maxMessageSize)
        queue = OutgoingQueue(limits: limits)
    }

    // MARK: Input

    mutating func accept() { accepted = true }

    /// Bytes the client sent.
    mutating func bytesRead(_ bytes: ByteBuffer) {
        framer.append(bytes)
        framerHasMessage = true
    }

    /// The client shut its sending side: complete calls may still wait in the framer.
    mutating func inputDidClose() { inputClosed = true }

    /// A call that arrived without bytes (the in-process connection).
    mutating func callReceived(_ call: VarlinkCall) {
        pendingCalls.append(PendingCall(call: call, size: 0, decoded: nil))
    }

    /// Whether to pass a read request on to the socket (false holds reads as backpressure).
    /// While the client has more replies unread than the queue bound, its calls are not parsed
    /// or answered; up to ``unparsedInputLimit`` bytes of them are still read (kept as bytes), so
    /// a client that writes thousands of calls before it reads a reply is not deadlocked against
    /// its own replies. Past that, reads are held: a client that pipelines and never reads
    /// grows the daemon by at most that much (and the stall timer cuts it off).
    mutating func shouldRead() -> Bool {
        let backlog = framerHasMessage && framer.pendingBytes >= Self.unparsedInputLimit
        if !accepted || parsing || backlog || pendingCallBytes >= Self.pendingCallByteLimit
            || pendingCalls.count >= Self.pendingCallCountLimit
        {
            readHeld = true
            return false
        }
        return true
    }

    /// Whether more calls may be parsed now: not while replies are over the queue bound (the
    /// calls stay unparsed in the framer, a few bytes each) nor while many parsed calls wait.
    private var mayParse: Bool {
        !queue.isOverLimit && pendingCallBytes < Self.pendingCallByteLimit && pendingCalls.count < Self.pendingCallCountLimit
    }

    /// What to do with the next whole message read.
    enum Parse {
        /// Parse it now, on the loop, and hand the call to ``parsed(_:size:decoded:)``.
        case here(FramedMessage)
        /// Parse it off the loop; input waits until ``parsed(_:size:decoded:)`` or ``parseFailed()``.
        case offLoop(FramedMessage)
    }

    /// Whether a turn of calls is over at `now`: the loop must give the other clients theirs
    /// first. `schedule`: ask the loop to come back (``turnResumed()``) after a short pause.
    /// Fairness: a client that pipelined thousands of calls has them answered for a millisecond
    /// of loop time, then the other clients' turn comes (10,000 Moves in one go held everyone
    /// else for 0.7 s), then its next turn.
    mutating func turnIsOver(now: @autoclosure () -> ConnectionTime) -> (over: Bool, schedule: Bool) {
        guard let turnStart, now() &- turnStart >= Self.turnLength else { return (false, false) }
        if turnPaused { return (true, false) }
        turnPaused = true
        return (true, true)
    }

    /// The pause after a turn ended: a new turn may begin.
    mutating func turnResumed() {
        turnPaused = false
        turnStart = nil
    }

    /// The next message to parse, or nil (none whole, or parsing must wait). Throws the
    /// protocol violation when the input breaks framing (too long a message).
    mutating func nextMessage() throws(VarlinkProtocolError) -> Parse? {
        guard isOpen, accepted, !parsing, mayParse else { return nil }
        guard let framed = try framer.nextMessage() else {
            framerHasMessage = false
            return nil
        }
        if framed.size >= limits.parseOffLoopThreshold {
            parsing = true
            return .offLoop(framed)
        }
        return .here(framed)
    }

    /// A message parsed (here or off the loop): its call waits for its turn.
    mutating func parsed(_ call: VarlinkCall, size: Int, decoded: (any Sendable)? = nil) {
        if size >= limits.parseOffLoopThreshold { parsing = false }
        pendingCalls.append(PendingCall(call: call, size: size, decoded: decoded))
        pendingCallBytes += size
    }

    /// Parsing off the loop failed (the connection is closed for it).
    mutating func parseFailed() { parsing = false }

    /// Whether a message of `size` bytes was parsed off the loop (and its call is freed there).
    func isParsedOffLoop(size: Int) -> Bool { limits.isParsedOffLoop(size: size) }

    /// The next call to dispatch, or nil: one is being answered (calls are answered strictly in
    /// order), replies are over the queue bound, or none waits.
    mutating func nextCall() -> PendingCall? {
        guard isOpen, !callInFlight, !queue.isOverLimit, !pendingCalls.isEmpty else { return nil }
        let next = pendingCalls.removeFirst()
        pendingCallBytes -= next.size
        callInFlight = true
        return next
    }

    /// A call was dispatched at `now`; false when this connection's turn is over. The turn spans
    /// every pump until the connection catches up (write completions and reads pump too); a
    /// client answered one call at a time never runs out.
    mutating func dispatched(now: ConnectionTime) -> Bool {
        guard let start = turnStart else {
            turnStart = now
            return true
        }
        return now &- start < Self.turnLength
    }

    /// The call dispatched last was answered (a stream: finished).
    mutating func callCompleted() { callInFlight = false }

    /// What follows a pass over the input.
    struct Settled: Equatable {
        /// The client closed its side in the middle of a message.
        var truncated = false
        /// Pass a read on: the hold ended.
        var resumeReading = false
        /// The client closed its side and everything is answered and written: close.
        var finished = false
    }

    /// After a pass over the input: whether the input was cut short, reads may resume, or the
    /// connection is done.
    mutating func settle() -> Settled {
        if pendingCalls.isEmpty && !framerHasMessage { turnStart = nil }  // caught up
        var settled = Settled()
        guard isOpen else { return settled }
        if inputClosed, !parsing, !framerHasMessage, framer.pendingBytes > 0 {
            settled.truncated = true
            return settled
        }
        if readHeld, shouldRead() {
            readHeld = false
            settled.resumeReading = true
        }
        settled.finished = isFinished
        return settled
    }

    /// The client closed its side, and every call is answered and written.
    var isFinished: Bool {
        inputClosed && isOpen && !parsing && !callInFlight && pendingCalls.isEmpty && queue.queuedBytes == 0
    }

    /// What a write's end asks of the input side.
    enum AfterWrite: Equatable {
        case nothing
        /// Calls or reads were held for the queue: pump the input.
        case pump
        /// Everything is answered and written after the client closed its side.
        case close
    }

    /// Once a write completed: whether the input waits for the queue to drain. Mutating though
    /// it changes nothing, so the handler calls it on its stored core in place: a non-mutating
    /// call copied the whole core (~300 bytes, a `memcpy` on every write) to pass it.
    mutating func afterWrite() -> AfterWrite {
        guard isOpen else { return .nothing }
        if !queue.isOverLimit && (readHeld || framerHasMessage || (!callInFlight && !pendingCalls.isEmpty)) { return .pump }
        return isFinished ? .close : .nothing
    }

    /// The connection closed: what it held (bytes of partial input, queued replies and waiting
    /// calls, for the memory report) and the calls that never ran.
    mutating func closed() -> (heldBytes: Int, unrun: [PendingCall]) {
        guard isOpen else { return (0, []) }
        isOpen = false
        let held = framer.pendingBytes + queue.queuedBytes + pendingCallBytes
        // Let go of a partial message's chunks now, not whenever the connection is deallocated.
        framer = MessageFramer(maxMessageSize: limits.maxMessageSize)
        let unrun = pendingCalls.removeAll()
        pendingCallBytes = 0
        callInFlight = false
        queue.closed()
        return (held, unrun)
    }
}

/// The replies and events queued for one client: gathered into writes, counted for the bound
/// (backpressure) and the hard cap, and watched for a client that stopped reading.
///
/// Messages queued while a read or a batch of writes is under way go out as one write when it
/// ends. While an earlier write is not yet taken whole by the socket (the client is slow or
/// stopped reading), messages gather and go as one write when it completes: a client that
/// stopped reading costs one pending write and no system call per message, and cutting it off
/// fails one write, not thousands (200 such monitors cut at once held the loop for 177 ms).
struct OutgoingQueue {
    /// What a queued message costs beyond its bytes (NIO's buffer, pending-write entry and
    /// promise, measured: 200 monitors cut at 512 KiB of ~150-byte events held 387 MiB).
    static let perMessageCost = 384
    /// Gathered messages are written at this size even while a write is in flight: a write
    /// completes only when the socket took all of it, and a client reading a large backlog
    /// should see the queue shrink (and its next calls answered) as it reads, not only at the end.
    static let gatheredWriteLimit = 64 << 10

    let limits: ConnectionCore.Limits
    /// Bytes queued for the client and not yet taken by the socket.
    private(set) var queuedBytes = 0
    /// Messages queued and not yet taken by the socket.
    private(set) var queuedMessages = 0
    /// Messages queued since the last write, written as one buffer; a message shared among
    /// connections (an event for every monitor) is held without a copy while it is alone.
    private(set) var gathered: ByteBuffer?
    private(set) var gatheredMessages = 0
    /// Writes handed to the transport so far (each becomes one system call when flushed).
    private(set) var writes = 0
    /// Writes handed to the transport and not yet taken whole.
    private(set) var writesInFlight = 0
    /// What is gathered waits for the end of the read or batch under way.
    private(set) var needsFlush = false
    /// The stall watch is on (the queue went over its bound).
    private(set) var stallWatched = false
    private var lastWriteProgress: ConnectionTime = 0
    private var lastBufferedBytes = 0
    private var open = true

    init(limits: ConnectionCore.Limits) {
        self.limits = limits
    }

    /// Whether more than the bound is queued.
    var isOverLimit: Bool { queuedBytes > limits.outgoingQueueLimit }

    /// The memory the queue holds, counted for the hard cap.
    var cost: Int { queuedBytes + queuedMessages * Self.perMessageCost }

    /// Whether a stream that fell behind may send again (the queue drained to half its bound).
    var hasRoomForBehindStreams: Bool { queuedBytes <= limits.outgoingQueueLimit / 2 }

    /// How a message is taken.
    enum Admission: Equatable {
        case admitted
        /// Not taken: the connection is closed.
        case closed
        /// Not taken: already over the bound and still not reading, holding more would let one
        /// client grow the daemon without limit until the stall timeout. Cut it off.
        case overHardCap
    }

    /// Whether a message of `size` bytes may be queued.
    func admit(size: Int) -> Admission {
        guard open else { return .closed }
        if isOverLimit && cost + size + Self.perMessageCost > limits.outgoingQueueHardLimit { return .overHardCap }
        return .admitted
    }

    /// Where a queued message goes now.
    enum Queued: Equatable {
        /// Held until the read under way ends (the handler flushes then).
        case held
        /// Held until the batch of writes ends: register for its flush.
        case flushAfterBatch
        /// Write what is gathered now (``takeWrite(flush:)``).
        case writeNow
    }

    /// What the handler must do before gathering a message: a message cannot join what is
    /// gathered on a transport that writes each message on its own.
    var mustWriteBeforeGathering: Bool { gathered != nil && !limits.gathers }

    /// Gathers one message (ending with its NUL), shared with other connections: its bytes are
    /// not copied while it is the only message waiting to be written. Call after ``admit(size:)``
    /// said yes and, when ``mustWriteBeforeGathering``, after ``takeWrite(flush:)``.
    mutating func gather(shared message: ByteBuffer) {
        if gathered == nil {
            gathered = message
        } else {
            gathered!.writeImmutableBuffer(message)
        }
    }

    /// Gathers one message given without its NUL.
    mutating func gather(_ message: [UInt8], allocator: ByteBufferAllocator) {
        if gathered == nil { gathered = allocator.buffer(capacity: message.count + 1) }
        gathered!.writeBytes(message)
        gathered!.writeInteger(UInt8(0))
    }

    /// Counts a message just gathered; says when it is written. `inRead`: a read is under way;
    /// `batching`: a batch of writes is. `startStallWatch`: the queue just went over its bound;
    /// check it every ``stallCheckInterval`` (``stallCheck(now:buffered:)``).
    mutating func queued(size: Int, inRead: Bool, batching: Bool, now: @autoclosure () -> ConnectionTime) -> (
        Queued, startStallWatch: Bool
    ) {
        queuedBytes += size
        queuedMessages += 1
        gatheredMessages += 1
        var decision = Queued.writeNow
        if inRead {
            needsFlush = true
            decision = .held
        } else if batching {
            decision = needsFlush ? .held : .flushAfterBatch
            needsFlush = true
        }
        var startWatch = false
        if isOverLimit && !stallWatched {
            stallWatched = true
            lastWriteProgress = now()
            lastBufferedBytes = queuedBytes
            startWatch = true
        }
        return (decision, startWatch)
    }

    /// The read or batch ended: whether what is gathered must be written now.
    mutating func flushDue() -> Bool {
        guard needsFlush else { return false }
        needsFlush = false
        return true
    }

    /// One write to hand to the transport.
    struct Write {
        var buffer: ByteBuffer
        var size: Int
        var messages: Int
        /// Nothing else is in flight and it is flushed at once: on a byte stream the handler may
        /// write it without a completion promise and ask the channel whether it all went.
        var untracked: Bool
    }

    /// What to hand to the transport for a write of what is gathered, `flush`ed or not:
    /// nothing (`write` nil, `flush` false) while an earlier write is in flight on a byte stream
    /// and less than ``gatheredWriteLimit`` is gathered; then it goes as one write when the one
    /// in flight completes.
    mutating func takeWrite(flush: Bool) -> (write: Write?, flush: Bool) {
        guard open else {
            discardGathered()
            return (nil, false)
        }
        if writesInFlight > 0 && limits.gathers && (gathered?.readableBytes ?? 0) < Self.gatheredWriteLimit { return (nil, false) }
        guard let buffer = gathered else { return (nil, flush) }
        let write = Write(
            buffer: buffer, size: buffer.readableBytes, messages: gatheredMessages,
            untracked: flush && writesInFlight == 0 && limits.gathers)
        gathered = nil
        gatheredMessages = 0
        writes += 1
        if !write.untracked { writesInFlight += 1 }
        return (write, flush)
    }

    /// Drops what is gathered (the connection is gone).
    mutating func discardGathered() {
        gathered = nil
        gatheredMessages = 0
    }

    /// An untracked write was not all taken at once: it is tracked from now on (an empty write
    /// behind the rest carries its promise).
    mutating func writeTracked() { writesInFlight += 1 }

    /// What a write's end asks of the handler.
    struct Written: Equatable {
        /// Bytes (with per-message costs) dropped unwritten, to report as freed.
        var released = 0
        /// Write what gathered meanwhile now.
        var writeGathered = false
        /// Streams that fell behind may send again.
        var catchUp = false
    }

    /// A write of `size` bytes in `messages` messages completed (`tracked`: it was in flight),
    /// written whole or dropped. `now` is read only while the stall watch is on.
    mutating func written(size: Int, messages: Int, succeeded: Bool, tracked: Bool, now: @autoclosure () -> ConnectionTime)
        -> Written
    {
        if tracked { writesInFlight -= 1 }
        queuedBytes -= size
        queuedMessages -= messages
        var result = Written()
        // Dropped on close: NIO fails the pending writes before the channel goes inactive.
        if !succeeded { result.released = size + messages * Self.perMessageCost }
        if succeeded && stallWatched { lastWriteProgress = now() }
        guard open else { return result }
        result.writeGathered = writesInFlight == 0 && gathered != nil && !needsFlush
        result.catchUp = hasRoomForBehindStreams
        return result
    }

    /// A write dropped after the connection closed (what it held was reported freed on close).
    mutating func droppedAfterClose(size: Int, messages: Int) {
        queuedBytes -= size
        queuedMessages -= messages
    }

    /// How often a queue over its bound is checked for progress.
    var stallCheckInterval: UInt64 { max(limits.stallTimeout / 5, 10_000_000) }

    /// What a stall check found.
    enum Stall: Equatable {
        /// Back under the bound (or closed): the watch ends.
        case over
        /// Check again after ``stallCheckInterval``.
        case watching
        /// No write progress for the stall timeout: cut the client off.
        case cutOff
    }

    /// The stall check at `now`: `buffered` is what the transport still holds (nil: the queue's count).
    mutating func stallCheck(now: ConnectionTime, buffered: Int?) -> Stall {
        stallWatched = false
        guard open, isOverLimit else { return .over }
        let buffered = buffered ?? queuedBytes
        if buffered < lastBufferedBytes { lastWriteProgress = now }
        lastBufferedBytes = buffered
        if now &- lastWriteProgress >= limits.stallTimeout { return .cutOff }
        stallWatched = true
        return .watching
    }

    mutating func closed() {
        open = false
        stallWatched = false
    }
}
