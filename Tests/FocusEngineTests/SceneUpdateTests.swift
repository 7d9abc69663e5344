// Replacing and updating scenes, validation (focus.md §1, §11).
import Testing
@testable import FocusEngine

@Suite("Scene updates and validation")
struct SceneUpdateTests {
    @Test("an update keeps focus when its node survives, bumps the revision once and emits scene")
    func updateKeepsFocus() throws {
        var s = try session(scene([button("a", 0, 0), button("b", 0, 100)]), focus: "b")
        let rev = s.revision
        let out = try s.update(upsert: [NodePatch(parent: "root", index: 0, node: button("new", 0, 500))], remove: ["a"])
        #expect(s.focused() == "b" && s.revision == rev + 1)
        #expect(out.events.map(\.kind) == [.scene] && out.events.allSatisfy { $0.revision == rev + 1 })
        #expect(s.scene.root.children?.map(\.id) == ["new", "b"])
    }

    @Test("an upsert of an existing id replaces it in place, or moves it under another parent")
    func upsertReplacesAndMoves() throws {
        var s = try session(scene([group("g", [button("x", 0, 0)]), button("a", 0, 100), button("b", 0, 200)]), focus: "a")
        _ = try s.update(upsert: [NodePatch(parent: "root", node: button("a", 500, 100))], remove: [])
        #expect(s.scene.root.children?.map(\.id) == ["g", "a", "b"] && s.focused() == "a")
        #expect(s.scene.root.children?[1].frame?.x == 500)
        _ = try s.update(upsert: [NodePatch(parent: "g", node: button("b", 0, 200))], remove: [])
        #expect(s.scene.root.children?.map(\.id) == ["g", "a"] && s.scene.root.children?[0].children?.map(\.id) == ["x", "b"])
    }

    @Test("nodesUnder counts the named nodes with their subtrees, skips unknown ids and stops at its limit")
    func nodesUnderCountsSubtrees() throws {
        let s = try session(scene([group("g", [button("x", 0, 0), group("h", [button("y", 0, 50), button("z", 0, 60)])]), button("a", 0, 100)]), focus: "a")
        #expect(s.nodesUnder(["g"], limit: 100) == 5)
        #expect(s.nodesUnder(["a", "nope", "h"], limit: 100) == 4)
        #expect(s.nodesUnder(["root"], limit: 3) == 3)
        #expect(s.nodesUnder([], limit: 3) == 0)
    }

