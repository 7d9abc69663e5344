import Foundation
import Testing
import Varlink

extension ServiceSocketTests {
    /// UAPI.20 conformance of the daemon's socket (service.md §1, §2): what closes a connection,
    /// and pipelined calls in one write. The method contract is ``ProtocolConformanceTests``.
    @Suite("Varlink protocol through the daemon")
    struct ProtocolConformance {
        @Test("malformed JSON closes the connection; other clients are served")
        func malformedJSONCloses() throws {
            let daemon = try FocusdProcess(demo: true)
            defer { daemon.stop() }
            let bystander = try daemon.connect()
            for bad in [#"{"method": "org.varlink.service.GetInfo""#, "[1,2]", "{\"method\":\"x\",}", "\u{FF}\u{FE}"] {
                let client = try daemon.connect()
                try client.sendRaw(Array(bad.utf8) + [0])
                #expect(client.waitForClose(timeout: .seconds(3)), "not closed after \(bad.debugDescription)")
            }
            #expect(try bystander.call("io.focusd.Focus.GetState")["state"] != nil)
        }

        @Test("a message longer than maxMessageBytes closes the connection; a shorter one is served")
        func oversizedCloses() throws {
            let daemon = try FocusdProcess(config: "[limits]\nmaxMessageBytes = 4096\n", demo: true)
            defer { daemon.stop() }
            let fits = try daemon.connect()
            let padding = String(repeating: "x", count: 3000)
            #expect(try fits.error(calling: "io.focusd.Focus.GetState", ["scene": .string(padding)])?.name == "io.focusd.Focus.NoSuchScene")
            let client = try daemon.connect()
            let big = #"{"method":"io.focusd.Focus.GetState","parameters":{"scene":""# + String(repeating: "y", count: 10_000) + #""}}"#
            try client.sendRaw(Array(big.utf8) + [0])
            #expect(client.waitForClose(timeout: .seconds(3)))
            // An endless message without NUL is cut off too, before it is all sent.
            let endless = try daemon.connect()
            try endless.sendRaw(Array(#"{"method":"io.focusd.Focus.GetState","parameters":{"scene":""#.utf8))
            var cutOff = false
            for _ in 0..<64 {
                do { try endless.sendRaw([UInt8](repeating: UInt8(ascii: "z"), count: 1024)) } catch {
                    cutOff = true
                    break
                }
            }
            #expect(cutOff || endless.waitForClose(timeout: .seconds(3)))
            #expect(try fits.call("io.focusd.Focus.ListScenes")["scenes"] != nil)
        }

        @Test("a JSON depth bomb closes the connection")
        func depthBombCloses() throws {
            let daemon = try FocusdProcess(demo: true)
            defer { daemon.stop() }
            let client = try daemon.connect()
            let bomb = #"{"method":"io.focusd.Focus.GetState","parameters":{"x":"# + String(repeating: "[", count: 100_000)
                + String(repeating: "]", count: 100_000) + "}}"
            try client.sendRaw(Array(bomb.utf8) + [0])
            #expect(client.waitForClose(timeout: .seconds(3)))
            #expect(daemon.isRunning)
            #expect(try daemon.connect().call("io.focusd.Focus.GetState")["state"] != nil)
        }

        @Test("an unknown header field closes the connection")
        func unknownHeaderFieldCloses() throws {
            let daemon = try FocusdProcess()
            defer { daemon.stop() }
            let client = try daemon.connect()
            try client.sendRaw(Array(#"{"method":"org.varlink.service.GetInfo","frobnicate":true}"#.utf8) + [0])
            #expect(client.waitForClose(timeout: .seconds(3)))
        }

        @Test("pipelined calls are answered in order, errors included")
        func pipelinedInOrder() throws {
            let daemon = try FocusdProcess()
            defer { daemon.stop() }
            let client = try daemon.connect()
            try client.call("io.focusd.Focus.SetScene", ["scene": TestScenes.row("pipe", count: 5)])
            var bytes: [UInt8] = []
            var expected: [String?] = []
            for index in 0..<200 {
                let call: VarlinkCall
                if index % 17 == 5 {
                    call = VarlinkCall(method: "io.focusd.Focus.Focus", parameters: ["id": .string("missing\(index)"), "scene": "pipe"])
                    expected.append(nil)
                } else {
                    let id = "tile\(index % 5)"
                    call = VarlinkCall(method: "io.focusd.Focus.Focus", parameters: ["id": .string(id), "scene": "pipe"])
                    expected.append(id)
                }
                bytes += call.serialized() + [0]
            }
            try client.sendRaw(bytes)
            var revisions: [Int64] = []
            for (index, id) in expected.enumerated() {
                let reply = try client.receive(timeout: .seconds(5))
                if let id {
                    #expect(reply.error == nil, "call \(index)")
                    #expect(reply.parameters["state"]?["focused"]?.stringValue == id, "call \(index)")
                    revisions.append(reply.parameters["state"]?["revision"]?.integerValue ?? -1)
                } else {
                    #expect(reply.error == "io.focusd.Focus.NoSuchNode", "call \(index)")
                    #expect(reply.parameters["id"]?.stringValue == "missing\(index)", "call \(index)")
                }
            }
            #expect(revisions == revisions.sorted())
        }
    }
}

/// UAPI.20 conformance of the daemon's service (service.md §1, §2): what any Varlink client may
/// rely on of its methods. Dispatch and errors, so through focusd's service in process.
@Suite("Varlink method contract of the daemon", .timeLimit(.minutes(1)))
struct ProtocolConformanceTests {
    @Test("GetInterfaceDescription returns the io.focusd.Focus interface text verbatim")
    func interfaceDescriptionVerbatim() throws {
        let daemon = try InProcessFocusd()
        let client = try daemon.connect()
        let reply = try client.call("org.varlink.service.GetInterfaceDescription", ["interface": "io.focusd.Focus"])
        let expected = try String(contentsOfFile: ServiceTestPaths.focusInterface, encoding: .utf8)
        #expect(reply["description"]?.stringValue == expected)
        let input = ServiceTestPaths.interfaceFile("io.focusd.Input.varlink")
        let inputReply = try client.call("org.varlink.service.GetInterfaceDescription", ["interface": "io.focusd.Input"])
        #expect(inputReply["description"]?.stringValue == (try String(contentsOfFile: input, encoding: .utf8)))
        let missing = try client.error(calling: "org.varlink.service.GetInterfaceDescription", ["interface": "io.focusd.Nope"])
        #expect(missing == .interfaceNotFound("io.focusd.Nope"))
    }

    @Test("GetInfo lists io.focusd.Focus, io.focusd.Input and io.focusd.Inspect")
    func infoListsInterfaces() throws {
        let daemon = try InProcessFocusd()
        let info = try daemon.connect().call("org.varlink.service.GetInfo")
        let interfaces = Set(info["interfaces"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        #expect(interfaces == ["org.varlink.service", "io.focusd.Focus", "io.focusd.Input", "io.focusd.Inspect"])
        #expect(info["vendor"]?.stringValue?.isEmpty == false)
        #expect(info["version"]?.stringValue?.isEmpty == false)
    }

    @Test("an unknown method is answered MethodNotFound and the connection stays usable")
    func unknownMethod() throws {
        let daemon = try InProcessFocusd(demo: true)
        let client = try daemon.connect()
        #expect(try client.error(calling: "io.focusd.Focus.Frobnicate") == .methodNotFound("io.focusd.Focus.Frobnicate"))
        #expect(try client.error(calling: "io.focusd.Nothing.Frobnicate")?.name == "org.varlink.service.InterfaceNotFound")
        #expect(try client.call("io.focusd.Focus.GetState")["state"]?["scene"] != nil)
    }

    @Test("bad parameters are answered InvalidParameter naming the parameter")
    func badParameters() throws {
        let daemon = try InProcessFocusd(demo: true)
        let client = try daemon.connect()
        // an unknown enum value
        #expect(try client.error(calling: "io.focusd.Focus.Move", ["direction": "sideways"]) == .invalidParameter("direction"))
        #expect(
            try client.error(calling: "io.focusd.Focus.Move", ["direction": "up", "track": "both"]) == .invalidParameter("track"))
        // a string where a number goes
        #expect(
            try client.error(calling: "io.focusd.Focus.Send", ["command": "crown", "detents": "3"]) == .invalidParameter("detents"))
        // a number where a string goes, and a missing required parameter
        #expect(try client.error(calling: "io.focusd.Focus.Focus", ["id": 7]) == .invalidParameter("id"))
        #expect(try client.error(calling: "io.focusd.Focus.Move") == .invalidParameter("direction"))
        // still fine afterwards
        #expect(try client.call("io.focusd.Focus.Move", ["direction": "right"])["state"] != nil)
    }

    @Test("Monitor without more is answered ExpectedMore")
    func monitorWithoutMore() throws {
        let daemon = try InProcessFocusd(demo: true)
        let client = try daemon.connect()
        #expect(try client.error(calling: "io.focusd.Focus.Monitor") == .expectedMore)
        #expect(try client.call("io.focusd.Focus.ListScenes")["scenes"] != nil)
    }

    @Test("a call asking for upgrade is answered InvalidParameter(upgrade)")
    func upgradeRefused() throws {
        let daemon = try InProcessFocusd()
        let client = try daemon.connect()
        try client.send(VarlinkCall(method: "org.varlink.service.GetInfo", upgrade: true))
        let reply = try client.receive(timeout: nil)
        #expect(reply.error == "org.varlink.service.InvalidParameter")
        #expect(reply.parameters["parameter"] == "upgrade")
    }
}
