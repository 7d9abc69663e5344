// Sequential moves and the crown (focus.md §3, §7).
import Testing
@testable import FocusEngine

@Suite("Sequential moves")
struct SequentialMoveTests {
    /// The focus.md §3 example: a column 1, 2, 3 beside a column A, B.
    static func columns(height h: Double, rightSection: Bool) -> Scene {
        scene([group("left", [button("1", 100, 100, 300, h), button("2", 100, 200, 300, h), button("3", 100, 300, 300, h)]),
               group("right", section: rightSection ? true : nil, [button("A", 600, 150, 300, h), button("B", 600, 250, 300, h)])])
    }

    static func order(_ s: Scene, from first: String, count: Int) throws -> [String] {
        var session = try session(s, focus: first)
        var out = [first]
        for _ in 1..<count { _ = try session.move(.next); out.append(session.focused() ?? "nil") }
        return out
    }

    @Test("40 pt rows interleave the columns; a section is visited as a unit")
    func fortyPoint() throws {
        #expect(try Self.order(Self.columns(height: 40, rightSection: false), from: "1", count: 5) == ["1", "A", "2", "B", "3"])
        #expect(try Self.order(Self.columns(height: 40, rightSection: true), from: "1", count: 5) == ["1", "A", "B", "2", "3"])
    }

    @Test("80 pt rows overlap and chain into one row")
    func eightyPoint() throws {
        #expect(try Self.order(Self.columns(height: 80, rightSection: false), from: "1", count: 5) == ["1", "2", "3", "A", "B"])
    }

    @Test("rightToLeft orders a row by right edge, descending")
    func rightToLeft() throws {
        let s = scene([button("l", 0, 0), button("m", 300, 0), button("r", 600, 0)], layoutDirection: .rightToLeft)
        #expect(try Self.order(s, from: "r", count: 3) == ["r", "m", "l"])
    }

    @Test("the sequence wraps by default, not when the scene says so, and when the call asks")
    func wrapping() throws {
        var s = try session(scene([button("a", 0, 0), button("b", 0, 100)]), focus: "b")
        _ = try s.move(.next)
        #expect(s.focused() == "a")
        var n = try session(scene([button("a", 0, 0), button("b", 0, 100)], sequentialWrap: false), focus: "b")
        let out = try n.move(.next)
        #expect(!out.moved && out.events.map(\.kind) == [.blocked])
        _ = try n.move(.next, wrap: true)
        #expect(n.focused() == "a")
    }

    @Test("with nothing focused, next goes to the first candidate and previous to the last")
    func nothingFocused() throws {
        var s = try session(scene([button("a", 0, 0), button("b", 0, 100), button("c", 0, 200)]))
        _ = try s.focus(nil)
        _ = try s.move(.previous)
        #expect(s.focused() == "c")
        _ = try s.focus(nil)
        _ = try s.move(.next)
        #expect(s.focused() == "a")
    }

    @Test("inside a modal node the sequence cycles within it")
    func modalCycles() throws {
        var dialog = group("dialog", [button("ok", 0, 500), button("cancel", 200, 500)])
        dialog.modal = true
        var s = try session(scene([button("top", 0, 0), dialog, button("bottom", 0, 900)], sequentialWrap: false), focus: "cancel")
        _ = try s.move(.next)
        #expect(s.focused() == "ok")
        _ = try s.move(.previous)
        #expect(s.focused() == "cancel")
    }

    @Test("the crown moves N steps within the innermost section in one revision and stops at its end")
    func crown() throws {
        let sec = group("sec", section: true, [button("a", 0, 0), button("b", 0, 100), button("c", 0, 200)])
        var s = try session(scene([sec, button("after", 0, 500)]), focus: "a")
        let rev = s.revision
        let out = s.send("crown", detents: 5)
        #expect(s.focused() == "c" && out.consumed)
        #expect(s.revision == rev + 1 && out.events.filter { $0.kind == .focus }.count == 1)
        #expect(out.events.first?.cause?.kind == .crown)
        let stuck = s.send("crown", detents: 1)
        #expect(!stuck.consumed && s.focused() == "c")
        _ = s.send("crown", detents: 1, wrap: true)
        #expect(s.focused() == "a")
        _ = s.send("crown", detents: -1)
        #expect(s.focused() == "a")
    }

    @Test("a huge wrapping crown turn lands where the remainder of the cycle says, at once")
    func hugeCrownTurn() throws {
        var s = try session(scene([button("a", 0, 0), button("b", 0, 100), button("c", 0, 200)]), focus: "a")
        _ = s.send("crown", detents: Int.max, wrap: true)
        // Int.max = 3k + 1 steps: one step past a.
        #expect(s.focused() == "b")
        _ = s.send("crown", detents: Int.min, wrap: true)
        // |Int.min| = 3k + 2 steps backwards from b: b → a → c.
        #expect(s.focused() == "c")
    }

    @Test("a next entry for next/previous overrides the order")
    func sequentialOverride() throws {
        var s = try session(scene([button("a", 0, 0, next: ["next": "c"]), button("b", 0, 100), button("c", 0, 200)]), focus: "a")
        _ = try s.move(.next)
        #expect(s.focused() == "c")
    }
}
