import Foundation
import Testing
import Varlink

extension ServiceSocketTests {
    /// Requests that are valid but expensive, and clients that take more than their share
    /// (issue 11): each is bounded, refused with a clear error or cut off, and the daemon stays up.
    @Suite("Hostile clients")
    struct HostileClients {
        /// A grid scene of `count` tiles, optionally persistent.
        static func scene(_ name: String, tiles count: Int, persist: Bool = false) -> JSONValue {
            var children: [JSONValue] = []
            children.reserveCapacity(count)
            for index in 0..<count {
                children.append(TestScenes.tile("\(name)-\(index)", x: Double(index % 100) * 60, y: Double(index / 100) * 60, size: 50))
            }
            return [
                "name": .string(name), "persist": .bool(persist),
                "root": ["id": "root", "frame": TestScenes.frame(0, 0, 6000, 60 * Double(count / 100 + 1)), "children": .array(children)],
            ]
        }

        /// CPU time (user + system) the process has used, in clock ticks (100 a second).
        static func cpuTicks(pid: Int32) -> Int {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = text.lastIndex(of: ")")
            else { return -1 }
            let fields = text[text.index(after: close)...].split(separator: " ")
            // After the command: state is field 3, utime 14, stime 15 (1-based over the whole line).
            return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
        }

