import FocusEngine
import FocusWire
import Foundation
import Testing
import Varlink

extension ServiceSocketTests {
    /// Large `SetScene` and `UpdateScene` calls are decoded, validated and indexed on the worker
    /// thread and swapped in on the event loop (issues 11 and 13): other scenes' calls are
    /// answered meanwhile, calls to the scene being built wait for it and are answered in order,
    /// and the replies and states are those of the same call done in place.
    ///
    /// Shown by the order of events, not by timing: a `Lint` of 3,000 coincident candidates,
    /// sent first, holds the worker thread (below the loop's priority) for a while; a call built
    /// on that worker is answered only after that lint, a call done on the loop (or on the
    /// prompt worker, at the loop's priority) at once. The suites of the build machinery run
    /// with `promptBuildBytes = 0`, so that every build takes the one worker the lint holds.
    @Suite("Scenes built off the event loop")
    struct OffLoopScenes {
        /// A client whose `Lint` keeps the worker thread busy, queued behind two other clients'
        /// (so that the worker stays busy for a while after all are surely read); its reply is
        /// still to come.
        /// (`daemon` logs at debug level: it says when it queues each Lint.)
        static func occupyWorker(_ daemon: FocusdProcess) throws -> (first: [TestClient], linter: TestClient) {
            var children: [JSONValue] = []
            // Integers and short ids: under 256 KiB, so the message is parsed on the loop and the
            // lint's work is queued on the worker as soon as the message is read.
            for index in 0..<3_000 { children.append(["id": .string("c\(index)"), "focusable": true, "frame": ["x": 100, "y": 100, "width": 80, "height": 80]]) }
            let scene: JSONValue = [
                "name": "lint", "root": ["id": "root", "frame": TestScenes.frame(0, 0, 1920, 1080), "children": .array(children)],
            ]
            let call = VarlinkCall(method: "io.focusd.Focus.Lint", parameters: ["scene": scene])
            #expect(call.serialized().count < 256 << 10)
            // Two lints ahead of this one: the worker stays busy long after the wait below.
            let line = "Lint is queued on the worker thread"
            let queued = daemon.log_.components(separatedBy: line).count - 1
            let first = [try daemon.connect(timeout: .seconds(60)), try daemon.connect(timeout: .seconds(60))]
            for client in first { try client.send(call) }
            let linter = try daemon.connect(timeout: .seconds(60))
            try linter.send(call)
            // All three read and queued (the daemon logs each at debug level) before what follows.
            #expect(daemon.waitForLog { $0.components(separatedBy: line).count - 1 >= queued + 3 }, "the lints were not queued")
            return (first, linter)
        }

        /// A daemon that logs when it starts a build on the worker; every build on the one worker
        /// below the loop's priority unless `prompt` (focusd's default: calls of up to
        /// `promptBytes` on the prompt worker at the loop's priority).
        static func daemon(prompt: Bool = false, promptBytes: Int = 2 << 20) throws -> FocusdProcess {
            try FocusdProcess(config: "[limits]\npromptBuildBytes = \(prompt ? promptBytes : 0)\n", devices: ["--no-devices", "--log-level", "debug"])
        }

        /// Waits (at most 20 s) until the daemon has logged `count` builds of `scene` by `method`.
        static func waitForBuild(_ daemon: FocusdProcess, _ method: String, of scene: String, count: Int = 1) {
            let line = "scene '\(scene)': \(method) is built on the worker thread"
            _ = daemon.waitForLog { $0.components(separatedBy: line).count - 1 >= count }
        }

        /// Waits for `client`'s reply, then whether `earlier`'s had begun to come by then (the
        /// daemon writes replies in the order it makes them; a lint's reply of 340 KB may still
        /// be on its way, but its first bytes are there).
        static func reply(of client: TestClient, after earlier: TestClient) throws -> (reply: VarlinkReply, earlierBegun: Bool) {
            let reply = try client.receive(timeout: .seconds(50))
            var descriptor = pollfd(fd: earlier.fd, events: Int16(POLLIN), revents: 0)
            let begun = poll(&descriptor, 1, 0) == 1
            _ = try earlier.receive(timeout: .seconds(50))
            return (reply, begun)
        }

