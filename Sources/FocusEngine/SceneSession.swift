// The public face of the engine: one scene and its focus state, changed only through mutating
// calls that each return an `Outcome` (events, warnings, whether focus moved / the command was
// consumed). A value type with no I/O and no clock: the same calls give the same results.
//
// API CONTRACT (shared by FocusService and focusctl): the signatures below are fixed; the bodies
// are filled in by the engine work.

/// Limits applied to scenes (service.md §2).
public struct Limits: Hashable, Sendable {
    public var maxNodes: Int
    public var maxDepth: Int
    public var lintMaxCandidates: Int

    public init(maxNodes: Int = 100_000, maxDepth: Int = 100, lintMaxCandidates: Int = 20_000) {
        self.maxNodes = maxNodes
        self.maxDepth = maxDepth
        self.lintMaxCandidates = lintMaxCandidates
    }
}

/// What one call did.
public struct Outcome: Hashable, Sendable {
    /// The events of the call, in order, already stamped with the scene name and revision.
    public var events: [Event]
    /// Human-readable warnings (ambiguous bindings, ...), for the reply and the log.
    public var warnings: [String]
    /// `Move`: focus changed (on the track the move was on).
    public var moved: Bool
    /// `Send`: the engine acted on the command (moved, activated, edited, focused search).
    public var consumed: Bool

    public init(events: [Event] = [], warnings: [String] = [], moved: Bool = false, consumed: Bool = false) {
        self.events = events
        self.warnings = warnings
        self.moved = moved
        self.consumed = consumed
    }
}

/// How directional search finds its winner. Both must choose the same node for every move; the
/// brute-force scan exists as the oracle for tests and as the baseline for the benchmark.
public enum SearchStrategy: Hashable, Sendable {
    /// The spatial index (the default).
    case spatialIndex
    /// Score every candidate (tests and benchmarks only).
    case bruteForce
}

/// One scene with its focus state (both tracks), bindings, remembered section focus and revision.
///
/// Decisions where focus.md is silent (a demanding tvOS developer's expectations):
/// - Events of one call come in this order: `scene` (replace/update only), `focus` (main track, then
///   accessibility), `bindings` (main, then accessibility), `values`. `blocked`, `activate`, `edit`
///   and `command` come alone and carry the current revision; every other call that changes
///   anything bumps the revision once and stamps all its events with the new one.
/// - A call that changes nothing (focusing the focused node, a no-op binding write, a reset that
///   lands where focus already is) emits nothing and keeps the revision.
/// - The revision of a new session is 1.
/// - The accessibility track has no default focus; when its node stops being a candidate it is
///   dismissed (no re-evaluation), and `next` overrides apply to it as to the main track.
/// - A blocked move sent as a command emits `blocked` only (no `command` event), not consumed.
/// - `crown` without detents does nothing; N detents move up to N steps, stopping at the end of the
///   innermost section (or modal node) holding focus unless the profile wraps; one `focus` event
///   from the start to the end node, cause `crown`.
/// - Directional winner: see `Winner` (best in-beam and best out-of-beam by score, then the
///   beam-beats rule between the two), which equals "better than" whenever one candidate beats all.
/// - A section competes only when it is not disabled and holds a candidate; a frameless section
///   competes with the union of its descendants' frames. The focused node never wins its own move.
/// - Modal nodes are units of the sequential order like sections (so the cycle inside one is
///   contiguous); the crown's range is the innermost section or modal node holding focus.
/// - With nothing focused under `tvos`, a directional move focuses the default target with cause
///   `defaultFocus`; `android` searches from the corner of the root's frame (or of the candidates'
///   union when the root has none).
/// - Programmatic `focus` of the focused node, and `resetFocus` landing where focus is, are no-ops.
/// - A value binding set to a node that is not a candidate is `.notFocusable`; setting a Bool
///   binding true while it reads true is a no-op (even when a descendant, not the node, has focus).
/// - Ambiguous bindings warn on `replace` (all of them), on `update` (names the patch carries) and
///   on the `setBinding` that resolves them.
/// - `state(active:)` lists bindings in tree order of first appearance (the first holder of each
///   name is kept up to date by the store, so the cost grows with the number of names).
public struct SceneSession: Sendable {
    var store: SceneStore
    var focusedId: String?
    var a11yId: String?
    /// Section id → last focused descendant id (remembersLastFocus).
    var remembered: [String: String] = [:]
    var currentRevision = 1
    /// The slots that last held focus on each track (checked against the ids before use).
    var hints: (main: Int, accessibility: Int) = (-1, -1)
    /// A focus change of a structural change whose `materialize`/`scroll` events follow its values.
    var pendingItemEvents: (slot: Int, cause: Cause)?

    /// Validates `scene` and evaluates default focus at the root (focus.md §4).
    /// Throws `.invalidScene` / `.tooManyNodes`; nothing is created on error.
    public init(scene: Scene, limits: Limits = Limits()) throws(FocusError) {
        store = try SceneStore(scene: scene, limits: limits)
        if let t = store.defaultTarget(at: store.root) {
            focusedId = store.slots[t].id
            hints.main = t
            remember(t)
            // The initial default focus scrolls too (focus.md §12), without events.
            _ = store.scrollToShow(t)
        }
        collectVirtuals()
    }

