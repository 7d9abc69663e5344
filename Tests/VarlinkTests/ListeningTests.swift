import Dispatch
import Glibc
import NIOCore
import NIOPosix
import Testing
import Varlink

@Suite("Listening on inherited sockets", .timeLimit(.minutes(1)))
struct ListeningTests {
    @Test("a listening socket passed in (as systemd does) is adopted and served")
    func inheritedSocket() async throws {
        let directory = makeTemporaryDirectory()
        let path = directory + "/activated.sock"
        let fd = try #require(makeListeningSocket(path: path))
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let server = try await VarlinkServer.start(service: makeTestService(), endpoint: .listeningDescriptor(fd), eventLoop: group.next())
        #expect(server.socketPath == nil)
        #expect(try VarlinkClient(path: path).call("org.example.test.Echo", ["text": "activated"])["text"] == "activated")
        await server.shutdown()
        #expect(access(path, F_OK) == 0, "the socket file belongs to whoever passed the socket")
        unlink(path)
        rmdir(directory)
        try await group.shutdownGracefully()
    }

    @Test("a server started on its event loop shares state with other code on that loop")
    func startOnEventLoop() async throws {
        final class Counter { var value: Int64 = 0 }
        let directory = makeTemporaryDirectory()
        let path = directory + "/loop.sock"
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let changed = DispatchSemaphore(value: 0)
        let server = try await loop.flatSubmit { () -> EventLoopFuture<VarlinkServer> in
            let counter = Counter()
            let service = VarlinkService(vendor: "v", product: "p", version: "1", url: "u")
            try! service.register(description: "interface org.example.counter\nmethod Get() -> (value: int)") { call in
                call.reply(["value": .integer(counter.value)])
            }
            // Other code on the loop (say, input devices) changes the same state without locks.
            loop.assumeIsolated().scheduleTask(in: .zero) {
                counter.value = 7
                changed.signal()
            }
            return VarlinkServer.startOnEventLoop(service: service, endpoint: .path(path), eventLoop: loop)
        }.get()
        let client = try VarlinkClient(path: path)
        #expect(changed.wait(timeout: .now() + 10) == .success, "the loop never ran the change")
        #expect(try client.call("org.example.counter.Get")["value"] == 7)
        await server.shutdown()
        rmdir(directory)
        try await group.shutdownGracefully()
    }

    @Test("a descriptor that is not a listening socket is refused")
    func notListening() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { Task { try? await group.shutdownGracefully() } }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        await #expect(throws: VarlinkServer.StartError.self) {
            _ = try await VarlinkServer.start(service: makeTestService(), endpoint: .listeningDescriptor(fd), eventLoop: group.next())
        }
    }

    @Test("LISTEN_PID and LISTEN_FDS select fd 3 only for this process, and are then cleared")
    func systemdEnvironment() {
        setenv("LISTEN_FDS", "1", 1)
        setenv("LISTEN_PID", String(getpid() + 1), 1)
        #expect(VarlinkServer.Endpoint.systemdSocket() == nil)
        setenv("LISTEN_PID", String(getpid()), 1)
        guard case .listeningDescriptor(3) = VarlinkServer.Endpoint.systemdSocket() else {
            Issue.record("expected fd 3")
            return
        }
        #expect(getenv("LISTEN_FDS") == nil)
        #expect(getenv("LISTEN_PID") == nil)
    }
}

/// A bound, listening Unix socket at `path` (what systemd would pass).
func makeListeningSocket(path: String) -> Int32? {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: Array(path.utf8) + [0]) }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0, listen(fd, 16) == 0 else {
        close(fd)
        return nil
    }
    return fd
}
