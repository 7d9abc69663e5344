import Glibc
import Testing
import Varlink

/// The Varlink protocol as the service and the connection core carry it out (dispatch, order,
/// oneway and `more` calls, errors, introspection, the access hooks), through the in-process
/// connection: the same core as a socket's, without one (``LocalTestServer``).
@Suite("Dispatch through the in-process connection", .timeLimit(.minutes(1)))
struct ServiceDispatchTests {
    @Test("a call gets its reply")
    func roundTrip() throws {
        let server = try LocalTestServer()
        let client = try server.client()
        #expect(try client.call("org.example.test.Echo", ["text": "hi", "count": 3]) == ["text": "hi", "count": 3])
        #expect(try client.call("org.example.test.Add", ["a": ["x": 1, "y": 2], "b": ["x": 10, "y": 20]]) == ["sum": ["x": 11, "y": 22]])
    }

    @Test("pipelined calls are answered strictly in order, even when an earlier one answers later")
    func pipelining() throws {
        let server = try LocalTestServer()
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
    func oneway() throws {
        let server = try LocalTestServer()
        let client = try server.client()
        try client.callOneway("org.example.test.Note", ["text": "one"])
        try client.callOneway("org.example.test.Echo", ["text": "unanswered"])
        try client.callOneway("org.example.test.Note", ["text": "two"])
        #expect(try client.call("org.example.test.Notes") == ["notes": ["one", "two"]])
    }

    @Test("a more call streams replies with continues until the final one")
    func moreStream() throws {
        let server = try LocalTestServer()
        let client = try server.client()
        let replies = try client.callMore("org.example.test.Count", ["count": 4])
        var values: [JSONValue] = []
        while let reply = try replies.next() { values.append(reply["value"]!) }
        #expect(values == [1, 2, 3, 4])
        #expect(try client.call("org.example.test.Echo", ["text": "after"])["text"] == "after")
    }

    @Test("a streaming method called without more answers ExpectedMore")
    func expectedMore() throws {
        let server = try LocalTestServer()
        #expect(throws: VarlinkError.expectedMore) { try server.client().call("org.example.test.Count", ["count": 2]) }
    }

    @Test("an error reply carries the qualified name and parameters")
    func errorReply() throws {
        let server = try LocalTestServer()
        #expect(throws: VarlinkError("org.example.test.Failed", parameters: ["reason": "because"])) {
            try server.client().call("org.example.test.Fail", ["reason": "because"])
        }
    }

    @Test("unknown interfaces, unknown methods and unimplemented methods get the standard errors")
    func routingErrors() throws {
        let server = try LocalTestServer()
        let client = try server.client()
        #expect(throws: VarlinkError.interfaceNotFound("org.example.nothing")) { try client.call("org.example.nothing.Echo") }
        #expect(throws: VarlinkError.methodNotFound("org.example.test.Nope")) { try client.call("org.example.test.Nope") }
        #expect(throws: VarlinkError.methodNotImplemented("org.example.test.Unimplemented")) {
            try client.call("org.example.test.Unimplemented")
        }
        #expect(try client.call("org.example.test.Echo", ["text": "still open"])["text"] == "still open")
    }

    @Test("bad parameters get InvalidParameter naming the field")
    func invalidParameter() throws {
        let server = try LocalTestServer()
        let client = try server.client()
        #expect(throws: VarlinkError.invalidParameter("text")) { try client.call("org.example.test.Echo", ["count": 1]) }
        #expect(throws: VarlinkError.invalidParameter("count")) { try client.call("org.example.test.Echo", ["text": "a", "count": "x"]) }
        #expect(throws: VarlinkError.invalidParameter("b")) {
            try client.call("org.example.test.Add", ["a": ["x": 1, "y": 2], "b": ["x": 1]])
        }
    }

    @Test("a call asking for upgrade gets InvalidParameter naming upgrade")
    func upgrade() throws {
        let server = try LocalTestServer()
        let client = try server.client()
        try client.send(VarlinkCall(method: "org.example.test.Echo", parameters: ["text": "x"], upgrade: true))
        let reply = try client.receive()
        #expect(reply.error == "org.varlink.service.InvalidParameter")
        #expect(reply.parameters == ["parameter": "upgrade"])
    }

    @Test("GetInfo lists the service's identity and interfaces")
    func getInfo() throws {
        let server = try LocalTestServer()
        let info = try server.client().call("org.varlink.service.GetInfo")
        #expect(info == [
            "vendor": "focusd tests", "product": "VarlinkTests", "version": "1.0", "url": "https://example.org/varlink-tests",
            "interfaces": ["org.varlink.service", "org.example.test"],
        ])
    }

    @Test("GetInterfaceDescription returns the registered text verbatim")
    func introspection() throws {
        let server = try LocalTestServer()
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

    @Test("the access hooks can refuse connections and deny calls")
    func accessHooks() throws {
        let myUID = getuid()
        let server = try LocalTestServer {
            let service = makeTestService()
            service.authorizeCall = { call in call.method == "Notes" && call.peer.uid == myUID ? .permissionDenied : nil }
            var accepted = 0
            service.acceptConnection = { connection in
                accepted += 1
                return accepted != 2
            }
            return service
        }
        let first = try server.client()
        #expect(throws: VarlinkError.permissionDenied) { try first.call("org.example.test.Notes") }
        #expect(throws: LocalTestServer.Refused.self) { try server.client() }
        #expect(try server.client().call("org.example.test.Echo", ["text": "third"])["text"] == "third")
    }
}
