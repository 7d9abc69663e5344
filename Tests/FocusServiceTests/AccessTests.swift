import Foundation
import Testing
import Varlink

/// Calls and answers of the access tests, as the wire carries them.
enum AccessCalls {
    /// uid/gid 65534 (nobody): the other peer.
    static let nobody: UInt32 = 65534

    static func call(_ method: String, _ parameters: JSONValue = [:], more: Bool = false) -> JSONValue {
        var call: [String: JSONValue] = ["method": .string(method), "parameters": parameters]
        if more { call["more"] = true }
        return .object(call)
    }

    static func denied(_ method: String) -> JSONValue {
        ["error": "io.focusd.Focus.PermissionDenied", "parameters": ["method": .string(method)]]
    }
}

/// Who may call what (service.md §1), given the peer's credentials: the rules of
/// `AccessPolicy` as the daemon's service applies them, through the in-process connection with
/// the credentials a socket peer's SO_PEERCRED would give (uid/gid 65534, the groups listed).
/// That the socket's credentials reach the same rules is shown once per rule over a real socket
/// (``ServiceSocketTests/Access/socketCredentialsReachTheRule(_:)``).
@Suite("Access rules, given a peer's credentials", .timeLimit(.minutes(1)))
struct AccessRuleTests {
    /// The first reply to each of `calls` (a stream's first reply), made one after another on
    /// one connection as uid/gid 65534 with supplementary `groups`, as the client reads it.
    static func replies(_ daemon: InProcessFocusd, groups: [UInt32] = [], _ calls: [JSONValue]) throws -> [JSONValue] {
        let peer = PeerCredentials(pid: getpid(), uid: AccessCalls.nobody, gid: AccessCalls.nobody, groups: groups.sorted())
        let replies = try daemon.replies(as: peer, try calls.map { try VarlinkCall(message: $0.serialized()) })
        return try replies.map { try JSONValue.parse($0.serialized()) }
    }

    @Test("a peer outside the allowed uids and gids is denied Move and SetScene, but may introspect")
    func outsiderDenied() throws {
        let daemon = try InProcessFocusd(demo: true)
        let replies = try Self.replies(daemon, [
            AccessCalls.call("io.focusd.Focus.Move", ["direction": "right"]),
            AccessCalls.call("io.focusd.Focus.SetScene", ["scene": TestScenes.row("intruder")]),
            AccessCalls.call("io.focusd.Focus.GetState"),
            AccessCalls.call("org.varlink.service.GetInfo"),
        ])
        try #require(replies.count == 4, "\(replies)")
        #expect(replies[0] == AccessCalls.denied("io.focusd.Focus.Move"))
        #expect(replies[1] == AccessCalls.denied("io.focusd.Focus.SetScene"))
        #expect(replies[2] == AccessCalls.denied("io.focusd.Focus.GetState"))
        #expect(replies[3]["error"] == nil && replies[3]["parameters"]?["interfaces"] != nil)
        // Nothing changed.
        #expect(try daemon.connect().call("io.focusd.Focus.ListScenes")["scenes"]?.arrayValue?.contains("intruder") == false)
    }

    @Test("a read-only uid may GetState, ListScenes and Monitor but not Move or SetScene")
    func readOnlyUid() throws {
        let daemon = try InProcessFocusd(config: "[access]\nreadOnlyUids = [65534]\n", demo: true)
        let before = try daemon.connect().call("io.focusd.Focus.GetState")["state"]
        let replies = try Self.replies(daemon, [
            AccessCalls.call("io.focusd.Focus.GetState"),
            AccessCalls.call("io.focusd.Focus.ListScenes"),
            AccessCalls.call("io.focusd.Focus.Move", ["direction": "right"]),
            AccessCalls.call("io.focusd.Focus.SetScene", ["scene": TestScenes.row("intruder")]),
            AccessCalls.call("io.focusd.Focus.Monitor", more: true),
        ])
        try #require(replies.count == 5, "\(replies)")
        #expect(replies[0]["parameters"]?["state"] == before)
        #expect(replies[1]["parameters"]?["scenes"] != nil)
        #expect(replies[2] == AccessCalls.denied("io.focusd.Focus.Move"))
        #expect(replies[3] == AccessCalls.denied("io.focusd.Focus.SetScene"))
        #expect(replies[4]["continues"] == true)
        #expect(replies[4]["parameters"]?["state"]?["scene"] == before?["scene"])
        #expect(try daemon.connect().call("io.focusd.Focus.GetState")["state"] == before)
    }

