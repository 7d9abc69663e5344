import AtspiBus
import FocusEngine
import Testing

/// A tree as an application's bus would describe it: a window at (100, 50) on screen.
struct TreeMaker {
    var tree = AccessibleTree()
    let root = "/org/a11y/atspi/accessible/root"

    init() {
        tree[root] = Accessible(path: root, parent: nil)
    }

    mutating func add(
        _ path: String, under parent: String, role: Int = 43, states: [Int], extents: (Int, Int, Int, Int)?
    ) {
        var node = Accessible(path: path, parent: parent)
        node.role = role
        for s in states { node.states.set(s, true) }
        tree.learn(node.states)
        node.extents = extents.flatMap { Extents(x: $0.0, y: $0.1, width: $0.2, height: $0.3) }
        node.childrenRead = true
        tree[path] = node
        tree.nodes[parent]?.children.append(path)
    }
}

private let shownStates = [AtspiStates.enabled, AtspiStates.sensitive, AtspiStates.showing, AtspiStates.visible]
private let focusableStates = shownStates + [AtspiStates.focusable]

@Suite("The scene of a window")
struct SceneBuilderTests {
    func window() -> TreeMaker {
        var t = TreeMaker()
        t.add("/w", under: t.root, role: AtspiRole.frame, states: shownStates + [AtspiStates.active], extents: (100, 50, 640, 480))
        t.add("/panel", under: "/w", role: 39, states: shownStates, extents: (100, 50, 640, 100))
        t.add("/ok", under: "/panel", states: focusableStates, extents: (110, 60, 50, 20))
        return t
    }

    @Test("candidates are framed by their screen extents minus the window's; plain containers are left out")
    func framesRelativeToWindow() throws {
        let scene = try #require(SceneBuilder.scene(of: "/w", in: window().tree))
        #expect(scene.frame == Extents(x: 0, y: 0, width: 640, height: 480))
        #expect(scene.children.map(\.id) == ["/ok"])
        #expect(scene.children[0].frame == Extents(x: 10, y: 10, width: 50, height: 20))
    }

    @Test("GTK 3's INT_MIN extents, a disabled or insensitive widget, a hidden one and one outside the window make no candidate")
    func notCandidates() throws {
        var t = window()
        let intMin = Int(Int32.min)
        t.add("/hidden-extents", under: "/panel", states: focusableStates, extents: (intMin, intMin, 640, 34))
        t.add("/insensitive", under: "/panel", states: [AtspiStates.enabled, AtspiStates.showing, AtspiStates.visible, AtspiStates.focusable], extents: (200, 60, 50, 20))
        t.add("/not-showing", under: "/panel", states: [AtspiStates.enabled, AtspiStates.sensitive, AtspiStates.focusable], extents: (300, 60, 50, 20))
        t.add("/outside", under: "/panel", states: focusableStates, extents: (900, 60, 50, 20))
        t.add("/half", under: "/panel", states: focusableStates, extents: (720, 60, 50, 20))
        let scene = try #require(SceneBuilder.scene(of: "/w", in: t.tree))
        #expect(scene.children.map(\.id) == ["/ok", "/half"])
        #expect(scene.children[1].frame == Extents(x: 620, y: 10, width: 20, height: 20))
    }

    @Test("where the toolkit never reports SHOWING, VISIBLE stands for it; where it reports only ENABLED, that suffices")
    func visibleWhereNoShowing() throws {
        var t = TreeMaker()
        t.add("/w", under: t.root, role: AtspiRole.window, states: [AtspiStates.enabled, AtspiStates.visible], extents: (0, 0, 100, 100))
        t.add("/b", under: "/w", states: [AtspiStates.enabled, AtspiStates.visible, AtspiStates.focusable], extents: (10, 10, 10, 10))
        t.add("/off", under: "/w", states: [AtspiStates.visible, AtspiStates.focusable], extents: (30, 10, 10, 10))
        let scene = try #require(SceneBuilder.scene(of: "/w", in: t.tree))
        #expect(scene.children.map(\.id) == ["/b"])
    }

