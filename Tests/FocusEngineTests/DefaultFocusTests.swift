// Default focus, scopes and reset (focus.md §4), and re-evaluation when focus is lost.
import Testing
@testable import FocusEngine

@Suite("Default focus")
struct DefaultFocusTests {
    @Test("the first defaultFocus region in pre-order whose binding names a candidate decides")
    func regionsInPreOrder() throws {
        var outer = group("outer", [button("x", 0, 0, bindings: [Binding(name: "f", value: "x")]), button("y", 0, 100, bindings: [Binding(name: "f", value: "y")])])
        outer.defaultFocus = DefaultFocus(binding: "f", value: "y")
        var inner = group("inner", [button("z", 0, 300, bindings: [Binding(name: "g", value: "z")])])
        inner.defaultFocus = DefaultFocus(binding: "g", value: "z")
        outer.children!.append(inner)
        #expect(try SceneSession(scene: scene([outer])).focused() == "y")
        var broken = outer
        broken.defaultFocus = DefaultFocus(binding: "f", value: "missing")
        #expect(try SceneSession(scene: scene([broken])).focused() == "z")
    }

    @Test("prefersDefaultFocus counts only inside the node that declares its scope")
    func prefersInsideScope() throws {
        var pref = button("pref", 0, 300)
        pref.prefersDefaultFocus = "ns"
        var outsider = button("outsider", 0, 100)
        outsider.prefersDefaultFocus = "ns"
        var scoped = group("scoped", [button("first", 0, 200), pref])
        scoped.scope = "ns"
        #expect(try SceneSession(scene: scene([outsider, scoped])).focused() == "pref")
    }

    @Test("without preferences the first candidate in sequential order gets focus")
    func firstInSequence() throws {
        #expect(try SceneSession(scene: scene([button("low", 0, 500), button("high", 500, 0)])).focused() == "high")
    }

    @Test("ResetFocus re-evaluates in the scope, and an undeclared scope is NoSuchScope")
    func reset() throws {
        var pref = button("pref", 0, 300)
        pref.prefersDefaultFocus = "ns"
        var scoped = group("scoped", [button("first", 0, 200), pref])
        scoped.scope = "ns"
        var s = try session(scene([button("other", 0, 0), scoped]), focus: "first")
        let out = try s.resetFocus(scope: "ns")
        #expect(s.focused() == "pref" && out.events.first?.cause?.kind == .reset)
        #expect(throws: FocusError.noSuchScope(scope: "nope")) { try s.resetFocus(scope: "nope") }
        let again = try s.resetFocus(scope: "ns")
        #expect(again.events.isEmpty)
    }

    @Test("removing the focused node re-evaluates at the nearest surviving ancestor holding a candidate")
    func removalReevaluates() throws {
        let panel = group("panel", [button("p1", 1000, 0), button("p2", 1000, 100)])
        let empty = group("empty", [button("gone", 0, 600)])
        var s = try session(scene([button("home", 0, 0), panel, empty]), focus: "p2")
        let out = try s.update(upsert: [], remove: ["p2"])
        #expect(s.focused() == "p1")
        #expect(out.events.map(\.kind).starts(with: [.scene, .focus]) && out.events[1].cause?.kind == .removed)
        _ = try s.focus("gone")
        _ = try s.update(upsert: [], remove: ["gone"])
        #expect(s.focused() == "home")
    }

    @Test("disabling the focused node or taking its frame re-evaluates focus")
    func disableReevaluates() throws {
        var s = try session(scene([button("a", 0, 0), button("b", 0, 100)]), focus: "b")
        var b = button("b", 0, 100)
        b.disabled = true
        _ = try s.update(upsert: [NodePatch(parent: "root", node: b)], remove: [])
        #expect(s.focused() == "a")
        _ = try s.update(upsert: [NodePatch(parent: "root", node: Node(id: "a", focusable: true))], remove: [])
        #expect(s.focused() == nil)
    }
}
