// Directional moves (focus.md §2).
import Testing
@testable import FocusEngine

@Suite("Directional moves")
struct DirectionalMoveTests {
    @Test("tvos picks the nearest candidate in direction and in beam")
    func tvosNearestInBeam() throws {
        var s = try session(scene([button("a", 100, 100), button("far", 100, 500), button("near", 100, 300), button("side", 400, 200)]), focus: "a")
        let out = try s.move(.down)
        #expect(out.moved && s.focused() == "near")
        #expect(out.events.first?.cause == Cause(kind: .directional, direction: .down))
    }

    @Test("tvos considers nothing outside the beam and reports blocked")
    func tvosBlocked() throws {
        var s = try session(scene([button("a", 100, 100), button("diag", 400, 300)]), focus: "a")
        let rev = s.revision
        let out = try s.move(.down)
        #expect(!out.moved && s.focused() == "a")
        #expect(out.events.map(\.kind) == [.blocked] && out.events[0].from == "a" && out.events[0].revision == rev)
        #expect(s.revision == rev)
    }

    @Test("android falls back to candidates outside the beam")
    func androidOutOfBeam() throws {
        var s = try session(scene([button("a", 100, 100), button("diag", 400, 300)], policy: .android), focus: "a")
        _ = try s.move(.down)
        #expect(s.focused() == "diag")
    }

    @Test("vertical beam-beats: a close out-of-beam candidate beats a far in-beam one on score")
    func verticalMajorFarLetsScoreDecide() throws {
        // In beam far below (major 400); out of beam, fully beyond, majorFar 60 ≤ 400: score decides.
        var s = try session(scene([button("s", 0, 0, 100, 100), button("inBeam", 0, 500, 100, 50), button("close", 200, 110, 100, 50)], policy: .android), focus: "s")
        _ = try s.move(.down)
        #expect(s.focused() == "close")
    }

    @Test("vertical beam-beats: an in-beam candidate nearer than the other's far edge wins despite its score")
    func verticalMajorFarBeamWins() throws {
        // inBeam: major 50 (score 32,500); other: major 10, minor 110 (score 13,400) but majorFar 110 > 50.
        var s = try session(scene([button("s", 0, 0, 100, 100), button("inBeam", 0, 150, 100, 50), button("other", 200, 110, 100, 100)], policy: .android), focus: "s")
        _ = try s.move(.down)
        #expect(s.focused() == "inBeam")
    }

    @Test("horizontal moves: an in-beam candidate always beats an out-of-beam one")
    func horizontalBeamAlwaysWins() throws {
        var s = try session(scene([button("s", 0, 0, 100, 100), button("inBeam", 900, 0, 100, 50), button("close", 110, 200, 100, 50)], policy: .android), focus: "s")
        _ = try s.move(.right)
        #expect(s.focused() == "inBeam")
    }

    @Test("equal scores go to the earlier node in tree order, not the earlier position")
    func tiesByTreeOrder() throws {
        let sc = scene([button("s", 100, 0, 300, 50), button("right", 300, 100), button("left", 100, 100)])
        var s = try session(sc, focus: "s")
        _ = try s.move(.down)
        #expect(s.focused() == "right")
    }

    @Test("a section's frame competes, and entering it picks its best candidate in direction with the beam ignored")
    func sectionFrameCompetes() throws {
        let col = group("col", frame: Rect(x: 1000, y: 0, width: 200, height: 1080), section: true, [button("A", 1000, 800), button("B", 1000, 900)])
        var s = try session(scene([button("one", 100, 100), col]), focus: "one")
        _ = try s.move(.right)
        #expect(s.focused() == "A")
    }

    @Test("a frameless section's union counts descendants that are not focusable")
    func sectionUnionIncludesDecoration() throws {
        let col = group("col", section: true, [Node(id: "backdrop", frame: Rect(x: 1000, y: 400, width: 300, height: 300)), button("A", 1000, 900)])
        var s = try session(scene([button("one", 100, 500), col]), focus: "one")
        _ = try s.move(.right)
        #expect(s.focused() == "A")
    }

    @Test("a section without a frame covers the union of its descendants")
    func sectionUnionFrame() throws {
        let col = group("col", section: true, [button("A", 1000, 0, 100, 60), button("B", 1000, 900)])
        var s = try session(scene([button("one", 100, 500), col]), focus: "one")
        _ = try s.move(.right)
        // Neither A nor B is in the beam; the union is, and B is nearer on the cross axis.
        #expect(s.focused() == "B")
    }

    @Test("entering a section with remembersLastFocus restores its last focused descendant")
    func remembersLastFocus() throws {
        var col = group("col", frame: Rect(x: 1000, y: 0, width: 200, height: 1080), section: true, [button("A", 1000, 100), button("B", 1000, 900)])
        col.remembersLastFocus = true
        var s = try session(scene([button("one", 100, 100), col]), focus: "B")
        _ = try s.focus("one")
        _ = try s.move(.right)
        #expect(s.focused() == "B")
    }

