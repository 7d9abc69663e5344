// The relay floor: the least a daemon built as focusd is (an input thread reading devices, a
// second thread owning the clients) can cost between the kernel and a client, with none of
// focusd's work. `relay NODE SOCKET --hops 1|2` (Tests/RealKernel/README.md, scenario 78).
//
//   hops 1: reader thread ──write──▶ client                       (2 wake-ups: reader, client)
//   hops 2: reader thread ──eventfd──▶ writer thread ──write──▶ client
//                                                        (3 wake-ups: reader, writer, client)
//
// The hand-off of hops 2 is the one focusd's `eventLoop.execute` makes (NIO's loop): the event is
// appended to a mutex-protected queue and an eventfd is written when the queue was empty; the
// writer sleeps in `epoll_wait` on that eventfd, reads it, takes the queue and writes one message
// per event. A bare eventfd can carry only a counter, so the queue is needed to carry the event.
import CInputLinux  // epoll and eventfd, which Glibc does not export
import CLibevdev
import Glibc

/// `relay NODE SOCKET [--hops 1|2] [--size BYTES]`.
func relay(_ args: ArraySlice<String>) throws {
    let opts = try Options(args, valued: ["--hops", "--size"], flags: [])
    guard opts.positional.count == 2 else { throw ToolError("usage: relay NODE SOCKET [--hops 1|2] [--size BYTES]") }
    let hops = Int(opts.values["--hops"] ?? "2") ?? 0
    guard hops == 1 || hops == 2 else { throw ToolError("--hops takes 1 or 2") }
    let size = Int(opts.values["--size"] ?? "512") ?? 0
    guard size >= RelayMessage.minimumSize, size <= 65536 else {
        throw ToolError("--size takes a byte count from \(RelayMessage.minimumSize) to 65536")
    }
    let reader = try EvdevReader(path: opts.positional[0], grab: false)
    let client = try RelayClient.accept(path: opts.positional[1], announce: "listening \(opts.positional[1])")
    let message = RelayMessage(size: size)
    if hops == 1 {
        // The reader thread formats and writes itself.
        var buffer = message.makeBuffer()
        try forEachKeyEvent(reader) { e in
            message.fill(&buffer, with: e)
            return client.send(buffer)
        }
        return
    }
    let handoff = try Handoff()
    let writer = RelayWriter(handoff: handoff, client: client, message: message)
    try writer.start()
    try forEachKeyEvent(reader) { e in
        handoff.push(e)
        return true
    }
}

/// Calls `body` with each EV_KEY event of `reader` until it returns false or the device goes.
/// An overflow (SYN_DROPPED) is reported on stderr and skipped: its resync is state, not presses.
private func forEachKeyEvent(_ reader: EvdevReader, _ body: (ReadEvent) -> Bool) throws {
    while true {
        switch try reader.next() {
        case .event(let e):
            if e.type == UInt32(EV_KEY) && !body(e) { return }
        case .dropped:
            printError("relay: SYN_DROPPED (the kernel's buffer overflowed)")
        case .gone:
            return
        }
    }
}

/// Writes `line` on stderr.
private func printError(_ line: String) {
    _ = (line + "\n").withCString { Glibc.write(2, $0, strlen($0)) }
}

/// The one client of the relay: a Unix stream socket accepted on `path`, spoken to as focusd's
/// Monitor speaks (NUL-terminated JSON), so `focusd-testdevice monitor` is the client.
final class RelayClient: @unchecked Sendable {  // written by one thread at a time (the writer)
    let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    /// Listens on `path`, prints `announce`, accepts one connection, reads its call (up to the
    /// first NUL) and answers it with a first reply, as a Monitor call is answered.
    static func accept(path: String, announce: String) throws -> RelayClient {
        signal(SIGPIPE, SIG_IGN)  // a client that goes away ends the relay through write's EPIPE
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw ToolError.errno("socket", errno) }
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard path.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else { throw ToolError("socket path too long: \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        unlink(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw ToolError.errno("cannot bind \(path)", errno) }
        guard listen(listener, 1) == 0 else { throw ToolError.errno("listen", errno) }
        emit(announce)
        let fd = Glibc.accept(listener, nil, nil)
        guard fd >= 0 else { throw ToolError.errno("accept", errno) }
        var byte: UInt8 = 1
        repeat {
            guard Glibc.read(fd, &byte, 1) == 1 else { throw ToolError("the client closed before its call") }
        } while byte != 0
        let client = RelayClient(fd: fd)
        guard client.send(Array("{\"parameters\":{\"relay\":true}}".utf8) + [0]) else { throw ToolError("cannot answer the call") }
        return client
    }

    /// Writes all of `bytes`; false when the client is gone.
    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
    }
}

