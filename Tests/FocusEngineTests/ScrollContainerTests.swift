// Scroll containers (focus.md §12): content coordinates, visibility, scrolling to focus, ScrollTo.
import Testing
@testable import FocusEngine

/// A scroll container at `frame` (its viewport) holding `children` in content coordinates.
func scroller(_ id: String, _ frame: Rect, axis: ScrollAxis = .horizontal, content: (Double, Double),
              offset: (Double, Double) = (0, 0), policy: ScrollPolicy? = nil, margin: Double? = nil,
              section: Bool? = nil, remembers: Bool? = nil, _ children: [Node]) -> Node {
    Node(id: id, frame: frame, section: section, remembersLastFocus: remembers,
         scroll: Scroll(axis: axis, contentWidth: content.0, contentHeight: content.1,
                        offsetX: offset.0 == 0 ? nil : offset.0, offsetY: offset.1 == 0 ? nil : offset.1,
                        policy: policy, margin: margin),
         children: children)
}

/// Five 200 × 100 tiles 20 apart in a 500-wide horizontal viewport at (100, 300).
func tileRail(_ id: String = "rail", y: Double = 300, policy: ScrollPolicy? = nil, margin: Double? = nil,
              offset: Double = 0) -> Node {
    scroller(id, Rect(x: 100, y: y, width: 500, height: 100), content: (1080, 100), offset: (offset, 0),
             policy: policy, margin: margin,
             (0..<5).map { button("t\($0)", Double($0) * 220, 0, 200, 100) })
}

@Suite("Scroll containers")
struct ScrollContainerTests {
    @Test("descendants' frames are content coordinates: scene frame = viewport origin − offset + frame")
    func contentCoordinates() throws {
        // t2 is at content x 440: scene x 100 + 440 − 220 = 320 with offset 220.
        var s = try session(scene([button("above", 300, 100, 100, 50), tileRail(offset: 220)]), focus: "above")
        _ = try s.move(.down)
        #expect(s.focused() == "t2")
        #expect(s.scene.root.children?[1].children?[2].frame?.x == 440)
    }

    @Test("while focus is outside, a candidate competes clipped to the viewport; clipped to nothing, not at all")
    func clippedWhileOutside() throws {
        // Below the rail's right end (x 560…700): t2's visible part is x 540…600 (clipped), t3 at 760 is hidden.
        var s = try session(scene([tileRail(), button("below", 560, 600, 140, 50)]), focus: "below")
        _ = try s.move(.up)
        #expect(s.focused() == "t2")
        // A node only beyond the viewport: nothing above at all.
        var s2 = try session(scene([tileRail(), button("far", 900, 600, 100, 50)]), focus: "far")
        let out = try s2.move(.up)
        #expect(s2.focused() == "far" && out.events.map(\.kind) == [.blocked])
    }

    @Test("while focus is inside, its content competes whole: a move reaches the next item beyond the viewport and scrolls")
    func wholeWhileInside() throws {
        var s = try session(scene([tileRail()]), focus: "t1")
        let rev = s.revision
        let out = try s.move(.right)
        #expect(s.focused() == "t2")
        // t2 (content 440…640) ends past the viewport (500): the smallest scroll is 140.
        #expect(out.events.map(\.kind) == [.focus, .scroll])
        #expect(out.events.allSatisfy { $0.revision == rev + 1 })
        #expect(out.events[1].node == "rail" && out.events[1].offsetX == 140 && out.events[1].offsetY == 0)
        #expect(out.events[1].cause == Cause(kind: .directional, direction: .right))
        #expect(s.state(active: true).scroll == [ScrollOffset(node: "rail", offsetX: 140, offsetY: 0)])
    }

    @Test("policy visible makes the smallest change and nothing when the item is shown")
    func policyVisible() throws {
        var s = try session(scene([tileRail()]), focus: "t0")
        _ = try s.move(.right)
        #expect(s.scrollOffset(of: "rail")! == (0, 0))
        _ = try s.move(.right); _ = try s.move(.right)
        #expect(s.scrollOffset(of: "rail")! == (360, 0))  // t3 ends at 860: 860 − 500
        _ = try s.move(.left); _ = try s.move(.left)
        #expect(s.scrollOffset(of: "rail")! == (220, 0))  // t1 starts at 220
    }

