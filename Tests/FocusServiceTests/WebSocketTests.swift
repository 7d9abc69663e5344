import Foundation
import Testing

extension ServiceSocketTests {
    /// Varlink over WebSocket (service.md §3), driven by a client that is not ours: the Python
    /// `websockets` package (peer/websocket_peer.py), against a `focusd --websocket 127.0.0.1:0`.
    @Suite("Web pages over WebSocket")
    struct WebSocket {
        /// Starts focusd with `--websocket 127.0.0.1:0` (and `config`), runs one scenario of the
        /// peer script against it and returns its output (the scenario's checks failed when its
        /// status is not 0).
        static func run(_ scenario: String, config: String? = nil, demo: Bool = false, environment: [String: String] = [:])
            throws -> String
        {
            let daemon = try FocusdProcess(config: config, demo: demo, devices: ["--no-devices", "--websocket", "127.0.0.1:0"])
            defer { daemon.stop() }
            let port = try webSocketPort(daemon)
            let script = ServiceTestPaths.peerScripts + "/websocket_peer.py"
            var environment = environment
            environment["FOCUSD_TEST_CONFIG"] = daemon.directory + "/focusd.toml"
            let assignments = environment.map { "\($0.key)=\($0.value)" }
            let run = try Subprocess.run(
                "/usr/bin/env", assignments + ["python3", script, scenario, "ws://127.0.0.1:\(port)", daemon.socketPath], timeout: 50)
            #expect(run.status == 0, "\(run.output)\n--- focusd log ---\n\(daemon.log_.suffix(3000))")
            #expect(daemon.isRunning, "the daemon died: \(daemon.log_)")
            #expect(daemon.stop() == 0, "focusd did not exit cleanly")
            return run.output
        }

        /// The port focusd logged once its WebSocket listened (`port=N`), before it said it was ready.
        static func webSocketPort(_ daemon: FocusdProcess) throws -> Int {
            for line in daemon.log_.split(separator: "\n") where line.contains("serving Varlink over WebSocket") {
                if let range = line.range(of: "port="), let port = Int(line[range.upperBound...].prefix { $0.isNumber }) {
                    return port
                }
            }
            throw TestFailure("focusd never said where its WebSocket listens: \(daemon.log_)")
        }

        @Test("every interface's calls get the same replies over WebSocket as over the Unix socket, streams included")
        func conformance() throws {
            let output = try Self.run("conformance")
            #expect(output.contains("the same replies"), "\(output)")
        }

        @Test("handshakes from other origins, or without one, are refused with 403")
        func refusedOrigins() throws {
            let output = try Self.run("origins")
            #expect(output.contains("refused http://evil.example: 403"), "\(output)")
        }

        @Test("with a token, only handshakes carrying it are accepted; readOnly access refuses Move")
        func token() throws {
            let token = "s3cret-token-for-the-test"
            let output = try Self.run(
                "token", config: "[websocket]\ntoken = \"\(token)\"\naccess = \"readOnly\"\n", environment: ["FOCUSD_TEST_TOKEN": token])
            #expect(output.contains("wrong token: 403"), "\(output)")
        }

        @Test("a reload changes the token and the origins for new handshakes; open connections stay")
        func reloadRotatesToken() throws {
            let output = try Self.run("reload", config: "[websocket]\ntoken = \"first-token-0123456789\"\n")
            #expect(output.contains("old token after the reload: 403"), "\(output)")
        }

        @Test("oversized, too deep, malformed, binary, non-UTF-8 and NUL-carrying messages close that connection only")
        func limits() throws {
            let output = try Self.run("limits", config: "[limits]\nmaxMessageBytes = 4096\n")
            #expect(output.contains("serves the next client"), "\(output)")
        }

        @Test("a WebSocket client that never reads is held back, then disconnected; others are served meanwhile")
        func neverReads() throws {
            let output = try Self.run("never-reads", config: "[limits]\noutgoingQueueBytes = 65536\nslowClientTimeout = 0.5\n")
            #expect(output.contains("it was disconnected"), "\(output)")
        }

        @Test("200 WebSocket monitors each get the event; the connection cap answers 503")
        func twoHundredConnections() throws {
            let output = try Self.run("many", config: "[websocket]\nmaxConnections = 200\n")
            #expect(output.contains("200 WebSocket monitors"), "\(output)")
        }

        @Test("a silent client is pinged and closed when it does not answer")
        func pings() throws {
            let output = try Self.run("pings", config: "[websocket]\npingInterval = 0.3\n")
            #expect(output.contains("answers pings stays connected"), "\(output)")
        }

        @Test("demo mode serves the demo page and the module over HTTP")
        func demoPages() throws {
            let output = try Self.run("pages", demo: true)
            #expect(output.contains("serves / and /focusd.js"), "\(output)")
        }

        @Test("--websocket takes ADDR:PORT; anything else is a usage error (exit 64) naming the value")
        func badAddress() throws {
            let run = try Subprocess.run(ServiceTestPaths.focusd, ["--no-devices", "--websocket", "nonsense"])
            #expect(run.status == 64)
            #expect(run.output.contains("--websocket: 'nonsense' is not ADDR:PORT"), "\(run.output)")
        }

        @Test("a non-loopback --websocket without a token does not start")
        func nonLoopbackNeedsToken() throws {
            let run = try Subprocess.run(ServiceTestPaths.focusd, ["--no-devices", "--socket", "/tmp/focusd-ws-none.sock", "--websocket", "0.0.0.0:0"])
            #expect(run.status != 0)
            #expect(run.output.contains("not a loopback address"), "\(run.output)")
        }
    }
}
