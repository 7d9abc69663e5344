// Why a directional move went where it did (focus.md §2), for `focusctl why` and
// `io.focusd.Inspect.ExplainMove`. An additive piece beside `DirectionalSearch.swift`: the winner of
// each container and the landing node come from the engine's own `search(in:from:input:)` and
// `enter(_:input:)`, and every candidate is measured with the same `Measure` and filtered with the
// same `BestTargets.accepts`, so the explanation cannot name a node the engine would not choose
// (a property test runs both on random scenes).

/// One target a directional search considered: a candidate, or a section's frame competing as one.
public struct ExplainedCandidate: Hashable, Sendable {
    /// The candidate's (or section's) id.
    public var id: String
    /// True when this is a section's frame (entered by the entering rules when it wins).
    public var section: Bool
    /// The frame `d` of focus.md §2 that competed (clipped to the viewports it is seen through, §12).
    public var frame: Rect
    /// *In direction* from the source frame (focus.md §2).
    public var inDirection: Bool
    /// *In beam*: overlapping the source frame on the cross axis (focus.md §2).
    public var inBeam: Bool
    /// *Fully beyond* the source frame's leading edge in the move's direction (focus.md §2).
    public var fullyBeyond: Bool
    /// `major`: the gap to the near edge in the move's direction, at least 0 (focus.md §2).
    public var major: Double
    /// `majorFar`: the distance to the far edge in the move's direction, at least 1 (focus.md §2).
    public var majorFar: Double
    /// `minor`: the distance between the centres on the cross axis (focus.md §2).
    public var minor: Double
    /// `score = 13·major² + minor²`: lower is better (focus.md §2).
    public var score: Double

    /// A value with every field (FocusWire decodes it through this).
    public init(
        id: String, section: Bool, frame: Rect, inDirection: Bool, inBeam: Bool, fullyBeyond: Bool, major: Double,
        majorFar: Double, minor: Double, score: Double
    ) {
        self.id = id
        self.section = section
        self.frame = frame
        self.inDirection = inDirection
        self.inBeam = inBeam
        self.fullyBeyond = fullyBeyond
        self.major = major
        self.majorFar = majorFar
        self.minor = minor
        self.score = score
    }
}

/// One container searched, innermost first.
public struct SearchedContainer: Hashable, Sendable {
    /// The container's id.
    public var id: String
    /// `section`, `modal` (the bound), `root`, or `scene` (nothing focused: the whole scene).
    public var kind: String
    /// True for the second search of a `wrap` section, from `source` moved past its opposite edge.
    public var wrapped: Bool
    /// The frame searched from.
    public var source: Rect
    /// The targets in direction (under `tvos` only those in beam compete), best first: by the
    /// engine's order (best in beam, best out of beam, beam-beats, score, tree order).
    public var candidates: [ExplainedCandidate]
    /// Targets in direction left out of `candidates` by the caller's limit.
    public var omitted: Int
    /// Targets inside the container not considered: not in direction (under `tvos`, or not in beam).
    public var notConsidered: Int
    /// The engine's winner here, if any.
    public var winner: String?
    /// Why the winner beat the runner-up: `only candidate`, `beam beats`, `score`, `tree order`;
    /// or why nothing won: `no candidate in direction`, `no candidate in beam (tvos)`.
    public var rule: String

    /// A value with every field (FocusWire decodes it through this).
    public init(
        id: String, kind: String, wrapped: Bool, source: Rect, candidates: [ExplainedCandidate], omitted: Int,
        notConsidered: Int, winner: String? = nil, rule: String
    ) {
        self.id = id
        self.kind = kind
        self.wrapped = wrapped
        self.source = source
        self.candidates = candidates
        self.omitted = omitted
        self.notConsidered = notConsidered
        self.winner = winner
        self.rule = rule
    }
}