        @Test("past the global connection cap a new connection is closed at once, the others are served, and a freed place is taken again")
        func globalConnectionCap() throws {
            let daemon = try FocusdProcess(config: "[limits]\nmaxConnections = 5\nmaxConnectionsPerUid = 100\n")
            defer { daemon.stop() }
            var open: [TestClient] = []
            for _ in 0..<5 {
                let client = try daemon.connect()
                #expect(try client.call("org.varlink.service.GetInfo")["interfaces"] != nil)
                open.append(client)
            }
            let refused = try daemon.connect()
            #expect(refused.waitForClose(timeout: .seconds(3)), "a sixth connection was not closed")
            #expect(daemon.log_.contains("refusing connections: 5 open, the limit"))
            for client in open { #expect(try client.call("io.focusd.Focus.ListScenes")["scenes"] == []) }
            #expect(open.removeLast().closeAndWaitUntilReleased(), "the daemon kept a connection whose client finished")
            let next = try daemon.connect()
            #expect(try next.call("org.varlink.service.GetInfo")["interfaces"] != nil, "no connection was accepted after one of the five closed")
        }

        @Test("running out of file descriptors pauses accepting instead of spinning, and clients are served again once others leave")
        func fileDescriptorExhaustion() throws {
            // A cap above what 64 descriptors allow, so `accept` itself fails with EMFILE.
            let daemon = try FocusdProcess(
                config: "[limits]\nmaxConnections = 1000\nmaxConnectionsPerUid = 1000\n", fileLimit: 64)
            defer { daemon.stop() }
            #expect(daemon.log_.contains("raise LimitNOFILE"))
            var clients: [TestClient] = []
            for _ in 0..<100 { clients.append(try TestClient(path: daemon.socketPath)) }
            #expect(daemon.waitForLog("cannot accept connections"), "accept never ran out of descriptors")
            let before = Self.cpuTicks(pid: daemon.pid)
            usleep(1_000_000)
            let used = Self.cpuTicks(pid: daemon.pid) - before
            #expect(used >= 0 && used < 20, "the daemon used \(used) ticks of CPU in 1 s while out of descriptors (100 = one core)")
            #expect(daemon.isRunning)
            for client in clients { client.close() }
            clients.removeAll()
            // Waits in the backlog behind the closed ones until accepting resumes.
            let next = try daemon.connect(timeout: .seconds(20))
            #expect((try? next.call("org.varlink.service.GetInfo")) != nil, "no client was served after the others left")
        }

        @Test("a Lint of 3,000 coincident candidates answers with a bounded list and other clients are answered while it runs")
        func bigLintDoesNotStall() throws {
            let daemon = try FocusdProcess()
            defer { daemon.stop() }
            let other = try daemon.connect()
            try other.call("io.focusd.Focus.SetScene", ["scene": TestScenes.row("live", count: 2)])
            var children: [JSONValue] = []
            for index in 0..<3_000 { children.append(TestScenes.tile("c\(index)", x: 100, y: 100)) }
            let scene: JSONValue = [
                "name": "lint", "root": ["id": "root", "frame": TestScenes.frame(0, 0, 1920, 1080), "children": .array(children)],
            ]
            let linter = try daemon.connect(timeout: .seconds(60))
            try linter.send(VarlinkCall(method: "io.focusd.Focus.Lint", parameters: ["scene": scene]))
            // Calls on another connection are answered before the lint's reply comes.
            var answeredDuringLint = 0
            var lintReply: VarlinkReply?
            for index in 0..<100_000 {
                try other.call("io.focusd.Focus.Move", ["direction": index % 2 == 0 ? "right" : "left", "scene": "live"])
                if let text = try linter.receiveText(timeout: .milliseconds(1)) {
                    lintReply = try VarlinkReply(message: Array(text.utf8))
                    break
                }
                answeredDuringLint += 1
            }
            if lintReply == nil { lintReply = try linter.receive(timeout: .seconds(60)) }
            let problems = try #require(lintReply?.parameters["problems"]?.arrayValue)
            let overlaps = problems.filter { $0["kind"] == "overlap" }
            #expect(overlaps.count == 1001)
            #expect(overlaps.last?["message"]?.stringValue?.hasPrefix("\(3_000 * 2_999 / 2 - 1000) more overlap problems") == true)
            #expect(answeredDuringLint >= 10, "only \(answeredDuringLint) calls of another client were answered while the lint ran")
            #expect(daemon.isRunning)
        }

        @Test("a large message is parsed off the event loop: other clients are answered while it is parsed")
        func largeMessageParsedOffLoop() throws {
            let daemon = try FocusdProcess()
            defer { daemon.stop() }
            let other = try daemon.connect()
            try other.call("io.focusd.Focus.SetScene", ["scene": TestScenes.row("live", count: 2)])
            // 3 million numbers (6 MB): slow to parse, nothing to do once parsed (GetInfo declares no
            // parameter, so its reply is InvalidParameter naming `pad`, which comes only once the
            // whole message was parsed).
            let prefix = Array(#"{"method":"org.varlink.service.GetInfo","parameters":{"pad":["#.utf8)
            var message = prefix
            message.reserveCapacity(prefix.count + 6_000_010)
            for _ in 0..<3_000_000 { message += [UInt8(ascii: "0"), UInt8(ascii: ",")] }
            message[message.count - 1] = UInt8(ascii: "]")
            message += Array("}}".utf8) + [0]
            let big = try daemon.connect(timeout: .seconds(60))
            try big.sendRaw(message)
            // The message is (almost) all with the daemon now: count the calls answered before its reply.
            var answered = 0
            var reply: String?
            for index in 0..<100_000 {
                try other.call("io.focusd.Focus.Move", ["direction": index % 2 == 0 ? "right" : "left", "scene": "live"])
                if let text = try big.receiveText(timeout: .milliseconds(1)) {
                    reply = text
                    break
                }
                answered += 1
            }
            if reply == nil { reply = try big.receiveText(timeout: .seconds(60)) }
            #expect(reply?.contains("org.varlink.service.InvalidParameter") == true && reply?.contains("\"pad\"") == true, "\(reply ?? "no reply")")
            #expect(answered >= 10, "only \(answered) calls of another client were answered while a 6 MB message was parsed")
        }

        @Test("a uid's partly sent messages are capped in all: the connection that passes the budget is closed, the others are served")
        func partialInputPerUid() throws {
            // maxMessageBytes 1 MiB: a uid may hold 2 MiB of unfinished messages.
            let daemon = try FocusdProcess(config: "[limits]\nmaxMessageBytes = 1048576\n")
            defer { daemon.stop() }
            // Padded with white space, which JSON allows anywhere between tokens (GetInfo declares
            // no parameter a string could pad).
            let head = Array(#"{"method":"org.varlink.service.GetInfo","parameters":{"#.utf8)
            let pad = [UInt8](repeating: UInt8(ascii: " "), count: 900_000)
            // In turn: a send returns once the daemon has read all but what one socket buffer
            // holds (~200 KB), which it reads before the next client's first 300 KB, so the
            // third is the one that passes the budget.
            var clients: [TestClient] = []
            for _ in 0..<3 {
                let client = try daemon.connect()
                try? client.sendRaw(head + pad)  // the third may be closed while it sends
                clients.append(client)
            }
            #expect(clients[2].waitForClose(timeout: .seconds(3)), "the third 900 KB partial message was not refused")
            #expect(daemon.log_.contains("partly received messages passed their budget"))
            for client in clients[0..<2] {
                try client.sendRaw(Array(#"}}"#.utf8) + [0])
                let reply = try client.receive(timeout: .seconds(5))
                #expect(reply.error == nil && reply.parameters["interfaces"] != nil)
            }
            // Once those finished, the uid may send large messages again.
            let next = try daemon.connect()
            try next.sendRaw(head + pad + Array(#"}}"#.utf8) + [0])
            #expect(try next.receive(timeout: .seconds(5)).parameters["interfaces"] != nil)
        }

        @Test("memory is handed back to the system when a client owning big scenes disconnects")
        func memoryReturnedOnDisconnect() throws {
            // At debug level the daemon logs each trim.
            let daemon = try FocusdProcess(config: "[limits]\nmaxNodesPerUid = 1000000\n", devices: ["--no-devices", "--log-level", "debug"])
            defer { daemon.stop() }
            let watcher = try daemon.connect()
            _ = try watcher.call("io.focusd.Focus.ListScenes")
            let baseline = try #require(daemon.residentKiB())
            var peak = baseline
            do {
                let owner = try daemon.connect(timeout: .seconds(30))
                for index in 0..<4 {
                    try owner.call("io.focusd.Focus.SetScene", ["scene": Self.scene("big\(index)", tiles: 30_000)])
                    peak = max(peak, daemon.residentKiB() ?? 0)
                }
                #expect(owner.closeAndWaitUntilReleased())
            }
            #expect(peak > baseline + 20 * 1024, "the scenes did not grow the daemon (\(baseline) → \(peak) KiB): the test shows nothing")
            // Looked at again on each line the daemon logs: each trim logs one.
            var after = peak
            let returned = daemon.waitForLog { _ in
                after = daemon.residentKiB() ?? peak
                return after < baseline + 8 * 1024
            }
            #expect(returned, "resident memory \(baseline) KiB before, \(peak) KiB with the scenes, \(after) KiB after the client left")
        }
    }
}

/// The caps on what one connection and one uid may hold (issue 11): service behaviour, so
/// through focusd's service in process; a closed connection's scenes are gone when `close()`
/// returns.
@Suite("Scene caps per connection and per uid", .timeLimit(.minutes(1)))
struct SceneCapTests {
    static func scene(_ name: String, tiles count: Int, persist: Bool = false) -> JSONValue {
        ServiceSocketTests.HostileClients.scene(name, tiles: count, persist: persist)
    }

    @Test("scenes and nodes are capped per connection and per uid, persistent scenes included, with an error naming the limit")
    func sceneCaps() throws {
        let daemon = try InProcessFocusd(
            config: "[limits]\nmaxScenesPerConnection = 3\nmaxScenesPerUid = 4\nmaxNodesPerUid = 100\n")
        var first: LocalClient? = try daemon.connect()
        try first!.call("io.focusd.Focus.SetScene", ["scene": Self.scene("a", tiles: 10, persist: true)])
        try first!.call("io.focusd.Focus.SetScene", ["scene": Self.scene("b", tiles: 10)])
        try first!.call("io.focusd.Focus.SetScene", ["scene": Self.scene("c", tiles: 10)])
        // Replacing one of its own scenes is no new scene.
        try first!.call("io.focusd.Focus.SetScene", ["scene": Self.scene("c", tiles: 20)])
        let perConnection = try #require(try first!.error(calling: "io.focusd.Focus.SetScene", ["scene": Self.scene("d", tiles: 1)]))
        #expect(perConnection.name == "io.focusd.Focus.InvalidScene")
        #expect(perConnection.parameters["reason"]?.stringValue?.contains("maxScenesPerConnection = 3") == true)

        let second = try daemon.connect()
        try second.call("io.focusd.Focus.SetScene", ["scene": Self.scene("e", tiles: 10)])
        let perUid = try #require(try second.error(calling: "io.focusd.Focus.SetScene", ["scene": Self.scene("f", tiles: 1)]))
        #expect(perUid.parameters["reason"]?.stringValue?.contains("maxScenesPerUid = 4") == true)

        // Nodes: 10 + 10 + 20 + 10 are held; an update adding 70 goes past 100.
        var patch: [JSONValue] = []
        for index in 0..<70 { patch.append(["parent": "root", "node": TestScenes.tile("new\(index)", x: 0, y: 0)]) }
        let nodes = try #require(try second.error(calling: "io.focusd.Focus.UpdateScene", ["scene": "e", "upsert": .array(patch)]))
        #expect(nodes.parameters["reason"]?.stringValue?.contains("maxNodesPerUid = 100") == true)
        #expect(try second.call("io.focusd.Inspect.GetScene", ["scene": "e"])["scene"]?["root"]?["children"]?.arrayValue?.count == 10)

        // The first connection goes: its scenes go, except the persistent one, which still counts.
        first!.close()
        first = nil
        #expect(try second.call("io.focusd.Focus.ListScenes")["scenes"] == ["a", "e"])
        try second.call("io.focusd.Focus.SetScene", ["scene": Self.scene("f", tiles: 10)])
        let third = try daemon.connect()
        try third.call("io.focusd.Focus.SetScene", ["scene": Self.scene("g", tiles: 10)])
        let again = try #require(try third.error(calling: "io.focusd.Focus.SetScene", ["scene": Self.scene("h", tiles: 1)]))
        #expect(again.parameters["reason"]?.stringValue?.contains("maxScenesPerUid = 4") == true)
        #expect(daemon.isServing)
    }
}