    @Test("a read-only uid may not Lend or Reclaim a device; full access gets NoSuchDevice for an unknown one")
    func lendNeedsFullAccess() throws {
        let daemon = try InProcessFocusd(config: "[access]\nreadOnlyUids = [65534]\n", demo: true)
        let replies = try Self.replies(daemon, [
            AccessCalls.call("io.focusd.Input.Lend", ["device": "input1-event1"]),
            AccessCalls.call("io.focusd.Input.Reclaim", ["device": "input1-event1"]),
            AccessCalls.call("io.focusd.Input.ListDevices"),
        ])
        try #require(replies.count == 3, "\(replies)")
        #expect(replies[0]["error"] == "org.varlink.service.PermissionDenied", "\(replies[0])")
        #expect(replies[1]["error"] == "org.varlink.service.PermissionDenied", "\(replies[1])")
        #expect(replies[2]["parameters"]?["devices"] != nil)
        for method in ["io.focusd.Input.Lend", "io.focusd.Input.Reclaim"] {
            #expect(throws: VarlinkError.self) { try daemon.connect().call(method, ["device": "input1-event1"]) }
            do {
                _ = try daemon.connect().call(method, ["device": "input1-event1"])
            } catch let error as VarlinkError {
                #expect(error.name == "io.focusd.Input.NoSuchDevice" && error.parameters["id"] == "input1-event1")
            }
        }
    }

    @Test("supplementary groups count: allowedGids grant everything, readOnlyGids only reading")
    func groupsFromPeerGroups() throws {
        let daemon = try InProcessFocusd(config: "[access]\nallowedGids = [1500]\nreadOnlyGids = [1501]\n", demo: true)
        let move = AccessCalls.call("io.focusd.Focus.Move", ["direction": "right"])
        let full = try Self.replies(daemon, groups: [1500], [move])
        #expect(full.first?["error"] == nil && full.first?["parameters"]?["state"] != nil, "\(full)")
        let reader = try Self.replies(daemon, groups: [1501], [AccessCalls.call("io.focusd.Focus.GetState"), move])
        try #require(reader.count == 2, "\(reader)")
        #expect(reader[0]["parameters"]?["state"] != nil)
        #expect(reader[1] == AccessCalls.denied("io.focusd.Focus.Move"))
        let stranger = try Self.replies(daemon, groups: [1502], [move])
        #expect(stranger == [AccessCalls.denied("io.focusd.Focus.Move")])
    }

    @Test("a read-only uid in the socket's group may only read: the narrower grant wins")
    func readOnlyUidInSocketGroup() throws {
        // The socket's group (root's, as for a root focusd without a `focusd` group) grants everything.
        let daemon = try InProcessFocusd(config: "[access]\nreadOnlyUids = [65534]\n", demo: true, socketGID: 0)
        let replies = try Self.replies(daemon, groups: [0], [
            AccessCalls.call("io.focusd.Focus.GetState"), AccessCalls.call("io.focusd.Focus.Move", ["direction": "right"]),
        ])
        try #require(replies.count == 2, "\(replies)")
        #expect(replies[0]["parameters"]?["state"] != nil)
        #expect(replies[1] == AccessCalls.denied("io.focusd.Focus.Move"))
        let byGroup = try InProcessFocusd(config: "[access]\nreadOnlyGids = [1501]\nallowedGids = [1500]\n", demo: true)
        let narrowed = try Self.replies(byGroup, groups: [1500, 1501], [AccessCalls.call("io.focusd.Focus.Move", ["direction": "right"])])
        #expect(narrowed == [AccessCalls.denied("io.focusd.Focus.Move")])
    }

    @Test("a denied call answers the error its interface declares: io.focusd.Focus.PermissionDenied, else org.varlink.service.PermissionDenied")
    func permissionDeniedPerInterface() throws {
        let daemon = try InProcessFocusd(demo: true)
        let replies = try Self.replies(daemon, [
            AccessCalls.call("io.focusd.Input.ListDevices"), AccessCalls.call("io.focusd.Input.ReloadConfig"),
            AccessCalls.call("io.focusd.Inspect.GetScene"), AccessCalls.call("io.focusd.Focus.ListScenes"),
        ])
        try #require(replies.count == 4, "\(replies)")
        #expect(replies[0]["error"] == "org.varlink.service.PermissionDenied")
        #expect(replies[1]["error"] == "org.varlink.service.PermissionDenied")
        #expect(replies[2]["error"] == "org.varlink.service.PermissionDenied")
        #expect(replies[3] == AccessCalls.denied("io.focusd.Focus.ListScenes"))
    }