    @Test("list boxes are sections holding their items; text entries have role text; spin buttons and sliders take edits")
    func sectionsAndFields() throws {
        var t = window()
        t.add("/list", under: "/w", role: AtspiRole.listBox, states: shownStates, extents: (100, 200, 640, 42))
        t.add("/row1", under: "/list", role: 32, states: focusableStates, extents: (100, 200, 640, 21))
        t.add("/row2", under: "/list", role: 32, states: focusableStates, extents: (100, 221, 640, 21))
        t.add("/entry", under: "/w", role: AtspiRole.text, states: focusableStates, extents: (100, 250, 640, 30))
        t.add("/spin", under: "/w", role: AtspiRole.spinButton, states: focusableStates, extents: (100, 290, 640, 30))
        t.add("/slider", under: "/w", role: AtspiRole.slider, states: focusableStates, extents: (100, 330, 640, 30))
        t.add("/emptylist", under: "/w", role: AtspiRole.list, states: shownStates, extents: (100, 400, 640, 30))
        let scene = try #require(SceneBuilder.scene(of: "/w", in: t.tree))
        #expect(scene.children.map(\.id) == ["/ok", "/list", "/entry", "/spin", "/slider"])
        let list = try #require(scene.find("/list"))
        #expect(list.section && !list.focusable && list.children.map(\.id) == ["/row1", "/row2"])
        #expect(scene.find("/entry")?.role == "text")
        let wire = scene.wire()
        #expect(wire.children?[3].interactions == [.activate, .edit])
        #expect(wire.children?[0].interactions == nil)
        // focusd's engine takes it as it is, and the list is a section it enters.
        var session = try SceneSession(scene: Scene(name: "s", root: wire))
        #expect(session.focused() == "/ok")
        _ = try session.move(.down)
        #expect(session.focused() == "/row1")
    }

    @Test("a window without real extents has no scene yet")
    func windowWithoutExtents() {
        var t = TreeMaker()
        t.add("/w", under: t.root, role: AtspiRole.frame, states: shownStates, extents: nil)
        #expect(SceneBuilder.scene(of: "/w", in: t.tree) == nil)
    }
}

@Suite("A first placement, from its bounds-changed event")
struct PlacementTests {
    /// The window at (100, 50); its client area (where GTK 3 allocates) 4 px right and 20 px down
    /// of it (a decorated frame); two buttons in a panel placed and read before.
    func window() -> TreeMaker {
        var t = TreeMaker()
        t.add("/w", under: t.root, role: AtspiRole.frame, states: shownStates, extents: (100, 50, 640, 480))
        t.add("/panel", under: "/w", role: 39, states: shownStates, extents: (104, 70, 600, 400))
        for (path, y) in [("/a", 10), ("/b", 50)] {
            t.add(path, under: "/panel", states: focusableStates, extents: (104 + 8, 70 + y, 80, 30))
            t.tree.nodes[path]?.placement = Extents(x: 8, y: y, width: 80, height: 30)
            t.tree.learnPlacement(of: path, window: "/w")
        }
        return t
    }

    /// A button added to the panel, not read yet, placed at `y` by its event.
    func place(_ path: String, in t: inout TreeMaker, y: Int, states: [Int] = focusableStates) {
        t.add(path, under: "/panel", states: states, extents: nil)
        t.tree.nodes[path]?.placement = Extents(x: 8, y: y, width: 80, height: 30)
    }

    @Test("a new child's extents are its placement moved by the offset its siblings were read at")
    func predictedFromSiblings() throws {
        var t = window()
        #expect(t.tree["/a"]?.placementOffset == PlacementOffset(x: 4, y: 20))
        place("/new", in: &t, y: 90)
        let predicted = try #require(t.tree.predictedExtents(of: "/new", window: "/w"))
        #expect(predicted.extents == Extents(x: 112, y: 160, width: 80, height: 30))
        // The read that follows agrees: nothing is reported.
        t.tree.nodes["/new"]?.extents = predicted.extents
        t.tree.nodes["/new"]?.predictedOffset = predicted.offset
        let verdict = t.tree.learnPlacement(of: "/new", window: "/w")
        #expect(verdict == nil)
        #expect(t.tree["/panel"]?.placementsDiffer == false)
    }

    @Test("no prediction without a placement, without a sibling read after its own, or where siblings disagree")
    func notPredicted() throws {
        var t = window()
        t.add("/new", under: "/panel", states: focusableStates, extents: nil)
        #expect(t.tree.predictedExtents(of: "/new", window: "/w") == nil)
        t.tree.nodes["/new"]?.placement = Extents(x: 8, y: 90, width: 80, height: 30)
        t.tree.nodes["/b"]?.placementOffset = PlacementOffset(x: 4, y: 60)  // on another surface
        #expect(t.tree.predictedExtents(of: "/new", window: "/w") == nil)
        var alone = TreeMaker()
        alone.add("/w", under: alone.root, role: AtspiRole.frame, states: shownStates, extents: (0, 0, 640, 480))
        alone.add("/only", under: "/w", states: focusableStates, extents: nil)
        alone.tree.nodes["/only"]?.placement = Extents(x: 8, y: 90, width: 80, height: 30)
        #expect(alone.tree.predictedExtents(of: "/only", window: "/w") == nil)
    }