    @Test("policy center puts the item's centre at the viewport's centre, clamped to the range")
    func policyCenter() throws {
        var s = try session(scene([tileRail(policy: .center)]), focus: "t2")
        #expect(s.scrollOffset(of: "rail")! == (290, 0))  // centre 540 − 250
        _ = try s.focus("t4")
        #expect(s.scrollOffset(of: "rail")! == (580, 0))  // 880 + 100 − 250 = 730, clamped to 1080 − 500
        _ = try s.focus("t0")
        #expect(s.scrollOffset(of: "rail")! == (0, 0))
    }

    @Test("policy leading aligns the leading edge, grown by the margin")
    func policyLeadingMargin() throws {
        let s = try session(scene([tileRail(policy: .leading, margin: 30)]), focus: "t2")
        #expect(s.scrollOffset(of: "rail")! == (410, 0))  // 440 − 30
        let v = try session(scene([tileRail(margin: 30)]), focus: "t2")
        #expect(v.scrollOffset(of: "rail")! == (170, 0))  // 640 + 30 − 500
    }

    @Test("under rightToLeft the leading edge is the right one")
    func rtlLeading() throws {
        let s = try session(scene([tileRail(policy: .leading)], layoutDirection: .rightToLeft), focus: "t1")
        #expect(s.scrollOffset(of: "rail")! == (0, 0))  // right edge 420 ≤ 500: leading right edge at 500 → clamped 0
        let s2 = try session(scene([tileRail(policy: .leading)], layoutDirection: .rightToLeft), focus: "t3")
        #expect(s2.scrollOffset(of: "rail")! == (360, 0))  // right edge 860 − 500
    }

    @Test("visible for a frame larger than the viewport aligns its leading edge (right under rightToLeft)")
    func visibleLargerThanViewport() throws {
        let big = scroller("v", Rect(x: 0, y: 0, width: 300, height: 100), content: (2000, 100),
                           [button("a", 0, 0, 100, 100), button("wide", 500, 0, 800, 100)])
        let s = try session(scene([big]), focus: "wide")
        #expect(s.scrollOffset(of: "v")! == (500, 0))
        let r = try session(scene([big], layoutDirection: .rightToLeft), focus: "wide")
        #expect(r.scrollOffset(of: "v")! == (1000, 0))  // right edge 1300 − 300
    }

    @Test("nested containers compose and scroll innermost first, each with one scroll event")
    func nestedInnermostFirst() throws {
        let page = scroller("page", Rect(x: 0, y: 0, width: 1000, height: 400), axis: .vertical, content: (1000, 1200), [
            tileRail("r0", y: 0), tileRail("r1", y: 600).renamed("r1", prefix: "u"),
        ])
        var s = try session(scene([page]), focus: "t0")
        let out = try s.move(.down)
        #expect(s.focused() == "u0")
        #expect(out.events.map(\.kind) == [.focus, .scroll])
        #expect(out.events[1].node == "page" && out.events[1].offsetY == 300)  // r1's tile at 600…700 into 0…400
        _ = try s.move(.right); _ = try s.move(.right)
        let o2 = try s.move(.right)
        #expect(s.focused() == "u3" && o2.events.map(\.node) == [nil, "r1"])
        // Scene frame of u3: page origin 0 − 300 + 600 → y 300, rail origin 100 − 360 + 660 → x 400.
        #expect(s.state(active: true).scroll.map(\.node) == ["page", "r0", "r1"])
    }

    @Test("ScrollTo clamps, emits a programmatic scroll event, and focus stays even off screen; no change emits nothing")
    func scrollTo() throws {
        var s = try session(scene([tileRail()]), focus: "t0")
        let rev = s.revision
        let out = try s.scrollTo("rail", offsetX: 5000, offsetY: 40)
        #expect(s.scrollOffset(of: "rail")! == (580, 0) && s.focused() == "t0")
        #expect(out.events.map(\.kind) == [.scroll] && out.events[0].cause == Cause(kind: .programmatic))
        #expect(out.events[0].revision == rev + 1 && s.revision == rev + 1)
        let none = try s.scrollTo("rail", offsetX: 580, offsetY: 0)
        #expect(none.events.isEmpty && s.revision == rev + 1)
        #expect(throws: FocusError.noSuchNode(id: "t0")) { try s.scrollTo("t0", offsetX: 0, offsetY: 0) }
        // Moving from the off-screen focus brings it back in view.
        _ = try s.move(.right)
        #expect(s.focused() == "t1" && s.scrollOffset(of: "rail")! == (220, 0))
    }

