import Foundation
import Glibc
import NIOCore
import NIOPosix
import Varlink

/// The interface the tests serve, with its own IDL text.
let testInterfaceDescription = """
    # A test interface for the Varlink module's own tests.
    interface org.example.test

    type Point (x: int, y: int)

    # Echoes its input.
    method Echo(text: string, count: ?int) -> (text: string, count: int)

    # Adds two points.
    method Add(a: Point, b: Point) -> (sum: Point)

    # Streams the numbers 1...count, the last one as the final reply.
    method Count(count: int) -> (value: int)

    # Streams `size`-byte replies without end, coalescible; a snapshot follows catching up.
    method Flood(size: int) -> (value: int, padding: string, snapshot: ?bool)

    # Streams one reply every `milliseconds` until the client goes away.
    method Tick(milliseconds: int) -> (value: int)

    # Records a note (call it oneway).
    method Note(text: string) -> ()

    # The notes recorded so far.
    method Notes() -> (notes: []string)

    # Answers after a delay (to show that later calls wait).
    method Delayed(milliseconds: int, tag: string) -> (tag: string)

    # Fails with Failed.
    method Fail(reason: string) -> ()

    # The caller's credentials as the server sees them.
    method WhoAmI() -> (pid: int, uid: int, gid: int, groups: []int)

    # Counters kept by the test service.
    method Stats() -> (maxQueued: int, deferred: int, caughtUp: int, closedConnections: int, openConnections: int, streamsCut: int)

    # Declared but not implemented.
    method Unimplemented() -> ()

    error Failed (reason: string)

    """

/// Counters the test handlers keep (event loop only); each change that a test may wait for is
/// published to `changes`.
final class TestStats {
    let changes: StatsChanges
    init(changes: StatsChanges) { self.changes = changes }

    var maxQueued = 0
    var deferred = 0 { didSet { changes.publish { $0.deferred = deferred } } }
    var caughtUp = 0
    var closedConnections = 0 { didSet { changes.publish { $0.closedConnections = closedConnections } } }
    /// Streams whose connection closed before they finished.
    var streamsCut = 0 { didSet { changes.publish { $0.streamsCut = streamsCut } } }
    /// `Delayed` calls dispatched (their replies may still be waiting).
    var delayedCalls = 0 { didSet { changes.publish { $0.delayedCalls = delayedCalls } } }
    var notes: [String] = []
}

/// The test service's counters as a test sees them from its own thread: the loop publishes each
/// change and wakes the waiters, so a test waits for the event itself, not on a timer.
final class StatsChanges: @unchecked Sendable {
    struct Snapshot: Sendable {
        var deferred = 0
        var streamsCut = 0
        var closedConnections = 0
        var openConnections = 0
        var delayedCalls = 0
    }

    private let condition = NSCondition()
    private var current = Snapshot()

    /// Called on the loop.
    func publish(_ change: (inout Snapshot) -> Void) {
        condition.lock()
        change(&current)
        condition.broadcast()
        condition.unlock()
    }

    var snapshot: Snapshot {
        condition.lock()
        defer { condition.unlock() }
        return current
    }

    /// Blocks until `holds` is true of the counters (true), or `timeout` passes without it (false;
    /// only a bound for a server that never gets there).
    func wait(timeout: Duration = .seconds(10), until holds: (Snapshot) -> Bool) -> Bool {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !holds(current) {
            guard condition.wait(until: deadline) else { return holds(current) }
        }
        return true
    }
}

struct EchoParameters: Codable {
    var text: String
    var count: Int?
}

struct Point: Codable, Equatable {
    var x: Int
    var y: Int
}

struct AddReply: Codable {
    var sum: Point
}

struct CountReply: Codable {
    var value: Int
}

/// Runs an encoding step, turning a failure into a Varlink error (it would be a bug in the test service).
func encodingFailure(_ body: () throws -> Void) throws(VarlinkError) {
    do { try body() } catch { throw VarlinkError("org.example.test.EncodingFailed", parameters: ["reason": .string("\(error)")]) }
}

struct AddParameters: Codable {
    var a: Point
    var b: Point
}