    /// Which search directional moves use; `.spatialIndex` unless a test or benchmark says otherwise.
    public var searchStrategy: SearchStrategy = .spatialIndex

    /// The scene's name.
    public var name: String { store.name }

    /// The scene as last installed (after updates), for clients that draw it (rebuilt on each call).
    public var scene: Scene { store.sceneValue }

    /// How many nodes the scene holds.
    public var nodeCount: Int { store.nodeCount }

    /// Whether a node with this id is in the scene.
    public func contains(_ id: String) -> Bool { store.idToSlot[id] != nil }

    /// The current revision (bumped once by every call that changes the state).
    public var revision: Int { currentRevision }

    /// The limits that later replacements and updates of this scene are checked against (a
    /// config reload changes them; the scene as installed stays, even when it exceeds them).
    public var limits: Limits {
        get { store.limits }
        set { store.limits = newValue }
    }

    /// The state as `FocusState`; `active` is the service's to say.
    public func state(active: Bool) -> FocusState {
        let f = slot(.main), a = slot(.accessibility)
        return FocusState(
            scene: store.name, active: active, focused: focusedId,
            path: f.map { store.path($0).map { store.slots[$0].id } } ?? [],
            bindings: orderedReads(.main, focus: f),
            focusedValues: focusedValues(f), sceneValues: sceneValues(),
            focusEffectEnabled: effectEnabled(f),
            accessibilityFocused: a11yId, accessibilityBindings: orderedReads(.accessibility, focus: a),
            scroll: store.sortedInTreeOrder(store.scrolls.keys).map {
                ScrollOffset(node: store.slots[$0].id, offsetX: store.scrolls[$0]!.x, offsetY: store.scrolls[$0]!.y)
            },
            revision: currentRevision)
    }

    /// A warning for every ambiguous binding of the scene as it stands (a new scene's `SetScene`
    /// reply carries them, as a replacement's does), sorted.
    public func ambiguityWarnings() -> [String] {
        store.bindings.pairs.compactMap { pair, set in
            set.count > 1 ? ambiguity(name: pair.name, value: pair.value, store.sortedInTreeOrder(set)) : nil
        }.sorted()
    }

    /// The `role` of the node holding main focus, if any (typing keys are unmapped for search/text).
    public var focusedRole: String? { slot(.main).flatMap { store.node($0).role } }

    /// True when the node holding main focus has the `edit` interaction (the crown edits it).
    public var focusedIsEditable: Bool {
        slot(.main).map { store.node($0).interactions?.contains(.edit) ?? false } ?? false
    }

    /// The id of the node holding focus on `track` (nil when dismissed).
    public func focused(on track: Track = .main) -> String? { track == .main ? focusedId : a11yId }

    /// `SetScene` on an existing scene: replace the tree; focus is kept when its node survives as a
    /// candidate, else re-evaluated as for a removed node. On error nothing changes.
    public mutating func replace(with scene: Scene) throws(FocusError) -> Outcome {
        let newStore = try SceneStore(scene: scene, limits: store.limits, clampIds: scrollIds())
        let before = snapshot()
        store = newStore
        return afterStructuralChange(before)
    }