        /// The scene `value` as the engine decodes it.
        static func scene(_ value: JSONValue) throws -> Scene { try value.decode(Scene.self) }

        @Test("a SetScene of a large scene is built on the worker thread while calls to other scenes are answered, and its reply is the engine's")
        func largeSceneBuiltOnWorker() throws {
            let daemon = try Self.daemon()
            defer { daemon.stop() }
            let other = try daemon.connect()
            try other.call("io.focusd.Focus.SetScene", ["scene": TestScenes.row("live", count: 2)])
            let (first, linter) = try Self.occupyWorker(daemon)
            defer { for client in first { client.close() } }
            let big = TestScenes.grid("big", columns: 50, rows: 40)  // 2,000 tiles, 160 KB: parsed on the loop
            let builder = try daemon.connect(timeout: .seconds(60))
            try builder.send(VarlinkCall(method: "io.focusd.Focus.SetScene", parameters: ["scene": big]))
            Self.waitForBuild(daemon, "SetScene", of: "big")
            // Another scene's calls are answered at once, the builder's reply still to come.
            for index in 0..<5 {
                let reply = try other.call("io.focusd.Focus.Move", ["direction": index % 2 == 0 ? "right" : "left", "scene": "live"])
                #expect(reply["moved"] == true)
            }
            #expect(try builder.receiveText(timeout: .milliseconds(1)) == nil, "SetScene was answered before the worker was free: it was built on the loop")
            let (set, lint) = try Self.reply(of: builder, after: linter)
            #expect(lint, "SetScene was answered before the Lint that held the worker")
            let expected = try SceneSession(scene: Self.scene(big))
            #expect(set.error == nil)
            #expect(set.parameters["state"] == (try JSONValue(encoding: expected.state(active: true))))
            #expect(set.parameters["warnings"] == [])
            #expect(try other.call("io.focusd.Focus.ListScenes") == ["scenes": ["big", "live"], "active": "big"])
        }

