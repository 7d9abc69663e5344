// The shortest command sequence that takes focus to a node (`focusctl goto`,
// `io.focusd.Inspect.PlanPath`): a breadth-first search over the engine's own moves on a copy of the
// session, so the plan is exactly what the engine does when the commands are sent.

/// A planned path to a node.
public struct PathPlan: Hashable, Sendable {
    /// The commands, in order: `up`, `down`, `left`, `right`, `next`, `previous`, `crown=1`,
    /// `crown=-1` (each a `Send` command of io.focusd.Focus). Empty when focus is already there.
    public var commands: [String]
    /// The node focus is on after each command (same length as `commands`).
    public var through: [String]
    /// False when the target cannot be reached by any sequence of commands.
    public var reachable: Bool
    /// When unreachable: the reachable node nearest to the target (by the distance between frame
    /// centres; ties: the first visited), and `commands` / `through` lead there.
    public var nearest: String?
    /// How many positions (a focused node with its sections' memory) the search visited.
    public var visited: Int

    /// A value with every field (FocusWire decodes it through this).
    public init(commands: [String], through: [String], reachable: Bool, nearest: String? = nil, visited: Int) {
        self.commands = commands
        self.through = through
        self.reachable = reachable
        self.nearest = nearest
        self.visited = visited
    }
}

extension SceneSession {
    /// One step of a plan, in preference order: directional first, then next/previous, then crown.
    static let planSteps: [(command: String, direction: Direction?, detents: Int)] = [
        ("up", .up, 0), ("down", .down, 0), ("left", .left, 0), ("right", .right, 0),
        ("next", .next, 0), ("previous", .previous, 0), ("crown=1", nil, 1), ("crown=-1", nil, -1),
    ]

    /// Beyond the scene's built nodes, at most this many more focus positions are visited: a scene
    /// with lazy collections of a million items has a million positions (virtual items), and a
    /// plan is an inspection aid, not worth seconds of the daemon's time. Every built node stays
    /// reachable (a 10,000-node grid is planned whole), and so are the virtual items within this
    /// many positions. When the limit is reached before the target, the plan is unreachable and
    /// leads to the nearest position found.
    public static let planVirtualPositionLimit = 1_000

    /// The positions a plan of this scene may visit: its nodes plus ``planVirtualPositionLimit``.
    public var planPositionLimit: Int { store.nodeCount + Self.planVirtualPositionLimit }

