import NIOCore
import NIOPosix
import Testing
import Varlink

@Suite("Handlers without sockets")
struct LocalConnectionTests {
    @Test("a local connection dispatches calls in order with the same errors and hooks as a socket")
    func localConnection() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { Task { try? await group.shutdownGracefully() } }
        let loop = group.next()
        let (replies, cut, closed) = try await loop.submit { () -> ([VarlinkReply], Int64?, Bool) in
            let service = makeTestService()
            var closed = false
            service.connectionClosed = { _ in closed = true }
            var replies: [VarlinkReply] = []
            let peer = PeerCredentials(pid: 42, uid: 1000, gid: 1000, groups: [27])
            let local = service.makeLocalConnection(peer: peer, eventLoop: loop) { replies.append($0) }!
            local.receive(VarlinkCall(method: "org.example.test.Echo", parameters: ["text": "a"]))
            local.receive(VarlinkCall(method: "org.example.test.Note", parameters: ["text": "n"], oneway: true))
            local.receive(VarlinkCall(method: "org.example.test.Count", parameters: ["count": 2], more: true))
            local.receive(VarlinkCall(method: "org.example.test.WhoAmI"))
            local.receive(VarlinkCall(method: "org.example.test.Nope"))
            local.receive(VarlinkCall(method: "org.example.test.Notes"))
            local.receive(VarlinkCall(method: "org.example.test.Tick", parameters: ["milliseconds": 1000], more: true))
            local.close()
            var stats: Int64?
            let observer = service.makeLocalConnection(peer: peer, eventLoop: loop) { stats = $0.parameters["streamsCut"]?.integerValue }!
            observer.receive(VarlinkCall(method: "org.example.test.Stats"))
            return (replies, stats, closed)
        }.get()
        #expect(replies == [
            VarlinkReply(parameters: ["text": "a", "count": 1]),
            VarlinkReply(parameters: ["value": 1], continues: true),
            VarlinkReply(parameters: ["value": 2]),
            VarlinkReply(parameters: ["pid": 42, "uid": 1000, "gid": 1000, "groups": [27]]),
            VarlinkReply(parameters: ["method": "org.example.test.Nope"], error: "org.varlink.service.MethodNotFound"),
            VarlinkReply(parameters: ["notes": ["n"]]),
            VarlinkReply(parameters: ["value": 1], continues: true),
        ])
        #expect(cut == 1, "closing ends the open stream")
        #expect(closed)
    }
}