    /// `UpdateScene`: upsert subtrees, then remove ids. On error nothing changes.
    ///
    /// A patch whose node id exists replaces that node (and its subtree); without `index` it keeps
    /// its place when `parent` is its current parent, else it goes last. An `index` past the last
    /// child means last; a negative one is `.invalidParameter("upsert")`. Unknown parents and
    /// removed ids are `.noSuchNode`; the root can only be replaced by `replace(with:)`.
    public mutating func update(upsert: [NodePatch], remove: [String]) throws(FocusError) -> Outcome {
        // Applied in place (no copy of the scene) with an undo log, so a failing patch restores
        // exactly the tree as it was; a single-node update costs O(size of the change × depth).
        // An insert logs whether its parent had `children` at all, since undoing a later removal
        // of that parent brings it back with the inserted child, and only this restores
        // `children` absent rather than `[]`.
        enum Undo { case inserted(String, parent: String, parentHadChildren: Bool); case removed(Node, parent: String, index: Int) }
        let before = snapshot()
        store.clampIds = scrollIds()
        defer { store.clampIds = [] }
        var log: [Undo] = []
        // New nodes go last in their parent at once; where one asked for an earlier index, the
        // parent's children are put in the right order once, before anything reads the order
        // (`flushOrder`): inserting at an index shifts every later sibling, so many inserts among
        // many siblings would cost their product.
        var pendingOrder: [Int: [(slot: Int, position: Int?)]] = [:]
        var reorderedNames: (Set<String>, Set<String>) = ([], [])
        func flushOrder() {
            guard !pendingOrder.isEmpty else { return }
            for (parent, inserts) in pendingOrder { store.reorderChildren(parent, inserts: inserts) }
            pendingOrder.removeAll()
            store.refreshFirstHolders(reorderedNames.0, accessibility: reorderedNames.1)
            reorderedNames = ([], [])
        }
        do throws(FocusError) {
            var check: [String] = []
            func removeLogged(_ s: Int) {
                let p = store.slots[s].parent
                log.append(.removed(store.buildNode(s), parent: store.slots[p].id, index: store.slots[s].indexInParent))
                check += store.removeSubtree(s)
            }
            for p in upsert {
                if let index = p.index, index < 0 { throw .invalidParameter(parameter: "upsert") }
                guard var parent = store.idToSlot[p.parent] else { throw .noSuchNode(id: p.parent) }
                var position = p.index
                if store.idToSlot[p.node.id] == nil {
                    // A new node: appended now, put in its place by flushOrder.
                    let count = store.slots[parent].children.count
                    try store.validateInsert(p.node, parent: parent)
                    try store.validatePlacements(p.node, parent: parent)
                    let parentHadChildren = store.slots[parent].hadChildren
                    let slot = try store.insertSubtree(p.node, parent: parent, at: count)
                    log.append(.inserted(p.node.id, parent: p.parent, parentHadChildren: parentHadChildren))
                    // A collection keeps its children in `index` order whatever the position.
                    if store.collections[parent] == nil, pendingOrder[parent] != nil || (position ?? count) < count {
                        pendingOrder[parent, default: []].append((slot, position))
                        var stack = [p.node]
                        while let n = stack.popLast() {
                            for b in n.bindings ?? [] { reorderedNames.0.insert(b.name) }
                            for b in n.accessibilityBindings ?? [] { reorderedNames.1.insert(b.name) }
                            stack += n.children ?? []
                        }
                    }
                    var stack = [p.node]
                    while let n = stack.popLast() {
                        check += (n.next ?? [:]).values.filter { !$0.isEmpty }
                        stack += n.children ?? []
                    }
                    continue
                }
                flushOrder()
                if let existing = store.idToSlot[p.node.id] {
                    if existing == store.root {
                        throw .invalidScene(reason: "the root cannot be replaced by an update; set the scene instead", node: p.node.id)
                    }
                    if store.isInside(parent, existing) {
                        throw .invalidScene(reason: "parent '\(p.parent)' lies inside the node it would receive", node: p.node.id)
                    }
                    if position == nil, store.slots[existing].parent == parent { position = store.slots[existing].indexInParent }
                    removeLogged(existing)
                    parent = store.idToSlot[p.parent]!
                }
                try store.validateInsert(p.node, parent: parent)
                try store.validatePlacements(p.node, parent: parent)
                let parentHadChildren = store.slots[parent].hadChildren
                try store.insertSubtree(p.node, parent: parent, at: position ?? store.slots[parent].children.count)
                log.append(.inserted(p.node.id, parent: p.parent, parentHadChildren: parentHadChildren))
                var stack = [p.node]
                while let n = stack.popLast() {
                    check += (n.next ?? [:]).values.filter { !$0.isEmpty }
                    stack += n.children ?? []
                }
            }
            flushOrder()
            // Removals: checked in order as if one by one (an id inside one removed before is
            // gone: NoSuchNode), then done as one batch, unless one removed node lies inside
            // another removed later (rare: then one by one).
            var tops: [Int] = []
            var removing = Set<Int>()
            var nested = false
            for id in remove {
                guard let s = store.idToSlot[id], !removing.contains(s) else { throw .noSuchNode(id: id) }
                if s == store.root { throw .invalidScene(reason: "the root cannot be removed", node: id) }
                var a = store.slots[s].parent
                while a >= 0 {
                    if removing.contains(a) { throw .noSuchNode(id: id) }
                    a = store.slots[a].parent
                }
                removing.insert(s)
                tops.append(s)
            }
            for s in tops {
                var a = store.slots[s].parent
                while a >= 0 && !nested {
                    if removing.contains(a) { nested = true }
                    a = store.slots[a].parent
                }
            }
            if nested {
                for s in tops { removeLogged(s) }
            } else if !tops.isEmpty {
                // Logged so that undoing (last entry first) puts siblings back lowest index first.
                let ordered = tops.sorted {
                    let (a, b) = (store.slots[$0], store.slots[$1])
                    return a.parent != b.parent ? a.parent < b.parent : a.indexInParent > b.indexInParent
                }
                for s in ordered {
                    log.append(.removed(store.buildNode(s), parent: store.slots[store.slots[s].parent].id, index: store.slots[s].indexInParent))
                }
                check += store.removeSubtrees(tops)
            }
            for id in check where (store.nextRefs[id] ?? 0) > 0 && store.idToSlot[id] == nil {
                throw .invalidScene(reason: "next target '\(id)' does not exist", node: store.referrer(of: id))
            }
        } catch {
            pendingOrder.removeAll()  // the inserted nodes go again; the others kept their order
            // Runs of inserted nodes go as one batch (one by one, undoing a patch of 99,000
            // inserts that failed at its end would shift the siblings 99,000 times).
            var run: [String] = []
            // Whether each inserted node's parent had `children` before it (applied in log order
            // reversed, so the earliest insert into a parent, applied last, wins).
            var restoreChildren: [(parent: String, hadChildren: Bool)] = []
            func undoInserted() {
                guard !run.isEmpty else { return }
                let slots = Set(run.compactMap { store.idToSlot[$0] })
                let tops = slots.filter { s in
                    var a = store.slots[s].parent
                    while a >= 0 {
                        if slots.contains(a) { return false }
                        a = store.slots[a].parent
                    }
                    return true
                }
                store.removeSubtrees(Array(tops))
                run.removeAll()
                for (parent, hadChildren) in restoreChildren {
                    if let p = store.idToSlot[parent] { store.slots[p].hadChildren = hadChildren }
                }
                restoreChildren.removeAll()
            }
            for u in log.reversed() {
                switch u {
                case .inserted(let id, let parent, let parentHadChildren):
                    run.append(id)
                    restoreChildren.append((parent, parentHadChildren))
                case .removed(let node, let parent, let index):
                    undoInserted()
                    _ = try? store.insertSubtree(node, parent: store.idToSlot[parent]!, at: index)
                }
            }
            undoInserted()
            throw error
        }
        var names = Set<BindingRegistry.Pair>()
        for p in upsert {
            var stack = [p.node]
            while let n = stack.popLast() {
                names.formUnion((n.bindings ?? []).map { BindingRegistry.Pair(name: $0.name, value: $0.value) })
                stack += n.children ?? []
            }
        }
        return afterStructuralChange(before, warnFor: names)
    }

