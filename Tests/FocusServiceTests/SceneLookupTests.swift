import FocusEngine
import FocusWire
import FoundationEssentials
import Testing

@testable import FocusService

/// The hub finds a scene by name once per change and keeps where it found it while no scene
/// comes or goes: these check that a kept place is never used after the scenes changed.
@Suite("The hub's scene lookups")
struct SceneLookupTests {
    func scene(_ name: String, buttons: Int = 2) throws -> Scene {
        let children = (0..<buttons).map { #"{"id":"b\#($0)","focusable":true,"frame":{"x":\#($0 * 20),"y":0,"width":10,"height":10}}"# }
        let text = #"{"name":"\#(name)","root":{"id":"r","children":[\#(children.joined(separator: ","))]}}"#
        return try JSONDecoder().decode(Scene.self, from: Data(text.utf8))
    }

    @Test("a move's reply is read from its own scene after a monitor added and removed scenes during its delivery")
    func replyAfterScenesChangedInDelivery() throws {
        let hub = SceneHub()
        _ = try hub.setScene(scene("a", buttons: 3), by: 1)
        _ = try hub.setScene(scene("gone"), by: 1)
        let extra = try (0..<40).map { try scene("extra\($0)", buttons: 1) }
        var reshaped = false
        _ = try hub.addMonitor(scene: "a") { message in
            guard case .event(let event) = message, event.kind == .focus, !reshaped else { return }
            reshaped = true
            // Enough new scenes to make the table grow (every place in it moves), and one removed.
            for scene in extra { _ = try? hub.setScene(scene, by: 2) }
            try? hub.removeScene("gone", by: 1)
        }
        let (outcome, state) = try hub.withSession("a") { session throws(FocusError) in try session.move(.right) }
        #expect(reshaped)
        #expect(outcome.events.contains { $0.kind == .focus && $0.to == "b1" })
        #expect(state.scene == "a")
        #expect(state.focused == "b1")
        #expect(try hub.state(of: "a").focused == "b1")
        #expect(try hub.state(of: "extra39").focused == "b0")
        #expect(throws: FocusError.self) { try hub.state(of: "gone") }
    }

    @Test("moves in scenes that come and go each change their own scene")
    func movesAcrossScenesThatComeAndGo() throws {
        let hub = SceneHub()
        _ = try hub.setScene(scene("a", buttons: 3), by: 1)
        _ = try hub.setScene(scene("b", buttons: 3), by: 1)
        _ = try hub.apply("a") { session throws(FocusError) in try session.move(.right) }
        try hub.removeScene("a", by: 1)
        _ = try hub.setScene(scene("c", buttons: 3), by: 1)
        _ = try hub.apply("b") { session throws(FocusError) in try session.move(.right) }
        _ = try hub.apply("b") { session throws(FocusError) in try session.move(.right) }
        _ = try hub.setScene(scene("a", buttons: 3), by: 1)  // a new scene of the old name
        #expect(try hub.state(of: "a").focused == "b0")
        #expect(try hub.state(of: "b").focused == "b2")
        #expect(try hub.state(of: "c").focused == "b0")
        #expect(throws: FocusError.self) { try hub.apply("z") { session throws(FocusError) in try session.move(.right) } }
        // The active scene (the last set) through the nil name.
        _ = try hub.apply(nil) { session throws(FocusError) in try session.move(.right) }
        #expect(try hub.state(of: "a").focused == "b1")
    }
}