    @Test("a read-only uid may ExplainMove and PlanPath but not Record, which carries every key typed")
    func inspectAccess() throws {
        let daemon = try InProcessFocusd(config: "[access]\nreadOnlyUids = [65534]\n", demo: true)
        let replies = try Self.replies(daemon, [
            AccessCalls.call("io.focusd.Inspect.ExplainMove", ["direction": "right"]),
            AccessCalls.call("io.focusd.Inspect.PlanPath", ["target": "tile05"]),
            AccessCalls.call("io.focusd.Inspect.Record", more: true),
        ])
        try #require(replies.count == 3, "\(replies)")
        #expect(replies[0]["parameters"]?["explanation"]?["result"] == "heroTrending", "\(replies[0])")
        #expect(replies[1]["parameters"]?["plan"]?["reachable"] == true, "\(replies[1])")
        // io.focusd.Inspect declares no PermissionDenied of its own (README "Decisions").
        #expect(replies[2]["error"] == "org.varlink.service.PermissionDenied", "\(replies[2])")
    }
}

extension ServiceSocketTests {
    /// What only the socket shows about access (service.md §1): that SO_PEERCRED and
    /// SO_PEERGROUPS reach the rules (once per rule; the rules themselves are
    /// ``AccessRuleTests``), the socket file's mode, group and ACL, SIGHUP, and the connection
    /// cap per uid. The tests run as root and drop to uid/gid 65534 (nobody) in a Python child
    /// for the other peer.
    @Suite("Access control over the socket", .enabled(if: getuid() == 0, "needs root to act as another uid"))
    struct Access {
        static let nobody = AccessCalls.nobody

        /// Runs `calls` (one Varlink call object each) on one connection as uid/gid 65534 and
        /// returns the first reply to each (a stream's first reply).
        static func callsAsNobody(
            _ daemon: FocusdProcess, groups: [UInt32] = [], opened: Bool = true, _ calls: [JSONValue]
        ) throws -> [JSONValue] {
            // The daemon's temporary directory stands for /run (0755).
            chmod(daemon.directory, 0o755)
            if opened {
                // The socket and its directory reachable for that uid whatever focusd grants.
                chmod(daemon.directory + "/run", 0o755)
                chmod(daemon.socketPath, 0o666)
            }
            let run = try Subprocess.python(
                script, [daemon.socketPath, String(nobody), groups.map(String.init).joined(separator: ",")] + calls.map { String(decoding: $0.serialized(), as: UTF8.self) })
            guard run.status == 0 else { throw TestFailure("the python peer failed: \(run.output)") }
            return try run.output.split(separator: "\n").map { try JSONValue.parse(String($0)) }
        }