    @Test("a prediction the read contradicts is reported, and the container's children are no longer predicted")
    func wrongPrediction() throws {
        var t = window()
        place("/new", in: &t, y: 0)
        let predicted = try #require(t.tree.predictedExtents(of: "/new", window: "/w"))
        t.tree.nodes["/new"]?.predictedOffset = predicted.offset
        t.tree.nodes["/new"]?.extents = Extents(x: 300, y: 300, width: 80, height: 30)  // its own surface
        let verdict = t.tree.learnPlacement(of: "/new", window: "/w")
        let wrong = try #require(verdict)
        #expect(wrong.predicted == PlacementOffset(x: 4, y: 20))
        #expect(wrong.found == PlacementOffset(x: 192, y: 250))
        place("/next", in: &t, y: 130)
        #expect(t.tree.predictedExtents(of: "/next", window: "/w") == nil)
    }

    @Test("extents of another size than the placement teach no offset, and contradict a prediction")
    func sizeMismatch() throws {
        var t = window()
        place("/new", in: &t, y: 90)
        t.tree.nodes["/new"]?.predictedOffset = PlacementOffset(x: 4, y: 20)
        t.tree.nodes["/new"]?.extents = Extents(x: 112, y: 160, width: 81, height: 30)
        let verdict = t.tree.learnPlacement(of: "/new", window: "/w")
        #expect(verdict != nil)
        #expect(t.tree["/new"]?.placementOffset == nil)
    }

    @Test("a read answered while the window's own read is outstanding (it moved) teaches and judges nothing")
    func windowMoving() throws {
        var t = window()
        t.tree.nodes["/w"]?.extents = Extents(x: 140, y: 80, width: 640, height: 480)  // the adapter's view lags
        t.tree.nodes["/a"]?.extents = Extents(x: 152, y: 110, width: 80, height: 30)
        t.tree.nodes["/a"]?.predictedOffset = PlacementOffset(x: 4, y: 20)
        let verdict = t.tree.learnPlacement(of: "/a", window: "/w", windowKnown: false)
        #expect(verdict == nil)
        #expect(t.tree["/a"]?.placementOffset == nil)
        #expect(t.tree["/a"]?.predictedOffset == nil)
        #expect(t.tree["/b"]?.placementOffset == PlacementOffset(x: 4, y: 20))  // learned before the move
    }

    @Test("a VISIBLE widget placed under a shown parent shows; not one that is not VISIBLE, nor one in a scroll pane")
    func showingOnPlacement() throws {
        var t = window()
        let visible = [AtspiStates.enabled, AtspiStates.sensitive, AtspiStates.visible, AtspiStates.focusable]
        place("/new", in: &t, y: 90, states: visible)
        #expect(!t.tree.showsOnPlacement("/new"))  // not placed on the screen yet
        t.tree.nodes["/new"]?.extents = Extents(x: 112, y: 160, width: 80, height: 30)
        #expect(t.tree.showsOnPlacement("/new"))
        place("/unmapped", in: &t, y: 130, states: [AtspiStates.enabled, AtspiStates.sensitive, AtspiStates.focusable])
        t.tree.nodes["/unmapped"]?.extents = Extents(x: 112, y: 200, width: 80, height: 30)
        #expect(!t.tree.showsOnPlacement("/unmapped"))
        t.tree.nodes["/panel"]?.role = AtspiRole.scrollPane
        #expect(!t.tree.showsOnPlacement("/new"))
    }