    /// `Move`. A directional move on the accessibility track throws `.invalidParameter("direction")`.
    public mutating func move(
        _ direction: Direction, wrap: Bool? = nil, track: Track = .main, device: String? = nil
    ) throws(FocusError) -> Outcome {
        if !direction.isDirectional {
            return sequentialMove(forward: direction == .next, wrap: wrap, track: track, crown: false,
                                  steps: 1, cause: Cause(kind: .sequential, direction: direction, device: device))
        }
        if track == .accessibility { throw .invalidParameter(parameter: "direction") }
        let cause = Cause(kind: .directional, direction: direction, device: device)
        let f = slot(.main)
        defer { collectVirtuals() }
        if f == nil && store.policy == .tvos {
            guard let t = store.defaultTarget(at: store.root) else { return blocked(cause) }
            return changeFocus(to: t, track: .main, cause: Cause(kind: .defaultFocus, direction: direction, device: device))
        }
        let source: Rect
        if let f, let r = store.frame(f) {
            source = r
        } else {
            let r = store.frame(store.root) ?? store.candUnion(store.root) ?? Rect(x: 0, y: 0, width: 0, height: 0)
            source = direction == .right || direction == .down
                ? Rect(x: r.minX, y: r.minY, width: 0, height: 0) : Rect(x: r.maxX, y: r.maxY, width: 0, height: 0)
        }
        let result = store.directionalMove(MoveInput(
            focused: f, source: source, direction: direction, strategy: searchStrategy, remembered: remembered))
        switch result {
        case .focus(let t) where t != f: return changeFocus(to: t, track: .main, cause: cause)
        default: return blocked(cause)
        }
    }

    /// `Focus`: programmatic focus; nil dismisses. `.noSuchNode` / `.notFocusable`.
    public mutating func focus(_ id: String?, track: Track = .main) throws(FocusError) -> Outcome {
        let cause = Cause(kind: .programmatic)
        guard let id else { return changeFocus(to: nil, track: track, cause: cause) }
        if store.idToSlot[id] == nil, let (c, i) = store.parseVirtual(id) {
            // A virtual id (focus.md §12): the built node when its index is built.
            guard let i, i < (store.collections[c]?.spec.count ?? 0) else { throw .noSuchNode(id: id) }
            guard let s = store.item(c, i) else { throw .notFocusable(id: id) }
            return changeFocus(to: s, track: track, cause: cause)
        }
        guard let s = store.idToSlot[id] else { throw .noSuchNode(id: id) }
        guard store.isCandidate(s) else { throw .notFocusable(id: id) }
        return changeFocus(to: s, track: track, cause: cause)
    }

    /// `ScrollTo` (focus.md §12): sets a scroll container's offset, clamped; focus does not move.
    /// A node that is not a scroll container is `.noSuchNode`; a change emits a `scroll` event with
    /// cause `programmatic`, no change emits nothing and keeps the revision.
    public mutating func scrollTo(_ id: String, offsetX: Double, offsetY: Double) throws(FocusError) -> Outcome {
        guard let c = store.idToSlot[id], store.scrolls[c] != nil else { throw .noSuchNode(id: id) }
        guard offsetX.isFinite else { throw .invalidParameter(parameter: "offsetX") }
        guard offsetY.isFinite else { throw .invalidParameter(parameter: "offsetY") }
        guard store.setOffset(c, x: offsetX, y: offsetY) else { return Outcome() }
        return Outcome(events: stamp([scrollEvent(c, cause: Cause(kind: .programmatic))]))
    }

    /// The offset of scroll container `id` (nil when it is none).
    public func scrollOffset(of id: String) -> (x: Double, y: Double)? {
        store.idToSlot[id].flatMap { store.scrolls[$0] }.map { ($0.x, $0.y) }
    }