    /// The shortest sequence of commands taking main focus to `target`, without moving focus
    /// (breadth-first over the moves of a copy of this session; among equally short sequences, the
    /// one whose first differing command comes first in `planSteps`' order). `target` may be a
    /// virtual item of a lazy collection (`COLLECTION#INDEX`, focus.md §12). Throws `.noSuchNode`,
    /// `.notFocusable`.
    ///
    /// A position is the focused node's id (a virtual item has no slot of its own until it is
    /// materialized, and its slot is reused when it is dropped) together with the remembered focus
    /// of `remembersLastFocus` sections: the same node reached with another memory is another
    /// position, because entering a section goes where its memory says, so a longer way in can
    /// make the rest shorter (a search over ids alone returned 4 commands where 3 did). Scroll
    /// offsets are carried along each path as the engine updates them. When the memories of many
    /// remembering sections multiply the positions past ``planPositionLimit`` before the target is
    /// reached, the search is run again over nodes alone (each node with the memory of the first
    /// way to it): still a plan that lands, not always the shortest.
    public func planPath(to target: String) throws(FocusError) -> PathPlan {
        var work = self
        let targetId: String
        if store.idToSlot[target] == nil, let (collection, index) = work.store.parseVirtual(target) {
            guard let index, index < (store.collections[collection]?.spec.count ?? 0) else { throw .noSuchNode(id: target) }
            guard let slot = work.store.item(collection, index) else { throw .notFocusable(id: target) }
            targetId = work.store.slots[slot].id  // the built node when the index is built
        } else {
            guard let targetSlot = store.idToSlot[target] else { throw .noSuchNode(id: target) }
            guard store.isCandidate(targetSlot) else { throw .notFocusable(id: target) }
            targetId = target
        }
        work = self
        work.store.ensureSequence()
        let startId = slot(.main).map { store.slots[$0].id }
        if startId == targetId { return PathPlan(commands: [], through: [], reachable: true, nearest: nil, visited: 1) }
        // One breadth-first search; `withMemory`: a position is a node with its sections' memory.
        func search(withMemory: Bool) -> (plan: PathPlan, truncated: Bool) {
            var work = work
            struct Position { var id: String; var parent: String?; var step: Int; var memory: [String: String]; var scrolls: [Int: ScrollOffsetXY]; var frame: Rect? }
            // A position's key: the focused id ("" for nothing focused) and the sections' memory.
            func key(_ id: String, _ memory: [String: String]) -> String {
                guard withMemory, !memory.isEmpty else { return id }
                var text = id
                for (section, remembered) in memory.sorted(by: { $0.key < $1.key }) {
                    text += "\u{1}" + section + "\u{2}" + remembered
                }
                return text
            }
            let startKey = key(startId ?? "", remembered)
            var positions: [String: Position] = [
                startKey: Position(id: startId ?? "", parent: nil, step: -1, memory: remembered, scrolls: store.scrolls, frame: nil)
            ]
            var reachedIds: Set<String> = [startId ?? ""]
            var queue = [startKey]
            var head = 0
            var foundKey: String?
            var truncated = false
            search: while head < queue.count {
                let here = positions[queue[head]]!
                let hereKey = queue[head]
                head += 1
                for (stepIndex, step) in Self.planSteps.enumerated() {
                    if here.id.isEmpty, step.direction == nil { continue }
                    work.remembered = here.memory
                    // Scrolling moves the content's frames: set each offset as the engine scrolls.
                    for (container, offset) in here.scrolls where work.store.scrolls[container] != nil && work.store.scrolls[container] != offset {
                        work.store.setOffset(container, x: offset.x, y: offset.y)
                    }
                    if here.id.isEmpty {
                        work.focusedId = nil
                        work.hints.main = -1
                    } else {
                        var slot = work.store.idToSlot[here.id]
                        if slot == nil, let (container, index) = work.store.parseVirtual(here.id), let index { slot = work.store.item(container, index) }
                        guard let slot else { continue }
                        work.focusedId = here.id
                        work.hints.main = slot
                    }
                    let outcome: Outcome
                    if let direction = step.direction {
                        guard let moveOutcome = try? work.move(direction) else { continue }
                        outcome = moveOutcome
                    } else {
                        outcome = work.send("crown", detents: step.detents)
                    }
                    guard outcome.moved, let now = work.slot(.main) else { continue }
                    let nowId = work.store.slots[now].id
                    let nowKey = key(nowId, work.remembered)
                    guard positions[nowKey] == nil else { continue }
                    positions[nowKey] = Position(id: nowId, parent: hereKey, step: stepIndex, memory: work.remembered,
                                                 scrolls: work.store.scrolls, frame: work.store.frame(now))
                    reachedIds.insert(nowId)
                    queue.append(nowKey)
                    if nowId == targetId { foundKey = nowKey; break search }
                    if reachedIds.count >= planPositionLimit || positions.count >= planPositionLimit { truncated = true; break search }
                }
            }
            var end = foundKey ?? ""
            var nearest: String?
            if foundKey == nil {
                // The reachable node nearest to the target (content frames; ties in visiting order).
                var probe = self
                var goalFrame: Rect?
                if let slot = probe.store.idToSlot[targetId] { goalFrame = probe.store.frame(slot) }
                else if let (collection, index) = probe.store.parseVirtual(targetId), let index, let slot = probe.store.item(collection, index) { goalFrame = probe.store.frame(slot) }
                let goal = goalFrame.map { ($0.x + $0.width / 2, $0.y + $0.height / 2) } ?? (0, 0)
                var best: (Double, String)?
                for key in queue {
                    guard let position = positions[key], !position.id.isEmpty, let frame = position.frame else { continue }
                    let dx = frame.x + frame.width / 2 - goal.0, dy = frame.y + frame.height / 2 - goal.1
                    let distanceSquared = dx * dx + dy * dy
                    if best == nil || distanceSquared < best!.0 { best = (distanceSquared, key) }
                }
                guard let best else {
                    return (PathPlan(commands: [], through: [], reachable: false, nearest: nil, visited: queue.count), truncated)
                }
                end = best.1
                nearest = positions[end]?.id
            }
            var commands: [String] = [], through: [String] = []
            var cursor = end
            while let position = positions[cursor], let parent = position.parent {
                commands.append(Self.planSteps[position.step].command)
                through.append(position.id)
                cursor = parent
            }
            return (PathPlan(commands: commands.reversed(), through: through.reversed(), reachable: foundKey != nil,
                             nearest: nearest, visited: queue.count), truncated)
        }
        // Exact first; a scene whose memories multiply past the budget is planned over nodes alone,
        // as short as the first way to each node allows.
        let exact = search(withMemory: true)
        guard exact.truncated, !exact.plan.reachable else { return exact.plan }
        return search(withMemory: false).plan
    }
}
