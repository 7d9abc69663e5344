import Dispatch
import Glibc
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing
@testable import Varlink

/// Large messages cost the event loop nothing proportional to their size: they arrive in the
/// chunks they were read in, are joined and parsed on the parser thread, and their calls are
/// freed there once answered (issue 11: a 15 MiB message held others up for 49 ms).
@Suite("Large calls off the event loop", .timeLimit(.minutes(1)))
struct LargeCallTests {
    @Test("a large message that arrives in many reads is kept in the chunks it came in, not copied into one growing buffer")
    func largeMessageInChunks() throws {
        var framer = MessageFramer(maxMessageSize: 4 << 20)
        var sent: [UInt8] = []
        for index in 0..<20 {
            let chunk = [UInt8](repeating: UInt8(ascii: "a") + UInt8(index), count: MessageFramer.chunkSize)
            sent += chunk
            framer.append(ByteBuffer(bytes: chunk))
            #expect(try framer.nextMessage() == nil)
        }
        #expect(framer.chunkCount == 20)
        #expect(framer.pendingBytes == 20 * MessageFramer.chunkSize)
        framer.append(ByteBuffer(bytes: Array("end\0next".utf8)))
        let message = try #require(try framer.nextMessage())
        #expect(message.parts.count == 21)
        #expect(message.size == sent.count + 3)
        #expect(Array(buffer: message.joined()) == sent + Array("end".utf8))
        #expect(framer.pendingBytes == 4)
        #expect(framer.chunkCount == 1)
    }

    @Test("a message trickled in small reads is joined as it comes: no list of tiny chunks")
    func trickleJoined() throws {
        var framer = MessageFramer(maxMessageSize: 1 << 20)
        for _ in 0..<5_000 {
            framer.append(ByteBuffer(bytes: Array("0123456789".utf8)))
            #expect(try framer.nextMessage() == nil)
        }
        // 50,000 bytes, under a chunk: one buffer.
        #expect(framer.chunkCount == 1)
        framer.append(ByteBuffer(bytes: [0]))
        let message = try #require(try framer.nextMessage())
        #expect(message.parts.count == 1)
        #expect(message.size == 50_000)
    }

    @Test("the size cap counts every chunk of a partial message")
    func capAcrossChunks() throws {
        var framer = MessageFramer(maxMessageSize: 3 * MessageFramer.chunkSize)
        for _ in 0..<3 {
            framer.append(ByteBuffer(bytes: [UInt8](repeating: 120, count: MessageFramer.chunkSize)))
            #expect(try framer.nextMessage() == nil)
        }
        framer.append(ByteBuffer(bytes: [120]))
        #expect(throws: VarlinkProtocolError.messageTooLarge(limit: 3 * MessageFramer.chunkSize)) { try framer.nextMessage() }
    }

    @Test("a large call's parameters are freed on the parser thread once it is answered (or its client left), a small call's on the loop")
    func largeCallFreedOffLoop() async throws {
        let parser = NIOThreadPool(numberOfThreads: 1)
        parser.start()
        let server = try await TestServer.start(configure: {
            $0.parser = parser
            $0.parseOffLoopThreshold = 64 << 10
        })
        defer {
            Task {
                await server.stop()
                try? await parser.shutdownGracefully()
            }
        }
        func releasedOffLoop() async throws -> Int { try await server.server.withService { $0.callsReleasedOffLoop } }
        let watch = ReleaseWatch()
        try await server.server.withService { service in
            service.memoryReleased = { [unowned service] bytes in watch.report(bytes, releasedOffLoop: service.callsReleasedOffLoop) }
        }
        let client = try server.client()
        let big = String(repeating: "x", count: 100 << 10)
        #expect(try client.call("org.example.test.Echo", ["text": .string("small")])["text"] == "small")
        #expect(try await releasedOffLoop() == 0)
        #expect(try client.call("org.example.test.Echo", ["text": .string(big)])["text"] == .string(big))
        #expect(watch.wait { watch.releasedOffLoop >= 1 })
        #expect(try await releasedOffLoop() == 1, "the large Echo's parameters were not freed on the parser thread")
        // Small calls after it: still one.
        #expect(try client.call("org.example.test.Echo", ["text": .string("small")])["text"] == "small")
        #expect(try await releasedOffLoop() == 1)
        // A large call whose client goes away before it is answered.
        let leaving = try server.client()
        let delayed = server.changes.snapshot.delayedCalls
        try leaving.sendRaw(VarlinkCall(method: "org.example.test.Delayed", parameters: ["milliseconds": 200, "tag": .string(big)]).serialized() + [0])
        // Gone once the call was read, parsed and dispatched, before its answer.
        #expect(server.waitForStats { $0.delayedCalls > delayed })
        leaving.close()
        #expect(watch.wait { watch.releasedOffLoop >= 2 })
        #expect(try await releasedOffLoop() == 2, "the call of the client that left was not freed on the parser thread")
    }