/// The fixed-size message the relay writes per key event:
/// `{"parameters":{"kernel":"SEC.USEC","code":C,"value":V,"pad":"xx…"}}` and a NUL, `size` bytes
/// in all (the scenario passes the size of focusd's focus event). Formatting writes digits into a
/// reused buffer: no allocation per event.
struct RelayMessage: Sendable {
    let size: Int
    static let minimumSize = 128

    func makeBuffer() -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(size)
        return buffer
    }

    func fill(_ buffer: inout [UInt8], with e: ReadEvent) {
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: #"{"parameters":{"kernel":""#.utf8)
        Self.decimal(e.seconds, into: &buffer)
        buffer.append(UInt8(ascii: "."))
        Self.decimal(e.microseconds, into: &buffer, width: 6)
        buffer.append(contentsOf: #"","code":"#.utf8)
        Self.decimal(Int(e.code), into: &buffer)
        buffer.append(contentsOf: #","value":"#.utf8)
        Self.decimal(Int(e.value), into: &buffer)
        buffer.append(contentsOf: #","pad":""#.utf8)
        let tail = #""}}"#.utf8
        while buffer.count < size - tail.count - 1 { buffer.append(UInt8(ascii: "x")) }
        buffer.append(contentsOf: tail)
        buffer.append(0)
    }

    /// Appends `n` in decimal, left-padded with zeros to `width` digits.
    private static func decimal(_ n: Int, into buffer: inout [UInt8], width: Int = 1) {
        if n < 0 { buffer.append(UInt8(ascii: "-")) }
        var magnitude = n.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            repeat {
                raw[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0 || count < width
            for i in stride(from: count - 1, through: 0, by: -1) { buffer.append(raw[i]) }
        }
    }
}

/// The hand-off between the reader thread and the writer thread: a mutex-protected queue and an
/// eventfd written when the queue goes from empty to non-empty (one wake-up per batch, as NIO's
/// `execute` wakes its selector).
final class Handoff: @unchecked Sendable {  // the queue is only touched under `mutex`
    let eventfd: Int32
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var queue: [ReadEvent] = []

    init() throws {
        eventfd = cinput_eventfd_create()  // non-blocking: the writer reads it once epoll says so
        guard eventfd >= 0 else { throw ToolError.errno("eventfd", errno) }
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        queue.reserveCapacity(64)
    }

    /// Queues `e` (reader thread); wakes the writer if the queue was empty.
    func push(_ e: ReadEvent) {
        pthread_mutex_lock(mutex)
        let wasEmpty = queue.isEmpty
        queue.append(e)
        pthread_mutex_unlock(mutex)
        if wasEmpty {
            var one: UInt64 = 1
            _ = Glibc.write(eventfd, &one, 8)
        }
    }

    /// Moves the queued events into `into` (writer thread), which must be empty.
    func take(into: inout [ReadEvent]) {
        pthread_mutex_lock(mutex)
        swap(&queue, &into)
        pthread_mutex_unlock(mutex)
    }
}

/// The writer thread of hops 2: sleeps in `epoll_wait` on the hand-off's eventfd (as an event loop
/// sleeps), then writes one message per queued event. Exits the process when the client goes.
final class RelayWriter: @unchecked Sendable {  // used only by the thread it starts
    private let handoff: Handoff
    private let client: RelayClient
    private let message: RelayMessage

    init(handoff: Handoff, client: RelayClient, message: RelayMessage) {
        self.handoff = handoff
        self.client = client
        self.message = message
    }

    func start() throws {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let rc = pthread_create(&thread, nil, { context in
            Unmanaged<RelayWriter>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        guard rc == 0 else { throw ToolError.errno("pthread_create", rc) }
    }

    private func run() -> Never {
        let epoll = cinput_epoll_create()
        guard epoll >= 0, cinput_epoll_add(epoll, handoff.eventfd, 0) == 0 else {
            printError("error: cannot watch the eventfd: errno \(errno)")
            exit(2)
        }
        var token: UInt64 = 0, bits: UInt32 = 0
        var counter: UInt64 = 0
        var events: [ReadEvent] = []
        events.reserveCapacity(64)
        var buffer = message.makeBuffer()
        while true {
            guard cinput_epoll_wait(epoll, &token, &bits, 1, -1) == 1 else { continue }  // EINTR
            _ = Glibc.read(handoff.eventfd, &counter, 8)
            handoff.take(into: &events)
            for e in events {
                message.fill(&buffer, with: e)
                guard client.send(buffer) else { exit(0) }
            }
            events.removeAll(keepingCapacity: true)
        }
    }
}
