// Commands (focus.md §7).
import Testing
@testable import FocusEngine

@Suite("Commands")
struct CommandTests {
    @Test("select activates an activate node and is a command event otherwise")
    func select() throws {
        var editOnly = button("knob", 0, 100)
        editOnly.interactions = [.edit]
        var s = try session(scene([button("b", 0, 0), editOnly]), focus: "b")
        let out = s.send("select", device: "remote")
        #expect(out.consumed && out.events.map(\.kind) == [.activate] && out.events[0].to == "b" && out.events[0].device == "remote")
        _ = try s.focus("knob")
        let other = s.send("select")
        #expect(!other.consumed && other.events.first?.command == "select")
    }

    @Test("the crown edits an edit node with detents, fraction and velocity")
    func crownEdits() throws {
        var knob = button("knob", 0, 0)
        knob.interactions = [.edit]
        var s = try session(scene([knob, button("b", 0, 100)]), focus: "knob")
        let rev = s.revision
        let out = s.send("crown", detents: -2, fraction: 0.5, velocity: 3)
        #expect(out.consumed && s.focused() == "knob" && s.revision == rev)
        #expect(out.events.first.map { ($0.kind, $0.detents, $0.fraction, $0.velocity) } ?? (.command, nil, nil, nil) == (.edit, -2, 0.5, 3))
        #expect(s.focusedIsEditable)
    }

    @Test("search focuses the first search field in tree order, else it is a command")
    func search() throws {
        var field = button("field", 0, 0)
        field.role = "search"
        var s = try session(scene([button("tile", 0, 300), field]), focus: "tile")
        let out = s.send("search")
        #expect(out.consumed && s.focused() == "field" && s.focusedRole == "search")
        #expect(out.events.first?.cause?.kind == .search)
        var plain = try session(scene([button("tile", 0, 300)]))
        let none = plain.send("search")
        #expect(!none.consumed && none.events.first?.kind == .command)
    }

    @Test("movement commands behave as Move; unknown commands are published, not consumed")
    func others() throws {
        var s = try session(scene([button("a", 0, 0), button("b", 0, 100)]), focus: "a")
        #expect(s.send("down").consumed && s.focused() == "b")
        let rev = s.revision
        let out = s.send("frobnicate", device: "kbd")
        #expect(!out.consumed && out.events.map(\.kind) == [.command] && out.events[0].command == "frobnicate")
        #expect(out.events[0].revision == rev && s.revision == rev)
    }
}

@Suite("Programmatic focus and events")
struct ProgrammaticFocusTests {
    @Test("Focus of an unknown id is NoSuchNode; Focus(nil) dismisses once")
    func focusErrors() throws {
        var s = try session(scene([button("a", 0, 0)]))
        #expect(throws: FocusError.noSuchNode(id: "ghost")) { try s.focus("ghost") }
        let out = try s.focus(nil)
        #expect(s.focused() == nil && out.events.map(\.kind) == [.focus] && out.events[0].from == "a" && out.events[0].to == nil)
        #expect(try s.focus(nil).events.isEmpty)
    }

    @Test("every event of a changing call carries the new revision, bumped once")
    func revisions() throws {
        var card = button("card", 0, 100, bindings: [Binding(name: "f")])
        card.values = ["k": "v"]
        var s = try session(scene([button("a", 0, 0), card]), focus: "a")
        let rev = s.revision
        let out = try s.move(.down)
        #expect(out.events.map(\.kind) == [.focus, .bindings, .values])
        #expect(out.events.allSatisfy { $0.revision == rev + 1 && $0.scene == "test" } && s.revision == rev + 1)
    }

    @Test("ResetFocus without a scope re-evaluates at the root")
    func resetRoot() throws {
        var s = try session(scene([button("first", 0, 0), button("second", 0, 100)]), focus: "second")
        _ = try s.resetFocus(scope: nil)
        #expect(s.focused() == "first")
    }

    @Test("value bindings on the accessibility track focus and dismiss that track only")
    func accessibilityValueBinding() throws {
        var a = button("a", 0, 0)
        a.accessibilityBindings = [Binding(name: "ax", value: "a")]
        var s = try session(scene([a, button("b", 0, 100)]), focus: "b")
        _ = try s.setBinding(name: "ax", isTrue: nil, value: "a", track: .accessibility)
        #expect(s.focused(on: .accessibility) == "a" && s.focused() == "b")
        #expect(s.state(active: true).accessibilityBindings == [BindingState(name: "ax", value: "a")])
        _ = try s.setBinding(name: "ax", isTrue: nil, value: nil, track: .accessibility)
        #expect(s.focused(on: .accessibility) == nil && s.focused() == "b")
        #expect(throws: FocusError.noSuchBinding(name: "ax", value: "a")) { try s.setBinding(name: "ax", isTrue: nil, value: "a") }
    }
}
