import FocusEngine
import FocusWire
import FoundationEssentials
import Testing

@testable import FocusService

/// Scenes that go are handed over to be freed off the loop (the daemon gives them to its worker).
@Suite("Dropped scenes are handed over to be freed")
struct SceneReleaseTests {
    func scene(_ name: String, persist: Bool = false, buttons: Int = 1) throws -> Scene {
        let children = (0..<buttons).map { #"{"id":"\#($0 == 0 ? "b" : "b\($0)")","focusable":true,"frame":{"x":\#($0 * 20),"y":0,"width":10,"height":10}}"# }
        let text = #"{"name":"\#(name)",\#(persist ? #""persist":true,"# : "")"root":{"id":"r","children":[\#(children.joined(separator: ","))]}}"#
        return try JSONDecoder().decode(Scene.self, from: Data(text.utf8))
    }

    @Test("a closed connection's scenes and a removed scene are handed over, a persistent scene stays")
    func droppedScenesAreHandedOver() throws {
        let hub = SceneHub()
        var handed: [Int] = []
        hub.treeDropped = { tree in
            if case .scene(let session) = tree { handed.append(session.nodeCount) }
        }
        _ = try hub.setScene(scene("a"), by: 7)
        _ = try hub.setScene(scene("b"), by: 7)
        _ = try hub.setScene(scene("kept", persist: true), by: 7)
        _ = try hub.setScene(scene("other"), by: 8)
        hub.connectionClosed(7)
        #expect(handed.count == 2)
        #expect(handed.allSatisfy { $0 > 0 })
        try hub.removeScene("other", by: 8)
        #expect(handed.count == 3)
        #expect(try hub.state(of: "kept").focused == "b")
    }

    @Test("a SetScene replacing a scene hands the replaced tree over and keeps focus on a surviving node")
    func replacedTreeIsHandedOver() throws {
        let hub = SceneHub()
        var handed: [Int] = []
        hub.treeDropped = { tree in
            if case .replaced = tree { handed.append(tree.nodeCount) }
        }
        _ = try hub.setScene(scene("a", buttons: 50), by: 7)
        _ = try hub.setScene(scene("a", buttons: 2), by: 7)
        #expect(handed == [51])
        #expect(try hub.state(of: "a").focused == "b")
        // A replacement the engine refuses hands nothing over and leaves the scene as it was.
        let bad = try JSONDecoder().decode(Scene.self, from: Data(#"{"name":"a","root":{"id":"r","children":[{"id":"x"},{"id":"x"}]}}"#.utf8))
        #expect(throws: FocusError.self) { try hub.setScene(bad, by: 7) }
        #expect(handed == [51])
        #expect(try hub.state(of: "a").focused == "b")
    }
}