        /// Each thread's name and nice value (the 19th field of its stat, after the name's parenthesis).
        static func threadNices(_ daemon: FocusdProcess) throws -> [(name: String, nice: Int)] {
            let tasks = "/proc/\(daemon.pid)/task"
            return try FileManager.default.contentsOfDirectory(atPath: tasks).map { task in
                let name = try String(contentsOfFile: "\(tasks)/\(task)/comm", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
                let stat = try String(contentsOfFile: "\(tasks)/\(task)/stat", encoding: .utf8)
                let fields = stat[stat.range(of: ")", options: .backwards)!.upperBound...].split(separator: " ")
                return (name, Int(fields[16])!)
            }
        }

        @Test("the worker thread runs at nice 10, below the event loop at nice 0, and the prompt worker at the loop's nice 0")
        func workerBelowLoop() throws {
            for prompt in [false, true] {
                let daemon = try Self.daemon(prompt: prompt)
                defer { daemon.stop() }
                _ = try daemon.connect().call("org.varlink.service.GetInfo")
                let nice = try Self.threadNices(daemon)
                // NIO names the threads of both pools TP-#0.
                #expect(nice.filter { $0.name.hasPrefix("TP-") }.map(\.nice).sorted() == (prompt ? [0, 10] : [10]), "\(nice)")
                #expect(nice.filter { $0.name.hasPrefix("NIO-ELT") }.map(\.nice) == [0], "\(nice)")
            }
        }

        @Test("with the prompt worker, a SetScene of at most promptBuildBytes is built at the loop's priority while a Lint holds the worker below it; a larger one waits for that worker")
        func promptSceneNotBehindWorker() throws {
            // 2,000 tiles: 160 KB, parsed on the loop; the limit set between it and twice it.
            let small = TestScenes.grid("small", columns: 50, rows: 40)
            let size = VarlinkCall(method: "io.focusd.Focus.SetScene", parameters: ["scene": small]).serialized().count
            let daemon = try Self.daemon(prompt: true, promptBytes: size + 1_000)
            defer { daemon.stop() }
            let (first, linter) = try Self.occupyWorker(daemon)
            defer { for client in first { client.close() } }
            let builder = try daemon.connect(timeout: .seconds(60))
            try builder.send(VarlinkCall(method: "io.focusd.Focus.SetScene", parameters: ["scene": small]))
            let (set, lint) = try Self.reply(of: builder, after: linter)
            #expect(set.error == nil)
            #expect(!lint, "the SetScene within promptBuildBytes waited for the Lint that held the worker")
            #expect(daemon.log_.contains("scene 'small': SetScene is built on the prompt worker thread"))
            #expect(set.parameters["state"] == (try JSONValue(encoding: SceneSession(scene: Self.scene(small)).state(active: true))))

            // Twice the tiles: over the limit, queued behind a Lint on the worker below the loop's priority.
            let (more, linter2) = try Self.occupyWorker(daemon)
            defer { for client in more { client.close() } }
            let large = TestScenes.grid("large", columns: 50, rows: 80)
            try builder.send(VarlinkCall(method: "io.focusd.Focus.SetScene", parameters: ["scene": large]))
            let (setLarge, lintLarge) = try Self.reply(of: builder, after: linter2)
            #expect(setLarge.error == nil)
            #expect(lintLarge, "the SetScene over promptBuildBytes was answered before the Lint that held the worker")
            #expect(daemon.log_.contains("scene 'large': SetScene is built on the worker thread"))
        }

        @Test("a SetScene of 256 KiB or more is read from its bytes, with the reply of the general way; with an escape, a duplicate id or a broken byte it is answered as before")
        func largeSceneReadFromBytes() throws {
            let daemon = try Self.daemon()
            defer { daemon.stop() }
            let big = TestScenes.grid("big", columns: 100, rows: 40)  // 4,000 tiles, over 256 KiB
            let message = VarlinkCall(method: "io.focusd.Focus.SetScene", parameters: ["scene": big]).serialized()
            #expect(message.count >= 256 << 10)
            let expected = try JSONValue(encoding: SceneSession(scene: Self.scene(big)).state(active: true))
            let client = try daemon.connect(timeout: .seconds(60))
            let read = try VarlinkReply(message: Array(try client.roundTrip(message + [0]).utf8))
            #expect(read.error == nil && read.parameters["state"] == expected)
            #expect(daemon.log_.contains("scene 'big': SetScene was read from its bytes"))

            // The same scene with an escaped id (t0_1 as t0\u005f1): the general way, the same reply.
            let escaped = String(decoding: message, as: UTF8.self).replacingOccurrences(of: #""t0_1""#, with: #""t0\u005f1""#)
            #expect(escaped.utf8.count == message.count + 5)
            try client.call("io.focusd.Focus.RemoveScene", ["scene": "big"])
            let general = try VarlinkReply(message: Array(try client.roundTrip(Array(escaped.utf8) + [0]).utf8))
            #expect(general.error == nil && general.parameters["state"] == expected)
            #expect(daemon.log_.components(separatedBy: "SetScene was read from its bytes").count == 2, "the escaped one was read from its bytes")

            // Read from its bytes, refused by the engine as the general way's scene would be.
            let duplicate = String(decoding: message, as: UTF8.self).replacingOccurrences(of: #""t0_1""#, with: #""t0_2""#)
            let refused = try VarlinkReply(message: Array(try client.roundTrip(Array(duplicate.utf8) + [0]).utf8))
            #expect(refused.error == "io.focusd.Focus.InvalidScene")
            #expect(refused.parameters["reason"]?.stringValue == "duplicate id 't0_2'")
            #expect(try client.call("io.focusd.Focus.ListScenes")["scenes"] == ["big"])

            // Not JSON (a brace missing at the end): a protocol violation, the connection closed.
            let broken = try daemon.connect(timeout: .seconds(60))
            try broken.sendRaw(Array(message.dropLast()) + [0])
            #expect(throws: (any Error).self) { _ = try broken.receiveText(timeout: .seconds(30)) }
            #expect(try client.call("io.focusd.Focus.ListScenes")["scenes"] == ["big"])
        }

        @Test("calls to a scene being replaced wait for the swap and are answered after it, in order, with the monitor's events in the same order")
        func callsToSceneBeingReplacedWait() throws {
            let daemon = try Self.daemon()
            defer { daemon.stop() }
            let owner = try daemon.connect(timeout: .seconds(60))
            try owner.call("io.focusd.Focus.SetScene", ["scene": TestScenes.grid("x", columns: 50, rows: 40)])
            let moved = try owner.call("io.focusd.Focus.Move", ["direction": "right", "scene": "x"])
            #expect(moved["state"]?["focused"] == "t0_1")
            let other = try daemon.connect()
            try other.call("io.focusd.Focus.SetScene", ["scene": TestScenes.row("live", count: 2)])
            let monitor = try daemon.connect().callMore("io.focusd.Focus.Monitor", ["scene": "x"])
            _ = try monitor.next(timeout: .seconds(5))  // its state

            let (first, linter) = try Self.occupyWorker(daemon)
            defer { for client in first { client.close() } }
            // The replacement has other ids: focus on t0_1 goes to the new scene's default, x-0.
            try owner.send(VarlinkCall(method: "io.focusd.Focus.SetScene", parameters: ["scene": HostileClients.scene("x", tiles: 2_000)]))
            Self.waitForBuild(daemon, "SetScene", of: "x", count: 2)
            let reader = try daemon.connect()
            try reader.send(VarlinkCall(method: "io.focusd.Focus.GetState", parameters: ["scene": "x"]))
            // Read, and waiting for the build, before the mover's call.
            #expect(daemon.waitForLog("scene 'x': GetState waits for the scene being built"))
            let mover = try daemon.connect()
            try mover.send(VarlinkCall(method: "io.focusd.Focus.Move", parameters: ["direction": "right", "scene": "x"]))
            // Not held: another scene.
            #expect(try other.call("io.focusd.Focus.Move", ["direction": "right", "scene": "live"])["moved"] == true)
            let early = try reader.receiveText(timeout: .milliseconds(1))
            #expect(early == nil, "a call to the scene being replaced was answered before the replacement: \(early ?? "")")

            let (set, lint) = try Self.reply(of: owner, after: linter)
            #expect(lint, "SetScene was answered before the Lint that held the worker")
            // Answered after the swap, in the order they came: the read sees the new scene, the
            // move comes after it.
            let get = try reader.receive(timeout: .seconds(10)), move = try mover.receive(timeout: .seconds(10))
            let revision = try #require(set.parameters["state"]?["revision"]?.integerValue)
            #expect(set.parameters["state"]?["focused"] == "x-0")
            #expect(get.parameters["state"]?["revision"]?.integerValue == revision)
            #expect(get.parameters["state"]?["focused"] == "x-0")
            #expect(move.parameters["state"]?["revision"]?.integerValue == revision + 1)
            #expect(move.parameters["state"]?["focused"] == "x-1")
            // The monitor saw the replacement, then the move.
            let events = try monitor.events(expected: 3)
            let kinds = events.map { "\($0["kind"]?.stringValue ?? "?") \($0["to"]?.stringValue ?? "")" }
            #expect(kinds == ["scene ", "focus x-0", "focus x-1"], "\(events)")
        }

        @Test("a failed off-loop SetScene leaves the old scene, with the engine's error, and the calls that waited get the old scene")
        func failedBuildLeavesOldScene() throws {
            let daemon = try Self.daemon()
            defer { daemon.stop() }
            let owner = try daemon.connect(timeout: .seconds(60))
            try owner.call("io.focusd.Focus.SetScene", ["scene": TestScenes.grid("x", columns: 50, rows: 40)])
            let before = try owner.call("io.focusd.Focus.Move", ["direction": "right", "scene": "x"])["state"]

            var bad = HostileClients.scene("x", tiles: 2_000)
            if case .object(var scene) = bad, case .object(var root) = scene["root"], case .array(var children) = root["children"] {
                children[1_999] = ["id": "x-1999", "frame": TestScenes.frame(0, 0, -1, 10), "focusable": true]
                root["children"] = .array(children)
                scene["root"] = .object(root)
                bad = .object(scene)
            }
            var expectedError: FocusError?
            let decoded = try Self.scene(bad)
            do { _ = try SceneSession(scene: decoded) } catch { expectedError = error }
            let expected = try #require(expectedError)

            let (first, linter) = try Self.occupyWorker(daemon)
            defer { for client in first { client.close() } }
            try owner.send(VarlinkCall(method: "io.focusd.Focus.SetScene", parameters: ["scene": bad]))
            Self.waitForBuild(daemon, "SetScene", of: "x", count: 2)
            let reader = try daemon.connect()
            try reader.send(VarlinkCall(method: "io.focusd.Focus.GetState", parameters: ["scene": "x"]))
            let (set, lint) = try Self.reply(of: owner, after: linter)
            #expect(lint, "SetScene was answered before the Lint that held the worker")
            #expect(set.error == expected.varlinkName)
            #expect(set.parameters["reason"]?.stringValue == "frame width is negative")
            #expect(set.parameters["node"] == "x-1999")
            #expect(try reader.receive(timeout: .seconds(10)).parameters["state"] == before)
        }

        @Test("an UpdateScene of 1,000 leaves' new frames (a page's reflow) is applied in place on the loop, not copied for the worker")
        func leafFramesAppliedOnLoop() throws {
            let daemon = try Self.daemon()
            defer { daemon.stop() }
            let owner = try daemon.connect(timeout: .seconds(60))
            try owner.call("io.focusd.Focus.SetScene", ["scene": TestScenes.grid("g", columns: 50, rows: 20)])
            let scene = try owner.call("io.focusd.Inspect.GetScene", ["scene": "g"])["scene"]!
            let upsert: [JSONValue] = try #require(scene["root"]?["children"]?.arrayValue).map { tile in
                guard case .object(var members) = tile, case .object(var frame)? = tile["frame"], let x = frame["x"]?.doubleValue else { return tile }
                frame["x"] = .double(x + 7)
                members["frame"] = .object(frame)
                return ["parent": "root", "node": .object(members)]
            }
            #expect(upsert.count == 1_000)
            let (first, linter) = try Self.occupyWorker(daemon)
            defer { for client in first { client.close() } }
            try owner.send(VarlinkCall(method: "io.focusd.Focus.UpdateScene", parameters: ["scene": "g", "upsert": .array(upsert)]))
            let (update, lint) = try Self.reply(of: owner, after: linter)
            #expect(update.error == nil)
            #expect(!lint, "the update waited for the Lint that held the worker")
            #expect(!daemon.log_.contains("scene 'g': UpdateScene is built on the worker thread"))
            #expect(daemon.log_.contains("scene 'g': UpdateScene was read from its bytes"))
            let held = try owner.call("io.focusd.Inspect.GetScene", ["scene": "g"])["scene"]!
            #expect(held["root"]?["children"]?.arrayValue?.map { $0["frame"] } == upsert.map { $0["node"]?["frame"] })
        }

        @Test("a small UpdateScene that removes a node holding 5,000 is applied on the worker: taking the subtree apart costs as much as a large patch")
        func smallUpdateRemovingLargeSubtreeBuiltOnWorker() throws {
            let daemon = try Self.daemon()
            defer { daemon.stop() }
            let owner = try daemon.connect(timeout: .seconds(60))
            let tiles: [JSONValue] = (0..<5_000).map { TestScenes.tile("t\($0)", x: Double($0 % 100) * 20, y: 100 + Double($0 / 100) * 20, size: 10) }
            let scene: JSONValue = ["name": "p", "root": ["id": "root", "children": [
                TestScenes.tile("kept", x: 0, y: 0, size: 10), ["id": "grid", "children": .array(tiles)],
            ]]]
            try owner.call("io.focusd.Focus.SetScene", ["scene": scene])
            let reply = try owner.call("io.focusd.Focus.UpdateScene", ["scene": "p", "remove": ["grid"]])
            #expect(reply["state"]?["focused"] == "kept")
            #expect(daemon.log_.contains("scene 'p': UpdateScene is built on the worker thread"))
            let held = try owner.call("io.focusd.Inspect.GetScene", ["scene": "p"])["scene"]!
            #expect(held["root"]?["children"]?.arrayValue?.map { $0["id"] } == ["kept"])
            // A small update of a leaf stays on the loop.
            try owner.call("io.focusd.Focus.UpdateScene", ["scene": "p", "remove": ["kept"]])
            #expect(daemon.log_.components(separatedBy: "UpdateScene is built on the worker thread").count - 1 == 1)
        }

        @Test("Inspect calls on a large scene are answered from the worker thread, with the replies and errors of the loop's")
        func inspectOfLargeSceneOnWorker() throws {
            let daemon = try Self.daemon()
            defer { daemon.stop() }
            let owner = try daemon.connect(timeout: .seconds(60))
            let grid = TestScenes.grid("g", columns: 80, rows: 60)
            try owner.call("io.focusd.Focus.SetScene", ["scene": grid])
            try owner.call("io.focusd.Focus.Move", ["direction": "right", "scene": "g"])
            var session = try SceneSession(scene: Self.scene(grid))
            _ = try session.move(.right)
            let (first, linter) = try Self.occupyWorker(daemon)
            defer { for client in first { client.close() } }
            try owner.send(VarlinkCall(method: "io.focusd.Inspect.GetScene", parameters: ["scene": "g"]))
            let (scene, lint) = try Self.reply(of: owner, after: linter)
            #expect(lint, "GetScene was answered before the Lint that held the worker")
            #expect(daemon.log_.contains("io.focusd.Inspect.GetScene is answered on the worker thread"))
            #expect(scene.parameters["scene"] == (try JSONValue(encoding: session.scene)))
            #expect(scene.parameters["state"] == (try JSONValue(encoding: session.state(active: true))))
            let explained = try owner.call("io.focusd.Inspect.ExplainMove", ["scene": "g", "direction": "down", "limit": 3])
            #expect(explained["explanation"] == (try JSONValue(encoding: session.explainMove(.down, limit: 3))))
            let unknown = try owner.error(calling: "io.focusd.Inspect.PlanPath", ["scene": "g", "target": "nowhere"])
            #expect(unknown == VarlinkError("io.focusd.Inspect.NoSuchNode", parameters: ["id": "nowhere"]))
            #expect(daemon.log_.contains("io.focusd.Inspect.PlanPath is answered on the worker thread"))
        }

        @Test("a large UpdateScene is applied to a copy on the worker and swapped in, with the reply and events of the update done in place")
        func largeUpdateBuiltOnWorker() throws {
            let daemon = try Self.daemon()
            defer { daemon.stop() }
            let owner = try daemon.connect(timeout: .seconds(60))
            let initial = TestScenes.row("x", count: 3)
            try owner.call("io.focusd.Focus.SetScene", ["scene": initial])
            try owner.call("io.focusd.Focus.Move", ["direction": "right", "scene": "x"])  // tile1, which the patch removes
            let monitor = try daemon.connect().callMore("io.focusd.Focus.Monitor", ["scene": "x"])
            _ = try monitor.next(timeout: .seconds(5))
            let upsert: [JSONValue] = (0..<1_000).map { index in
                ["parent": "root", "index": 0, "node": TestScenes.tile("u\(index)", x: Double(index % 40) * 50, y: 200 + Double(index / 40) * 50, size: 40)]
            }
            let parameters: JSONValue = ["scene": "x", "upsert": .array(upsert), "remove": ["tile1"]]

            struct Patch: Decodable {
                var upsert: [NodePatch]
                var remove: [String]
            }
            var session = try SceneSession(scene: Self.scene(initial))
            _ = try session.move(.right)
            let patch = try parameters.decode(Patch.self)
            let outcome = try session.update(upsert: patch.upsert, remove: patch.remove)

            let (first, linter) = try Self.occupyWorker(daemon)
            defer { for client in first { client.close() } }
            try owner.send(VarlinkCall(method: "io.focusd.Focus.UpdateScene", parameters: parameters))
            Self.waitForBuild(daemon, "UpdateScene", of: "x")
            let reader = try daemon.connect()
            try reader.send(VarlinkCall(method: "io.focusd.Focus.GetState", parameters: ["scene": "x"]))
            let (update, lint) = try Self.reply(of: owner, after: linter)
            #expect(lint, "UpdateScene was answered before the Lint that held the worker")
            #expect(daemon.log_.contains("scene 'x': UpdateScene was read from its bytes"))
            let state = try JSONValue(encoding: session.state(active: true))
            #expect(update.parameters["state"] == state)
            #expect(try reader.receive(timeout: .seconds(10)).parameters["state"] == state)
            let expected = try outcome.events.map { try JSONValue(encoding: $0) }
            #expect(try monitor.events(expected: expected.count) == expected)
        }
    }
}
