import Glibc
import Testing
import Varlink

@Suite("Server protocol over a Unix socket", .timeLimit(.minutes(1)))
struct ServerProtocolTests {
    @Test("a call gets its reply")
    func roundTrip() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let client = try server.client()
        #expect(try client.call("org.example.test.Echo", ["text": "hi", "count": 3]) == ["text": "hi", "count": 3])
        #expect(try client.call("org.example.test.Add", ["a": ["x": 1, "y": 2], "b": ["x": 10, "y": 20]]) == ["sum": ["x": 11, "y": 22]])
    }

    @Test("pipelined calls are answered strictly in order, even when an earlier one answers later")
    func pipelining() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let client = try server.client()
        try client.send(VarlinkCall(method: "org.example.test.Delayed", parameters: ["milliseconds": 150, "tag": "slow"]))
        try client.send(VarlinkCall(method: "org.example.test.Echo", parameters: ["text": "fast"]))
        try client.send(VarlinkCall(method: "org.example.test.Count", parameters: ["count": 2], more: true))
        try client.send(VarlinkCall(method: "org.example.test.Delayed", parameters: ["milliseconds": 0, "tag": "last"]))
        #expect(try client.receive().parameters["tag"] == "slow")
        #expect(try client.receive().parameters["text"] == "fast")
        #expect(try client.receive() == VarlinkReply(parameters: ["value": 1], continues: true))
        #expect(try client.receive() == VarlinkReply(parameters: ["value": 2]))
        #expect(try client.receive().parameters["tag"] == "last")
    }

    @Test("a oneway call gets no reply and the next call is answered")
    func oneway() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let client = try server.client()
        try client.callOneway("org.example.test.Note", ["text": "one"])
        try client.callOneway("org.example.test.Echo", ["text": "unanswered"])
        try client.callOneway("org.example.test.Note", ["text": "two"])
        #expect(try client.call("org.example.test.Notes") == ["notes": ["one", "two"]])
    }

    @Test("a more call streams replies with continues until the final one")
    func moreStream() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let client = try server.client()
        let replies = try client.callMore("org.example.test.Count", ["count": 4])
        var values: [JSONValue] = []
        while let reply = try replies.next() { values.append(reply["value"]!) }
        #expect(values == [1, 2, 3, 4])
        #expect(try client.call("org.example.test.Echo", ["text": "after"])["text"] == "after")
    }

    @Test("a streaming method called without more answers ExpectedMore")
    func expectedMore() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        #expect(throws: VarlinkError.expectedMore) { try server.client().call("org.example.test.Count", ["count": 2]) }
    }

    @Test("an error reply carries the qualified name and parameters")
    func errorReply() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        #expect(throws: VarlinkError("org.example.test.Failed", parameters: ["reason": "because"])) {
            try server.client().call("org.example.test.Fail", ["reason": "because"])
        }
    }

    @Test("unknown interfaces, unknown methods and unimplemented methods get the standard errors")
    func routingErrors() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let client = try server.client()
        #expect(throws: VarlinkError.interfaceNotFound("org.example.nothing")) { try client.call("org.example.nothing.Echo") }
        #expect(throws: VarlinkError.methodNotFound("org.example.test.Nope")) { try client.call("org.example.test.Nope") }
        #expect(throws: VarlinkError.methodNotImplemented("org.example.test.Unimplemented")) {
            try client.call("org.example.test.Unimplemented")
        }
        #expect(try client.call("org.example.test.Echo", ["text": "still open"])["text"] == "still open")
    }

    @Test("bad parameters get InvalidParameter naming the field")
    func invalidParameter() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let client = try server.client()
        #expect(throws: VarlinkError.invalidParameter("text")) { try client.call("org.example.test.Echo", ["count": 1]) }
        #expect(throws: VarlinkError.invalidParameter("count")) { try client.call("org.example.test.Echo", ["text": "a", "count": "x"]) }
        #expect(throws: VarlinkError.invalidParameter("b")) {
            try client.call("org.example.test.Add", ["a": ["x": 1, "y": 2], "b": ["x": 1]])
        }
    }

    @Test("a call asking for upgrade gets InvalidParameter naming upgrade")
    func upgrade() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let client = try server.client()
        try client.send(VarlinkCall(method: "org.example.test.Echo", parameters: ["text": "x"], upgrade: true))
        let reply = try client.receive()
        #expect(reply.error == "org.varlink.service.InvalidParameter")
        #expect(reply.parameters == ["parameter": "upgrade"])
    }

    static func violations() -> [(String, [UInt8])] {
        let echoPrefix = Array(#"{"method":"org.example.test.Echo","parameters":{"text":"#.utf8)
        var bomb = echoPrefix + Array(#""a","x":"#.utf8)
        bomb += [UInt8](repeating: UInt8(ascii: "["), count: 600)
        bomb += [UInt8](repeating: UInt8(ascii: "]"), count: 600)
        bomb += Array("}}".utf8)
        var badUTF8 = echoPrefix + [UInt8(ascii: "\""), 0xC3, 0x28, UInt8(ascii: "\"")]
        badUTF8 += Array("}}".utf8)
        return [
            ("malformed JSON", Array(#"{"method": "org.example.test.Echo""#.utf8) + [0]),
            ("a message that is not an object", Array("[1,2]".utf8) + [0]),
            ("an unknown header field", Array(#"{"method":"org.example.test.Echo","parameters":{"text":"a"},"bogus":true}"#.utf8) + [0]),
            ("a depth bomb", bomb + [0]),
            ("invalid UTF-8", badUTF8 + [0]),
        ]
    }

    @Test("protocol violations close the connection without disturbing others", arguments: violations())
    func protocolViolations(name: String, bytes: [UInt8]) async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let bystander = try server.client()
        let offender = try server.client()
        try offender.sendRaw(bytes)
        #expect(offender.waitForClose(timeout: .seconds(5)), "\(name) should close the connection")
        #expect(try bystander.call("org.example.test.Echo", ["text": "ok"])["text"] == "ok")
    }

    @Test("a message longer than the configured cap closes the connection, even without a NUL")
    func oversized() async throws {
        let server = try await TestServer.start(configure: { $0.maxMessageSize = 4096 })
        defer { Task { await server.stop() } }
        let fits = try server.client()
        let padding = String(repeating: "a", count: 3000)
        #expect(try fits.call("org.example.test.Echo", ["text": .string(padding)])["text"]?.stringValue?.count == 3000)
        let offender = try server.client()
        try offender.sendRaw(Array(#"{"method":"org.example.test.Echo","parameters":{"text":""#.utf8) + Array(repeating: UInt8(ascii: "a"), count: 5000))
        #expect(offender.waitForClose(timeout: .seconds(5)))
        let complete = try server.client()
        try complete.send(VarlinkCall(method: "org.example.test.Echo", parameters: ["text": .string(String(repeating: "b", count: 5000))]))
        #expect(complete.waitForClose(timeout: .seconds(5)))
    }

    @Test("GetInfo lists the service's identity and interfaces")
    func getInfo() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let info = try server.client().call("org.varlink.service.GetInfo")
        #expect(info == [
            "vendor": "focusd tests", "product": "VarlinkTests", "version": "1.0", "url": "https://example.org/varlink-tests",
            "interfaces": ["org.varlink.service", "org.example.test"],
        ])
    }

    @Test("GetInterfaceDescription returns the registered text verbatim")
    func introspection() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let client = try server.client()
        let reply = try client.call("org.varlink.service.GetInterfaceDescription", ["interface": "org.example.test"])
        #expect(reply["description"]?.stringValue == testInterfaceDescription)
        let service = try client.call("org.varlink.service.GetInterfaceDescription", ["interface": "org.varlink.service"])
        #expect(service["description"]?.stringValue == VarlinkService.serviceInterfaceDescription)
        #expect(throws: VarlinkError.interfaceNotFound("org.example.missing")) {
            try client.call("org.varlink.service.GetInterfaceDescription", ["interface": "org.example.missing"])
        }
        #expect(throws: VarlinkError.invalidParameter("interface")) { try client.call("org.varlink.service.GetInterfaceDescription") }
    }

    @Test("the peer credentials are those of the connecting process")
    func peerCredentials() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let who = try server.client().call("org.example.test.WhoAmI")
        #expect(who["pid"] == .integer(Int64(getpid())))
        #expect(who["uid"] == .integer(Int64(getuid())))
        #expect(who["gid"] == .integer(Int64(getgid())))
        let count = getgroups(0, nil)
        var groups = [gid_t](repeating: 0, count: Int(max(count, 0)))
        _ = getgroups(count, &groups)
        #expect(who["groups"] == .array(groups.sorted().map { .integer(Int64($0)) }))
    }

    @Test("the access hooks can refuse connections and deny calls")
    func accessHooks() async throws {
        let service = makeTestService()
        let myUID = getuid()
        service.authorizeCall = { call in call.method == "Notes" && call.peer.uid == myUID ? .permissionDenied : nil }
        var accepted = 0
        service.acceptConnection = { connection in
            accepted += 1
            return accepted != 2
        }
        let server = try await TestServer.start(service: service)
        defer { Task { await server.stop() } }
        let first = try server.client()
        #expect(throws: VarlinkError.permissionDenied) { try first.call("org.example.test.Notes") }
        let refused = try server.client()
        #expect(refused.waitForClose(timeout: .seconds(5)))
        #expect(try server.client().call("org.example.test.Echo", ["text": "third"])["text"] == "third")
    }

    @Test("connections past the per-uid cap are closed at once, and a slot frees when one closes")
    func perUIDCap() async throws {
        let server = try await TestServer.start(configure: { $0.maxConnectionsPerUID = 3 })
        defer { Task { await server.stop() } }
        let first = try server.client()
        let second = try server.client()
        #expect(try first.call("org.example.test.Echo", ["text": "1"])["text"] == "1")
        #expect(try second.call("org.example.test.Echo", ["text": "2"])["text"] == "2")
        let third = try server.client()
        #expect(try third.call("org.example.test.Echo", ["text": "3"])["text"] == "3")
        let fourth = try server.client()
        #expect(fourth.waitForClose(timeout: .seconds(5)))
        let closed = server.changes.snapshot.closedConnections
        third.close()
        // Once the server has seen it go, the next connection is accepted at once.
        #expect(server.waitForStats { $0.closedConnections > closed })
        #expect(try server.client().call("org.example.test.Echo", ["text": "again"])["text"] == "again")
    }

    // The process's umask is left alone (tests run in parallel in one process); a mode that no
    // umask applied to bind's 0777 produces (0o640 is not 0o777 & ~mask for the usual masks) shows
    // that the mode is set explicitly. The daemon-level access tests start focusd under umasks 0,
    // 077 and 0022 in subprocesses.
    @Test("the socket file gets the asked mode and group, not the umask's, and shutdown removes it")
    func socketMode() async throws {
        let server = try await TestServer.start(options: .init(socketMode: 0o640, directoryMode: 0o750, group: getgid()))
        var info = stat()
        #expect(stat(server.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o640)
        #expect(info.st_gid == getgid())
        await server.stop()
        #expect(access(server.path, F_OK) != 0)
    }

    @Test("a stale socket file is replaced, a live server's is refused")
    func staleSocket() async throws {
        let server = try await TestServer.start()
        await #expect(throws: VarlinkServer.StartError.self) {
            _ = try await VarlinkServer.start(service: makeTestService(), endpoint: .path(server.path), eventLoop: server.group.next())
        }
        try await server.server.withService { _ in }  // still serving
        let directory = server.directory
        await server.server.shutdown()
        // Leave a stale socket file behind: bind one and never listen.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = directory + "/test.sock"
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        close(fd)
        let replacement = try await VarlinkServer.start(service: makeTestService(), endpoint: .path(path), eventLoop: server.group.next())
        #expect(try VarlinkClient(path: path).call("org.example.test.Echo", ["text": "new"])["text"] == "new")
        await replacement.shutdown()
        await server.stop()
    }
}
