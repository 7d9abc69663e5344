// Bindings (focus.md §5), the accessibility track (§8), focused values and effects (§6).
import Testing
@testable import FocusEngine

@Suite("Bindings, accessibility and values")
struct BindingTests {
    static func read(_ s: SceneSession, _ name: String, track: Track = .main) -> BindingState? {
        let st = s.state(active: true)
        return (track == .main ? st.bindings : st.accessibilityBindings).first { $0.name == name }
    }

    @Test("a Bool binding reads true while its node or a focusable descendant holds focus")
    func boolBindingOnContainer() throws {
        var card = group("card", [button("inner", 0, 0)])
        card.bindings = [Binding(name: "cardFocused")]
        var s = try session(scene([card, button("away", 0, 300)]), focus: "inner")
        #expect(Self.read(s, "cardFocused")?.isTrue == true)
        let out = try s.focus("away")
        #expect(Self.read(s, "cardFocused")?.isTrue == false)
        #expect(out.events.map(\.kind) == [.focus, .bindings])
        #expect(out.events[1].bindings == [BindingState(name: "cardFocused", isTrue: false)])
    }

    @Test("setting a Bool binding on a node that cannot take focus focuses its default target")
    func boolBindingDefaultTarget() throws {
        var card = group("card", [button("inner", 0, 300)])
        card.bindings = [Binding(name: "cardFocused")]
        var s = try session(scene([button("a", 0, 0), card]), focus: "a")
        _ = try s.setBinding(name: "cardFocused", isTrue: true, value: nil)
        #expect(s.focused() == "inner")
    }

    @Test("a value binding reads the focused node's first value of that name, else null")
    func valueBindingReads() throws {
        var s = try session(scene([button("a", 0, 0, bindings: [Binding(name: "f", value: "one"), Binding(name: "f", value: "uno")]), button("b", 0, 100)]), focus: "a")
        #expect(Self.read(s, "f") == BindingState(name: "f", value: "one"))
        _ = try s.focus("b")
        #expect(Self.read(s, "f") == BindingState(name: "f"))
    }

    @Test("writes that would not move focus are no-ops: no event, same revision")
    func noOpWrites() throws {
        var s = try session(scene([button("a", 0, 0, bindings: [Binding(name: "f", value: "a")]), button("b", 0, 100, bindings: [Binding(name: "g")])]), focus: "a")
        let rev = s.revision
        #expect(try s.setBinding(name: "f", isTrue: nil, value: "a").events.isEmpty)
        #expect(try s.setBinding(name: "g", isTrue: false, value: nil).events.isEmpty)
        #expect(try s.focus("a").events.isEmpty)
        #expect(s.revision == rev)
    }

    @Test("unknown names and values are NoSuchBinding")
    func noSuchBinding() throws {
        var s = try session(scene([button("a", 0, 0, bindings: [Binding(name: "f", value: "a")])]))
        #expect(throws: FocusError.noSuchBinding(name: "nope", value: "x")) { try s.setBinding(name: "nope", isTrue: nil, value: "x") }
        #expect(throws: FocusError.noSuchBinding(name: "f", value: "zz")) { try s.setBinding(name: "f", isTrue: nil, value: "zz") }
    }

    @Test("one Bool binding on two nodes is ambiguous: the first wins with a warning naming both")
    func ambiguousBool() throws {
        var s = try session(scene([button("x", 0, 0), button("first", 0, 100, bindings: [Binding(name: "b")]), button("second", 0, 200, bindings: [Binding(name: "b")])]), focus: "x")
        let out = try s.setBinding(name: "b", isTrue: true, value: nil)
        #expect(s.focused() == "first")
        #expect(out.warnings.count == 1 && out.warnings[0].contains("first") && out.warnings[0].contains("second"))
    }

    @Test("the accessibility track has its own focus and bindings and moves only sequentially")
    func accessibilityTrack() throws {
        var n = button("note", 0, 0)
        n.accessibilityBindings = [Binding(name: "noteA11y")]
        var s = try session(scene([n, button("b", 0, 100)]), focus: "b")
        #expect(s.state(active: true).accessibilityFocused == nil)
        let out = try s.move(.next, track: .accessibility)
        #expect(s.focused(on: .accessibility) == "note" && s.focused() == "b")
        #expect(out.events.first?.track == .accessibility)
        #expect(Self.read(s, "noteA11y", track: .accessibility)?.isTrue == true)
        _ = try s.focus("b", track: .accessibility)
        #expect(Self.read(s, "noteA11y", track: .accessibility)?.isTrue == false && s.focused() == "b")
    }

    @Test("focused values come from the node closest to focus; scene values from the first in tree order")
    func values() throws {
        var outer = group("outer", [button("inner", 0, 0)])
        outer.values = ["k": "outer", "o": "1"]
        outer.sceneValues = ["s": "first"]
        var inner = outer.children![0]
        inner.values = ["k": "inner"]
        outer.children = [inner]
        var later = button("later", 0, 300)
        later.sceneValues = ["s": "second", "t": "x"]
        var s = try session(scene([outer, later]), focus: "inner")
        let st = s.state(active: true)
        #expect(st.focusedValues == ["k": "inner", "o": "1"])
        #expect(st.sceneValues == ["s": "first", "t": "x"])
        let out = try s.focus("later")
        #expect(out.events.last?.kind == .values && out.events.last?.values == [:])
    }

    @Test("the state lists bindings in tree order of first appearance, also after updates")
    func bindingOrder() throws {
        var s = try session(scene([button("a", 0, 0, bindings: [Binding(name: "x")]), button("b", 0, 100, bindings: [Binding(name: "y", value: "b"), Binding(name: "z")]),
                                   button("c", 0, 200, bindings: [Binding(name: "x")])]), focus: "b")
        #expect(s.state(active: true).bindings.map(\.name) == ["x", "y", "z"])
        _ = try s.update(upsert: [], remove: ["a"])
        #expect(s.state(active: true).bindings.map(\.name) == ["y", "z", "x"])
        _ = try s.update(upsert: [NodePatch(parent: "root", index: 0, node: button("w", 0, 300, bindings: [Binding(name: "z")]))], remove: [])
        #expect(s.state(active: true).bindings.map(\.name) == ["z", "y", "x"])
    }

    @Test("the outermost focusEffectDisabled on the path decides")
    func effects() throws {
        var outer = group("outer", [button("inner", 0, 0)])
        outer.focusEffectDisabled = false
        outer.children![0].focusEffectDisabled = true
        let s = try session(scene([outer]), focus: "inner")
        #expect(s.state(active: true).focusEffectEnabled == true)
    }
}
