import Foundation
import Testing
import Varlink

extension ServiceSocketTests {
    /// Who may call what (service.md §1): peers are told apart by SO_PEERCRED, the socket is never
    /// world-accessible, and each uid has a connection cap. The tests run as root and drop to
    /// uid/gid 65534 (nobody) in a Python child for the other peer.
    @Suite("Access control over the socket", .enabled(if: getuid() == 0, "needs root to act as another uid"))
    struct Access {
        static let nobody: UInt32 = 65534

        /// Runs `calls` (one Varlink call object each) on one connection as uid/gid 65534 and
        /// returns the first reply to each (a stream's first reply).
        static func callsAsNobody(_ daemon: FocusdProcess, groups: [UInt32] = [], _ calls: [JSONValue]) throws -> [JSONValue] {
            // The socket and its directories reachable for that uid, as an ACL would make them.
            chmod(daemon.directory, 0o755)
            chmod(daemon.directory + "/run", 0o755)
            chmod(daemon.socketPath, 0o666)
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
            s.connect(path)
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
            var call: [String: JSONValue] = ["method": .string(method), "parameters": parameters]
            if more { call["more"] = true }
            return .object(call)
        }

        static func denied(_ method: String) -> JSONValue {
            ["error": "io.focusd.Focus.PermissionDenied", "parameters": ["method": .string(method)]]
        }

        @Test("a peer outside the allowed uids and gids is denied Move and SetScene, but may introspect")
        func outsiderDenied() throws {
            let daemon = try FocusdProcess(demo: true)
            defer { daemon.stop() }
            let replies = try Self.callsAsNobody(daemon, [
                Self.call("io.focusd.Focus.Move", ["direction": "right"]),
                Self.call("io.focusd.Focus.SetScene", ["scene": TestScenes.row("intruder")]),
                Self.call("io.focusd.Focus.GetState"),
                Self.call("org.varlink.service.GetInfo"),
            ])
            try #require(replies.count == 4, "\(replies)")
            #expect(replies[0] == Self.denied("io.focusd.Focus.Move"))
            #expect(replies[1] == Self.denied("io.focusd.Focus.SetScene"))
            #expect(replies[2] == Self.denied("io.focusd.Focus.GetState"))
            #expect(replies[3]["error"] == nil && replies[3]["parameters"]?["interfaces"] != nil)
            // Nothing changed.
            #expect(try daemon.connect().call("io.focusd.Focus.ListScenes")["scenes"]?.arrayValue?.contains("intruder") == false)
        }

        @Test("a read-only uid may GetState, ListScenes and Monitor but not Move or SetScene")
        func readOnlyUid() throws {
            let daemon = try FocusdProcess(config: "[access]\nreadOnlyUids = [65534]\n", demo: true)
            defer { daemon.stop() }
            let before = try daemon.connect().call("io.focusd.Focus.GetState")["state"]
            let replies = try Self.callsAsNobody(daemon, [
                Self.call("io.focusd.Focus.GetState"),
                Self.call("io.focusd.Focus.ListScenes"),
                Self.call("io.focusd.Focus.Move", ["direction": "right"]),
                Self.call("io.focusd.Focus.SetScene", ["scene": TestScenes.row("intruder")]),
                Self.call("io.focusd.Focus.Monitor", more: true),
            ])
            try #require(replies.count == 5, "\(replies)")
            #expect(replies[0]["parameters"]?["state"] == before)
            #expect(replies[1]["parameters"]?["scenes"] != nil)
            #expect(replies[2] == Self.denied("io.focusd.Focus.Move"))
            #expect(replies[3] == Self.denied("io.focusd.Focus.SetScene"))
            #expect(replies[4]["continues"] == true)
            #expect(replies[4]["parameters"]?["state"]?["scene"] == before?["scene"])
            #expect(try daemon.connect().call("io.focusd.Focus.GetState")["state"] == before)
        }

        @Test("supplementary groups count: allowedGids grant everything, readOnlyGids only reading")
        func groupsFromPeerGroups() throws {
            let daemon = try FocusdProcess(config: "[access]\nallowedGids = [1500]\nreadOnlyGids = [1501]\n", demo: true)
            defer { daemon.stop() }
            let move = Self.call("io.focusd.Focus.Move", ["direction": "right"])
            let full = try Self.callsAsNobody(daemon, groups: [1500], [move])
            #expect(full.first?["error"] == nil && full.first?["parameters"]?["state"] != nil, "\(full)")
            let reader = try Self.callsAsNobody(daemon, groups: [1501], [Self.call("io.focusd.Focus.GetState"), move])
            try #require(reader.count == 2, "\(reader)")
            #expect(reader[0]["parameters"]?["state"] != nil)
            #expect(reader[1] == Self.denied("io.focusd.Focus.Move"))
            let stranger = try Self.callsAsNobody(daemon, groups: [1502], [move])
            #expect(stranger == [Self.denied("io.focusd.Focus.Move")])
        }

        @Test("SIGHUP reloads the access rules")
        func reloadChangesAccess() throws {
            let daemon = try FocusdProcess(config: "[access]\n", demo: true)
            defer { daemon.stop() }
            let getState = Self.call("io.focusd.Focus.GetState")
            #expect(try Self.callsAsNobody(daemon, [getState]) == [Self.denied("io.focusd.Focus.GetState")])
            try "[access]\nreadOnlyUids = [65534]\n".write(toFile: daemon.directory + "/focusd.toml", atomically: true, encoding: .utf8)
            kill(daemon.pid, SIGHUP)
            let reloaded = try eventually {
                (try Self.callsAsNobody(daemon, [getState]).first?["parameters"]?["state"]) != nil
            }
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
            open.removeLast().close()
            let again = try eventually {
                guard let client = try? daemon.connect(timeout: .seconds(1)) else { return false }
                return (try? client.call("org.varlink.service.GetInfo")) != nil
            }
            #expect(again, "a slot freed by a closed connection should admit a new one")
        }
    }
}
