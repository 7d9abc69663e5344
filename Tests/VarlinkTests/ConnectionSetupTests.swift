import Dispatch
import Glibc
import Testing
@testable import Varlink

/// What setting up one connection costs the event loop does not grow with the connections
/// already open, and needs no file read (issue 11: a client opening a thousand connections).
@Suite("Connection setup", .timeLimit(.minutes(1)))
struct ConnectionSetupTests {
    @Test("a peer without supplementary groups is known to have none from the socket, without reading /proc")
    func noGroupsWithoutProc() async throws {
        // Meaningful only for a test process without supplementary groups (as CI runs it); one
        // with groups reads them from the socket as before, which ServerProtocolTests checks.
        guard getgroups(0, nil) == 0 else { return }
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let before = PeerCredentials.procStatusReads.load(ordering: .relaxed)
        for _ in 0..<3 {
            let who = try server.client().call("org.example.test.WhoAmI")
            #expect(who["groups"] == .array([]))
        }
        #expect(PeerCredentials.procStatusReads.load(ordering: .relaxed) == before)
    }

    @Test("the Groups line of /proc/<pid>/status is read in one pass, and a malformed one is refused")
    func statusGroups() {
        func groups(_ text: String) -> [UInt32]? { PeerCredentials.groups(inStatus: Array(text.utf8)) }
        #expect(groups("Name:\tx\nUid:\t0\t0\t0\t0\nGroups:\t4 24 27 1000 \nNStgid:\t1\n") == [4, 24, 27, 1000])
        #expect(groups("Groups:\t \n") == [])
        #expect(groups("Name:\tGroups: 5\nGroups:\t0\n") == [0])
        #expect(groups("Name:\tx\n") == nil)
        #expect(groups("Groups:\t1 x\n") == nil)
        #expect(groups("Groups:\t99999999999\n") == nil)
        let own = PeerCredentials.procGroups(pid: getpid())
        let count = getgroups(0, nil)
        var expected = [gid_t](repeating: 0, count: Int(max(count, 0)))
        _ = getgroups(count, &expected)
        #expect(own == expected.sorted())
    }

    @Test("the per-uid connection count follows connections opened and closed")
    func countPerUID() async throws {
        // Service behaviour, not transport: in-process connections open and close on the loop at
        // once, so every count is exact when read (the socket's accept and close paths feed the
        // same `connectionAccepted` and `connectionDidClose`, as ServerProtocolTests' per-uid cap shows).
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let loop = server.server.eventLoop
        let counts = try await server.server.withService { service -> [[Int]] in
            let uid: UInt32 = 4242
            let peer = PeerCredentials(pid: 1, uid: uid, gid: uid, groups: [])
            func count() -> [Int] { [service.connectionCount(ofUID: uid), service.connections(ofUID: uid).count] }
            var seen = [count()]
            var connections: [VarlinkLocalConnection] = []
            for _ in 0..<5 {
                guard let local = service.makeLocalConnection(peer: peer, eventLoop: loop, onReply: { _ in }) else { return [] }
                local.receive(VarlinkCall(method: "org.example.test.WhoAmI"))
                connections.append(local)
            }
            seen.append(count())
            for local in connections.suffix(2) { local.close() }
            seen.append(count())
            seen.append([service.connectionCount(ofUID: uid &+ 1)])
            return seen
        }
        #expect(counts == [[0, 0], [5, 5], [3, 3], [0]])
    }

    @Test("a burst of connections is accepted a few per loop turn, as configured, and every one is set up")
    func acceptsPaced() async throws {
        let server = try await TestServer.start(configure: { $0.acceptsPerLoopTurn = 2 })
        defer { Task { await server.stop() } }
        // The loop is held while the burst arrives, so that all of it waits in the backlog: held
        // from the moment the loop takes the closure until the 40 have connected.
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        async let held: Void = server.server.withService { _ in
            holding.signal()
            release.wait()
        }
        holding.wait()
        var clients: [VarlinkClient] = []
        for _ in 0..<40 { clients.append(try server.client()) }
        release.signal()
        try await held
        // Each one answered: every connection of the burst was set up.
        for client in clients { _ = try client.call("org.example.test.WhoAmI") }
        let open = try await server.server.withService { $0.connectionCount(ofUID: getuid()) }
        #expect(open == 40)
        let most = try await server.server.withService { $0.mostSetUpInOneTurn }
        #expect(most >= 1 && most <= 2, "\(most) connections were set up in one loop turn")
    }
}