    /// `SetBinding` (focus.md §5): Bool bindings take `isTrue`, value bindings take `value`.
    ///
    /// Setting a Bool binding true while it already reads true (focus inside its node) is a no-op;
    /// a Bool binding whose node is not a candidate focuses the default target evaluated at the node
    /// (`.notFocusable` when there is none); a value bound to a node that is not a candidate is
    /// `.notFocusable`.
    public mutating func setBinding(
        name: String, isTrue: Bool?, value: String?, track: Track = .main
    ) throws(FocusError) -> Outcome {
        let reg = track == .main ? store.bindings : store.a11yBindings
        guard let holders = reg.nodes[name] else { throw .noSuchBinding(name: name, value: value) }
        let cur = slot(track)
        let cause = Cause(kind: .binding)
        if reg.isBool(name) {
            let ordered = store.sortedInTreeOrder(holders)
            let inside = cur.map { c in ordered.contains { store.isInside(c, $0) } } ?? false
            guard isTrue ?? (value != nil) else {
                return inside ? changeFocus(to: nil, track: track, cause: cause) : Outcome()
            }
            var warnings: [String] = []
            if ordered.count > 1 { warnings.append(ambiguity(name: name, value: nil, ordered)) }
            if inside { return Outcome(warnings: warnings) }
            let h = ordered[0]
            guard let t = store.isCandidate(h) ? h : store.defaultTarget(at: h) else {
                throw .notFocusable(id: store.slots[h].id)
            }
            var out = changeFocus(to: t, track: track, cause: cause)
            out.warnings = warnings
            return out
        }
        guard let value, isTrue != false else {
            let holds = cur.map { bindingsOf($0, track).contains { $0.name == name } } ?? false
            return holds ? changeFocus(to: nil, track: track, cause: cause) : Outcome()
        }
        let matches = store.sortedInTreeOrder(reg.pairs[BindingRegistry.Pair(name: name, value: value)] ?? [])
        guard let t = matches.first else { throw .noSuchBinding(name: name, value: value) }
        guard store.isCandidate(t) else { throw .notFocusable(id: store.slots[t].id) }
        var out = changeFocus(to: t, track: track, cause: cause)
        if matches.count > 1 { out.warnings.append(ambiguity(name: name, value: value, matches)) }
        return out
    }

    /// `ResetFocus`: re-evaluate default focus in `scope` (nil: the whole scene). `.noSuchScope`.
    public mutating func resetFocus(scope: String?) throws(FocusError) -> Outcome {
        var e = store.root
        if let scope {
            guard let decl = store.scopes[scope].flatMap({ store.firstInTreeOrder($0) }) else {
                throw .noSuchScope(scope: scope)
            }
            e = decl
        }
        guard let t = store.defaultTarget(at: e) else { return Outcome() }
        return changeFocus(to: t, track: .main, cause: Cause(kind: .reset))
    }

    /// `Send` and device commands (focus.md §7). `crown` takes `detents` (signed; positive = next),
    /// with `fraction` / `velocity` passed through to edit events; `wrap` lets a device profile make
    /// crown moves wrap. Unknown commands are published as `command` events, never errors.
    public mutating func send(
        _ command: String, detents: Int? = nil, fraction: Double? = nil, velocity: Double? = nil,
        wrap: Bool? = nil, device: String? = nil
    ) -> Outcome {
        if let d = Direction(rawValue: command) {
            var out = (try? move(d, wrap: wrap, track: .main, device: device)) ?? Outcome()
            out.consumed = out.moved
            return out
        }
        let f = slot(.main)
        switch command {
        case "select":
            if let f, store.node(f).interactions?.contains(.activate) ?? true {
                return Outcome(events: [draft(.activate, to: focusedId, device: device)], consumed: true)
            }
        case "crown":
            if let f, store.node(f).interactions?.contains(.edit) == true {
                var e = draft(.edit, to: store.slots[f].id, device: device)
                e.detents = detents ?? 0
                e.fraction = fraction
                e.velocity = velocity
                return Outcome(events: [e], consumed: true)
            }
            guard let d = detents, d != 0 else { return Outcome() }
            var out = sequentialMove(forward: d > 0, wrap: wrap ?? false, track: .main, crown: true,
                                     steps: d.magnitude, cause: Cause(kind: .crown, direction: d > 0 ? .next : .previous, device: device))
            out.consumed = out.moved
            return out
        case "search":
            if let t = store.firstInTreeOrder(store.searchNodes.filter { store.isCandidate($0) }) {
                var out = changeFocus(to: t, track: .main, cause: Cause(kind: .search, device: device))
                out.consumed = true
                return out
            }
        default:
            break
        }
        var e = draft(.command, device: device)
        e.command = command
        return Outcome(events: [e])
    }

    /// `Lint` (focus.md §10) without installing the scene. `.tooManyNodes` above
    /// `limits.lintMaxCandidates` candidates; `.invalidScene` as for `init`.
    public static func lint(_ scene: Scene, limits: Limits = Limits()) throws(FocusError) -> [Problem] {
        var store = try SceneStore(scene: scene, limits: limits)
        return try store.lint()
    }
}

