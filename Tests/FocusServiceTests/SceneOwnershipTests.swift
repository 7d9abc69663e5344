import Foundation
import Testing
import Varlink

extension ServiceSocketTests {
    /// What only the socket shows about scenes: the message size cap.
    @Suite("Scenes over the socket")
    struct SceneOwnership {
        @Test("a scene too large for one message is built with UpdateScene")
        func largeSceneByUpdates() throws {
            let daemon = try FocusdProcess(config: "[limits]\nmaxMessageBytes = 16384\n")
            defer { daemon.stop() }
            let whole = TestScenes.grid("large", columns: 20, rows: 20)
            #expect(whole.serialized().count > 16384)
            let refused = try daemon.connect()
            try refused.sendRaw(VarlinkCall(method: "io.focusd.Focus.SetScene", parameters: ["scene": whole]).serialized() + [0])
            #expect(refused.waitForClose(timeout: .seconds(3)), "a message over the cap should close the connection")

            let client = try daemon.connect()
            try client.call("io.focusd.Focus.SetScene", ["scene": TestScenes.grid("large", columns: 20, rows: 1)])
            for row in 1..<20 {
                let tiles: [JSONValue] = (0..<20).map { column in
                    ["parent": "root", "node": TestScenes.tile("t\(row)_\(column)", x: Double(column) * 60, y: Double(row) * 60, size: 50)]
                }
                let message = VarlinkCall(method: "io.focusd.Focus.UpdateScene", parameters: ["scene": "large", "upsert": .array(tiles)])
                #expect(message.serialized().count < 16384)
                try client.call(message.method, message.parameters)
            }
            let tree = try client.call("io.focusd.Inspect.GetScene", ["scene": "large"])["scene"]
            #expect(tree?["root"]?["children"]?.arrayValue?.count == 400)
            try client.call("io.focusd.Focus.Focus", ["id": "t0_0", "scene": "large"])
            for _ in 0..<19 { try client.call("io.focusd.Focus.Move", ["direction": "down", "scene": "large"]) }
            #expect(try client.call("io.focusd.Focus.GetState", ["scene": "large"])["state"]?["focused"] == "t19_0")
        }
    }
}