/// The explanation of one directional move.
public struct MoveExplanation: Hashable, Sendable {
    /// The move explained (up, down, left or right).
    public var direction: Direction
    /// The node focus moved from (nil: nothing focused).
    public var from: String?
    /// The source frame `s` of focus.md §2.
    public var source: Rect?
    /// The scene's search policy (focus.md §2).
    public var policy: SearchPolicy
    /// A `next` entry for the direction, when the focused node has one (it wins over the search).
    public var override: String?
    /// The containers searched, innermost first, up to the one that gave a winner.
    public var containers: [SearchedContainer]
    /// The search's winner (a candidate or a section's frame) before the entering rules.
    public var winner: String?
    /// Where focus lands (nil: the move is blocked).
    public var result: String?
    /// The rule that decided where focus lands: `override (next)`, `search`, `entering:
    /// remembersLastFocus`, `entering: defaultFocus (userInitiated)`, `entering: best in direction`,
    /// `entering: first in sequence`, `default focus (nothing focused, tvos)`, or `blocked`.
    public var decidedBy: String
    /// Why nothing was found, when the move is blocked.
    public var reason: String?

    /// A value with every field (FocusWire decodes it through this).
    public init(
        direction: Direction, from: String? = nil, source: Rect? = nil, policy: SearchPolicy, override: String? = nil,
        containers: [SearchedContainer], winner: String? = nil, result: String? = nil, decidedBy: String,
        reason: String? = nil
    ) {
        self.direction = direction
        self.from = from
        self.source = source
        self.policy = policy
        self.override = override
        self.containers = containers
        self.winner = winner
        self.result = result
        self.decidedBy = decidedBy
        self.reason = reason
    }
}

/// Scroll offsets kept from before a move (`SceneSession.scrollMemory`), to explain it later.
public struct ScrollMemory: Hashable, Sendable {
    var offsets: [Int: ScrollOffsetXY]
}

extension SceneSession {
    /// Section id → its last focused descendant (remembersLastFocus), as moves use it; a service
    /// keeps the value from before a move to explain that move later.
    public var sectionMemory: [String: String] { remembered }

    /// The scroll containers' offsets, as moves measure clipped frames with them; a service keeps
    /// the value from before a move to explain that move later (a move into a rail scrolls it).
    public var scrollMemory: ScrollMemory { ScrollMemory(offsets: store.scrolls) }

    /// Whether the scene has a node `id` (any node, candidate or not).
    public func contains(node id: String) -> Bool { store.slot(id) != nil }

    /// Explains a directional move in `direction` from the current focus without moving it (a
    /// sequential direction throws `.invalidParameter("direction")`). `limit` caps the candidates
    /// listed per container (the best are kept; the winner always is).
    public func explainMove(_ direction: Direction, limit: Int = 50) throws(FocusError) -> MoveExplanation {
        try explainMove(direction, from: focusedId, limit: limit)
    }