// MARK: - Focus changes and events

extension SceneSession {
    /// The slot holding focus on `track`, if it is still a candidate.
    func slot(_ track: Track) -> Int? {
        guard let id = track == .main ? focusedId : a11yId else { return nil }
        let h = track == .main ? hints.main : hints.accessibility
        if h >= 0, h < store.slots.count, store.slots[h].alive, store.slots[h].id == id {
            return store.slots[h].candidate ? h : nil
        }
        guard let s = store.idToSlot[id], store.isCandidate(s) else { return nil }
        return s
    }

    func bindingsOf(_ slot: Int, _ track: Track) -> [Binding] {
        (track == .main ? store.node(slot).bindings : store.node(slot).accessibilityBindings) ?? []
    }

    /// An event of this scene, stamped later.
    func draft(_ kind: Event.Kind, from: String? = nil, to: String? = nil, cause: Cause? = nil,
               track: Track? = nil, device: String? = nil) -> Event {
        Event(kind: kind, scene: store.name, revision: currentRevision, from: from, to: to, cause: cause,
              track: track, device: device)
    }

    func blocked(_ cause: Cause) -> Outcome {
        Outcome(events: [draft(.blocked, from: focusedId, cause: cause, track: .main)])
    }

    func ambiguity(name: String, value: String?, _ ordered: [Int]) -> String {
        let a = store.slots[ordered[0]].id, b = store.slots[ordered[1]].id
        let what = value.map { "\(name) = '\($0)'" } ?? "the Bool binding '\(name)'"
        return "ambiguous focus binding: nodes '\(a)' and '\(b)' are both bound to \(what); '\(a)', first in tree order, wins"
    }

    /// Records `slot` as the last focused descendant of the remembering sections above it.
    mutating func remember(_ slot: Int) {
        var a = store.slots[slot].parent
        while a >= 0 {
            if store.isSection(a), store.slots[a].remembers { remembered[store.slots[a].id] = store.slots[slot].id }
            a = store.slots[a].parent
        }
    }

    /// The read values of the bindings that depend on focus at `focus` (Bool names on its path,
    /// value names of the node itself).
    func pathReads(_ track: Track, focus: Int?) -> [String: BindingState] {
        guard let f = focus, !(track == .main ? store.bindings : store.a11yBindings).nodes.isEmpty else { return [:] }
        var out: [String: BindingState] = [:]
        var a = f
        while a >= 0 {
            for b in bindingsOf(a, track) where b.value == nil { out[b.name] = BindingState(name: b.name, isTrue: true) }
            a = store.slots[a].parent
        }
        for b in bindingsOf(f, track) where b.value != nil && out[b.name] == nil {
            out[b.name] = BindingState(name: b.name, value: b.value)
        }
        return out
    }

    func unsetRead(_ name: String, _ track: Track) -> BindingState {
        let reg = track == .main ? store.bindings : store.a11yBindings
        return reg.isBool(name) ? BindingState(name: name, isTrue: false) : BindingState(name: name)
    }

    /// Every binding's read value, keyed by name.
    func allReads(_ track: Track, focus: Int?) -> [String: BindingState] {
        let reg = track == .main ? store.bindings : store.a11yBindings
        var out = pathReads(track, focus: focus)
        for name in reg.nodes.keys where out[name] == nil { out[name] = unsetRead(name, track) }
        return out
    }

    /// Every binding's read value in tree order of first appearance.
    func orderedReads(_ track: Track, focus: Int?) -> [BindingState] {
        let reg = track == .main ? store.bindings : store.a11yBindings
        guard !reg.nodes.isEmpty else { return [] }  // no bindings: no reads, and no sort to pay for
        let reads = pathReads(track, focus: focus)
        var keyed: [(slot: Int, index: Int, name: String)] = []
        for name in reg.nodes.keys {
            guard let first = reg.first[name] else { continue }
            let i = bindingsOf(first, track).firstIndex { $0.name == name } ?? 0
            keyed.append((first, i, name))
        }
        if keyed.count > 1 { keyed.sort { $0.slot != $1.slot ? store.precedes($0.slot, $1.slot) : $0.index < $1.index } }
        return keyed.map { reads[$0.name] ?? unsetRead($0.name, track) }
    }

    func focusedValues(_ focus: Int?) -> [String: String] {
        guard let f = focus else { return [:] }
        var out: [String: String] = [:]
        var a = f
        while a >= 0 {
            if store.slots[a].hasValues, let values = store.node(a).values { for (k, v) in values where out[k] == nil { out[k] = v } }
            a = store.slots[a].parent
        }
        return out
    }

    func sceneValues() -> [String: String] {
        var out: [String: String] = [:]
        for s in store.sortedInTreeOrder(store.sceneValueNodes) {
            for (k, v) in store.node(s).sceneValues ?? [:] where out[k] == nil { out[k] = v }
        }
        return out
    }

    /// The outermost `focusEffectDisabled` on the focused path decides; none: on.
    func effectEnabled(_ focus: Int?) -> Bool {
        guard let f = focus else { return true }
        var enabled = true
        for a in store.path(f) { if let d = store.node(a).focusEffectDisabled { enabled = !d } }
        return enabled
    }

