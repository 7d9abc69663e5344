// Lazy collections (focus.md §12): slots, virtual items, materialize, hand-over, count changes.
import Testing
@testable import FocusEngine

/// A collection of `count` 200 × 100 slots 20 apart from (x, y), with `built` items.
func collection(_ id: String, x: Double = 100, y: Double = 300, count: Int, layout: CollectionLayout = .row,
                columns: Int? = nil, spacing: Double = 20, section: Bool? = nil, remembers: Bool? = nil,
                _ built: [Node] = []) -> Node {
    Node(id: id, frame: Rect(x: x, y: y, width: 0, height: 0), section: section, remembersLastFocus: remembers,
         collection: Collection(count: count, layout: layout, itemWidth: 200, itemHeight: 100, spacing: spacing,
                                columns: columns),
         children: built)
}

/// A built item at `index` (frame from its slot).
func item(_ id: String, _ index: Int, focusable: Bool = true, bindings: [Binding]? = nil) -> Node {
    Node(id: id, focusable: focusable, bindings: bindings, index: index)
}

@Suite("Collections")
struct CollectionTests {
    @Test("virtual items are candidates with their slot frames and ids COLLECTION#INDEX")
    func virtualItems() throws {
        var s = try session(scene([collection("rail", count: 100, [item("b0", 0), item("b1", 1)])]), focus: "b0")
        var seen: [String] = []
        for _ in 0..<4 { _ = try s.move(.right); seen.append(s.focused()!) }
        #expect(seen == ["b1", "rail#2", "rail#3", "rail#4"])
        #expect(s.state(active: true).path == ["rail#4", "rail", "root"])
        _ = try s.move(.left); _ = try s.move(.left); _ = try s.move(.left)
        #expect(s.focused() == "b1")
    }

    @Test("a grid places slot i in row i / columns and column i % columns, with spacing between rows and columns")
    func gridSlots() throws {
        var s = try session(scene([collection("g", x: 0, y: 0, count: 10, layout: .grid, columns: 3)]), focus: "g#0")
        _ = try s.move(.down)
        #expect(s.focused() == "g#3")
        _ = try s.move(.right); _ = try s.move(.down)
        #expect(s.focused() == "g#7")
        let out = try s.move(.down)  // slot 10 does not exist: nothing below
        #expect(out.events.map(\.kind) == [.blocked])
        _ = try s.move(.left); _ = try s.move(.down)
        #expect(s.focused() == "g#9")
    }

    @Test("under rightToLeft a row fills from the right, and a grid is columns slots wide")
    func rtlFill() throws {
        var s = try session(scene([collection("r", x: 0, y: 0, count: 3), button("probe", 0, 500, 200, 50)],
                                  layoutDirection: .rightToLeft), focus: "probe")
        _ = try s.move(.up)  // slot 2 is at the left under rightToLeft
        #expect(s.focused() == "r#2")
        var g = try session(scene([collection("g", x: 0, y: 0, count: 2, layout: .grid, columns: 3),
                                   button("probe", 440, 500, 200, 50)], layoutDirection: .rightToLeft), focus: "probe")
        _ = try g.move(.up)  // column 0 of a 3-wide grid is the rightmost (x 440)
        #expect(g.focused() == "g#0")
    }

    @Test("focus on a virtual item emits materialize after focus, bindings and values, before scroll")
    func materializeEventOrder() throws {
        let rail = scroller("sc", Rect(x: 100, y: 300, width: 500, height: 100), content: (100_000, 100), [
            Node(id: "rail", frame: Rect(x: 0, y: 0, width: 0, height: 0), values: ["area": "rail"],
                 collection: Collection(count: 400, layout: .row, itemWidth: 200, itemHeight: 100, spacing: 20),
                 children: [item("b0", 0), item("b1", 1), item("b2", 2)]),
        ])
        var s = try session(scene([button("top", 100, 100), rail]), focus: "top")
        _ = try s.focus("b2")
        let rev = s.revision
        let out = try s.move(.right)
        #expect(s.focused() == "rail#3")
        #expect(out.events.map(\.kind) == [.focus, .materialize, .scroll])
        #expect(out.events[1].node == "rail" && out.events[1].index == 3 && out.events.allSatisfy { $0.revision == rev + 1 })
        let fromTop = try session(scene([button("top", 100, 100), rail]), focus: "top")
        var t = fromTop
        let o2 = try t.move(.down)
        #expect(t.focused() == "b0" && o2.events.map(\.kind) == [.focus, .values])
    }

    @Test("building the focused index hands focus to the built node (cause materialized)")
    func materializedHandOver() throws {
        var s = try session(scene([collection("rail", count: 50, [item("b0", 0)])]), focus: "rail#7")
        let out = try s.update(upsert: [NodePatch(parent: "rail", node: item("movie7", 7, bindings: [Binding(name: "m", value: "7")]))],
                               remove: [])
        #expect(s.focused() == "movie7")
        #expect(out.events.map(\.kind) == [.scene, .focus, .bindings])
        #expect(out.events[1].from == "rail#7" && out.events[1].cause == Cause(kind: .materialized))
        #expect(s.state(active: true).bindings == [BindingState(name: "m", value: "7")])
    }