        static let script = #"""
            import json, os, socket, sys
            path, uid = sys.argv[1], int(sys.argv[2])
            os.setgroups([int(g) for g in sys.argv[3].split(",") if g])
            os.setgid(uid)
            os.setuid(uid)
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(path)
            except PermissionError:
                print(json.dumps({"refused": True}), flush=True)
                sys.exit(0)
            buffer = b""
            for call in sys.argv[4:]:
                s.sendall(call.encode() + b"\0")
                while b"\0" not in buffer:
                    chunk = s.recv(65536)
                    if not chunk:
                        print(json.dumps({"closed": True}), flush=True)
                        sys.exit(0)
                    buffer += chunk
                message, _, buffer = buffer.partition(b"\0")
                print(message.decode(), flush=True)
            """#

        static func call(_ method: String, _ parameters: JSONValue = [:], more: Bool = false) -> JSONValue {
            AccessCalls.call(method, parameters, more: more)
        }

        static func denied(_ method: String) -> JSONValue { AccessCalls.denied(method) }

        /// One access rule as a socket peer meets it: the config, the peer's supplementary
        /// groups, its calls, and the error each answers (nil: answered).
        struct Rule: Sendable, CustomTestStringConvertible {
            var name: String
            var config: String
            var groups: [UInt32] = []
            var calls: [JSONValue]
            var errors: [String?]
            var testDescription: String { name }
        }

        static let rules: [Rule] = {
            let move = call("io.focusd.Focus.Move", ["direction": "right"])
            let getState = call("io.focusd.Focus.GetState")
            let denied = "io.focusd.Focus.PermissionDenied"
            let groups = "[access]\nallowedGids = [1500]\nreadOnlyGids = [1501]\n"
            let readOnlyUid = "[access]\nreadOnlyUids = [65534]\n"
            return [
                Rule(name: "a uid outside the allowed ones is denied, but may introspect", config: "",
                     calls: [move, call("org.varlink.service.GetInfo")], errors: [denied, nil]),
                Rule(name: "a read-only uid may read, not move", config: readOnlyUid, calls: [getState, move], errors: [nil, denied]),
                Rule(name: "a supplementary group in allowedGids grants everything", config: groups, groups: [1500],
                     calls: [move], errors: [nil]),
                Rule(name: "a supplementary group in readOnlyGids grants reading only", config: groups, groups: [1501],
                     calls: [getState, move], errors: [nil, denied]),
                Rule(name: "a read-only uid in the socket's group may only read: the narrower grant wins", config: readOnlyUid,
                     groups: [0], calls: [getState, move], errors: [nil, denied]),
                Rule(name: "io.focusd.Input and io.focusd.Inspect deny with org.varlink.service.PermissionDenied", config: "",
                     calls: [call("io.focusd.Input.ListDevices"), call("io.focusd.Inspect.GetScene")],
                     errors: ["org.varlink.service.PermissionDenied", "org.varlink.service.PermissionDenied"]),
            ]
        }()

        @Test("SO_PEERCRED and SO_PEERGROUPS reach the same access rule as a given credential", arguments: rules)
        func socketCredentialsReachTheRule(_ rule: Rule) throws {
            let daemon = try FocusdProcess(config: rule.config, demo: true)
            defer { daemon.stop() }
            let replies = try Self.callsAsNobody(daemon, groups: rule.groups, rule.calls)
            try #require(replies.count == rule.errors.count, "\(replies)")
            for (reply, error) in zip(replies, rule.errors) {
                #expect(reply["error"]?.stringValue == error, "\(reply)")
                if error == nil { #expect(reply["parameters"] != nil && reply["parameters"] != [:], "\(reply)") }
            }
            // The same credential given to the in-process connection of the same daemon (root's
            // socket group is 0 here: no `focusd` group) is answered the same, reply for reply.
            let given = try InProcessFocusd(config: rule.config, demo: true, socketGID: 0)
            #expect(try AccessRuleTests.replies(given, groups: rule.groups, rule.calls) == replies)
        }

        @Test("a peer whose only supplementary group is the socket's is allowed; so are peers with two and with 300 groups")
        func supplementaryGroupsOneTwoMany() throws {
            // As root without a `focusd` group, the socket's group is root (gid 0): a leading 0 in
            // SO_PEERGROUPS, which focusd resolves through /proc/PID/status; more than 256 groups
            // overflow SO_PEERGROUPS's buffer, which does too.
            let daemon = try FocusdProcess(config: "[access]\nallowedGids = [7000]\n", demo: true)
            defer { daemon.stop() }
            let move = Self.call("io.focusd.Focus.Move", ["direction": "right"])
            func allowed(_ groups: [UInt32]) throws -> Bool {
                let replies = try Self.callsAsNobody(daemon, groups: groups, [move])
                return replies.first?["error"] == nil && replies.first?["parameters"]?["state"] != nil
            }
            #expect(try allowed([0]), "one group, the socket's")
            #expect(try allowed([0, 1500]), "two groups, the socket's first")
            #expect(try allowed(Array(1000..<1300) + [7000]), "300 groups, the allowed one last")
            #expect(try allowed([0] + Array(1000..<1300)), "301 groups, the socket's first")
            #expect(try !allowed(Array(1000..<1300)), "300 groups, none of them granting")
        }

        @Test("configured read-only users can connect to the default 0660 socket in its 0750 directory; a reload that drops them shuts them out")
        func readOnlyUsersReachDefaultSocket() throws {
            let daemon = try FocusdProcess(config: "[access]\nreadOnlyUids = [65534]\n", demo: true)
            defer { daemon.stop() }
            let getState = Self.call("io.focusd.Focus.GetState")
            let (socketMode, _) = try #require(try? Self.modeAndGroup(daemon.socketPath))
            #expect(socketMode & 0o7 == 0, "never world-accessible")
            let reader = try Self.callsAsNobody(daemon, opened: false, [getState, Self.call("io.focusd.Focus.Move", ["direction": "right"])])
            try #require(reader.count == 2, "\(reader)")
            #expect(reader[0]["parameters"]?["state"] != nil, "\(reader)")
            #expect(reader[1] == Self.denied("io.focusd.Focus.Move"))
            // Once the config no longer lists it, that user cannot even connect.
            try "[access]\n".write(toFile: daemon.directory + "/focusd.toml", atomically: true, encoding: .utf8)
            #expect(try daemon.connect().call("io.focusd.Input.ReloadConfig")["warnings"] == [])
            #expect(try Self.callsAsNobody(daemon, opened: false, [getState]) == [["refused": true]])
        }

        static func modeAndGroup(_ path: String) throws -> (mode: mode_t, group: gid_t) {
            var status = stat()
            guard stat(path, &status) == 0 else { throw TestFailure("stat \(path): errno \(errno)") }
            return (status.st_mode & 0o7777, status.st_gid)
        }

        @Test("SIGHUP reloads the access rules")
        func reloadChangesAccess() throws {
            let daemon = try FocusdProcess(config: "[access]\n", demo: true)
            defer { daemon.stop() }
            let getState = Self.call("io.focusd.Focus.GetState")
            #expect(try Self.callsAsNobody(daemon, [getState]) == [Self.denied("io.focusd.Focus.GetState")])
            try "[access]\nreadOnlyUids = [65534]\n".write(toFile: daemon.directory + "/focusd.toml", atomically: true, encoding: .utf8)
            kill(daemon.pid, SIGHUP)
            #expect(daemon.waitForLog("configuration reloaded from"), "SIGHUP did not reload")
            let reloaded = (try Self.callsAsNobody(daemon, [getState]).first?["parameters"]?["state"]) != nil
            #expect(reloaded, "after SIGHUP the read-only uid should read")
            #expect(daemon.isRunning)
        }

        @Test("a config asking for a world-accessible socket is refused at start; a narrower mode is honoured")
        func configModeNeverWorld() throws {
            let directory = try FocusdProcess.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try "[socket]\nmode = 0o666\n".write(toFile: directory + "/world.toml", atomically: true, encoding: .utf8)
            let refused = try Subprocess.run(
                ServiceTestPaths.focusd, ["--no-devices", "--socket", directory + "/s.sock", "--config", directory + "/world.toml"],
                timeout: 10)
            #expect(refused.status != 0)
            #expect(refused.output.contains("world-accessible"), "\(refused.output)")
            #expect(!FileManager.default.fileExists(atPath: directory + "/s.sock"))

            let daemon = try FocusdProcess(config: "[socket]\nmode = \"0640\"\n")
            defer { daemon.stop() }
            var info = stat()
            try #require(lstat(daemon.socketPath, &info) == 0)
            #expect(info.st_mode & 0o7777 == 0o640, "socket mode \(String(info.st_mode & 0o7777, radix: 8))")
        }

        @Test("the socket is 0660 in a 0750 directory whatever the umask")
        func socketModeIgnoresUmask() throws {
            for umask in ["0", "077", "0022"] {
                let daemon = try FocusdProcess(umask: umask)
                defer { daemon.stop() }
                var info = stat()
                try #require(lstat(daemon.socketPath, &info) == 0)
                #expect(info.st_mode & S_IFMT == S_IFSOCK)
                #expect(info.st_mode & 0o7777 == 0o660, "umask \(umask): socket mode \(String(info.st_mode & 0o7777, radix: 8))")
                try #require(stat(daemon.directory + "/run", &info) == 0)
                #expect(info.st_mode & 0o7777 == 0o750, "umask \(umask): directory mode \(String(info.st_mode & 0o7777, radix: 8))")
                #expect(daemon.stop() == 0)
                #expect(!FileManager.default.fileExists(atPath: daemon.socketPath), "SIGTERM should remove the socket")
            }
        }

        @Test("the connection cap per uid closes the connection over it")
        func connectionCapPerUid() throws {
            let daemon = try FocusdProcess(config: "[limits]\nmaxConnectionsPerUid = 3\n")
            defer { daemon.stop() }
            var open: [TestClient] = []
            for _ in 0..<3 {
                let client = try daemon.connect()
                #expect(try client.call("org.varlink.service.GetInfo")["interfaces"] != nil)
                open.append(client)
            }
            let fourth = try daemon.connect()
            #expect(fourth.waitForClose(timeout: .seconds(3)), "the fourth connection of one uid should be closed")
            #expect(open.removeLast().closeAndWaitUntilReleased(), "the daemon kept a connection whose client finished")
            let again = try daemon.connect()
            #expect((try? again.call("org.varlink.service.GetInfo")) != nil, "a slot freed by a closed connection should admit a new one")
        }
    }
}
