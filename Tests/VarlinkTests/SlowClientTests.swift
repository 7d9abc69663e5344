import Glibc
import Testing
import Varlink

@Suite("Slow, stuck and many clients", .timeLimit(.minutes(1)))
struct SlowClientTests {
    @Test("a stream client that never reads is cut off after the stall timeout while others are answered promptly")
    func stuckReader() async throws {
        let limit = 64 << 10
        let server = try await TestServer.start(configure: {
            $0.outgoingQueueLimit = limit
            $0.stallTimeout = .milliseconds(400)
        })
        defer { Task { await server.stop() } }
        let clock = ContinuousClock()
        let started = clock.now
        let stuck = try server.client()
        _ = try stuck.callMore("org.example.test.Flood", ["size": 4096])
        // Stuck: its queue is full and replies are being deferred.
        #expect(server.waitForStats { $0.deferred > 0 }, "the stuck client's queue never filled")
        #expect(server.changes.snapshot.streamsCut == 0, "cut off before the stall timeout")
        let other = try server.client()
        var latencies: [Duration] = []
        for round in 0..<40 {
            let before = clock.now
            #expect(try other.call("org.example.test.Echo", ["text": .string("r\(round)")])["text"] == .string("r\(round)"))
            latencies.append(clock.now - before)
        }
        latencies.sort()
        // Generous bounds: the machine is shared; waiting on the stuck client would take ≥ 400 ms each.
        #expect(latencies[latencies.count / 2] < .milliseconds(100), "median latency \(latencies[latencies.count / 2])")
        #expect(latencies.last! < .seconds(1), "slowest call took \(latencies.last!)")
        let cut = server.waitForStats { $0.streamsCut == 1 }
        #expect(cut, "the stuck client was never disconnected")
        #expect(clock.now - started >= .milliseconds(400))
        let stats = try server.stats()
        let maxQueued = try #require(stats["maxQueued"]?.integerValue)
        #expect(maxQueued > 0)
        #expect(maxQueued <= Int64(limit + 4200), "queue grew past its bound: \(maxQueued)")
        #expect((stats["deferred"]?.integerValue ?? 0) > 0)
        #expect(stuck.waitForClose(timeout: .seconds(5)))
    }

    @Test("a client that falls behind gets a snapshot once it drains its queue, and the stream goes on")
    func coalescing() async throws {
        let server = try await TestServer.start(configure: {
            $0.outgoingQueueLimit = 64 << 10
            $0.stallTimeout = .seconds(20)
        })
        defer { Task { await server.stop() } }
        let client = try server.client()
        let replies = try client.callMore("org.example.test.Flood", ["size": 4096])
        // Fall behind: not reading until the server has skipped coalescible replies.
        #expect(server.waitForStats { $0.deferred > 0 })
        var sawSnapshot = false
        var afterSnapshot = 0
        var previous: Int64 = 0
        var gaps = 0
        while afterSnapshot < 5 {
            let reply = try #require(try replies.next(timeout: .seconds(5)))
            let value = try #require(reply["value"]?.integerValue)
            if reply["snapshot"] == true {
                sawSnapshot = true
            } else if sawSnapshot {
                afterSnapshot += 1
            }
            if value > previous + 1 { gaps += 1 }
            previous = max(previous, value)
        }
        #expect(sawSnapshot)
        #expect(gaps > 0, "coalescible replies were skipped, so values must jump")
        let stats = try server.stats()
        #expect((stats["caughtUp"]?.integerValue ?? 0) >= 1)
        #expect((stats["deferred"]?.integerValue ?? 0) > 0)
    }

    @Test("a client that sends half a message and waits holds up nobody, and is answered once it finishes")
    func halfMessage() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let half = try server.client()
        let message = VarlinkCall(method: "org.example.test.Echo", parameters: ["text": "patient"]).serialized() + [0]
        try half.sendRaw(Array(message[..<20]))
        let other = try server.client()
        for _ in 0..<10 { #expect(try other.call("org.example.test.Echo", ["text": "quick"])["text"] == "quick") }
        #expect(throws: VarlinkClientError.timedOut) { try half.receive(timeout: .milliseconds(100)) }
        try half.sendRaw(Array(message[20...]))
        #expect(try half.receive().parameters["text"] == "patient")
    }

    @Test("a client that goes away mid-stream is noticed: its stream ends and the close callback runs")
    func clientGoneMidStream() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let client = try server.client()
        let replies = try client.callMore("org.example.test.Tick", ["milliseconds": 5])
        #expect(try replies.next()?["value"] == 1)
        #expect(try replies.next()?["value"] == 2)
        client.close()
        let noticed = server.waitForStats { $0.streamsCut == 1 && $0.openConnections == 0 }
        #expect(noticed, "\(server.changes.snapshot)")
        #expect(try server.stats()["openConnections"] == 1)  // only the stats call's own
    }

    @Test("a client that shuts its sending side still gets the answers to its calls")
    func halfClose() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let client = try server.client()
        try client.send(VarlinkCall(method: "org.example.test.Delayed", parameters: ["milliseconds": 50, "tag": "a"]))
        try client.send(VarlinkCall(method: "org.example.test.Echo", parameters: ["text": "b"]))
        try client.finishSending()
        #expect(try client.receive().parameters["tag"] == "a")
        #expect(try client.receive().parameters["text"] == "b")
        #expect(client.waitForClose(timeout: .seconds(5)))
    }

    @Test("a hundred concurrent clients are all served")
    func hundredClients() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let clients = try (0..<100).map { _ in try server.client() }
        for (index, client) in clients.enumerated() {
            try client.send(VarlinkCall(method: "org.example.test.Echo", parameters: ["text": .string("c\(index)")]))
            try client.send(VarlinkCall(method: "org.example.test.Count", parameters: ["count": 3], more: true))
        }
        #expect(try server.stats()["openConnections"] == 101)
        for (index, client) in clients.enumerated() {
            #expect(try client.receive().parameters["text"] == .string("c\(index)"))
            #expect(try client.receive() == VarlinkReply(parameters: ["value": 1], continues: true))
            #expect(try client.receive() == VarlinkReply(parameters: ["value": 2], continues: true))
            #expect(try client.receive() == VarlinkReply(parameters: ["value": 3]))
        }
        for client in clients { client.close() }
        let drained = server.waitForStats { $0.openConnections == 0 }
        #expect(drained, "\(server.changes.snapshot)")
        #expect(try server.stats()["openConnections"] == 1)  // only the stats call's own
    }

    @Test("shutdown closes open connections")
    func shutdownClosesConnections() async throws {
        let server = try await TestServer.start()
        let client = try server.client()
        _ = try client.callMore("org.example.test.Tick", ["milliseconds": 50])
        await server.server.shutdown()
        #expect(client.waitForClose(timeout: .seconds(5)))
        await server.stop()
    }
}