    @Test("a window's new size comes from its placement and the size beyond it learned from its last read")
    func windowSize() throws {
        var t = window()
        t.tree.nodes["/w"]?.placement = Extents(x: 0, y: 0, width: 636, height: 460)
        t.tree.learnWindowPlacement(of: "/w", predicted: nil)
        #expect(t.tree.predictedWindowExtents(of: "/w") == nil)  // unchanged
        t.tree.nodes["/w"]?.placement = Extents(x: 0, y: 0, width: 636, height: 500)
        let grown = try #require(t.tree.predictedWindowExtents(of: "/w"))
        #expect(grown == Extents(x: 100, y: 50, width: 640, height: 520))
        t.tree.nodes["/w"]?.extents = grown
        t.tree.nodes["/w"]?.sizePredicted = true
        t.tree.nodes["/w"]?.extents = Extents(x: 100, y: 50, width: 640, height: 530)  // read: another size
        let wrong = t.tree.learnWindowPlacement(of: "/w", predicted: grown)
        #expect(wrong)
        t.tree.nodes["/w"]?.placement = Extents(x: 0, y: 0, width: 636, height: 600)
        #expect(t.tree.predictedWindowExtents(of: "/w") == nil)  // read from now on
    }
}

@Suite("Placements and announcements that come before the path is known")
struct EarlyNoticeTests {
    /// The window of `PlacementTests`: two buttons on one surface, 4 px right and 20 px down of
    /// the window's origin.
    func window() -> TreeMaker { PlacementTests().window() }

    func item(_ path: String, parent: String = "/panel", states: [Int] = [AtspiStates.enabled, AtspiStates.sensitive, AtspiStates.visible, AtspiStates.focusable]) -> AccessibleTree.CacheItem {
        var bits = AtspiStates(bits: 0)
        for s in states { bits.set(s, true) }
        return AccessibleTree.CacheItem(path: path, parent: parent, index: 2, childCount: 0, role: AtspiRole.pushButton, states: bits)
    }

    /// The path learned as a `children-changed` teaches it: known under its parent, nothing read.
    func learn(_ path: String, in t: inout TreeMaker, under parent: String = "/panel") {
        t.tree[path] = Accessible(path: path, parent: parent)
        t.tree.nodes[parent]?.children.append(path)
    }

    @Test("an early placement and announcement are used when the child is announced: framed and shown as if they came after")
    func earlyPlacementUsed() throws {
        var t = window()
        var early = EarlyNotices()
        early.placed("/new", Extents(x: 8, y: 90, width: 80, height: 30))
        early.announced(item("/new"))
        #expect(t.tree.predictedExtents(of: "/new", window: "/w") == nil)  // not known yet
        learn("/new", in: &t)
        let taken = early.take("/new")
        let kept = try #require(taken)
        let again = early.take("/new")
        #expect(again == nil)  // handed over once
        let used = t.tree.adopt(kept, at: "/new")
        #expect(used.announced && used.placed)
        #expect(t.tree["/new"]?.statesRead == true && t.tree["/new"]?.role == AtspiRole.pushButton)
        // The same prediction a placement after the children-changed gives (PlacementTests).
        let predicted = try #require(t.tree.predictedExtents(of: "/new", window: "/w"))
        #expect(predicted.extents == Extents(x: 112, y: 160, width: 80, height: 30))
        t.tree.nodes["/new"]?.extents = predicted.extents
        #expect(t.tree.showsOnPlacement("/new"))
        // The read still wins: one elsewhere contradicts it and stops predictions in the panel.
        t.tree.nodes["/new"]?.predictedOffset = predicted.offset
        t.tree.nodes["/new"]?.extents = Extents(x: 300, y: 300, width: 80, height: 30)
        #expect(t.tree.learnPlacement(of: "/new", window: "/w") != nil)
        #expect(t.tree["/panel"]?.placementsDiffer == true)
    }

    @Test("state changes after an early announcement are kept on it; a state read already in wins over the announcement")
    func earlyStates() throws {
        var t = window()
        var early = EarlyNotices()
        early.announced(item("/new", states: [AtspiStates.enabled, AtspiStates.sensitive, AtspiStates.focusable]))
        early.stateChanged("/new", state: AtspiStates.visible, on: true)
        early.stateChanged("/other", state: AtspiStates.visible, on: true)  // never announced: nothing kept
        #expect(early["/other"] == nil && early.count == 1)
        learn("/new", in: &t)
        let taken = early.take("/new")
        let kept = try #require(taken)
        #expect(t.tree.adopt(kept, at: "/new").announced)
        #expect(t.tree["/new"]?.states.contains(AtspiStates.visible) == true)
        // A second announcement (or one after the state read) changes nothing.
        let second = t.tree.announce(item("/new", states: []))
        #expect(!second)
        #expect(t.tree["/new"]?.states.contains(AtspiStates.visible) == true)
    }