/// Builds the service the tests run against.
func makeTestService(changes: StatsChanges = StatsChanges()) -> VarlinkService {
    let service = VarlinkService(
        vendor: "focusd tests", product: "VarlinkTests", version: "1.0", url: "https://example.org/varlink-tests")
    let stats = TestStats(changes: changes)
    // Called before the connection is counted, and after it is no longer.
    service.acceptConnection = { [unowned service] _ in
        let open = service.connections.count + 1
        changes.publish { $0.openConnections = open }
        return true
    }
    service.connectionClosed = { [unowned service] _ in
        let open = service.connections.count
        changes.publish { $0.openConnections = open }
        stats.closedConnections += 1
    }
    try! service.register(description: testInterfaceDescription) { call throws(VarlinkError) in
        switch call.method {
        case "Echo":
            let parameters: EchoParameters = try call.decodeParameters()
            call.reply(["text": .string(parameters.text), "count": .integer(Int64(parameters.count ?? 1))])
        case "Add":
            let parameters: AddParameters = try call.decodeParameters()
            // Replies encoded straight from a Codable struct.
            try encodingFailure { try call.reply(encoding: AddReply(sum: Point(x: parameters.a.x + parameters.b.x, y: parameters.a.y + parameters.b.y))) }
        case "Count":
            guard let count = call.parameters["count"]?.integerValue, count >= 0 else { throw .invalidParameter("count") }
            let stream = try call.stream()
            if count == 0 { stream.finish(); return }
            for value in 1..<count { stream.send(["value": .integer(value)]) }
            try encodingFailure { try stream.finish(encoding: CountReply(value: Int(count))) }
        case "Flood":
            guard let size = call.parameters["size"]?.integerValue, size >= 0, size < 1 << 20 else { throw .invalidParameter("size") }
            let stream = try call.stream()
            stream.onClose = { stats.streamsCut += 1 }
            flood(stream, padding: String(repeating: "x", count: Int(size)), next: 1, stats: stats)
        case "Tick":
            guard let milliseconds = call.parameters["milliseconds"]?.integerValue, milliseconds > 0 else { throw .invalidParameter("milliseconds") }
            let stream = try call.stream()
            stream.onClose = { stats.streamsCut += 1 }
            tick(stream, every: .milliseconds(milliseconds), next: 1)
        case "Note":
            guard let text = call.parameters["text"]?.stringValue else { throw .invalidParameter("text") }
            stats.notes.append(text)
        case "Notes":
            call.reply(["notes": .array(stats.notes.map { .string($0) })])
        case "Delayed":
            guard let milliseconds = call.parameters["milliseconds"]?.integerValue else { throw .invalidParameter("milliseconds") }
            guard let tag = call.parameters["tag"] else { throw .invalidParameter("tag") }
            stats.delayedCalls += 1
            call.connection.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(milliseconds)) {
                call.reply(["tag": tag])
            }
        case "Fail":
            let reason = call.parameters["reason"]?.stringValue ?? ""
            throw VarlinkError("org.example.test.Failed", parameters: ["reason": .string(reason)])
        case "WhoAmI":
            let peer = call.peer
            call.reply([
                "pid": .integer(Int64(peer.pid)), "uid": .integer(Int64(peer.uid)), "gid": .integer(Int64(peer.gid)),
                "groups": .array(peer.groups.map { .integer(Int64($0)) }),
            ])
        case "Stats":
            call.reply([
                "maxQueued": .integer(Int64(stats.maxQueued)), "deferred": .integer(Int64(stats.deferred)),
                "caughtUp": .integer(Int64(stats.caughtUp)), "closedConnections": .integer(Int64(stats.closedConnections)),
                "openConnections": .integer(Int64(service.connections.count)),
                "streamsCut": .integer(Int64(stats.streamsCut)),
            ])
        default:
            throw .methodNotImplemented(call.call.method)
        }
    }
    return service
}

/// Sends coalescible replies as fast as the loop allows; on catching up, one snapshot.
private func flood(_ stream: VarlinkStream, padding: String, next: Int64, stats: TestStats) {
    var value = next
    stream.onCaughtUp = {
        stats.caughtUp += 1
        stream.send(["value": .integer(value), "padding": "", "snapshot": true])
    }
    for _ in 0..<16 {
        guard stream.isOpen else { return }
        if stream.send(["value": .integer(value), "padding": .string(padding)], coalescible: true) == .deferred {
            stats.deferred += 1
        }
        stats.maxQueued = max(stats.maxQueued, stream.queuedBytes)
        value += 1
    }
    stream.connection.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(1)) {
        flood(stream, padding: padding, next: value, stats: stats)
    }
}

private func tick(_ stream: VarlinkStream, every interval: TimeAmount, next: Int64) {
    guard stream.isOpen else { return }
    stream.send(["value": .integer(next)])
    stream.connection.eventLoop.assumeIsolated().scheduleTask(in: interval) {
        tick(stream, every: interval, next: next + 1)
    }
}

/// A server on a socket in a fresh temporary directory, with the test service.
final class TestServer: Sendable {
    let server: VarlinkServer
    let directory: String
    let group: MultiThreadedEventLoopGroup
    /// The test service's counters as they change (unchanging for another service).
    let changes: StatsChanges
    var path: String { directory + "/test.sock" }

    static func start(
        configure: (inout VarlinkServer.Configuration) -> Void = { _ in },
        options: VarlinkServer.SocketFileOptions = .init(),
        service: sending VarlinkService? = nil
    ) async throws -> TestServer {
        let changes = StatsChanges()
        let service = service ?? makeTestService(changes: changes)
        let directory = makeTemporaryDirectory()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var configuration = VarlinkServer.Configuration()
        configure(&configuration)
        let server = try await VarlinkServer.start(
            service: service, endpoint: .path(directory + "/test.sock", options), configuration: configuration,
            eventLoop: group.next())
        return TestServer(server: server, directory: directory, group: group, changes: changes)
    }

    private init(server: VarlinkServer, directory: String, group: MultiThreadedEventLoopGroup, changes: StatsChanges) {
        self.server = server
        self.directory = directory
        self.group = group
        self.changes = changes
    }

    /// Waits until the test service's counters satisfy `holds` (see ``StatsChanges/wait(timeout:until:)``).
    func waitForStats(timeout: Duration = .seconds(10), until holds: (StatsChanges.Snapshot) -> Bool) -> Bool {
        changes.wait(timeout: timeout, until: holds)
    }

    func client(timeout: Duration = .seconds(5)) throws -> VarlinkClient {
        try VarlinkClient(path: path, timeout: timeout)
    }

    func stop() async {
        await server.shutdown()
        try? await group.shutdownGracefully()
        rmdir(directory)
    }

    /// The test service's counters.
    func stats() throws -> JSONValue {
        try client().call("org.example.test.Stats")
    }
}

func makeTemporaryDirectory() -> String {
    var template = Array("/tmp/varlink-test-XXXXXX".utf8CString)
    let result = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    precondition(result != nil, "mkdtemp failed")
    return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