    @Test("the initial default focus scrolls too")
    func initialFocusScrolls() throws {
        let rail = scroller("rail", Rect(x: 0, y: 0, width: 300, height: 100), content: (1000, 100),
                            [button("hidden", 800, 0, 100, 100)])
        let s = try session(scene([rail]))
        #expect(s.focused() == "hidden" && s.state(active: true).scroll == [ScrollOffset(node: "rail", offsetX: 600, offsetY: 0)])
    }

    @Test("sequential order ignores visibility, places a container by its viewport, and does not change when it scrolls")
    func sequentialIgnoresVisibility() throws {
        var s = try session(scene([button("first", 0, 0), tileRail(), button("last", 0, 900)]), focus: "first")
        var seen: [String] = []
        for _ in 0..<7 { _ = try s.move(.next); seen.append(s.focused()!) }
        #expect(seen == ["t0", "t1", "t2", "t3", "t4", "last", "first"])
        _ = try s.scrollTo("rail", offsetX: 300, offsetY: 0)
        seen = []
        for _ in 0..<7 { _ = try s.move(.next); seen.append(s.focused()!) }
        #expect(seen == ["t0", "t1", "t2", "t3", "t4", "last", "first"])
    }

    @Test("remembered focus survives scrolling out of view")
    func rememberedSurvivesScroll() throws {
        let rail = scroller("rail", Rect(x: 100, y: 300, width: 500, height: 100), content: (1080, 100), section: true,
                            remembers: true, (0..<5).map { button("t\($0)", Double($0) * 220, 0, 200, 100) })
        var s = try session(scene([button("up", 100, 100, 500, 50), rail]), focus: "t0")
        _ = try s.focus("t1")
        _ = try s.move(.up)
        _ = try s.scrollTo("rail", offsetX: 580, offsetY: 0)  // t1 is now out of view
        _ = try s.move(.down)
        #expect(s.focused() == "t1" && s.scrollOffset(of: "rail")! == (220, 0))
    }

    @Test("a section inside a scroll container competes with its clipped frame while focus is outside")
    func sectionClipped() throws {
        let rail = scroller("rail", Rect(x: 0, y: 300, width: 500, height: 100), content: (2000, 100), [
            Node(id: "sec", frame: Rect(x: 400, y: 0, width: 1000, height: 100), section: true,
                 children: [button("inSec", 1200, 0, 100, 100), button("inSec2", 420, 0, 60, 100)]),
            button("left", 0, 0, 100, 100),
        ])
        // From below x 420…500 the section's visible part (400…500) is in the beam; entering picks inSec2.
        var s = try session(scene([rail, button("below", 420, 600, 80, 50)]), focus: "below")
        _ = try s.move(.up)
        #expect(s.focused() == "inSec2")
    }

