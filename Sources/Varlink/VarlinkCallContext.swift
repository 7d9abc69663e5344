import NIOCore

/// The message bytes (without the NUL) of a reply whose parameters are `value`, which must
/// encode as an object: encoded straight after the message's opening, with no copy.
func encodeReplyMessage(_ value: some Encodable, continues: Bool) throws -> [UInt8] {
    let prefix = #"{"parameters":"#.utf8
    let writer = JSONTextWriter()
    writer.output.append(contentsOf: prefix)
    try writer.encodeRoot(value)
    guard writer.output.count > prefix.count, writer.output[prefix.count] == UInt8(ascii: "{") else {
        throw EncodingError.invalidValue(
            value, .init(codingPath: [], debugDescription: "Varlink reply parameters must encode as a JSON object"))
    }
    if continues { writer.output.append(contentsOf: #","continues":true"#.utf8) }
    writer.output.append(UInt8(ascii: "}"))
    return writer.output
}

/// The message of a reply whose parameters `write` writes by hand (an object; see
/// ``JSONBytes``), with its NUL, written straight into the buffer it is queued in: a message
/// longer than `capacity` is copied there once at the end. (Written in memory of its own and
/// copied into a new buffer, each message paid a second allocation, its release and the copy.)
func writeReplyMessage(continues: Bool, capacity: Int, _ write: (inout JSONBytes) throws -> Void) rethrows -> ByteBuffer {
    var buffer = ByteBufferAllocator().buffer(capacity: capacity)
    var longer: ByteBuffer?
    try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: capacity) { memory in
        var json = JSONBytes(writingInto: memory)
        json.raw(#"{"parameters":"#)
        try write(&json)
        if continues { json.raw(#","continues":true"#) }
        json.byte(UInt8(ascii: "}"))
        json.byte(0)
        guard json.isInLentMemory else {
            longer = json.buffer()
            return 0
        }
        return json.writtenCount
    }
    return longer ?? buffer
}

/// JSON text of an `Encodable` value that must be an object (reply parameters).
func encodeParameters(_ value: some Encodable) throws -> [UInt8] {
    let bytes = try JSONTextEncoder().encode(value)
    guard bytes.first == UInt8(ascii: "{") else {
        throw EncodingError.invalidValue(
            value, .init(codingPath: [], debugDescription: "Varlink reply parameters must encode as a JSON object"))
    }
    return bytes
}

/// A reply encoded once to be sent on many streams (an event for each of a scene's monitors):
/// each stream queues the same bytes, neither encoded nor copied again.
public struct VarlinkEncodedReply: Sendable {
    /// The message, with its NUL.
    let buffer: ByteBuffer

    init(buffer: ByteBuffer) {
        self.buffer = buffer
    }

    /// Encodes `value`'s fields (it must encode as an object) as one reply of a stream.
    public init(encoding value: some Encodable, continues: Bool = true) throws {
        var bytes = try encodeReplyMessage(value, continues: continues)
        bytes.append(0)
        buffer = ByteBuffer(bytes: bytes)
    }

    /// A reply of a stream whose parameters `write` writes by hand: a JSON object, the same text
    /// as the `Encodable` value it stands for (see ``JSONBytes``). `capacity`: the bytes the
    /// message is expected to take (past them it is written again into memory of its own).
    public init(continues: Bool = true, capacity: Int = 320, writing write: (inout JSONBytes) throws -> Void) rethrows {
        buffer = try writeReplyMessage(continues: continues, capacity: capacity, write)
    }
}

/// One call being answered: its parameters, who made it, and the means to reply.
///
/// Lives on the connection's event loop; use it only there. Exactly one answer ends a call:
/// ``reply(_:)``, ``fail(_:)``, or, for a `more` call, ``stream()`` and then
/// ``VarlinkStream/finish(_:)`` or ``VarlinkStream/fail(_:)``. Answers after the first, and any
/// answer to a `oneway` call, are ignored.
public final class VarlinkCallContext {
    /// The call as received (its parameters `{}` once ``takeParameters()`` took them).
    public private(set) var call: VarlinkCall
    /// The connection it came on.
    public let connection: VarlinkConnection
    /// Unchecked: only read and assigned whole (see ``VarlinkConnection``'s rule).
    @exclusivity(unchecked) private var answered = false
    private var activeStream: VarlinkStream?

    /// The parameters as the server's ``LargeCallDecoder`` read them from the message's bytes
    /// (then ``parameters`` holds only what the decoder chose to show), or nil.
    public private(set) var decoded: (any Sendable)?

    /// The size of the call's message when it was parsed on the parser thread: its parameters
    /// (and what the decoder read) are freed there too when the context goes
    /// (``VarlinkConnection/releaseOffLoop(_:size:)``).
    var releasedOffLoop: Int?
    /// The size of the call's message in bytes (without its NUL): what a handler may weigh the
    /// work of a call by before its parameters are counted.
    public let messageSize: Int

    /// `method`: the call's member name (``VarlinkCall/memberName``), as the service found it.
    init(call: VarlinkCall, method: String, connection: VarlinkConnection, decoded: (any Sendable)? = nil, messageSize: Int = 0) {
        self.call = call
        self.method = method
        self.connection = connection
        self.decoded = decoded
        self.messageSize = messageSize
    }

    deinit {
        // Every frame that used the call has returned (each held the context): the parameters'
        // last copy on the loop is this one.
        guard let size = releasedOffLoop else { return }
        let garbage = Garbage(call.parameters, decoded: decoded)
        call.parameters = [:]
        decoded = nil
        connection.releaseOffLoop(garbage, size: size)
    }

    /// The method's member name, e.g. `GetState` for `io.focusd.Focus.GetState`. Cut from the
    /// call once: dispatch and the handler each asked for it (a search and a new string each time).
    public let method: String
    /// The call's parameters (an object).
    public var parameters: JSONValue { call.parameters }
    /// The call's fully qualified method, read alone: `call.method` from another module copied
    /// the whole call out first.
    public var qualifiedMethod: String { call.method }

    /// The call's ``VarlinkCall/members`` (a small call's parameters as its reader found them),
    /// taken alone: a reference, where reading them through `call` copied the whole call out
    /// first (0.24k instructions).
    package var members: [VarlinkCall.Member]? { call.members }
    /// The caller's credentials.
    public var peer: PeerCredentials { connection.peer }
    /// The caller accepts a stream of replies.
    public var more: Bool { call.more }
    /// The caller wants no reply.
    public var oneway: Bool { call.oneway }
    /// Whether the call has been answered (for streams: finished).
    public var isAnswered: Bool { answered }

    /// Takes the parameters out of the call, leaving `{}`: a handler that works on a large call
    /// elsewhere takes them along, so that their memory is freed there, not on the event loop.
    public func takeParameters() -> JSONValue {
        let parameters = call.parameters
        call.parameters = [:]
        return parameters
    }

    /// Takes ``decoded`` out of the call, leaving nil (as ``takeParameters()``, for a handler
    /// that frees it elsewhere).
    public func takeDecoded() -> (any Sendable)? {
        let value = decoded
        decoded = nil
        return value
    }

    /// Decodes the parameters into `T`; failures become `InvalidParameter` naming the field.
    public func decodeParameters<T: Decodable>(_ type: T.Type = T.self) throws(VarlinkError) -> T {
        try call.parameters.decodeParameters(T.self)
    }

    /// Answers the call with `parameters` (an object); for a `more` call this is its only, final reply.
    public func reply(_ parameters: JSONValue = [:]) {
        answer(VarlinkReply(parameters: parameters))
    }

    /// Answers with an `Encodable` value's fields, encoded straight to JSON text (no
    /// ``JSONValue`` in between: the cheap way to send large replies).
    ///
    /// - Throws: the encoder's error, or `EncodingError.invalidValue` unless `value` encodes as an object.
    public func reply(encoding value: some Encodable) throws {
        answer(message: try encodeReplyMessage(value, continues: false))
    }

    /// Answers with parameters `write` writes by hand: a JSON object, the same text as the
    /// `Encodable` value it stands for (see ``JSONBytes``).
    public func reply(writing write: (inout JSONBytes) throws -> Void) rethrows {
        reply(VarlinkEncodedReply(buffer: try writeReplyMessage(continues: false, capacity: 512, write)))
    }

    /// Answers with a reply encoded beforehand (`VarlinkEncodedReply(encoding:continues: false)`),
    /// so that a large reply can be encoded off the event loop.
    public func reply(_ encoded: VarlinkEncodedReply) {
        guard !answered else { return }
        answered = true
        activeStream?.ended()
        activeStream = nil
        if !call.oneway { connection.sendMessage(shared: encoded.buffer) }
        connection.callCompleted(self)
    }

    /// Answers the call with an error.
    public func fail(_ error: VarlinkError) {
        answer(VarlinkReply(parameters: error.parameters, error: error.name))
    }

    /// Answers the call with the error `name` (fully qualified) and its parameters.
    public func fail(_ name: String, parameters: JSONValue = [:]) {
        fail(VarlinkError(name, parameters: parameters))
    }

    /// The stream to answer a `more` call with; throws `org.varlink.service.ExpectedMore` when the
    /// call was made without `more` (throw it on from the handler). Calling it again returns the
    /// same stream.
    public func stream() throws(VarlinkError) -> VarlinkStream {
        // A oneway call takes no replies, so it cannot be a stream either: its handler's
        // ExpectedMore goes unanswered and nothing is left subscribed.
        guard call.more, !call.oneway else { throw .expectedMore }
        if let activeStream { return activeStream }
        let stream = VarlinkStream(context: self)
        activeStream = stream
        return stream
    }

    /// Throws `org.varlink.service.ExpectedMore` unless the call was made with `more`.
    public func requireMore() throws(VarlinkError) {
        guard call.more else { throw .expectedMore }
    }

    // MARK: Internal

    func answer(_ reply: VarlinkReply) {
        guard !answered else { return }
        answered = true
        activeStream?.ended()
        activeStream = nil
        if !call.oneway { connection.send(reply) }
        connection.callCompleted(self)
    }

    func answer(message: [UInt8]) {
        guard !answered else { return }
        answered = true
        activeStream?.ended()
        activeStream = nil
        if !call.oneway { connection.sendMessage(message) }
        connection.callCompleted(self)
    }

    /// A oneway call is complete once its handler returns.
    func handlerReturned() {
        if call.oneway && !answered {
            answered = true
            activeStream?.ended()
            activeStream = nil
            connection.callCompleted(self)
        }
    }

    func connectionClosed() {
        answered = true
        activeStream?.connectionClosed()
        activeStream = nil
    }
}

/// The replies to a `more` call: any number of ``send(_:coalescible:)``, then ``finish(_:)``
/// (or ``fail(_:)``). Lives on the connection's event loop.
///
/// Backpressure: each connection has a bounded outgoing queue
/// (``VarlinkServer/Configuration/outgoingQueueLimit``). A reply sent as `coalescible` while the
/// queue is over that bound is not queued; the stream is marked ``isBehind`` and, once the client
/// has drained the queue to half the bound, ``onCaughtUp`` is called so the owner can send one
/// reply summarizing what was skipped (typically the latest state). Replies not marked coalescible
/// are always queued; a client that stays over the bound without reading for the configured stall
/// timeout is disconnected.
public final class VarlinkStream {
    /// What became of a reply handed to ``VarlinkStream/send(_:coalescible:)``.
    public enum SendOutcome: Equatable, Sendable {
        /// Queued for the client.
        case queued
        /// Not queued: the client is behind; ``VarlinkStream/onCaughtUp`` will be called.
        case deferred
        /// Not queued: the stream is finished or its connection closed.
        case closed
    }

    private let context: VarlinkCallContext
    /// Unchecked: only read and assigned whole (see ``VarlinkConnection``'s rule).
    @exclusivity(unchecked) private var finished = false
    /// The call's `oneway`, which never changes (reading it through `context.call` was an
    /// access check and a copy of the call for every reply).
    private let oneway: Bool

    /// The connection the stream writes to.
    public let connection: VarlinkConnection
    /// The call the stream answers.
    public var call: VarlinkCall { context.call }

    /// Whether coalescible replies were skipped since the client last caught up.
    @exclusivity(unchecked) public internal(set) var isBehind = false

    /// Called (once per episode) when a stream that skipped coalescible replies may send again.
    public var onCaughtUp: (() -> Void)?

    /// Called when the connection closes before the stream finished (the client went away).
    public var onClose: (() -> Void)?

    init(context: VarlinkCallContext) {
        self.context = context
        self.connection = context.connection
        self.oneway = context.oneway
    }

    /// Whether replies can still be sent (not finished, connection open).
    public var isOpen: Bool { !finished && connection.isOpen }

    /// Bytes queued on the connection and not yet written to the client.
    public var queuedBytes: Int { connection.queuedBytes }

    /// Sends one reply with `continues: true`.
    ///
    /// - Parameter coalescible: the reply may be skipped when the client is behind; see the type's
    ///   discussion.
    @discardableResult
    public func send(_ parameters: JSONValue, coalescible: Bool = false) -> SendOutcome {
        guard isOpen else { return .closed }
        if oneway { return .queued }
        if coalescible && (isBehind || connection.isOverQueueLimit) {
            if !isBehind {
                isBehind = true
                connection.streamFellBehind(self)
            }
            return .deferred
        }
        connection.send(VarlinkReply(parameters: parameters, continues: true))
        return .queued
    }

    /// Sends an `Encodable` value's fields, encoded straight to JSON text, as one reply with
    /// `continues: true`. The value is not encoded when the reply is deferred or the stream closed.
    @discardableResult
    public func send(encoding value: some Encodable, coalescible: Bool = false) throws -> SendOutcome {
        guard isOpen else { return .closed }
        if oneway { return .queued }
        if coalescible && (isBehind || connection.isOverQueueLimit) {
            return send([:], coalescible: true)  // marks the stream behind; nothing is sent
        }
        connection.sendMessage(try encodeReplyMessage(value, continues: true))
        return .queued
    }

    /// Sends a reply encoded once for many streams (see ``VarlinkEncodedReply``); the same
    /// rules as ``send(_:coalescible:)``.
    @discardableResult
    public func send(_ reply: VarlinkEncodedReply, coalescible: Bool = false) -> SendOutcome {
        guard isOpen else { return .closed }
        if oneway { return .queued }
        if coalescible && (isBehind || connection.isOverQueueLimit) {
            return send([:], coalescible: true)  // marks the stream behind; nothing is sent
        }
        connection.sendMessage(shared: reply.buffer)
        return .queued
    }

    /// Sends an `Encodable` value's fields as the final reply and ends the call.
    public func finish(encoding value: some Encodable) throws {
        guard isOpen else { return }
        context.answer(message: try encodeReplyMessage(value, continues: false))
    }

    /// Sends the final reply (without `continues`) and ends the call.
    public func finish(_ parameters: JSONValue = [:]) {
        guard isOpen else { return }
        context.answer(VarlinkReply(parameters: parameters))
    }

    /// Ends the call with an error reply.
    public func fail(_ error: VarlinkError) {
        guard isOpen else { return }
        context.fail(error)
    }

    func ended() {
        finished = true
        onCaughtUp = nil
        onClose = nil
        connection.streamEnded(self)
    }

    func connectionClosed() {
        guard !finished else { return }
        finished = true
        let callback = onClose
        onCaughtUp = nil
        onClose = nil
        callback?()
    }

    func caughtUp() {
        guard isBehind else { return }
        isBehind = false
        if isOpen { onCaughtUp?() }
    }
}