    /// Moves focus on `track` to `target` (nil dismisses) and builds the events; a no-op when it is
    /// already there.
    mutating func changeFocus(to target: Int?, track: Track, cause: Cause) -> Outcome {
        let old = slot(track)
        let oldId = track == .main ? focusedId : a11yId
        let newId = target.map { store.slots[$0].id }
        if old == target && oldId == newId { return Outcome() }
        let beforeReads = pathReads(track, focus: old)
        let afterReads = pathReads(track, focus: target)
        var changed: [BindingState] = []
        if !beforeReads.isEmpty || !afterReads.isEmpty {
            for name in Set(beforeReads.keys).union(afterReads.keys).sorted() {
                let b = beforeReads[name] ?? unsetRead(name, track), a = afterReads[name] ?? unsetRead(name, track)
                if a != b { changed.append(a) }
            }
        }
        var events = [draft(.focus, from: oldId, to: newId, cause: cause, track: track)]
        if !changed.isEmpty {
            var e = draft(.bindings, track: track)
            e.bindings = changed
            events.append(e)
        }
        if track == .main {
            let fvBefore = focusedValues(old), fvAfter = focusedValues(target)
            if fvBefore != fvAfter {
                var e = draft(.values, track: .main)
                e.values = fvAfter
                events.append(e)
            }
            focusedId = newId
            hints.main = target ?? -1
            if let target { remember(target) }
        } else {
            a11yId = newId
            hints.accessibility = target ?? -1
        }
        if let target { events += itemAndScrollEvents(target, track: track, cause: cause) }
        collectVirtuals()
        return Outcome(events: stamp(events), moved: true)
    }

    /// After a change of focus onto `target`: `materialize` when it is a virtual item (not on a
    /// hand-over to it), then the `scroll` events of the containers that scrolled to show it
    /// (main track only), innermost first (focus.md §12).
    mutating func itemAndScrollEvents(_ target: Int, track: Track, cause: Cause) -> [Event] {
        var events: [Event] = []
        if let v = store.virtualSlots[target], cause.kind != .virtualized {
            var e = draft(.materialize)
            e.node = store.slots[v.collection].id
            e.index = v.index
            events.append(e)
        }
        if track == .main {
            for (c, _) in store.scrollToShow(target) { events.append(scrollEvent(c, cause: cause)) }
        }
        return events
    }

    func scrollEvent(_ c: Int, cause: Cause) -> Event {
        var e = draft(.scroll, cause: cause)
        e.node = store.slots[c].id
        e.offsetX = store.scrolls[c]?.x
        e.offsetY = store.scrolls[c]?.y
        return e
    }

    /// Drops the virtual items nothing holds any more.
    mutating func collectVirtuals() {
        store.collectVirtuals(keep: slot(.main), slot(.accessibility))
    }

    /// The ids of the scroll containers now in the scene (sent again, they are clamped, not rejected).
    func scrollIds() -> Set<String> { Set(store.scrolls.keys.map { store.slots[$0].id }) }

    /// Bumps the revision once and stamps `events` with it.
    mutating func stamp(_ events: consuming [Event]) -> [Event] {
        currentRevision += 1
        var events = events
        for i in events.indices { events[i].revision = currentRevision }
        return events
    }

    /// Sequential moves (§3) and crown steps on `track`.
    mutating func sequentialMove(forward: Bool, wrap: Bool?, track: Track, crown: Bool, steps: UInt, cause: Cause) -> Outcome {
        store.ensureSequence()
        let start = slot(track)
        var cur = start
        var moved = false
        var steps = steps
        var taken: UInt = 0
        while taken < steps {
            guard let t = sequentialTarget(from: cur, forward: forward, wrap: wrap, crown: crown, track: track), t != cur else { break }
            cur = t
            moved = true
            taken += 1
            // Back where it started after `taken` steps: only the remainder of the cycle matters.
            if t == start { steps = taken + (steps - taken) % taken }
        }
        guard moved, let cur, cur != start else {
            collectVirtuals()
            return Outcome(events: [draft(.blocked, from: track == .main ? focusedId : a11yId, cause: cause, track: track)])
        }
        return changeFocus(to: cur, track: track, cause: cause)
    }

