import Foundation
import Testing
import Varlink

/// What a call's reply must carry (focus.md §5, §11; service.md §2): warnings in the reply and
/// the log, a Monitor's first reply at once, a failed update without trace, unknown fields named.
/// Service behaviour, so through focusd's service in process (``InProcessFocusd``): what it
/// logged before a reply is in its log when the reply comes.
@Suite("Replies, warnings and unknown fields", .timeLimit(.minutes(1)))
struct CallContractTests {
    /// A scene whose two tiles are both bound to `field = user`.
    static let ambiguous: JSONValue = [
        "name": "ambiguous",
        "root": ["id": "root", "frame": TestScenes.frame(0, 0, 400, 100), "children": [
            ["id": "first", "focusable": true, "frame": TestScenes.frame(0, 0, 80, 80),
             "bindings": [["name": "field", "value": "user"]]],
            ["id": "second", "focusable": true, "frame": TestScenes.frame(100, 0, 80, 80),
             "bindings": [["name": "field", "value": "user"]]],
        ]],
    ]

    @Test("the first SetScene of a scene with an ambiguous binding warns, in the reply and in the log")
    func firstSetSceneWarns() throws {
        let daemon = try InProcessFocusd()
        let reply = try daemon.connect().call("io.focusd.Focus.SetScene", ["scene": Self.ambiguous])
        let warnings = reply["warnings"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(warnings.count == 1, "\(reply)")
        #expect(warnings.first?.contains("'first' and 'second'") == true, "\(warnings)")
        let logged = daemon.log.contains("ambiguous focus binding: nodes 'first' and 'second'")
        #expect(logged, "the log carries the warning:\n\(daemon.log.text)")
    }

    @Test("Monitor with no scene installed answers at once with an empty first reply, then events")
    func monitorWithoutSceneAnswersAtOnce() throws {
        let daemon = try InProcessFocusd()
        let monitor = try daemon.connect().callMore("io.focusd.Focus.Monitor")
        let first = try #require(try monitor.next(timeout: .seconds(5)), "a first reply without waiting for a scene")
        #expect(first == [:])
        try daemon.connect().call("io.focusd.Focus.SetScene", ["scene": TestScenes.row("late", persist: true)])
        let next = try #require(try monitor.next(timeout: .seconds(5)))
        #expect(next["event"]?["kind"] == "scene", "\(next)")
        #expect(next["event"]?["scene"] == "late", "\(next)")
    }

    @Test("a failed UpdateScene leaves the scene exactly as it was, children absent included")
    func failedUpdateLeavesNoTrace() throws {
        let daemon = try InProcessFocusd()
        let client = try daemon.connect()
        var scene = TestScenes.row("v", count: 5)
        if case .object(var members) = scene, case .object(var root) = members["root"]!,
           case .array(let tiles) = root["children"]!
        {
            root["children"] = .array(tiles.enumerated().map { index, tile in
                guard case .object(var node) = tile else { return tile }
                node["id"] = .string("b\(index)")
                return .object(node)
            })
            members["root"] = .object(root)
            scene = .object(members)
        }
        try client.call("io.focusd.Focus.SetScene", ["scene": scene])
        let before = try client.call("io.focusd.Inspect.GetScene", ["scene": "v"])
        let error = try client.error(calling: "io.focusd.Focus.UpdateScene", [
            "scene": "v", "upsert": [["parent": "b1", "node": TestScenes.tile("inner", x: 110, y: 10, size: 10)]],
            "remove": ["b1", "b1"],
        ])
        #expect(error == VarlinkError("io.focusd.Focus.NoSuchNode", parameters: ["id": "b1"]))
        let after = try client.call("io.focusd.Inspect.GetScene", ["scene": "v"])
        #expect(after == before)
        #expect(after["scene"]?["root"]?["children"]?.arrayValue?[1]["children"] == nil, "\(after)")
    }

    @Test("an unknown parameter, or an unknown field in a scene node, is InvalidParameter naming it; nothing changes")
    func unknownFieldsAreNamed() throws {
        let daemon = try InProcessFocusd()
        let client = try daemon.connect()
        try client.call("io.focusd.Focus.SetScene", ["scene": TestScenes.row("v", count: 3)])
        let before = try client.call("io.focusd.Inspect.GetScene", ["scene": "v"])
        #expect(try client.error(calling: "io.focusd.Focus.Move", ["direction": "right", "wrapp": true])
                == .invalidParameter("wrapp"))
        #expect(try client.error(calling: "io.focusd.Focus.ListScenes", ["verbose": true]) == .invalidParameter("verbose"))
        #expect(try client.error(calling: "io.focusd.Input.ListDevices", ["all": true]) == .invalidParameter("all"))
        var typo = TestScenes.row("v", count: 3)
        if case .object(var members) = typo, case .object(var root) = members["root"]!,
           case .array(var tiles) = root["children"]!, case .object(var tile) = tiles[2]
        {
            tile["focusible"] = true
            tiles[2] = .object(tile)
            root["children"] = .array(tiles)
            members["root"] = .object(root)
            typo = .object(members)
        }
        #expect(try client.error(calling: "io.focusd.Focus.SetScene", ["scene": typo])
                == .invalidParameter("scene.root.children[2].focusible"))
        #expect(try client.error(calling: "io.focusd.Focus.UpdateScene", [
            "scene": "v", "upsert": [["parent": "root", "node": ["id": "x", "focusible": true]]],
        ]) == .invalidParameter("upsert[0].node.focusible"))
        #expect(try client.error(calling: "io.focusd.Focus.UpdateScene", [
            "scene": "v", "upsert": [["parent": "root", "node": ["id": "x"], "indx": 0]],
        ]) == .invalidParameter("upsert[0].indx"))
        #expect(try client.call("io.focusd.Inspect.GetScene", ["scene": "v"]) == before)
        // Known optional fields still pass, present or absent.
        #expect(try client.error(calling: "io.focusd.Focus.Move", ["direction": "right", "wrap": true, "scene": "v"]) == nil)
    }
}
