import SystemCalls
/// Why a client call failed other than by an error reply (those throw ``VarlinkError``).
public enum VarlinkClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A system call failed (connect, send, recv, poll).
    case system(PosixError)
    /// No whole reply arrived within the timeout.
    case timedOut
    /// The server closed the connection.
    case connectionClosed
    /// The server sent something that is not a Varlink reply.
    case protocolViolation(VarlinkProtocolError)
    /// A `more` stream was read past its final reply.
    case streamFinished

    public var description: String {
        switch self {
        case .system(let error): return error.description
        case .timedOut: return "timed out waiting for a reply"
        case .connectionClosed: return "the server closed the connection"
        case .protocolViolation(let error): return "invalid reply: \(error)"
        case .streamFinished: return "the stream has already ended"
        }
    }
}

/// A small blocking Varlink client on a Unix socket, for command-line tools and tests.
///
/// ```swift
/// let client = try VarlinkClient(path: "/run/focusd/focusd.sock")
/// let info = try client.call("org.varlink.service.GetInfo")
/// let replies = try client.callMore("io.focusd.Focus.Monitor", ["scene": "main"])
/// while let event = try replies.next(timeout: .seconds(5)) { print(event) }
/// ```
///
/// Not thread-safe; one call at a time (pipelining is possible with ``send(_:)`` and ``receive(timeout:)``).
public final class VarlinkClient {
    private var fd: Int32
    private var buffer: [UInt8] = []
    private var scanned = 0
    /// Replies longer than this (bytes) are refused.
    public var maxMessageSize = 32 << 20
    /// The default time to wait for each reply (`nil`: forever).
    public var timeout: Duration?

    /// Connects to the Varlink server listening at `path`.
    public init(path: String, timeout: Duration? = .seconds(30)) throws(VarlinkClientError) {
        do { fd = try Posix.connectUnix(path: path) } catch { throw .system(error) }
        self.timeout = timeout
    }

    deinit { close() }

    /// Closes the connection (idempotent).
    public func close() {
        if fd >= 0 { Posix.closeDescriptor(fd) }
        fd = -1
    }

    /// Calls `method` and returns its reply's parameters.
    ///
    /// - Throws: ``VarlinkError`` for an error reply, ``VarlinkClientError`` when the exchange fails.
    @discardableResult
    public func call(_ method: String, _ parameters: JSONValue = [:]) throws -> JSONValue {
        try send(VarlinkCall(method: method, parameters: parameters))
        let reply = try receive()
        if let error = reply.error { throw VarlinkError(error, parameters: reply.parameters) }
        return reply.parameters
    }

    /// Calls `method` with `Encodable` parameters and decodes the reply into `R`.
    public func call<R: Decodable>(_ method: String, _ parameters: some Encodable, returning: R.Type = R.self) throws -> R {
        try call(method, try JSONValue(encoding: parameters)).decode(R.self)
    }

    /// Sends a `oneway` call: no reply is sent or awaited.
    public func callOneway(_ method: String, _ parameters: JSONValue = [:]) throws {
        try send(VarlinkCall(method: method, parameters: parameters, oneway: true))
    }

    /// Sends a `more` call and returns its replies, read one at a time.
    public func callMore(_ method: String, _ parameters: JSONValue = [:]) throws -> VarlinkReplySequence {
        try send(VarlinkCall(method: method, parameters: parameters, more: true))
        return VarlinkReplySequence(client: self)
    }

    /// Sends one call message (for pipelining; read the replies with ``receive(timeout:)``).
    public func send(_ call: VarlinkCall) throws(VarlinkClientError) {
        var bytes = call.serialized()
        bytes.append(0)
        try sendRaw(bytes)
    }

    /// Sends bytes as they are (tests use it for malformed or partial messages).
    public func sendRaw(_ bytes: [UInt8]) throws(VarlinkClientError) {
        guard fd >= 0 else { throw .connectionClosed }
        do { try Posix.sendAll(fd, bytes) } catch { throw .system(error) }
    }

    /// Shuts down the sending side; the server answers what it has and then closes.
    public func finishSending() throws(VarlinkClientError) {
        do { try Posix.shutdownWrite(fd) } catch { throw .system(error) }
    }

    /// Reads the next reply, waiting at most `timeout` (default: ``timeout``).
    public func receive(timeout: Duration? = nil) throws(VarlinkClientError) -> VarlinkReply {
        let message = try receiveMessage(timeout: timeout ?? self.timeout)
        do { return try VarlinkReply(message: message) } catch { throw .protocolViolation(error) }
    }

    /// Reads the next NUL-terminated message (without the NUL).
    public func receiveMessage(timeout: Duration?) throws(VarlinkClientError) -> [UInt8] {
        guard fd >= 0 else { throw .connectionClosed }
        let deadline = timeout.map { Posix.monotonicNanoseconds() + UInt64($0.nanosecondsClamped) }
        while true {
            if let end = buffer[scanned...].firstIndex(of: 0) {
                let message = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                scanned = 0
                return message
            }
            scanned = buffer.count
            if buffer.count > maxMessageSize { throw .protocolViolation(.messageTooLarge(limit: maxMessageSize)) }
            var waitMilliseconds: Int32 = -1
            if let deadline {
                let now = Posix.monotonicNanoseconds()
                guard now < deadline else { throw .timedOut }
                waitMilliseconds = Int32(clamping: (deadline - now + 999_999) / 1_000_000)
            }
            do {
                guard try Posix.waitReadable(fd, timeoutMilliseconds: waitMilliseconds) else { throw VarlinkClientError.timedOut }
                let count = try Posix.read(fd, into: &buffer)
                if count == 0 { throw VarlinkClientError.connectionClosed }
            } catch let error as PosixError {
                throw .system(error)
            } catch let error as VarlinkClientError {
                throw error
            } catch {
                throw .connectionClosed
            }
        }
    }

    /// Whether the server has closed the connection: waits up to `timeout` for end of stream,
    /// discarding any replies that arrive meanwhile.
    public func waitForClose(timeout: Duration) -> Bool {
        let deadline = Posix.monotonicNanoseconds() + UInt64(timeout.nanosecondsClamped)
        while Posix.monotonicNanoseconds() < deadline {
            let left = Duration.nanoseconds(Int64(deadline - Posix.monotonicNanoseconds()))
            do {
                _ = try receiveMessage(timeout: left)
            } catch .connectionClosed {
                return true
            } catch .system(let error) where error.errno == Posix.connectionReset {
                return true
            } catch {
                return false
            }
        }
        return false
    }
}

/// The replies to a `more` call, read one at a time.
public final class VarlinkReplySequence {
    private let client: VarlinkClient
    private var finished = false

    init(client: VarlinkClient) {
        self.client = client
    }

    /// The next reply's parameters, or `nil` after the final one; an error reply throws
    /// ``VarlinkError`` (and ends the stream).
    public func next(timeout: Duration? = nil) throws -> JSONValue? {
        guard !finished else { return nil }
        let reply = try client.receive(timeout: timeout)
        if !reply.continues { finished = true }
        if let error = reply.error { throw VarlinkError(error, parameters: reply.parameters) }
        return reply.parameters
    }

    /// Whether the final reply has been read.
    public var isFinished: Bool { finished }
}

extension Duration {
    var nanosecondsClamped: Int64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : product + attoseconds / 1_000_000_000
    }
}
