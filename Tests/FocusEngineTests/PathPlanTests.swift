// `SceneSession.planPath` (focusctl goto, io.focusd.Inspect.PlanPath): shortest, exact when replayed,
// directional before sequential before crown, and honest about unreachable targets.

@testable import FocusEngine
import PropertyBased
import Testing

/// Sends one planned command to `session` as a client would (`Send`).
private func send(_ command: String, _ session: inout SceneSession) -> Outcome {
    if command.hasPrefix("crown=") { return session.send("crown", detents: Int(command.dropFirst(6))!) }
    return session.send(command)
}

/// The oracle: breadth-first over whole session copies, a state being focus plus section memory.
private func shortestLength(_ session: SceneSession, to target: String) -> Int? {
    struct Key: Hashable { var focused: String?; var remembered: [String: String] }
    if session.focused() == target { return 0 }
    var seen: Set<Key> = [Key(focused: session.focused(), remembered: session.remembered)]
    var frontier = [session]
    var depth = 0
    while !frontier.isEmpty {
        depth += 1
        var next: [SceneSession] = []
        for s in frontier {
            for step in SceneSession.planSteps {
                var copy = s
                guard send(step.command, &copy).moved else { continue }
                if copy.focused() == target { return depth }
                if seen.insert(Key(focused: copy.focused(), remembered: copy.remembered)).inserted { next.append(copy) }
            }
        }
        frontier = next
    }
    return nil
}

@Suite("Planning a path to a node")
struct PathPlanTests {
    @Test("on a grid the plan is the directional moves a user would press, and replaying it lands on the target")
    func gridPlan() throws {
        var nodes: [Node] = []
        for r in 0..<5 { for c in 0..<5 { nodes.append(button("t\(r)\(c)", Double(c) * 150, Double(r) * 100)) } }
        var s = try session(scene(nodes), focus: "t00")
        let plan = try s.planPath(to: "t22")
        #expect(plan.reachable && plan.commands.count == 4)
        #expect(plan.commands.allSatisfy { ["down", "right"].contains($0) })
        #expect(s.focused() == "t00", "planning must not move focus")
        for (command, expected) in zip(plan.commands, plan.through) {
            _ = send(command, &s)
            #expect(s.focused() == expected)
        }
        #expect(s.focused() == "t22")
        // `previous` wraps to the last tile: two commands, not seven directional ones.
        #expect(try session(scene(nodes), focus: "t00").planPath(to: "t43").commands == ["previous", "left"])
    }

    @Test("directional moves are preferred to next/previous, and those to the crown")
    func preferenceOrder() throws {
        let s = try session(scene([button("a", 0, 0), button("b", 200, 0)]), focus: "a")
        #expect(try s.planPath(to: "b").commands == ["right"])
        // b is below-right, out of a's beam: tvos finds nothing directionally, `next` does.
        let t = try session(scene([button("a", 0, 0), button("b", 200, 300)]), focus: "a")
        #expect(try t.planPath(to: "b").commands == ["next"])
    }

    @Test("a target outside the modal node holding focus is unreachable and the nearest reachable node is named")
    func unreachableNamesNearest() throws {
        let s = try session(scene([
            button("outside", 0, 600),
            Node(id: "dialog", modal: true, children: [button("ok", 0, 0), button("cancel", 0, 200)]),
        ]), focus: "ok")
        let plan = try s.planPath(to: "outside")
        #expect(!plan.reachable && plan.nearest == "cancel" && plan.commands == ["down"])
        #expect(throws: FocusError.noSuchNode(id: "nope")) { try s.planPath(to: "nope") }
        #expect(try s.planPath(to: "ok").commands.isEmpty)
    }

    @Test("on random scenes the plan is as short as a search over whole sessions, and replaying it lands on the target")
    func shortestOnRandomScenes() async {
        await propertyCheck(count: 60, input: LayoutGen.nested, Gen.int(in: 0...400)) { layout, pick in
            let candidates = layout.candidates
            guard candidates.count >= 2 else { return }
            for policy in [SearchPolicy.tvos, .android] {
                guard let s = try? SceneSession(scene: layout.scene(policy: policy)) else { return }
                let target = candidates[pick % candidates.count]
                guard let plan = try? s.planPath(to: target) else { Issue.record("planPath threw\n\(layout)"); return }
                let best = shortestLength(s, to: target)
                #expect(plan.reachable == (best != nil), "plan says reachable \(plan.reachable), oracle \(String(describing: best)) for \(target)\n\(layout)")
                if plan.reachable { #expect(plan.commands.count == best, "plan \(plan.commands) for \(target), oracle \(best!) steps\n\(layout)") }
                var replay = s
                for command in plan.commands { _ = send(command, &replay) }
                #expect(replay.focused() == (plan.reachable ? target : plan.nearest ?? s.focused()),
                        "replaying \(plan.commands) ended on \(replay.focused() ?? "nothing")\n\(layout)")
            }
        }
    }

    /// The layout (shrunk by the property above) on which a search over focused ids alone planned
    /// 4 commands where 3 do: the target's group sits in a section that remembers its last focus,
    /// and the same node reached another way carries another memory of that section.
    @Test("a plan counts a node reached with another memory of its sections as another position, so it stays shortest")
    func shortestThroughSectionMemory() throws {
        typealias T = RandomLayout.Tile
        var inner = RandomLayout.Group()
        inner.tiles = [T(x: 30, y: 160, width: 10, height: 10), T(x: 50, y: 130, width: 10, height: 30)]
        var remembering = RandomLayout.Group(section: true, remembersLastFocus: true)
        remembering.tiles = [T(x: 10, y: 10, width: 20, height: 10), T(x: 70, y: 0, width: 10, height: 20)]
        remembering.groups = [inner]
        var plain = RandomLayout.Group()
        plain.tiles = [T(x: 0, y: 20, width: 30, height: 10), T(x: 0, y: 0, width: 20, height: 10), T(x: 10, y: 30, width: 10, height: 10)]
        var root = RandomLayout.Group()
        root.tiles = [T(x: 10, y: 0, width: 10, height: 10), T(x: 10, y: 0, width: 10, height: 10),
                      T(x: 0, y: 0, width: 20, height: 10), T(x: 0, y: 20, width: 10, height: 10)]
        root.groups = [plain, remembering]
        let layout = RandomLayout(family: "nested sections", root: root)
        for policy in [SearchPolicy.tvos, .android] {
            let s = try SceneSession(scene: layout.scene(policy: policy))
            let plan = try s.planPath(to: "n9")
            let best = try #require(shortestLength(s, to: "n9"))
            #expect(plan.reachable && plan.commands.count == best, "\(policy): plan \(plan.commands), oracle \(best) steps")
            var replay = s
            for command in plan.commands { _ = send(command, &replay) }
            #expect(replay.focused() == "n9", "\(policy): replaying \(plan.commands) ended on \(replay.focused() ?? "nothing")")
        }
    }
}
