import FocusEngine
import FocusWire
import FoundationEssentials
import Testing

@testable import FocusService

/// Scenes that go are handed over to be freed off the loop (the daemon gives them to its worker).
@Suite("Dropped scenes are handed over to be freed")
struct SceneReleaseTests {
    func scene(_ name: String, persist: Bool = false) throws -> Scene {
        let text = #"{"name":"\#(name)",\#(persist ? #""persist":true,"# : "")"root":{"id":"r","children":[{"id":"b","focusable":true,"frame":{"x":0,"y":0,"width":10,"height":10}}]}}"#
        return try JSONDecoder().decode(Scene.self, from: Data(text.utf8))
    }

    @Test("a closed connection's scenes and a removed scene are handed over, a persistent scene stays")
    func droppedScenesAreHandedOver() throws {
        let hub = SceneHub()
        var handed: [Int] = []
        hub.sessionDropped = { session in handed.append(session.nodeCount) }
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
}
