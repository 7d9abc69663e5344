// The shortest command sequence that takes focus to a node (`focusctl goto`,
// `io.focusd.Inspect.PlanPath`): a breadth-first search over the engine's own moves on a copy of the
// session, so the plan is exactly what the engine does when the commands are sent.

/// A planned path to a node.
public struct PathPlan: Codable, Hashable, Sendable {
    /// The commands, in order: `up`, `down`, `left`, `right`, `next`, `previous`, `crown=1`,
    /// `crown=-1` (each a `Send` command of io.focusd.Focus). Empty when focus is already there.
    public var commands: [String]
    /// The node focus is on after each command (same length as `commands`).
    public var through: [String]
    /// False when the target cannot be reached by any sequence of commands.
    public var reachable: Bool
    /// When unreachable: the reachable node nearest to the target (by the distance between frame
    /// centres; ties in tree order), and `commands` / `through` lead there.
    public var nearest: String?
    /// How many focus positions the search visited.
    public var visited: Int
}

extension SceneSession {
    /// One step of a plan, in preference order: directional first, then next/previous, then crown.
    static let planSteps: [(command: String, direction: Direction?, detents: Int)] = [
        ("up", .up, 0), ("down", .down, 0), ("left", .left, 0), ("right", .right, 0),
        ("next", .next, 0), ("previous", .previous, 0), ("crown=1", nil, 1), ("crown=-1", nil, -1),
    ]

    /// The shortest sequence of commands taking main focus to `target`, without moving focus
    /// (breadth-first over the moves of a copy of this session; among equally short sequences, the
    /// one whose first differing command comes first in `planSteps`' order). Throws `.noSuchNode`,
    /// `.notFocusable`.
    ///
    /// A position is the focused node; the remembered focus of `remembersLastFocus` sections is
    /// carried along each path, as the engine would update it, and a position is not revisited with
    /// a different memory (the plan is still exact: every step is replayed on the engine).
    public func planPath(to target: String) throws(FocusError) -> PathPlan {
        guard let t = store.idToSlot[target] else { throw .noSuchNode(id: target) }
        guard store.isCandidate(t) else { throw .notFocusable(id: target) }
        var work = self
        work.store.ensureSequence()
        let start = work.slot(.main)
        if start == t { return PathPlan(commands: [], through: [], reachable: true, nearest: nil, visited: 1) }
        // Visited positions: slot + 1 (0 for "nothing focused"), with the step that reached them.
        var parent = [Int32](repeating: -2, count: store.slots.count + 1)
        var how = [Int8](repeating: -1, count: store.slots.count + 1)
        var memory: [[String: String]?] = Array(repeating: nil, count: store.slots.count + 1)
        let startKey = (start ?? -1) + 1
        parent[startKey] = -1
        memory[startKey] = remembered
        var queue = [startKey]
        var head = 0
        var found = false
        while head < queue.count, !found {
            let key = queue[head]
            head += 1
            for (i, step) in Self.planSteps.enumerated() {
                work.focusedId = key == 0 ? nil : work.store.slots[key - 1].id
                work.hints.main = key - 1
                work.remembered = memory[key]!
                if key == 0, step.direction == nil { continue }
                let outcome: Outcome
                if let d = step.direction {
                    guard let o = try? work.move(d) else { continue }
                    outcome = o
                } else {
                    outcome = work.send("crown", detents: step.detents)
                }
                guard outcome.moved, let now = work.slot(.main) else { continue }
                let k = now + 1
                guard parent[k] == -2 else { continue }
                parent[k] = Int32(key)
                how[k] = Int8(i)
                memory[k] = work.remembered
                queue.append(k)
                if now == t { found = true; break }
            }
        }
        var end = t + 1
        var nearest: String?
        if !found {
            // The reachable node nearest to the target.
            let goal = store.frame(t).map { ($0.x + $0.width / 2, $0.y + $0.height / 2) } ?? (0, 0)
            var best: (Double, Int)?
            for key in queue where key > 0 {
                guard let r = store.frame(key - 1) else { continue }
                let dx = r.x + r.width / 2 - goal.0, dy = r.y + r.height / 2 - goal.1
                let d = dx * dx + dy * dy
                if best == nil || d < best!.0 || (d == best!.0 && store.precedes(key - 1, best!.1 - 1)) { best = (d, key) }
            }
            guard let best else {
                return PathPlan(commands: [], through: [], reachable: false, nearest: nil, visited: queue.count)
            }
            end = best.1
            nearest = store.slots[end - 1].id
        }
        var commands: [String] = [], through: [String] = []
        var k = end
        while parent[k] >= 0 {
            commands.append(Self.planSteps[Int(how[k])].command)
            through.append(store.slots[k - 1].id)
            k = Int(parent[k])
        }
        return PathPlan(commands: commands.reversed(), through: through.reversed(), reachable: found,
                        nearest: nearest, visited: queue.count)
    }
}
