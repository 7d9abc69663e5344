import Testing
@testable import Varlink

/// A service whose replies are small or larger than a Unix socket takes in one write, and which
/// tells each connection's writes made straight to its socket (issue 25).
private func makeDirectWriteService() -> VarlinkService {
    let service = VarlinkService(vendor: "focusd tests", product: "DirectWrite", version: "1.0", url: "https://example.org")
    try! service.register(
        description: """
            interface org.example.direct
            # Answers with `size` characters of text (a reply larger than the socket's buffer).
            method Text(size: int) -> (text: string)
            # The writes each connection made straight to its socket, and its bytes not yet taken, by connection id.
            method Counts() -> (direct: [string]int, queued: [string]int)
            """
    ) { call throws(VarlinkError) in
        switch call.method {
        case "Text":
            let size = Int(call.parameters["size"]?.integerValue ?? 0)
            call.reply(["text": .string(letters(max(0, size)))])
        case "Counts":
            var direct: [String: JSONValue] = [:]
            var queued: [String: JSONValue] = [:]
            for connection in service.connections {
                direct["\(connection.id)"] = .integer(Int64(connection.directWrites))
                queued["\(connection.id)"] = .integer(Int64(connection.queuedBytes))
            }
            call.reply(["direct": .object(direct), "queued": .object(queued)])
        default:
            throw .methodNotImplemented(call.call.method)
        }
    }
    return service
}

/// `count` characters: the alphabet over and over.
private func letters(_ count: Int) -> String {
    String(String(repeating: "abcdefghijklmnopqrstuvwxyz", count: count / 26 + 1).prefix(count))
}

@Suite("Writes straight to a Unix socket", .timeLimit(.minutes(1)))
struct DirectWriteTests {
    @Test("a Unix-socket connection finds its socket's descriptor and its replies go straight to the socket, not through NIO")
    func repliesGoStraightToTheSocket() async throws {
        let server = try await TestServer.start(service: makeDirectWriteService())
        defer { Task { await server.stop() } }
        let client = try server.client()
        for size in [1, 10, 100] {
            let reply = try client.call("org.example.direct.Text", ["size": .integer(Int64(size))])
            #expect(reply["text"]?.stringValue?.count == size)
        }
        // The three replies above were written before this call was read: each in one `send`.
        let counts = try client.call("org.example.direct.Counts")
        let direct = try #require(counts["direct"]?.objectValue).values.compactMap(\.integerValue)
        #expect(direct.count == 1)
        #expect(direct.first ?? 0 >= 3)
    }

    @Test("a reply larger than the socket takes at once arrives whole and in order, the rest written through NIO")
    func aReplyTheSocketTakesInPartsArrivesWhole() async throws {
        let server = try await TestServer.start(service: makeDirectWriteService())
        defer { Task { await server.stop() } }
        let client = try server.client()
        let size = 1 << 20  // far more than a Unix socket's send buffer (~200 KiB)
        for round in 0..<3 {
            let text = try #require(try client.call("org.example.direct.Text", ["size": .integer(Int64(size + round))])["text"]?.stringValue)
            #expect(text == letters(size + round))
            let small = try client.call("org.example.direct.Text", ["size": 3])
            #expect(small["text"] == "abc")
        }
        let counts = try client.call("org.example.direct.Counts")
        // Everything queued was taken by the socket; the small replies went straight to it.
        #expect(try #require(counts["queued"]?.objectValue).values.allSatisfy { $0.integerValue == 0 })
        #expect(try #require(counts["direct"]?.objectValue).values.contains { ($0.integerValue ?? 0) >= 3 })
    }
}