/// Scenes (focus.md §9, service.md §2): who owns them, what happens when their owner leaves,
/// which one is active, and the limits on their size. Service behaviour, so through focusd's
/// service in process (``InProcessFocusd``): a closed connection's scenes are gone when
/// `close()` returns, and nothing waits.
@Suite("Scenes, owners and limits", .timeLimit(.minutes(1)))
struct SceneOwnershipTests {
    @Test("another connection cannot set, update or remove a scene it does not own: SceneOwned")
    func sceneOwned() throws {
        let daemon = try InProcessFocusd()
        let owner = try daemon.connect()
        let other = try daemon.connect()
        try owner.call("io.focusd.Focus.SetScene", ["scene": TestScenes.row("mine")])
        let focused = try owner.call("io.focusd.Focus.Focus", ["id": "tile2", "scene": "mine"])["state"]
        let owned = VarlinkError("io.focusd.Focus.SceneOwned", parameters: ["scene": "mine"])
        #expect(try other.error(calling: "io.focusd.Focus.SetScene", ["scene": TestScenes.row("mine", count: 1)]) == owned)
        #expect(try other.error(calling: "io.focusd.Focus.RemoveScene", ["scene": "mine"]) == owned)
        #expect(
            try other.error(
                calling: "io.focusd.Focus.UpdateScene", ["scene": "mine", "remove": ["tile2"]]) == owned)
        // Untouched: same tree, same focus, same revision.
        #expect(try other.call("io.focusd.Focus.GetState", ["scene": "mine"])["state"] == focused)
        let tree = try other.call("io.focusd.Inspect.GetScene", ["scene": "mine"])["scene"]
        #expect(tree?["root"]?["children"]?.arrayValue?.count == 3)
        // Others may still read and move focus in it.
        #expect(try other.call("io.focusd.Focus.Move", ["direction": "left", "scene": "mine"])["moved"] == true)
    }

    @Test("a persistent scene outlives the connection that set it, and anyone may replace it")
    func persistentSceneStays() throws {
        let daemon = try InProcessFocusd()
        do {
            let setter = try daemon.connect()
            try setter.call("io.focusd.Focus.SetScene", ["scene": TestScenes.row("kept", persist: true)])
            try setter.call("io.focusd.Focus.SetScene", ["scene": TestScenes.row("dropped")])
            setter.close()
        }
        let observer = try daemon.connect()
        let scenes = try observer.call("io.focusd.Focus.ListScenes")["scenes"]
        #expect(scenes == ["kept"], "the non-persistent scene should go and the persistent one stay: \(String(describing: scenes))")
        #expect(try observer.call("io.focusd.Focus.ListScenes")["active"] == "kept")
        let replaced = try observer.call("io.focusd.Focus.SetScene", ["scene": TestScenes.row("kept", count: 5, persist: true)])
        #expect(replaced["state"]?["scene"] == "kept")
        #expect(try observer.call("io.focusd.Focus.Focus", ["id": "tile4", "scene": "kept"])["state"]?["focused"] == "tile4")
        try observer.call("io.focusd.Focus.RemoveScene", ["scene": "kept"])
        #expect(try observer.call("io.focusd.Focus.ListScenes")["scenes"] == [])
    }

    @Test("a scene goes with its owner, and the active scene falls back to the most recently active")
    func ownerLeavesFallback() throws {
        let daemon = try InProcessFocusd()
        let one = try daemon.connect()
        let two = try daemon.connect()
        let three = try daemon.connect()
        try one.call("io.focusd.Focus.SetScene", ["scene": TestScenes.row("s1")])
        try two.call("io.focusd.Focus.SetScene", ["scene": TestScenes.row("s2")])
        try three.call("io.focusd.Focus.SetScene", ["scene": TestScenes.row("s3")])
        #expect(try one.call("io.focusd.Focus.ListScenes")["active"] == "s3")
        // Recency now: s1, s3, s2.
        try three.call("io.focusd.Focus.ActivateScene", ["scene": "s1"])
        let watcher = try daemon.connect()
        let stream = try watcher.callMore("io.focusd.Focus.Monitor")
        #expect(try stream.next(timeout: .seconds(3))?["state"]?["scene"] == "s1")

        one.close()
        let listed = try two.call("io.focusd.Focus.ListScenes")
        #expect(listed == ["scenes": ["s2", "s3"], "active": "s3"], "after s1's owner left: \(listed)")
        // A monitor following the active scene is told, then gets the new scene's state.
        var sawScene = false
        var newState: JSONValue?
        while newState == nil, let message = try stream.next(timeout: .seconds(3)) {
            if message["event"]?["kind"] == "scene", message["event"]?["scene"] == "s3" { sawScene = true }
            if let state = message["state"] { newState = state }
        }
        #expect(sawScene)
        #expect(newState?["scene"] == "s3")
        #expect(newState?["active"] == true)
        // Input without a scene goes to the new active scene.
        #expect(try two.call("io.focusd.Focus.Move", ["direction": "right"])["state"]?["scene"] == "s3")
    }

    @Test("Monitor of a scene that does not exist is answered NoSuchScene; of one removed later, told with a scene event")
    func monitorNamedScene() throws {
        let daemon = try InProcessFocusd()
        let watcher = try daemon.connect()
        let missing = VarlinkError("io.focusd.Focus.NoSuchScene", parameters: ["scene": "ghost"])
        #expect(throws: missing) { try watcher.callMore("io.focusd.Focus.Monitor", ["scene": "ghost"]).next(timeout: .seconds(3)) }
        let owner = try daemon.connect()
        try owner.call("io.focusd.Focus.SetScene", ["scene": TestScenes.row("brief")])
        let stream = try watcher.callMore("io.focusd.Focus.Monitor", ["scene": "brief"])
        #expect(try stream.next(timeout: .seconds(3))?["state"]?["scene"] == "brief")
        try owner.call("io.focusd.Focus.RemoveScene", ["scene": "brief"])
        let event = try stream.next(timeout: .seconds(3))?["event"]
        #expect(event?["kind"] == "scene")
        #expect(event?["scene"] == "brief")
    }

    @Test("InvalidScene leaves the scene that was there untouched")
    func invalidSceneKeepsPrevious() throws {
        let daemon = try InProcessFocusd()
        let client = try daemon.connect()
        try client.call("io.focusd.Focus.SetScene", ["scene": TestScenes.row("v", count: 4)])
        let before = try client.call("io.focusd.Focus.Focus", ["id": "tile3", "scene": "v"])["state"]
        var duplicate = TestScenes.row("v", count: 2)
        if case .object(var scene) = duplicate, case .object(var root) = scene["root"]! {
            root["children"] = [TestScenes.tile("same", x: 0, y: 0), TestScenes.tile("same", x: 100, y: 0)]
            scene["root"] = .object(root)
            duplicate = .object(scene)
        }
        let error = try client.error(calling: "io.focusd.Focus.SetScene", ["scene": duplicate])
        #expect(error?.name == "io.focusd.Focus.InvalidScene")
        #expect(error?.parameters["node"] == "same")
        let negative = try client.error(
            calling: "io.focusd.Focus.UpdateScene",
            ["scene": "v", "upsert": [["parent": "root", "node": ["id": "bad", "frame": TestScenes.frame(-5, 0, -10, 10)]]]])
        #expect(negative?.name == "io.focusd.Focus.InvalidScene")
        #expect(try client.call("io.focusd.Focus.GetState", ["scene": "v"])["state"] == before)
        let tree = try client.call("io.focusd.Inspect.GetScene", ["scene": "v"])["scene"]
        #expect(tree?["root"]?["children"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["tile0", "tile1", "tile2", "tile3"])
    }

    @Test("a scene over maxNodes is refused with TooManyNodes, by SetScene and by UpdateScene")
    func tooManyNodes() throws {
        let daemon = try InProcessFocusd(config: "[limits]\nmaxNodes = 50\n")
        let client = try daemon.connect()
        let error = try client.error(calling: "io.focusd.Focus.SetScene", ["scene": TestScenes.row("big", count: 60)])
        #expect(error == VarlinkError("io.focusd.Focus.TooManyNodes", parameters: ["limit": 50]))
        #expect(try client.call("io.focusd.Focus.ListScenes")["scenes"] == [])
        try client.call("io.focusd.Focus.SetScene", ["scene": TestScenes.row("big", count: 45)])
        let patches: [JSONValue] = (0..<10).map { index in
            ["parent": "root", "node": TestScenes.tile("extra\(index)", x: Double(index) * 10, y: 200)]
        }
        let grown = try client.error(calling: "io.focusd.Focus.UpdateScene", ["scene": "big", "upsert": .array(patches)])
        #expect(grown == VarlinkError("io.focusd.Focus.TooManyNodes", parameters: ["limit": 50]))
        let tree = try client.call("io.focusd.Inspect.GetScene", ["scene": "big"])["scene"]
        #expect(tree?["root"]?["children"]?.arrayValue?.count == 45)
    }
}
