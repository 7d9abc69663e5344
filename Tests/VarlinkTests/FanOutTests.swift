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
            # Sends `count` messages to every subscriber (one encoding each, shared), then answers.
            method Publish(count: int) -> ()
            # How many writes each connection has handed to its socket, by connection id.
            method Writes() -> (writes: [string]int)
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
            for index in 1...max(1, count) {
                guard let message = try? VarlinkEncodedReply(encoding: Message(index: index, text: "message \"\(index)\"\n"))
                else { throw .invalidParameter("count") }
                for stream in subscribers { stream.send(message) }
            }
            call.reply()
        case "Writes":
            var writes: [String: JSONValue] = [:]
            for connection in service.connections { writes["\(connection.id)"] = .integer(Int64(connection.writes)) }
            call.reply(["writes": .object(writes)])
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
}