    @Test("a message of at most promptParseLimit is parsed on the prompt parser while the parser is busy; a larger one waits for the parser")
    func promptParserTakesMessagesUpToItsLimit() async throws {
        let parser = NIOThreadPool(numberOfThreads: 1), prompt = NIOThreadPool(numberOfThreads: 1)
        parser.start()
        prompt.start()
        let server = try await TestServer.start(configure: {
            $0.parser = parser
            $0.parseOffLoopThreshold = 64 << 10
            $0.promptParser = prompt
            $0.promptParseLimit = 200 << 10
        })
        let held = DispatchSemaphore(value: 0)
        defer {
            held.signal()
            Task {
                await server.stop()
                try? await parser.shutdownGracefully()
                try? await prompt.shutdownGracefully()
            }
        }
        parser.submit { _ in held.wait() }  // the parser thread busy until released
        let client = try server.client()
        let medium = String(repeating: "m", count: 100 << 10)
        #expect(try client.call("org.example.test.Echo", ["text": .string(medium)])["text"] == .string(medium))
        // Over the limit: parsed only once the parser is free.
        let large = String(repeating: "l", count: 300 << 10)
        try client.sendRaw(VarlinkCall(method: "org.example.test.Echo", parameters: ["text": .string(large)]).serialized() + [0])
        #expect(throws: (any Error).self, "the message over promptParseLimit was parsed while the parser was busy") {
            _ = try client.receive(timeout: .milliseconds(300))
        }
        held.signal()
        #expect(try client.receive(timeout: .seconds(10)).parameters["text"] == .string(large))
    }

    @Test("each closed connection reports its own memory freed, so a burst of closes ends in a trim")
    func closedConnectionsReportTheirMemory() async throws {
        let watch = ReleaseWatch()
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        try await server.server.withService { $0.memoryReleased = { bytes in watch.report(bytes) } }
        let count = 300
        var clients: [VarlinkClient] = []
        for _ in 0..<count { clients.append(try server.client()) }
        // Every one accepted (a call answered on each), then all closed.
        for client in clients { _ = try client.call("org.example.test.Echo", ["text": "x"]) }
        for client in clients { client.close() }
        let expected = count * VarlinkConnection.perConnectionCost
        _ = watch.wait { watch.bytes >= expected }
        #expect(watch.bytes >= expected, "closing \(count) connections reported less than \(expected) bytes freed: MemoryReturn's 1 MiB threshold would never trim after 1,000 idle connections left")
    }
}

/// What ``VarlinkService/memoryReleased`` reported, with a waiter woken at each report (no polling).
final class ReleaseWatch: Sendable {
    private let state = NIOLockedValueBox((bytes: 0, releasedOffLoop: 0))
    private let reported = DispatchSemaphore(value: 0)

    /// Called on the loop by the hook: `bytes` freed, the service's count of calls freed off the loop.
    func report(_ bytes: Int, releasedOffLoop: Int = 0) {
        state.withLockedValue {
            $0.bytes += bytes
            $0.releasedOffLoop = max($0.releasedOffLoop, releasedOffLoop)
        }
        reported.signal()
    }

    var bytes: Int { state.withLockedValue { $0.bytes } }
    var releasedOffLoop: Int { state.withLockedValue { $0.releasedOffLoop } }

    /// Waits, report by report, until `condition` holds (true) or `seconds` pass (false).
    func wait(seconds: Double = 5, until condition: () -> Bool) -> Bool {
        let deadline = DispatchTime.now() + seconds
        while !condition() {
            guard reported.wait(timeout: deadline) == .success else { return condition() }
        }
        return true
    }
}