    @Test("an announcement naming another parent than the one the path is learned under is not used")
    func otherParent() throws {
        var t = window()
        var early = EarlyNotices()
        early.announced(item("/new", parent: "/elsewhere"))
        learn("/new", in: &t)
        let taken = early.take("/new")
        let kept = try #require(taken)
        let used = t.tree.adopt(kept, at: "/new")
        #expect(!used.announced && !used.placed)
        #expect(t.tree["/new"]?.statesRead == false)
    }

    @Test("a removed object's early placement is not used")
    func removedNotUsed() {
        var early = EarlyNotices()
        early.placed("/gone", Extents(x: 8, y: 90, width: 80, height: 30))
        early.announced(item("/gone"))
        early.forget("/gone")
        let taken = early.take("/gone")
        #expect(taken == nil && early.count == 0)
    }

    @Test("a last placement that is not real (INT_MIN) leaves none: never a frame from it")
    func notRealPlacement() throws {
        var t = window()
        var early = EarlyNotices()
        let intMin = Int(Int32.min)
        early.placed("/new", Extents(x: 8, y: 90, width: 80, height: 30))
        early.placed("/new", Extents(x: intMin, y: intMin, width: 80, height: 30))
        early.announced(item("/new"))
        learn("/new", in: &t)
        let taken = early.take("/new")
        let kept = try #require(taken)
        let used = t.tree.adopt(kept, at: "/new")
        #expect(used.placed)  // re-read as a bounds-changed is
        #expect(t.tree["/new"]?.placement == nil)
        #expect(t.tree.predictedExtents(of: "/new", window: "/w") == nil)
    }

    @Test("a kept entry is bounded: the oldest paths are dropped, one touched again is kept, a flood of new paths holds at the limit")
    func bounded() {
        var early = EarlyNotices(limit: 256)
        for i in 0..<256 { early.placed("/p\(i)", Extents(x: 0, y: Double(i), width: 1, height: 1)) }
        early.placed("/p0", Extents(x: 0, y: 0, width: 2, height: 2))  // touched again: now the newest
        early.placed("/p256", nil)
        #expect(early.count == 256)
        #expect(early["/p0"]?.placement == Extents(x: 0, y: 0, width: 2, height: 2))
        #expect(early["/p1"] == nil)  // the oldest untouched one went
        #expect(early["/p2"] != nil && early["/p256"]?.placed == true)
        // A hostile application: a hundred thousand paths that never come, and one path placed
        // over and over between them; the store stays at its limit and keeps the newest.
        for i in 0..<100_000 {
            early.placed("/flood\(i)", nil)
            if i % 3 == 0 { early.placed("/busy", Extents(x: 0, y: 0, width: 1, height: 1)) }
        }
        #expect(early.count == 256)
        #expect(early["/flood99999"] != nil && early["/busy"] != nil && early["/flood0"] == nil && early["/p0"] == nil)
    }
}

@Suite("What is read of an accessible")
struct ReadNeedsTests {
    func node(role: Int, states: [Int]) -> Accessible {
        var node = Accessible(path: "/n", parent: "/w")
        node.role = role
        for s in states { node.states.set(s, true) }
        return node
    }

    @Test("a hidden accessible needs nothing more than its role and state")
    func hidden() {
        let needs = AccessibleTree.needs(node(role: AtspiRole.list, states: [AtspiStates.focusable]), isWindow: false)
        #expect(!needs.extents && !needs.children)
    }

    @Test("a shown panel needs its children but no extents; a section and a window need both")
    func containers() {
        let panel = AccessibleTree.needs(node(role: 39, states: shownStates), isWindow: false)
        #expect(!panel.extents && panel.children)
        let list = AccessibleTree.needs(node(role: AtspiRole.listBox, states: shownStates), isWindow: false)
        #expect(list.extents && list.children)
        let window = AccessibleTree.needs(node(role: AtspiRole.frame, states: shownStates), isWindow: true)
        #expect(window.extents && window.children)
    }

    @Test("a focusable push button needs its extents, not its children; a check box (a checkable Qt group box) both")
    func leaves() {
        let button = AccessibleTree.needs(node(role: AtspiRole.pushButton, states: focusableStates), isWindow: false)
        #expect(button.extents && !button.children)
        let label = AccessibleTree.needs(node(role: 29, states: shownStates), isWindow: false)
        #expect(!label.extents && label.children)
        let checkBox = AccessibleTree.needs(node(role: 7, states: focusableStates), isWindow: false)
        #expect(checkBox.extents && checkBox.children)
    }
}