    @Test("offsets: a new container outside its range is InvalidScene; one sent again is clamped")
    func offsetValidation() throws {
        #expect(throws: FocusError.invalidScene(reason: "scroll offsetX 600.0 is outside its range 0…580.0", node: "rail")) {
            try SceneSession(scene: scene([tileRail(offset: 600)]))
        }
        #expect(throws: FocusError.invalidScene(reason: "scroll offsetY 5.0 is outside its range 0…0.0", node: "r")) {
            try SceneSession(scene: scene([scroller("r", Rect(x: 0, y: 0, width: 10, height: 10), content: (100, 10),
                                                    offset: (0, 5), [])]))
        }
        var s = try session(scene([tileRail(offset: 500)]), focus: nil)
        var smaller = tileRail()
        smaller.scroll?.offsetX = 580
        smaller.scroll?.contentWidth = 700
        _ = try s.update(upsert: [NodePatch(parent: "root", node: smaller)], remove: [])
        #expect(s.scrollOffset(of: "rail")! == (200, 0))
    }

    @Test("a scroll container needs a frame, finite sizes, and cannot also be a collection")
    func scrollValidation() throws {
        #expect(throws: FocusError.invalidScene(reason: "a scroll container needs a frame (its viewport)", node: "s")) {
            try SceneSession(scene: scene([Node(id: "s", scroll: Scroll(axis: .both, contentWidth: 10, contentHeight: 10))]))
        }
        #expect(throws: FocusError.invalidScene(reason: "a node cannot be both a scroll container and a collection", node: "s")) {
            try SceneSession(scene: scene([Node(id: "s", frame: Rect(x: 0, y: 0, width: 10, height: 10),
                                                scroll: Scroll(axis: .both, contentWidth: 10, contentHeight: 10),
                                                collection: Collection(count: 1, layout: .row, itemWidth: 1, itemHeight: 1))]))
        }
        #expect(throws: FocusError.invalidScene(reason: "scroll margin is negative", node: "s")) {
            try SceneSession(scene: scene([Node(id: "s", frame: Rect(x: 0, y: 0, width: 10, height: 10),
                                                scroll: Scroll(axis: .both, contentWidth: 10, contentHeight: 10, margin: -1))]))
        }
    }

    @Test("UpdateScene of a container takes the offset sent and keeps focus")
    func updateOffset() throws {
        var s = try session(scene([tileRail()]), focus: "t1")
        _ = try s.update(upsert: [NodePatch(parent: "root", node: tileRail(offset: 100))], remove: [])
        #expect(s.focused() == "t1" && s.scrollOffset(of: "rail")! == (100, 0))
        _ = try s.move(.left)
        #expect(s.focused() == "t0" && s.scrollOffset(of: "rail")! == (0, 0))
    }

    @Test("a scroll re-files nothing it holds: its content stays indexed in content coordinates, and moves still find it")
    func scrollDoesNotReindex() throws {
        // A page holding a rail of 1,000 tiles inside a section; scrolling either files at most the
        // sections above them again, however many tiles they hold.
        let tiles = (0..<1_000).map { button("t\($0)", Double($0) * 220, 0, 200, 100) }
        let rail = scroller("rail", Rect(x: 100, y: 300, width: 500, height: 100), content: (220_000, 100), tiles)
        let page = scroller("page", Rect(x: 0, y: 0, width: 1000, height: 700), axis: .vertical, content: (1000, 2000),
                            section: true, [button("top", 100, 100, 200, 100), rail])
        var s = try session(scene([page]), focus: "top")
        let before = s.store.index.updates
        _ = try s.scrollTo("rail", offsetX: 50_000, offsetY: 0)
        _ = try s.scrollTo("page", offsetX: 0, offsetY: 200)
        _ = try s.scrollTo("rail", offsetX: 60_000, offsetY: 0)
        #expect(s.store.index.updates - before <= 3, "only the page section may be filed again, once per scroll")
        // The content was not re-filed, yet it is where the scrolls put it: down from "top" (now at
        // scene y −100) reaches the tile shown at the viewport's left edge (content x 60,060 = t273).
        #expect(s.store.frame(s.store.idToSlot["t273"]!)! == Rect(x: 100 + 60_060 - 60_000, y: 300 - 200, width: 200, height: 100))
        _ = try s.move(.down)
        #expect(s.focused() == "t273")
        #expect(s.scrollOffset(of: "rail")! == (60_000, 0))
        // Every move agrees with brute force over the same scrolled scene.
        var b = s
        b.searchStrategy = .bruteForce
        for d in [Direction.right, .right, .up, .down, .left] {
            _ = try s.move(d); _ = try b.move(d)
            #expect(s.focused() == b.focused())
        }
    }
}

extension Node {
    /// The same subtree with id `id` and every descendant id's leading "t" replaced by `prefix`.
    func renamed(_ id: String, prefix: String) -> Node {
        var n = self
        n.id = id
        n.children = children?.map { c in
            var c = c
            if c.id.hasPrefix("t") { c.id = prefix + c.id.dropFirst() }
            return c
        }
        return n
    }
}