    @Test("removing the focused built item hands focus to its virtual item (cause virtualized, no materialize)")
    func virtualizedHandOver() throws {
        var s = try session(scene([collection("rail", count: 50, [item("b0", 0), item("b5", 5)])]), focus: "b5")
        let out = try s.update(upsert: [], remove: ["b5"])
        #expect(s.focused() == "rail#5")
        #expect(out.events.map(\.kind) == [.scene, .focus])
        #expect(out.events[1].cause == Cause(kind: .virtualized))
    }

    @Test("lowering count moves focus to the highest candidate index below it, skipping holes; at 0, default focus")
    func countLowered() throws {
        var s = try session(scene([button("other", 0, 0), collection("rail", count: 50, [item("hole", 8, focusable: false)])]),
                            focus: "rail#30")
        let out = try s.update(upsert: [NodePatch(parent: "root", node: collection("rail", count: 9, [item("hole", 8, focusable: false)]))],
                               remove: [])
        #expect(s.focused() == "rail#7")
        #expect(out.events.map(\.kind) == [.scene, .focus, .materialize])
        #expect(out.events[1].cause == Cause(kind: .removed))
        _ = try s.update(upsert: [NodePatch(parent: "root", node: collection("rail", count: 0))], remove: [])
        #expect(s.focused() == "other")
    }

    @Test("a collection sent again keeps focus on the same virtual index")
    func resentKeepsVirtualFocus() throws {
        var s = try session(scene([collection("rail", count: 50)]), focus: "rail#12")
        let out = try s.update(upsert: [NodePatch(parent: "root", node: collection("rail", count: 80))], remove: [])
        #expect(s.focused() == "rail#12" && out.events.map(\.kind) == [.scene])
    }

    @Test("Focus takes a virtual id; a built index gives the built node; past count NoSuchNode; a hole NotFocusable")
    func focusVirtualIds() throws {
        var s = try session(scene([collection("rail", count: 10, [item("b3", 3), item("hole", 4, focusable: false)])]))
        _ = try s.focus("rail#9")
        #expect(s.focused() == "rail#9")
        _ = try s.focus("rail#3")
        #expect(s.focused() == "b3")
        #expect(throws: FocusError.noSuchNode(id: "rail#10")) { try s.focus("rail#10") }
        #expect(throws: FocusError.notFocusable(id: "rail#4")) { try s.focus("rail#4") }
        #expect(throws: FocusError.noSuchNode(id: "nothing#1")) { try s.focus("nothing#1") }
    }

    @Test("remembersLastFocus remembers the index, built or not")
    func remembersIndex() throws {
        var s = try session(scene([button("top", 100, 100, 500, 50),
                                   collection("rail", count: 1000, section: true, remembers: true)]), focus: "rail#0")
        for _ in 0..<40 { _ = try s.move(.right) }
        #expect(s.focused() == "rail#40")
        _ = try s.focus("top")
        _ = try s.move(.down)
        #expect(s.focused() == "rail#40")
    }

    @Test("sequential order steps through items by index; the collection stands at slot 0; other children follow")
    func sequentialByIndex() throws {
        let coll = collection("rail", x: 100, y: 300, count: 4, [item("hole", 1, focusable: false), button("extra", 0, 0, 50, 50), item("b2", 2)])
        var s = try session(scene([button("before", 0, 200, 50, 50), coll, button("after", 0, 900)]), focus: "before")
        var seen: [String] = []
        for _ in 0..<6 { _ = try s.move(.next); seen.append(s.focused()!) }
        #expect(seen == ["rail#0", "b2", "rail#3", "extra", "after", "before"])
        seen = []
        for _ in 0..<3 { _ = try s.move(.previous); seen.append(s.focused()!) }
        #expect(seen == ["after", "extra", "rail#3"])
    }

    @Test("the crown steps by index and stays within the innermost section, not the collection")
    func crownByIndex() throws {
        var s = try session(scene([Node(id: "sec", section: true, children: [collection("rail", count: 1_000_000)]),
                                   button("out", 0, 900)]), focus: "rail#10")
        let out = s.send("crown", detents: 5)
        #expect(s.focused() == "rail#15")  // focus, materialize, nothing to scroll
        #expect(out.events.map(\.kind) == [.focus, .materialize])
        _ = try s.focus("rail#999998")
        _ = s.send("crown", detents: 5)
        #expect(s.focused() == "rail#999999")
    }

    @Test("a collection of 1,000,000,000 items moves from its last slot like any other")
    func billionItems() throws {
        var s = try session(scene([collection("big", count: 1_000_000_000)]), focus: "big#999999998")
        _ = try s.move(.right)
        #expect(s.focused() == "big#999999999")
        let out = try s.move(.right)
        #expect(out.events.map(\.kind) == [.blocked])
        #expect(s.store.slots.count < 10)
    }