    @Test("entering a userInitiated defaultFocus region lands on its target; automatic does not")
    func userInitiatedEntering() throws {
        for (priority, expected) in [(DefaultFocusPriority.userInitiated, "r3"), (.automatic, "r1")] {
            var row = group("row", frame: Rect(x: 0, y: 300, width: 1000, height: 50), [button("r1", 0, 300), button("r2", 200, 300), button("r3", 400, 300, bindings: [Binding(name: "pick", value: "3")])])
            row.defaultFocus = DefaultFocus(binding: "pick", value: "3", priority: priority)
            var s = try session(scene([button("top", 0, 0), row]), focus: "top")
            _ = try s.move(.down)
            #expect(s.focused() == expected)
        }
    }

    @Test("a section whose candidates are not in direction is entered at its first in sequential order")
    func enteringFallsBackToSequence() throws {
        // Moving right from a wide source: the section is in direction, its candidates are not.
        let sec = group("sec", frame: Rect(x: 500, y: 0, width: 600, height: 300), section: true, [button("p", 500, 200), button("q", 520, 100)])
        var s = try session(scene([button("wide", 0, 0, 1050, 50), sec], policy: .android), focus: "wide")
        _ = try s.move(.right)
        #expect(s.focused() == "q")
    }

    @Test("a move searches the innermost section holding focus before the rest of the scene")
    func containment() throws {
        let sec = group("sec", section: true, [button("a", 0, 0), button("inside", 0, 500)])
        var s = try session(scene([sec, button("outside", 0, 100)]), focus: "a")
        _ = try s.move(.down)
        #expect(s.focused() == "inside")
        _ = try s.move(.down)
        #expect(s.focused() == "inside")
    }

    @Test("nothing outside a modal node is reached while focus is inside it")
    func modal() throws {
        var dialog = group("dialog", [button("ok", 0, 0), button("cancel", 200, 0)])
        dialog.modal = true
        var s = try session(scene([dialog, button("below", 0, 300)]), focus: "ok")
        let out = try s.move(.down)
        #expect(!out.moved && s.focused() == "ok")
        _ = try s.move(.right)
        #expect(s.focused() == "cancel")
    }

    @Test("wrap in a section tries again from just outside the opposite edge")
    func wrap() throws {
        var row = group("row", frame: Rect(x: 0, y: 0, width: 1000, height: 50), section: true, [button("a", 0, 0), button("b", 200, 0), button("c", 400, 0)])
        row.wrap = .horizontal
        var s = try session(scene([row, button("below", 400, 300)]), focus: "c")
        _ = try s.move(.right)
        #expect(s.focused() == "a")
        _ = try s.move(.left)
        #expect(s.focused() == "c")
        _ = try s.move(.down)
        #expect(s.focused() == "below")
    }

    @Test("next overrides win over the search; an empty string blocks")
    func nextOverrides() throws {
        var s = try session(scene([button("a", 0, 0, next: ["right": "z", "down": ""]), button("b", 200, 0), button("z", 900, 900), button("c", 0, 200)]), focus: "a")
        _ = try s.move(.right)
        #expect(s.focused() == "z")
        _ = try s.focus("a")
        let out = try s.move(.down)
        #expect(!out.moved && out.events.map(\.kind) == [.blocked])
    }

    @Test("a next override naming a section enters it, and one leaving the modal node blocks")
    func nextOverrideSectionAndModal() throws {
        let sec = group("sec", section: true, [button("s1", 900, 900), button("s2", 1100, 900)])
        var s = try session(scene([button("a", 0, 0, next: ["left": "sec"]), sec]), focus: "a")
        _ = try s.move(.left)
        #expect(s.focused() == "s1")
        var dialog = group("dialog", [button("ok", 0, 0, next: ["down": "out"])])
        dialog.modal = true
        var m = try session(scene([dialog, button("out", 0, 300)]), focus: "ok")
        #expect(try !m.move(.down).moved)
    }

    @Test("with focus dismissed, tvos evaluates default focus and android searches from the corner")
    func dismissedFocus() throws {
        let children = [button("topLeft", 0, 0), button("middle", 800, 500), button("bottomRight", 1800, 1000)]
        var t = try session(scene(children))
        _ = try t.focus(nil)
        let out = try t.move(.left)
        #expect(t.focused() == "topLeft" && out.events.first?.cause?.kind == .defaultFocus)
        var a = try session(scene(children, policy: .android))
        _ = try a.focus(nil)
        _ = try a.move(.left)
        #expect(a.focused() == "bottomRight")
        _ = try a.focus(nil)
        _ = try a.move(.down)
        #expect(a.focused() == "topLeft")
    }

    @Test("disabled subtrees and frameless nodes are never candidates")
    func candidates() throws {
        var off = group("off", [button("hidden", 0, 200)])
        off.disabled = true
        var s = try session(scene([button("a", 0, 0), off, Node(id: "noFrame", focusable: true), button("b", 0, 400)]), focus: "a")
        _ = try s.move(.down)
        #expect(s.focused() == "b")
        #expect(throws: FocusError.notFocusable(id: "hidden")) { try s.focus("hidden") }
    }

    @Test("directional moves on the accessibility track are invalid parameters")
    func accessibilityDirectional() throws {
        var s = try session(scene([button("a", 0, 0)]))
        #expect(throws: FocusError.invalidParameter(parameter: "direction")) { try s.move(.up, track: .accessibility) }
    }
}