    /// The next/previous candidate after `from` in sequential order (nil: blocked); a collection's
    /// items are one entry of the order, stepped through by index (focus.md §12).
    mutating func sequentialTarget(from f: Int?, forward: Bool, wrap: Bool?, crown: Bool, track: Track) -> Int? {
        guard let seq = store.sequence, !seq.order.isEmpty else { return nil }
        if let f, store.slots[f].hasNext, let t = store.node(f).next?[forward ? "next" : "previous"] {
            guard !t.isEmpty, let ts = store.idToSlot[t] else { return nil }
            if let m = store.innermostModal(f), !store.isInside(ts, m) { return nil }
            if store.isCandidate(ts) { return ts }
            guard let r = seq.ranges[ts], !r.isEmpty else { return nil }
            return store.entrySlot(forward ? seq.order[r.lowerBound] : seq.order[r.upperBound - 1], forward: forward)
        }
        var bound = store.root
        if let f {
            var a = f
            while a >= 0 {
                if crown ? (store.isSection(a) || store.isModal(a)) : store.isModal(a) { bound = a; break }
                a = store.slots[a].parent
            }
        }
        guard let range = seq.ranges[bound], !range.isEmpty else { return nil }
        var pos: Int?
        if let f {
            if let it = store.itemOf(f), let mp = seq.markerPos[it.collection] {
                if let j = store.nextCandidateIndex(it.collection, after: it.index, forward: forward) {
                    return store.item(it.collection, j)
                }
                pos = mp
            } else if f < seq.position.count, seq.position[f] >= 0 {
                pos = seq.position[f]
            }
        }
        guard let pos, range.contains(pos) else {
            return store.entrySlot(forward ? seq.order[range.lowerBound] : seq.order[range.upperBound - 1], forward: forward)
        }
        var p = pos + (forward ? 1 : -1)
        if !range.contains(p) {
            let wraps = (!crown && store.isModal(bound)) || (wrap ?? (crown ? false : store.sequentialWrap))
            guard wraps else { return nil }
            p = forward ? range.lowerBound : range.upperBound - 1
        }
        return store.entrySlot(seq.order[p], forward: forward)
    }

    /// What the observable state looked like before a structural change.
    struct Snapshot {
        var focused: String?
        var focusedPath: [String]
        var a11y: String?
        var reads: [String: BindingState]
        var a11yReads: [String: BindingState]
        var values: [String: String]
        /// The focused item's collection id and index, when focus is on a collection's item.
        var item: (collection: String, index: Int)?
    }

    func snapshot() -> Snapshot {
        let f = slot(.main), a = slot(.accessibility)
        var path: [String] = []
        if let s = store.slot(focusedId) { path = store.path(s).map { store.slots[$0].id } }
        let item = f.flatMap { store.itemOf($0) }.map { (store.slots[$0.collection].id, $0.index) }
        return Snapshot(focused: focusedId, focusedPath: path, a11y: a11yId,
                        reads: allReads(.main, focus: f), a11yReads: allReads(.accessibility, focus: a),
                        values: focusedValues(f), item: item)
    }

    /// Keeps or re-evaluates focus after the tree changed and builds the call's events.
    mutating func afterStructuralChange(_ before: Snapshot, warnFor: Set<BindingRegistry.Pair>? = nil) -> Outcome {
        var events = [draft(.scene)]
        var warnings: [String] = []
        // Main focus: kept when its node survives as a candidate.
        if let id = before.focused, slot(.main) == nil {
            var t: Int?
            var cause = Cause(kind: .removed)
            if let s = store.resolve(id), store.isCandidate(s) {
                // A virtual item whose collection was sent again; or its index is now built.
                t = s
                if store.slots[s].id != id { cause = Cause(kind: .materialized) }
            } else if let (cid, index) = before.item, let c = store.idToSlot[cid], let coll = store.collections[c]?.spec {
                if index < coll.count, store.collections[c]?.built[index] == nil, let s = store.item(c, index) {
                    t = s
                    cause = Cause(kind: .virtualized)
                } else if index >= coll.count, let j = store.nextCandidateIndex(c, after: coll.count, forward: false) {
                    t = store.item(c, j)
                }
            }
            if t == nil { t = store.reevaluate(after: Array(before.focusedPath.dropFirst())) }
            focusedId = t.map { store.slots[$0].id }
            hints.main = t ?? -1
            if let t { remember(t) }
            if focusedId != id {
                events.append(draft(.focus, from: id, to: focusedId, cause: cause, track: .main))
                pendingItemEvents = t.map { (slot: $0, cause: cause) }
            }
        }
        if let id = before.a11y, slot(.accessibility) == nil {
            a11yId = nil
            events.append(draft(.focus, from: id, to: nil, cause: Cause(kind: .removed), track: .accessibility))
        }
        for (track, old) in [(Track.main, before.reads), (.accessibility, before.a11yReads)] {
            let now = allReads(track, focus: slot(track))
            let changed = now.filter { old[$0.key] != $0.value }.sorted { $0.key < $1.key }.map(\.value)
            if !changed.isEmpty {
                var e = draft(.bindings, track: track)
                e.bindings = changed
                events.append(e)
            }
        }
        let values = focusedValues(slot(.main))
        if values != before.values {
            var e = draft(.values, track: .main)
            e.values = values
            events.append(e)
        }
        if let p = pendingItemEvents {
            pendingItemEvents = nil
            events += itemAndScrollEvents(p.slot, track: .main, cause: p.cause)
        }
        collectVirtuals()
        // Ambiguous bindings: all of them after a replace, those the patches carry after an update.
        let pairs = warnFor.map { Array($0) } ?? Array(store.bindings.pairs.keys)
        for pair in pairs {
            guard let set = store.bindings.pairs[pair], set.count > 1 else { continue }
            warnings.append(ambiguity(name: pair.name, value: pair.value, store.sortedInTreeOrder(set)))
        }
        return Outcome(events: stamp(events), warnings: warnings.sorted(), moved: focusedId != before.focused)
    }
}