    @Test("validation: specific InvalidScene errors for collections and items")
    func validation() throws {
        func fails(_ nodes: [Node], _ reason: String, _ node: String) {
            #expect(throws: FocusError.invalidScene(reason: reason, node: node)) { try SceneSession(scene: scene(nodes)) }
        }
        fails([Node(id: "c", collection: Collection(count: 1, layout: .row, itemWidth: 1, itemHeight: 1))],
              "a collection needs a frame (the origin of its slots)", "c")
        fails([collection("c", count: 1_000_000_001)], "collection count 1000000001 is above 1,000,000,000", "c")
        fails([collection("c", count: -1)], "collection count -1 is negative", "c")
        fails([collection("c", count: 5, layout: .grid)], "a grid collection needs columns", "c")
        fails([collection("c", count: 5, [item("a", 5)])], "index 5 is outside the collection's range 0…4", "a")
        fails([collection("c", count: 5, [item("a", 1), item("b", 1)])], "index 1 is used by two built items of the collection", "b")
        fails([Node(id: "g", children: [item("a", 1)])], "index is only for a built item of a collection (its parent is not a collection)", "a")
        fails([collection("c", count: 5), button("c#3", 0, 0)], "id 'c#3' is reserved for a virtual item of collection 'c'", "c#3")
        fails([button("c#3", 0, 0), collection("c", count: 5)],
              "ids of the form 'c#INDEX' are reserved for this collection's virtual items, and one is in use", "c")
        var s = try session(scene([collection("c", count: 5)]))
        #expect(throws: FocusError.invalidScene(reason: "id 'c#1' is reserved for a virtual item of collection 'c'", node: "c#1")) {
            try s.update(upsert: [NodePatch(parent: "root", node: button("c#1", 0, 0))], remove: [])
        }
        #expect(throws: FocusError.invalidScene(reason: "index 2 is used by two built items of the collection", node: "y")) {
            try s.update(upsert: [NodePatch(parent: "c", node: item("x", 2)), NodePatch(parent: "c", node: item("y", 2))], remove: [])
        }
        #expect(s.scene.root.children?[0].children?.isEmpty == true)
    }

    @Test("a sent width and height are replaced by the derived size")
    func derivedSize() throws {
        let s = try session(scene([collection("g", x: 10, y: 20, count: 7, layout: .grid, columns: 3)]))
        let f = s.store.frame(s.store.idToSlot["g"]!)!
        #expect(f == Rect(x: 10, y: 20, width: 640, height: 340))
        #expect(s.scene.root.children?[0].frame == Rect(x: 10, y: 20, width: 0, height: 0))
    }
}

@Suite("Lint of scroll containers and collections")
struct ScrollLintTests {
    @Test("lint skips virtual items, takes built items' slot frames, and reports a built item over other slots")
    func lintCollections() throws {
        let rail = collection("rail", x: 0, y: 300, count: 1_000_000, [
            item("b0", 0), Node(id: "wide", frame: Rect(x: 220, y: 300, width: 500, height: 100), focusable: true, index: 1),
        ])
        let problems = try SceneSession.lint(scene([button("top", 0, 100), rail]))
        #expect(!problems.contains { $0.kind == .emptyFrame }, "\(problems)")
        #expect(!problems.contains { $0.node.contains("#") }, "virtual items are skipped: \(problems)")
        let overlaps = problems.filter { $0.kind == .overlap }
        #expect(overlaps.map(\.other) == ["rail#2", "rail#3"], "\(problems)")
        #expect(overlaps.first?.message == "built item 'wide' (index 1) overlaps the slot of index 2 of collection 'rail'")
    }

    @Test("lint does not call a scroll container's content offscreen")
    func lintScrollContent() throws {
        let problems = try SceneSession.lint(scene([tileRail(), button("other", 100, 600)]))
        #expect(!problems.contains { $0.kind == .offscreen }, "\(problems)")
    }
}

extension ScrollLintTests {
    @Test("lint of a scene whose default focus is a virtual item does not fail")
    func lintVirtualDefault() throws {
        let problems = try SceneSession.lint(scene([collection("rail", count: 500), button("below", 100, 700)]))
        #expect(!problems.contains { $0.node.contains("#") }, "\(problems)")
    }
}

extension ScrollLintTests {
    @Test("lint moves from each candidate as focus would: its scroll containers scrolled to show it first")
    func lintScrollsToEachCandidate() throws {
        // t2 (content 440…640) is cut by the viewport's right edge (600); focused, it scrolls to 400…600,
        // so moving up from it reaches 'above', never 'side', which only its unscrolled frame touches.
        let problems = try SceneSession.lint(scene([button("above", 420, 100, 160, 50), button("side", 650, 100, 100, 50), tileRail()]))
        #expect(!problems.contains { $0.node == "t2" && $0.other == "side" }, "\(problems)")
        #expect(problems.contains { $0.node == "t2" && $0.other == "above" } || !problems.contains { $0.node == "t2" }, "\(problems)")
    }
}
