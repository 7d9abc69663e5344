import Glibc
import Testing
@testable import Varlink

/// A service that publishes to subscribers, as focusd publishes a change's events to monitors.
private func makeFanOutService() -> VarlinkService {
    let service = VarlinkService(vendor: "focusd tests", product: "FanOut", version: "1.0", url: "https://example.org")
    var subscribers: [VarlinkStream] = []
    try! service.register(
        description: """
            interface org.example.fanout
            # Subscribes: one reply at once, then every message published.
            method Listen() -> (index: int, text: string)
            # Sends `count` messages to every subscriber (one encoding each, shared), then answers;
            # `padding`: characters added to each message's text.
            method Publish(count: int, padding: ?int) -> ()
            # How many writes each connection has handed to its socket, by connection id.
            method Writes() -> (writes: [string]int)
            # The bytes each connection has queued and its socket has not yet taken, by connection id.
            method Queued() -> (queued: [string]int)
            """
    ) { call throws(VarlinkError) in
        struct Message: Encodable {
            var index: Int
            var text: String
        }
        switch call.method {
        case "Listen":
            let stream = try call.stream()
            stream.send(["index": 0, "text": "subscribed"])
            subscribers.append(stream)
        case "Publish":
            let count = Int(call.parameters["count"]?.integerValue ?? 0)
            let padding = String(repeating: "-", count: max(0, Int(call.parameters["padding"]?.integerValue ?? 0)))
            for index in 1...max(1, count) {
                guard let message = try? VarlinkEncodedReply(encoding: Message(index: index, text: "message \"\(index)\"\n" + padding))
                else { throw .invalidParameter("count") }
                for stream in subscribers { stream.send(message) }
            }
            call.reply()
        case "Writes":
            var writes: [String: JSONValue] = [:]
            for connection in service.connections { writes["\(connection.id)"] = .integer(Int64(connection.writes)) }
            call.reply(["writes": .object(writes)])
        case "Queued":
            var queued: [String: JSONValue] = [:]
            for connection in service.connections { queued["\(connection.id)"] = .integer(Int64(connection.queuedBytes)) }
            call.reply(["queued": .object(queued)])
        default:
            throw .methodNotImplemented(call.call.method)
        }
    }
    return service
}

@Suite("Publishing to many connections", .timeLimit(.minutes(1)))
struct FanOutTests {
    @Test("a call's messages to each subscriber go out in one write, in order, before the call's reply")
    func oneWritePerConnectionPerCall() async throws {
        let server = try await TestServer.start(service: makeFanOutService())
        defer { Task { await server.stop() } }
        var listeners: [VarlinkReplySequence] = []
        var clients: [VarlinkClient] = []
        for _ in 0..<4 {
            let client = try server.client()
            let stream = try client.callMore("org.example.fanout.Listen")
            #expect(try stream.next(timeout: .seconds(5))?["index"] == 0)
            clients.append(client)
            listeners.append(stream)
        }
        let publisher = try server.client()
        let before = try publisher.call("org.example.fanout.Writes")["writes"]
        try publisher.call("org.example.fanout.Publish", ["count": 3])
        // The reply was written after the subscribers' messages: they are already there.
        for stream in listeners {
            for index in 1...3 {
                let message = try #require(try stream.next(timeout: .seconds(5)))
                #expect(message["index"] == .integer(Int64(index)))
                #expect(message["text"] == .string("message \"\(index)\"\n"))
            }
        }
        let after = try publisher.call("org.example.fanout.Writes")["writes"]
        guard case .object(let counts) = after, case .object(let earlier) = before else {
            Issue.record("no write counts")
            return
        }
        var grew: [Int64] = []
        for (id, count) in counts {
            if let previous = earlier[id]?.integerValue, let now = count.integerValue, now != previous { grew.append(now - previous) }
        }
        // Four subscribers written to once each (three messages in one write; one write each
        // was three before), and the publisher's connection: the first Writes reply and the
        // Publish reply.
        #expect(grew.count == 5, "connections written to: \(grew)")
        #expect(grew.filter { $0 == 1 }.count == 4, "writes per subscriber: \(grew)")
        _ = clients
    }

    @Test("a message the socket takes whole leaves nothing queued; one it takes in part stays queued until the client has read all of it")
    func queuedUntilTheSocketTookAll() async throws {
        // A queue bound well above what a Unix socket holds (~200 KiB), so nothing is cut off.
        let server = try await TestServer.start(configure: { $0.outgoingQueueLimit = 32 << 20 }, service: makeFanOutService())
        defer { Task { await server.stop() } }
        let subscriber = try server.client()
        let stream = try subscriber.callMore("org.example.fanout.Listen")
        #expect(try stream.next(timeout: .seconds(5))?["index"] == 0)
        let publisher = try server.client()
        func queued() throws -> [Int64] {
            guard case .object(let counts) = try publisher.call("org.example.fanout.Queued")["queued"] else { return [] }
            return counts.values.compactMap(\.integerValue)
        }
        // Small: written whole inside the call, so nothing is queued anywhere when it answers.
        try publisher.call("org.example.fanout.Publish", ["count": 1])
        let afterSmall = try queued()
        #expect(afterSmall.allSatisfy { $0 == 0 }, "queued after a small publish: \(afterSmall)")
        #expect(try stream.next(timeout: .seconds(5))?["index"] == 1)
        // 400 messages of ~2 KiB in one write: more than a Unix socket holds while the
        // subscriber does not read, so the rest waits in the daemon and is counted.
        try publisher.call("org.example.fanout.Publish", ["count": 400, "padding": 2000])
        let held = try queued().max() ?? 0
        #expect(held > 0, "nothing counted as queued while the subscriber does not read")
        for index in 1...400 {
            let message = try #require(try stream.next(timeout: .seconds(5)))
            #expect(message["index"] == .integer(Int64(index)))
            if message["index"] != .integer(Int64(index)) { break }
        }
        // Read to the end: the socket took the rest (each write's completion is counted in the
        // turn that wrote it, before the subscriber could read it), and the queue says so.
        let left = try queued()
        #expect(left.allSatisfy { $0 == 0 }, "still queued after the subscriber read everything: \(left)")
    }
}