    /// Explains a move in `direction` as if `from` held focus and the sections remembered `memory`
    /// (a past move: where it started and `sectionMemory` before it; nil: the memory as it is now).
    ///
    /// `scrolls`: the scroll offsets before that move (nil: as they are now); offsets of containers
    /// no longer in the scene are ignored.
    public func explainMove(
        _ direction: Direction, from: String?, memory: [String: String]? = nil, scrolls: ScrollMemory? = nil,
        limit: Int = 50
    ) throws(FocusError) -> MoveExplanation {
        guard direction.isDirectional else { throw .invalidParameter(parameter: "direction") }
        var store = self.store  // searches keep scratch state; the session itself is not touched
        if let scrolls {
            // Scrolling moves the content's frames: set each offset as the engine scrolls.
            for (container, offset) in scrolls.offsets where store.scrolls[container] != nil { store.setOffset(container, x: offset.x, y: offset.y) }
        }
        var out = MoveExplanation(direction: direction, from: nil, source: nil, policy: store.policy,
                                  containers: [], decidedBy: "blocked")
        var focused: Int?
        if let from {
            guard let slot = store.slot(from) else { throw .noSuchNode(id: from) }
            if store.isCandidate(slot) { focused = slot; out.from = from }
        }
        if focused == nil && store.policy == .tvos {
            if let defaultSlot = store.defaultTarget(at: store.root) {
                out.result = store.slots[defaultSlot].id
                out.decidedBy = "default focus (nothing focused, tvos)"
            } else {
                out.reason = "nothing is focused and the scene has no candidate"
            }
            return out
        }
        let source: Rect
        if let focused, let focusedFrame = store.frame(focused) {
            source = focusedFrame
        } else {
            let rootFrame = store.frame(store.root) ?? store.candUnion(store.root) ?? Rect(x: 0, y: 0, width: 0, height: 0)
            source = direction == .right || direction == .down
                ? Rect(x: rootFrame.minX, y: rootFrame.minY, width: 0, height: 0) : Rect(x: rootFrame.maxX, y: rootFrame.maxY, width: 0, height: 0)
        }
        out.source = source
        let input = MoveInput(focused: focused, source: source, direction: direction, strategy: searchStrategy,
                              remembered: memory ?? remembered)
        let modal = focused.flatMap { store.innermostModal($0) }
        if let focused, store.slots[focused].hasNext, let target = store.node(focused).next?[direction.rawValue] {
            out.override = target
            let result = store.directionalMove(input)
            if case .focus(let landedSlot) = result {
                out.result = store.slots[landedSlot].id
                out.decidedBy = "override (next)"
            } else {
                out.reason = target.isEmpty ? "the focused node's `next` entry for \(direction.rawValue) is empty: it blocks"
                    : store.idToSlot[target] == nil ? "the `next` target \(target) does not exist"
                    : modal.map { !store.isInside(store.idToSlot[target]!, $0) } == true
                        ? "the `next` target \(target) is outside the modal node \(store.slots[modal!].id)"
                    : "the `next` target \(target) is not a candidate"
            }
            return out
        }
        // The containers, as `directionalMove` climbs them.
        var next: Int? = focused ?? store.root
        var winner: Int?
        while let container = next, winner == nil {
            next = focused == nil || container == modal ? nil : store.slots[container].parent
            if next == -1 { next = nil }
            guard focused == nil || store.isSection(container) || container == modal || container == store.root else { continue }
            let kind = focused == nil ? "scene" : container == store.root ? "root" : store.isSection(container) ? "section" : "modal"
            let found = store.search(in: container, from: source, input: input)
            var searched = store.explainSearch(in: container, from: source, input: input, winner: found, limit: limit)
            searched.kind = kind
            out.containers.append(searched)
            if let found { winner = found; break }
            if store.isSection(container), store.slots[container].wraps, let axis = store.node(container).wrap,
               let box = store.targetFrame(container) ?? store.frame(container) {
                let applies = switch axis {
                case .both: true
                case .horizontal: direction.isHorizontal
                case .vertical: !direction.isHorizontal
                }
                if applies {
                    var wrappedSource = source
                    switch direction {
                    case .left: wrappedSource.x = box.maxX
                    case .right: wrappedSource.x = box.minX - wrappedSource.width
                    case .up: wrappedSource.y = box.maxY
                    default: wrappedSource.y = box.minY - wrappedSource.height
                    }
                    let found = store.search(in: container, from: wrappedSource, input: input)
                    var again = store.explainSearch(in: container, from: wrappedSource, input: input, winner: found, limit: limit)
                    again.kind = kind
                    again.wrapped = true
                    out.containers.append(again)
                    if let found { winner = found }
                }
            }
        }
        guard let winner else {
            out.reason = modal.map { "nothing in direction \(direction.rawValue) inside the modal node \(store.slots[$0].id)" }
                ?? "nothing in direction \(direction.rawValue) in any container up to the root"
            return out
        }
        out.winner = store.slots[winner].id
        let landed = store.enter(winner, input: input)
        guard case .focus(let landedSlot) = landed, landedSlot != focused else {
            out.reason = "the section \(store.slots[winner].id) won but holds no candidate to enter"
            return out
        }
        out.result = store.slots[landedSlot].id
        out.decidedBy = store.enteringRule(winner: winner, landed: landedSlot, input: input)
        return out
    }
}

