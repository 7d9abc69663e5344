import SystemCalls
import Varlink

/// One Varlink connection to focusd on the adapter's loop: calls go out at once (pipelined), their
/// replies come back to their handlers in order (Varlink answers a connection's calls in order;
/// a `more` call keeps its place until its final reply).
///
/// Writes are blocking: a focusd that does not read would hold the adapter, but focusd reads ahead
/// up to 1 MiB even while it holds a connection back (service.md §2), and the adapter's messages
/// are far smaller.
final class VarlinkPeer {
    typealias ReplyHandler = (Result<VarlinkReply, VarlinkClientError>) -> Void

    private let loop: AdapterLoop
    private(set) var fd: Int32
    private var token: AdapterLoop.Token?
    private var buffer: [UInt8] = []
    private var scanned = 0
    private var pending: [ReplyHandler] = []
    /// Called once when the connection ends (by focusd, by an error, not by ``close()``).
    var onClose: ((String) -> Void)?
    /// Replies larger than this close the connection as a protocol violation.
    static let maxMessageSize = 64 << 20

    init(loop: AdapterLoop, path: String) throws(PosixError) {
        self.loop = loop
        fd = try Posix.connectUnix(path: path)
        token = loop.watch(fd) { [unowned self] _ in self.readable() }
    }

    deinit { close() }

    var isOpen: Bool { fd >= 0 }

    /// Sends a call; `reply` gets each reply (several for `more`, the last with `continues` false),
    /// or the failure that ended the connection. A `oneway` call gets no reply.
    func call(_ method: String, _ parameters: JSONValue, more: Bool = false, oneway: Bool = false, reply: ReplyHandler? = nil) {
        guard fd >= 0 else {
            reply?(.failure(.connectionClosed))
            return
        }
        var bytes = VarlinkCall(method: method, parameters: parameters, oneway: oneway, more: more).serialized()
        bytes.append(0)
        do {
            try Posix.sendAll(fd, bytes)
        } catch {
            reply?(.failure(.system(error)))
            fail("cannot write to focusd: \(error)")
            return
        }
        if !oneway { pending.append(reply ?? { _ in }) }
    }

    /// Closes the connection; pending calls are not answered.
    func close() {
        loop.remove(token)
        token = nil
        if fd >= 0 { Posix.closeDescriptor(fd) }
        fd = -1
        pending.removeAll()
    }

    private func readable() {
        let bytes: [UInt8]
        do {
            bytes = try Posix.readAvailable(fd)
        } catch {
            fail("the connection to focusd failed: \(error)")
            return
        }
        if bytes.isEmpty {
            fail("focusd closed the connection")
            return
        }
        buffer += bytes
        while fd >= 0, let end = buffer[scanned...].firstIndex(of: 0) {
            let message = buffer[..<end]
            let reply: VarlinkReply
            do {
                reply = try VarlinkReply(message: message)
            } catch {
                fail("focusd sent an invalid reply: \(error)")
                return
            }
            buffer.removeSubrange(...end)
            scanned = 0
            guard let handler = pending.first else {
                fail("focusd sent a reply to no call")
                return
            }
            if !reply.continues { pending.removeFirst() }
            handler(.success(reply))
        }
        scanned = buffer.count
        if buffer.count > Self.maxMessageSize { fail("focusd sent a reply over \(Self.maxMessageSize) bytes") }
    }

    private func fail(_ reason: String) {
        guard fd >= 0 else { return }
        let handlers = pending
        close()
        for handler in handlers { handler(.failure(.connectionClosed)) }
        onClose?(reason)
    }
}