@Suite("A cache listing")
struct CacheLoadTests {
    @Test("children in index order; a parent whose listed children fall short of its child count is read as in a walk")
    func load() throws {
        var tree = AccessibleTree()
        let root = "/org/a11y/atspi/accessible/root"
        tree[root] = Accessible(path: root, parent: nil)
        let shown = AtspiStates(bits: 1 << UInt64(AtspiStates.showing) | 1 << UInt64(AtspiStates.visible))
        let items = [
            AccessibleTree.CacheItem(path: "/b", parent: "/w", index: 1, childCount: 0, role: AtspiRole.pushButton, states: shown),
            AccessibleTree.CacheItem(path: root, parent: "/null", index: -1, childCount: 1, role: 75, states: shown),
            AccessibleTree.CacheItem(path: "/w", parent: root, index: 0, childCount: 2, role: AtspiRole.frame, states: shown),
            AccessibleTree.CacheItem(path: "/a", parent: "/w", index: 0, childCount: 3, role: 39, states: shown),
            AccessibleTree.CacheItem(path: "/a1", parent: "/a", index: 0, childCount: 0, role: AtspiRole.pushButton, states: shown),
        ]
        let loaded = tree.load(items, root: root)
        #expect(Set(loaded) == ["/w", "/a", "/b", "/a1"])
        #expect(tree[root]?.children == ["/w"] && tree[root]?.childrenRead == true)
        #expect(tree["/w"]?.children == ["/a", "/b"] && tree["/w"]?.childrenRead == true)
        #expect(tree["/a"]?.children == ["/a1"] && tree["/a"]?.childrenRead == false)
        #expect(tree["/b"]?.childrenRead == true && tree["/b"]?.roleRead == true && tree["/b"]?.statesRead == true)
        #expect(tree.window(of: "/a1", root: root) == "/w")
    }
}

@Suite("The application's focus")
struct FocusedCandidateTests {
    @Test("the last focused event wins over an accessible left FOCUSED (Qt's current tab); without one, scene order")
    func lastFocusedWins() throws {
        var t = TreeMaker()
        t.add("/w", under: t.root, role: AtspiRole.frame, states: shownStates, extents: (0, 0, 640, 480))
        t.add("/tab", under: "/w", role: 37, states: focusableStates + [AtspiStates.focused], extents: (0, 0, 50, 20))
        t.add("/help", under: "/w", states: focusableStates + [AtspiStates.focused], extents: (0, 100, 50, 20))
        let scene = try #require(SceneBuilder.scene(of: "/w", in: t.tree))
        #expect(t.tree.focusedCandidate(in: scene) == "/tab")
        t.tree.lastFocused = "/help"
        #expect(t.tree.focusedCandidate(in: scene) == "/help")
        t.tree.nodes["/help"]?.states.set(AtspiStates.focused, false)
        #expect(t.tree.focusedCandidate(in: scene) == "/tab")
    }
}

@Suite("Value steps of an edit")
struct ValueStepTests {
    @Test("the minimum increment, 1 on an integer range without one, 1/100 of a real range without one, clamped")
    func steps() {
        #expect(ValueStep.next(current: 5, minimum: 0, maximum: 200, increment: 5, detents: 2) == 15)
        #expect(ValueStep.next(current: 5, minimum: 0, maximum: 10, increment: 0, detents: -1) == 4)
        #expect(ValueStep.next(current: 0.5, minimum: 0, maximum: 1.5, increment: 0, detents: 1) == 0.515)
        #expect(ValueStep.next(current: 9, minimum: 0, maximum: 10, increment: 1, detents: 5) == 10)
        #expect(ValueStep.next(current: 1, minimum: 0, maximum: 10, increment: 1, detents: -5) == 0)
    }
}

@Suite("Scene names")
struct SceneNameTests {
    @Test("atspi:BUS:PATH names round-trip")
    func names() throws {
        let name = AtspiAdapter.sceneName(bus: ":1.23", window: "/org/a11y/atspi/accessible/12")
        #expect(name == "atspi::1.23:/org/a11y/atspi/accessible/12")
        let parsed = try #require(AtspiAdapter.parse(scene: name))
        #expect(parsed.bus == ":1.23" && parsed.window == "/org/a11y/atspi/accessible/12")
        #expect(AtspiAdapter.parse(scene: "chromium:x") == nil)
    }
}