    @Test("an upsert index past the last child appends; a negative index is an invalid parameter and changes nothing")
    func upsertIndexBounds() throws {
        var s = try session(scene([button("a", 0, 0), button("b", 0, 100)]), focus: "a")
        _ = try s.update(upsert: [NodePatch(parent: "root", index: 99, node: button("c", 0, 200))], remove: [])
        #expect(s.scene.root.children?.map(\.id) == ["a", "b", "c"])
        let revision = s.revision
        #expect(throws: FocusError.invalidParameter(parameter: "upsert")) {
            try s.update(upsert: [NodePatch(parent: "root", index: -5, node: button("d", 0, 300))], remove: ["a"])
        }
        #expect(s.scene.root.children?.map(\.id) == ["a", "b", "c"] && s.revision == revision)
    }

    @Test("replace keeps focus when the node survives as a candidate and re-evaluates otherwise")
    func replaceKeepsFocus() throws {
        var s = try session(scene([button("a", 0, 0), button("b", 0, 100)]), focus: "b")
        _ = try s.replace(with: scene([button("b", 300, 300), button("c", 0, 0)]))
        #expect(s.focused() == "b")
        let out = try s.replace(with: scene([button("c", 0, 0), button("d", 0, 100)]))
        #expect(s.focused() == "c" && out.moved)
    }

    @Test("a binding whose read value changes through an update is published")
    func updateChangesBindings() throws {
        var s = try session(scene([button("a", 0, 0)]), focus: "a")
        let out = try s.update(upsert: [NodePatch(parent: "root", node: button("a", 0, 0, bindings: [Binding(name: "f", value: "a")]))], remove: [])
        #expect(out.events.map(\.kind) == [.scene, .bindings] && out.events[1].bindings == [BindingState(name: "f", value: "a")])
    }

    @Test("an invalid update changes nothing")
    func invalidUpdateChangesNothing() throws {
        var s = try session(scene([button("a", 0, 0), button("b", 0, 100, next: ["up": "a"])]), focus: "b")
        let before = s.state(active: true)
        #expect(throws: FocusError.invalidScene(reason: "next target 'a' does not exist", node: "b")) { try s.update(upsert: [], remove: ["a"]) }
        #expect(throws: FocusError.noSuchNode(id: "ghost")) { try s.update(upsert: [NodePatch(parent: "ghost", node: button("z", 0, 0))], remove: []) }
        #expect(throws: FocusError.invalidScene(reason: "duplicate id 'a'", node: "a")) {
            try s.update(upsert: [NodePatch(parent: "root", node: group("g", [button("a", 0, 0)]))], remove: [])
        }
        #expect(s.state(active: true) == before && s.scene.root.children?.count == 2)
    }

    @Test("a failing later patch undoes the earlier ones of the same call")
    func rollback() throws {
        let original = scene([group("g", [button("x", 0, 0)]), button("a", 0, 100), button("b", 0, 200)])
        var s = try session(original, focus: "a")
        let rev = s.revision
        #expect(throws: FocusError.invalidScene(reason: "duplicate id 'q'", node: "q")) {
            try s.update(upsert: [NodePatch(parent: "root", node: button("a", 900, 900)),
                                  NodePatch(parent: "g", index: 0, node: button("new", 0, 0)),
                                  NodePatch(parent: "root", node: button("x", 0, 0)),
                                  NodePatch(parent: "root", node: group("dup", [button("q", 0, 0), button("q", 9, 9)]))],
                         remove: ["b"])
        }
        #expect(s.scene == original && s.revision == rev && s.focused() == "a")
        #expect(throws: FocusError.noSuchNode(id: "ghost")) { try s.update(upsert: [NodePatch(parent: "g", node: button("y", 0, 0))], remove: ["b", "ghost"]) }
        #expect(s.scene == original)
        _ = try s.move(.down)
        #expect(s.focused() == "b")
    }

    /// A deterministic generator, so a failure can be replayed.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    @Test("many inserts at scattered indices and many removals in one patch give the tree applying them one by one gives")
    func batchedPatchMatchesOneByOne() throws {
        for seed in 1...20 {
            var random = Generator(state: UInt64(seed))
            var initial: [Node] = []
            for i in 0..<50 {
                if i % 10 == 0 {
                    initial.append(group("g\(i)", [button("g\(i)c0", Double(i), 0), button("g\(i)c1", Double(i), 60)]))
                } else {
                    initial.append(button("n\(i)", Double(i * 10), 0, bindings: [Binding(name: "k", value: "\(i % 3)")]))
                }
            }
            var patches: [NodePatch] = []
            var ids: [String] = initial.map { $0.id } + ["root"]
            for j in 0..<200 {
                let parent = random.next(4) == 0 ? ids[random.next(ids.count)] : "root"
                let index: Int? = random.next(5) == 0 ? nil : random.next(60)
                let id = random.next(8) == 0 ? ids[random.next(ids.count)] : "p\(j)"  // sometimes an existing id
                if id == "root" || id == parent { continue }
                let node = random.next(6) == 0
                    ? group(id, [button("\(id)-kid", 5, 5, bindings: [Binding(name: "k", value: "\(j % 3)")])])
                    : button(id, Double(j), 300, bindings: random.next(3) == 0 ? [Binding(name: "k", value: "\(j % 3)")] : nil)
                patches.append(NodePatch(parent: parent, index: index, node: node))
                ids.append(id)
            }
            var removals: [String] = []
            for _ in 0..<40 { removals.append(ids[random.next(ids.count)]) }

            var whole = try session(scene(initial), focus: "n1")
            var single = try session(scene(initial), focus: "n1")
            var wholeError: (any Error)?
            do { _ = try whole.update(upsert: patches, remove: removals) } catch { wholeError = error }
            // One call per patch (each small: the one-by-one path), then the removals one by one.
            var singleError: (any Error)?
            var steps = single
            do {
                for patch in patches { _ = try steps.update(upsert: [patch], remove: []) }
                for id in removals { _ = try steps.update(upsert: [], remove: [id]) }
                single = steps
            } catch { singleError = error }
            #expect((wholeError == nil) == (singleError == nil), "seed \(seed): \(String(describing: wholeError)) vs \(String(describing: singleError))")
            if wholeError == nil {
                #expect(whole.scene == single.scene, "seed \(seed): \(Self.difference(whole.scene.root, single.scene.root))")
                #expect(whole.state(active: true).focused == single.state(active: true).focused, "seed \(seed)")
                _ = try whole.setBinding(name: "k", isTrue: nil, value: "1")
                _ = try single.setBinding(name: "k", isTrue: nil, value: "1")
                #expect(whole.focused() == single.focused(), "seed \(seed): the first node bound to k = 1 differs")
            } else {
                // A failing patch leaves the scene exactly as it was.
                // (Compared with `children: []` read as none: a failed update that had added a
                // child to a leaf leaves it with an empty list, issue 10.12, not this change's.)
                let original = try session(scene(initial)).scene
                let restored = Self.normalized(whole.scene.root)
                #expect(restored == Self.normalized(original.root),
                        "seed \(seed): \(String(describing: wholeError)): \(Self.difference(restored, Self.normalized(original.root)))")
            }
        }
    }

    static func normalized(_ node: Node) -> Node {
        var n = node
        n.children = node.children.flatMap { $0.isEmpty ? nil : $0.map(normalized) }
        return n
    }

    /// The first place two trees differ, for failure messages.
    static func difference(_ a: Node, _ b: Node) -> String {
        var x = a, y = b
        x.children = nil
        y.children = nil
        if x != y { return "\(a.id): \(x) vs \(y)" }
        let ak = a.children ?? [], bk = b.children ?? []
        if (a.children == nil) != (b.children == nil) || ak.map(\.id) != bk.map(\.id) {
            return "\(a.id) children: \(a.children.map { $0.map(\.id) } as Any) vs \(b.children.map { $0.map(\.id) } as Any)"
        }
        for (c, d) in zip(ak, bk) where c != d { return difference(c, d) }
        return "none"
    }

    @Test("10,000 inserts at index 0 then removing every other one, in one patch each, keep the order and undo exactly on failure")
    func manySiblingsInsertedAndRemoved() throws {
        var s = try session(scene([button("first", 0, 0)]), focus: "first")
        let count = 10_000
        let patches = (0..<count).map { NodePatch(parent: "root", index: 0, node: button("b\($0)", Double($0 % 300) * 6, Double($0 / 300) * 3, 5, 2)) }
        _ = try s.update(upsert: patches, remove: [])
        var ids = s.scene.root.children?.map(\.id) ?? []
        #expect(ids.count == count + 1 && ids.first == "b\(count - 1)" && ids.last == "first" && ids[count - 1] == "b0")
        let removals = (0..<count).filter { $0.isMultiple(of: 2) }.map { "b\($0)" }
        _ = try s.update(upsert: [], remove: removals)
        ids = s.scene.root.children?.map(\.id) ?? []
        #expect(ids.count == count / 2 + 1 && ids.first == "b\(count - 2 + 1)" && ids.last == "first")
        #expect(ids.dropLast().allSatisfy { Int($0.dropFirst())!.isMultiple(of: 2) == false })
        // A big patch failing at its end (an unknown id to remove) leaves nothing behind.
        let before = s.scene
        let more = (0..<5_000).map { NodePatch(parent: "root", index: 0, node: button("m\($0)", 0, 0, 5, 2)) }
        #expect(throws: FocusError.noSuchNode(id: "missing")) { try s.update(upsert: more, remove: ["b1", "missing"]) }
        #expect(s.scene == before)
        #expect(s.focused() == "first")
    }

    @Test("the scene reads back as installed and after updates")
    func sceneRoundTrip() throws {
        var original = scene([group("g", [button("x", 0, 0)]), Node(id: "leaf", children: [])], policy: .tvos, layoutDirection: .leftToRight)
        original.persist = true
        var s = try SceneSession(scene: original)
        #expect(s.scene == original)
        _ = try s.update(upsert: [NodePatch(parent: "g", node: button("y", 0, 100))], remove: [])
        original.root.children![0].children!.append(button("y", 0, 100))
        #expect(s.scene == original)
    }

    @Test("accessibility focus is dismissed when its node goes away; ambiguous bindings warn on replace")
    func accessibilityOnRemoval() throws {
        var s = try session(scene([button("a", 0, 0), button("b", 0, 100)]), focus: "a")
        _ = try s.focus("b", track: .accessibility)
        let out = try s.update(upsert: [], remove: ["b"])
        #expect(s.focused(on: .accessibility) == nil && out.events.contains { $0.kind == .focus && $0.track == .accessibility })
        let r = try s.replace(with: scene([button("p", 0, 0, bindings: [Binding(name: "f")]), button("q", 0, 100, bindings: [Binding(name: "f")])]))
        #expect(r.warnings.count == 1)
    }

    @Test("invalid scenes are rejected with a reason naming the node")
    func validation() {
        func reject(_ children: [Node], _ expected: FocusError) {
            #expect(throws: expected) { try SceneSession(scene: scene(children)) }
        }
        reject([button("a", 0, 0), button("a", 0, 100)], .invalidScene(reason: "duplicate id 'a'", node: "a"))
        reject([button("neg", 0, 0, -1, 10)], .invalidScene(reason: "frame width is negative", node: "neg"))
        reject([button("neg", 0, 0, 10, -1)], .invalidScene(reason: "frame height is negative", node: "neg"))
        reject([button("inf", -.infinity, 0)], .invalidScene(reason: "frame x is not finite", node: "inf"))
        reject([button("nan", 0, 0, .nan)], .invalidScene(reason: "frame width is not finite", node: "nan"))
        reject([button("n", 0, 0, next: ["up": "ghost"])], .invalidScene(reason: "next target 'ghost' does not exist", node: "n"))
        reject([button("n", 0, 0, next: ["sideways": "n"])], .invalidScene(reason: "next has key 'sideways', which is not a direction", node: "n"))
        reject([button("v", 0, 0, bindings: [Binding(name: "f", value: "x")]), button("b", 0, 100, bindings: [Binding(name: "f")])],
               .invalidScene(reason: "binding 'f' is used both as a Bool and as a value binding", node: "b"))
        var deep = button("leaf", 0, 0)
        for i in 0..<100 { deep = group("d\(i)", [deep]) }
        // root is level 1, d99 level 2, …, d0 level 101: the first node too deep.
        reject([deep], .invalidScene(reason: "the tree is deeper than 100 levels", node: "d0"))
        #expect(throws: FocusError.tooManyNodes(limit: 3)) {
            try SceneSession(scene: scene([button("a", 0, 0), button("b", 0, 0), button("c", 0, 0)]), limits: Limits(maxNodes: 3))
        }
    }

    @Test("negative and mixed-sign coordinates are valid frames, and every search moves through them")
    func negativeCoordinates() throws {
        // A rail scrolled to the left of a root that itself does not start at 0,0.
        var s = scene([button("left", -260, -40), button("across", -50, -40), button("right", 160, -40),
                       button("below", -50, 200)])
        s.root.frame = Rect(x: -300, y: -100, width: 600, height: 400)
        var session = try session(s, focus: "left")
        _ = try session.move(.right)
        #expect(session.focused() == "across")
        _ = try session.move(.right)
        #expect(session.focused() == "right")
        _ = try session.move(.left)
        _ = try session.move(.down)
        #expect(session.focused() == "below")
        _ = try session.update(upsert: [NodePatch(parent: "root", node: button("far", -5000, -5000))], remove: [])
        _ = try session.move(.up)
        #expect(session.focused() == "across")
        _ = try session.move(.next)
        #expect(session.focused() == "right")
    }

    @Test("a failed update leaves no trace: a node that had no children does not come back with children []")
    func failedUpdateLeavesNoTrace() throws {
        var s = try session(scene((0..<5).map { button("b\($0)", Double($0) * 120, 0) }), focus: "b1")
        let original = s.scene, rev = s.revision
        #expect(original.root.children?[1].children == nil)
        #expect(throws: FocusError.noSuchNode(id: "b1")) {
            try s.update(upsert: [NodePatch(parent: "b1", node: button("inner", 130, 10, 10, 10))], remove: ["b1", "b1"])
        }
        #expect(s.scene == original)
        #expect(s.revision == rev && s.focused() == "b1")
        // The same with the child replaced first, then its parent removed twice.
        var t = try session(scene([group("g", [button("c", 0, 0)]), button("d", 0, 100)]))
        let before = t.scene
        #expect(throws: FocusError.noSuchNode(id: "g")) {
            try t.update(upsert: [NodePatch(parent: "g", node: button("c", 10, 10)), NodePatch(parent: "g", node: button("e", 0, 60))],
                         remove: ["g", "g"])
        }
        #expect(t.scene == before)
    }
}