extension SceneStore {
    /// The targets a search in `container` from `source` measures, with the engine's filter and order;
    /// `winner` is the engine's own choice (listed first; the rule compares it with the runner-up).
    func explainSearch(in container: Int, from source: Rect, input: MoveInput, winner: Int?, limit: Int) -> SearchedContainer {
        let dir = input.direction
        let isRoot = container == root
        var result = SearchedContainer(id: slots[container].id, kind: "", wrapped: false, source: source, candidates: [],
                                       omitted: 0, notConsidered: 0, winner: nil, rule: "")
        // The frames the search measures: clipped to the scroll containers' viewports while focus is
        // outside them (focus.md §12), as `search(in:)` does.
        let clip = scrollClip(focused: input.focused)
        let filter = BestTargets(slots: slots, frames: index.frame, s: CanonRect(source, dir), direction: dir,
                                 focused: input.focused ?? -1, container: container, isRoot: isRoot, clip: clip)
        let canonSource = CanonRect(source, dir)
        var listed: [Scored] = []
        if isRoot || reach(container) != nil {
            index.forEachFiled { slot in
                guard filter.accepts(slot) else { return }
                var frame = filedSceneFrame(slot)
                if let clip { guard let visible = clip.effective(slots, slot, frame) else { return }; frame = visible }
                let measure = Measure(s: canonSource, d: CanonRect(frame, dir))
                if !measure.inDirection { result.notConsidered += 1; return }
                if policy == .tvos && !measure.inBeam { result.notConsidered += 1; return }
                listed.append(Scored(slot: slot, measure: measure))
            }
        }
        // Best first: the engine's combination of the best in beam and best out of beam, repeated.
        let horizontal = dir.isHorizontal
        func better(_ lhs: Scored, _ rhs: Scored) -> Bool {
            if lhs.measure.inBeam == rhs.measure.inBeam {
                return rhs.isBeaten(by: lhs.slot, lhs.measure, slots: slots)
            }
            let beam = lhs.measure.inBeam ? lhs : rhs, out = lhs.measure.inBeam ? rhs : lhs
            let combined = Winner.combine(beam: beam, out: out, horizontal: horizontal, precedes: precedes)
            return combined?.slot == lhs.slot
        }
        listed.sort(by: better)
        if let winner, let position = listed.firstIndex(where: { $0.slot == winner }), position > 0 {
            listed.insert(listed.remove(at: position), at: 0)
        }
        if listed.isEmpty {
            result.rule = policy == .tvos ? "no candidate in direction and in beam (tvos)" : "no candidate in direction"
        } else {
            result.winner = slots[listed[0].slot].id
            if listed.count == 1 {
                result.rule = "only candidate"
            } else {
                let first = listed[0].measure, second = listed[1].measure
                result.rule = first.inBeam != second.inBeam && Winner.beamBeats(first, second, horizontal: horizontal) ? "beam beats"
                    : first.score < second.score ? "score" : "tree order"
            }
        }
        result.omitted = max(0, listed.count - max(limit, 1))
        result.candidates = listed.prefix(max(limit, 1)).map { sc in
            let frame = filedSceneFrame(sc.slot)
            let canonFrame = CanonRect(frame, dir)
            let minor = abs((canonFrame.t + (canonFrame.b - canonFrame.t) / 2) - (canonSource.t + (canonSource.b - canonSource.t) / 2))
            return ExplainedCandidate(
                id: slots[sc.slot].id, section: !slots[sc.slot].candidate, frame: frame,
                inDirection: sc.measure.inDirection, inBeam: sc.measure.inBeam, fullyBeyond: sc.measure.fullyBeyond,
                major: sc.measure.major, majorFar: sc.measure.majorFar, minor: minor, score: sc.measure.score)
        }
        return result
    }

    /// Which entering rule (focus.md §2) put focus on `landed` after `winner` won.
    func enteringRule(winner: Int, landed: Int, input: MoveInput) -> String {
        var outermost: Int?
        var ancestor = winner
        while ancestor >= 0 {
            if let focused = input.focused, isInside(focused, ancestor) { break }
            if slots[ancestor].section || slots[ancestor].userDefault { outermost = ancestor }
            ancestor = slots[ancestor].parent
        }
        if let outer = outermost {
            if isSection(outer), slots[outer].remembers, input.remembered[slots[outer].id] == slots[landed].id {
                return "entering: remembersLastFocus of \(slots[outer].id)"
            }
            if slots[outer].userDefault, landed != winner || !isCandidate(winner) {
                if node(outer).defaultFocus?.priority == .userInitiated, boundCandidate(node(outer).defaultFocus!, inside: outer) == landed {
                    return "entering: defaultFocus (userInitiated) of \(slots[outer].id)"
                }
            }
        }
        if landed == winner { return "search" }
        let canonSource = CanonRect(input.source, input.direction)
        let measure = Measure(s: canonSource, d: CanonRect(frame(landed) ?? input.source, input.direction))
        return measure.inDirection ? "entering: best in direction inside \(slots[winner].id)"
            : "entering: first in sequence inside \(slots[winner].id)"
    }
}
