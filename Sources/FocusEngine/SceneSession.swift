// The public face of the engine: one scene and its focus state, changed only through mutating
// calls that each return an `Outcome` (events, warnings, whether focus moved / the command was
// consumed). A value type with no I/O and no clock: the same calls give the same results.
//
// API CONTRACT (shared by FocusService and focusctl): the signatures below are fixed; the bodies
// are filled in by the engine work.


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
    public func contains(_ id: String) -> Bool { store.slot(id) != nil }

    /// The nodes of the existing `ids` and their subtrees, counted up to `limit`: what an update
    /// that removes or replaces them takes apart (ids not in the scene count nothing). Costs at
    /// most `limit` steps beyond one lookup per id.
    public func nodesUnder(_ ids: some Sequence<String>, limit: Int) -> Int {
        var count = 0
        var stack: [Int] = []
        for id in ids {
            guard let slot = store.idToSlot[id] else { continue }
            stack.append(slot)
            while let next = stack.popLast() {
                count += 1
                if count >= limit { return count }
                stack += store.slots[next].children
            }
        }
        return count
    }

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
        let focused = slot(.main), accessibilityFocused = slot(.accessibility)
        return FocusState(
            scene: store.name, active: active, focused: focusedId,
            path: focused.map { store.pathIDs($0) } ?? [],
            bindings: orderedReads(.main, focus: focused),
            focusedValues: focusedValues(focused), sceneValues: sceneValues(),
            focusEffectEnabled: effectEnabled(focused),
            accessibilityFocused: a11yId, accessibilityBindings: orderedReads(.accessibility, focus: accessibilityFocused),
            scroll: scrollOffsets(), revision: currentRevision)
    }

    /// A warning for every ambiguous binding of the scene as it stands (a new scene's `SetScene`
    /// reply carries them, as a replacement's does), sorted.
    public func ambiguityWarnings() -> [String] {
        store.bindings.pairs.compactMap { pair, set in
            set.count > 1 ? ambiguity(name: pair.name, value: pair.value, store.sortedInTreeOrder(set)) : nil
        }.sorted()
    }

    /// The `role` of the node holding main focus, if any (typing keys are unmapped for search/text).
    /// (Read from the slot's box: `Slot.node` builds or copies the whole node; a slot without a
    /// box has no role.)
    public var focusedRole: String? { slot(.main).flatMap { store.slots[$0].box?.node.role } }

    /// True when the node holding main focus has the `edit` interaction (the crown edits it).
    public var focusedIsEditable: Bool {
        // The slot's box read in place: `store.node(_:)` and `Slot.node` return a copy of the
        // whole node (a slot without a box has no interactions).
        slot(.main).map { store.slots[$0].box?.node.interactions?.contains(.edit) ?? false } ?? false
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

    /// A replacement tree validated and indexed apart from any session, so that the costly part
    /// of `replace(with:)` can run on another thread; ``replace(swapping:)`` puts it in.
    public struct PreparedTree: Sendable {
        var store: SceneStore
        /// What the preparation depended on: it is valid for a session with these limits and
        /// these scroll container ids (``scrollContainerIds``), and only for such a session.
        public let limits: Limits
        public let scrollContainerIds: Set<String>
        /// After ``replace(swapping:)``: the tree that was replaced, to be dropped where its
        /// freeing costs no one (it is as big as the scene).
        public internal(set) var isSpent = false
        /// Nodes in the tree (after ``SceneSession/replace(swapping:)``: in the old one).
        public var nodeCount: Int { store.nodeCount }
    }

    /// Validates and indexes `scene` as `replace(with:)` would for a session with `limits` and
    /// the scroll containers `scrollContainerIds`. Touches no session: safe on any thread.
    public static func prepare(_ scene: Scene, limits: Limits, scrollContainerIds: Set<String>) throws(FocusError) -> PreparedTree {
        PreparedTree(store: try SceneStore(scene: scene, limits: limits, clampIds: scrollContainerIds),
                     limits: limits, scrollContainerIds: scrollContainerIds)
    }

    /// The ids of the scroll containers now in the scene (a replacement is validated against them).
    public var scrollContainerIds: Set<String> { scrollIds() }

    /// `replace(with:)` with a tree prepared for this session (same limits and scroll container
    /// ids: the caller checks); same outcome, events and state. `tree` is left holding the old
    /// tree, for the caller to drop elsewhere.
    public mutating func replace(swapping tree: inout PreparedTree) -> Outcome {
        precondition(!tree.isSpent && tree.limits == store.limits && tree.scrollContainerIds == scrollIds())
        let before = snapshot()
        swap(&store, &tree.store)
        tree.isSpent = true
        return afterStructuralChange(before)
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
        let focused = slot(.main)
        defer { collectVirtuals() }
        if focused == nil && store.policy == .tvos {
            guard let target = store.defaultTarget(at: store.root) else { return blocked(cause) }
            return changeFocus(to: target, track: .main, cause: Cause(kind: .defaultFocus, direction: direction, device: device))
        }
        let source: Rect
        if let focused, let focusedFrame = store.frame(focused) {
            source = focusedFrame
        } else {
            let rootFrame = store.frame(store.root) ?? store.candUnion(store.root) ?? Rect(x: 0, y: 0, width: 0, height: 0)
            source = direction == .right || direction == .down
                ? Rect(x: rootFrame.minX, y: rootFrame.minY, width: 0, height: 0) : Rect(x: rootFrame.maxX, y: rootFrame.maxY, width: 0, height: 0)
        }
        let result = store.directionalMove(MoveInput(
            focused: focused, source: source, direction: direction, strategy: searchStrategy, remembered: remembered))
        switch result {
        case .focus(let target) where target != focused: return changeFocus(to: target, track: .main, cause: cause)
        default: return blocked(cause)
        }
    }

    /// `Focus`: programmatic focus; nil dismisses. `.noSuchNode` / `.notFocusable`.
    public mutating func focus(_ id: String?, track: Track = .main) throws(FocusError) -> Outcome {
        let cause = Cause(kind: .programmatic)
        guard let id else { return changeFocus(to: nil, track: track, cause: cause) }
        if store.idToSlot[id] == nil, let (collection, index) = store.parseVirtual(id) {
            // A virtual id (focus.md §12): the built node when its index is built.
            guard let index, index < (store.collections[collection]?.spec.count ?? 0) else { throw .noSuchNode(id: id) }
            guard let slot = store.item(collection, index) else { throw .notFocusable(id: id) }
            return changeFocus(to: slot, track: track, cause: cause)
        }
        guard let slot = store.idToSlot[id] else { throw .noSuchNode(id: id) }
        guard store.isCandidate(slot) else { throw .notFocusable(id: id) }
        return changeFocus(to: slot, track: track, cause: cause)
    }

    /// `ScrollTo` (focus.md §12): sets a scroll container's offset, clamped; focus does not move.
    /// A node that is not a scroll container is `.noSuchNode`; a change emits a `scroll` event with
    /// cause `programmatic`, no change emits nothing and keeps the revision.
    public mutating func scrollTo(_ id: String, offsetX: Double, offsetY: Double) throws(FocusError) -> Outcome {
        guard let container = store.idToSlot[id], store.scrolls[container] != nil else { throw .noSuchNode(id: id) }
        guard offsetX.isFinite else { throw .invalidParameter(parameter: "offsetX") }
        guard offsetY.isFinite else { throw .invalidParameter(parameter: "offsetY") }
        guard store.setOffset(container, x: offsetX, y: offsetY) else { return Outcome() }
        return Outcome(events: stamp([scrollEvent(container, cause: Cause(kind: .programmatic))]))
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
            let inside = cur.map { current in ordered.contains { store.isInside(current, $0) } } ?? false
            guard isTrue ?? (value != nil) else {
                return inside ? changeFocus(to: nil, track: track, cause: cause) : Outcome()
            }
            var warnings: [String] = []
            if ordered.count > 1 { warnings.append(ambiguity(name: name, value: nil, ordered)) }
            if inside { return Outcome(warnings: warnings) }
            let holder = ordered[0]
            guard let target = store.isCandidate(holder) ? holder : store.defaultTarget(at: holder) else {
                throw .notFocusable(id: store.slots[holder].id)
            }
            var out = changeFocus(to: target, track: track, cause: cause)
            out.warnings = warnings
            return out
        }
        guard let value, isTrue != false else {
            let holds = cur.map { bindingsOf($0, track).contains { $0.name == name } } ?? false
            return holds ? changeFocus(to: nil, track: track, cause: cause) : Outcome()
        }
        let matches = store.sortedInTreeOrder(reg.pairs[BindingRegistry.Pair(name: name, value: value)] ?? [])
        guard let target = matches.first else { throw .noSuchBinding(name: name, value: value) }
        guard store.isCandidate(target) else { throw .notFocusable(id: store.slots[target].id) }
        var out = changeFocus(to: target, track: track, cause: cause)
        if matches.count > 1 { out.warnings.append(ambiguity(name: name, value: value, matches)) }
        return out
    }

    /// `ResetFocus`: re-evaluate default focus in `scope` (nil: the whole scene). `.noSuchScope`.
    public mutating func resetFocus(scope: String?) throws(FocusError) -> Outcome {
        var scopeRoot = store.root
        if let scope {
            guard let decl = store.scopes[scope].flatMap({ store.firstInTreeOrder($0) }) else {
                throw .noSuchScope(scope: scope)
            }
            scopeRoot = decl
        }
        guard let target = store.defaultTarget(at: scopeRoot) else { return Outcome() }
        return changeFocus(to: target, track: .main, cause: Cause(kind: .reset))
    }

    /// `Send` and device commands (focus.md §7). `crown` takes `detents` (signed; positive = next),
    /// with `fraction` / `velocity` passed through to edit events; `wrap` lets a device profile make
    /// crown moves wrap. Unknown commands are published as `command` events, never errors.
    public mutating func send(
        _ command: String, detents: Int? = nil, fraction: Double? = nil, velocity: Double? = nil,
        wrap: Bool? = nil, device: String? = nil
    ) -> Outcome {
        if let direction = Direction(rawValue: command) {
            var out = (try? move(direction, wrap: wrap, track: .main, device: device)) ?? Outcome()
            out.consumed = out.moved
            return out
        }
        let focused = slot(.main)
        switch command {
        case "select":
            if let focused, store.node(focused).interactions?.contains(.activate) ?? true {
                return Outcome(events: [draft(.activate, to: focusedId, device: device)], consumed: true)
            }
        case "crown":
            if let focused, store.node(focused).interactions?.contains(.edit) == true {
                var event = draft(.edit, to: store.slots[focused].id, device: device)
                event.detents = detents ?? 0
                event.fraction = fraction
                event.velocity = velocity
                return Outcome(events: [event], consumed: true)
            }
            guard let crownDetents = detents, crownDetents != 0 else { return Outcome() }
            var out = sequentialMove(forward: crownDetents > 0, wrap: wrap ?? false, track: .main, crown: true,
                                     steps: crownDetents.magnitude, cause: Cause(kind: .crown, direction: crownDetents > 0 ? .next : .previous, device: device))
            out.consumed = out.moved
            return out
        case "search":
            if let target = store.firstInTreeOrder(store.searchNodes.filter { store.isCandidate($0) }) {
                var out = changeFocus(to: target, track: .main, cause: Cause(kind: .search, device: device))
                out.consumed = true
                return out
            }
        default:
            break
        }
        var event = draft(.command, device: device)
        event.command = command
        return Outcome(events: [event])
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
    package func slot(_ track: Track) -> Int? {
        guard let id = track == .main ? focusedId : a11yId else { return nil }
        let hint = track == .main ? hints.main : hints.accessibility
        if hint >= 0, hint < store.slots.count, store.slots[hint].alive, store.slots[hint].id == id {
            return store.slots[hint].candidate ? hint : nil
        }
        guard let candidate = store.slot(id), store.isCandidate(candidate) else { return nil }
        return candidate
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

    /// Records `slot` as the last focused descendant of the remembering sections above it.
    mutating func remember(_ slot: Int) {
        var ancestor = store.slots[slot].parent
        while ancestor >= 0 {
            if store.isSection(ancestor), store.slots[ancestor].remembers { remembered[store.slots[ancestor].id] = store.slots[slot].id }
            ancestor = store.slots[ancestor].parent
        }
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
                let beforeRead = beforeReads[name] ?? unsetRead(name, track), afterRead = afterReads[name] ?? unsetRead(name, track)
                if afterRead != beforeRead { changed.append(afterRead) }
            }
        }
        // Room for the materialize and scroll events when the scene can have them, so that the
        // array is allocated once.
        var events: [Event] = []
        events.reserveCapacity(store.scrolls.isEmpty && store.collections.isEmpty ? 3 : 5)
        events.append(draft(.focus, from: oldId, to: newId, cause: cause, track: track))
        if !changed.isEmpty {
            var event = draft(.bindings, track: track)
            event.bindings = changed
            events.append(event)
        }
        if track == .main {
            let fvBefore = focusedValues(old), fvAfter = focusedValues(target)
            if fvBefore != fvAfter {
                var event = draft(.values, track: .main)
                event.values = fvAfter
                events.append(event)
            }
            focusedId = newId
            hints.main = target ?? -1
            if let target { remember(target) }
        } else {
            a11yId = newId
            hints.accessibility = target ?? -1
        }
        if let target { itemAndScrollEvents(target, track: track, cause: cause, into: &events) }
        collectVirtuals()
        return Outcome(events: stamp(events), moved: true)
    }

    /// After a change of focus onto `target`: `materialize` when it is a virtual item (not on a
    /// hand-over to it), then the `scroll` events of the containers that scrolled to show it
    /// (main track only), innermost first (focus.md §12).
    mutating func itemAndScrollEvents(_ target: Int, track: Track, cause: Cause, into events: inout [Event]) {
        if let item = store.virtualItem(target), cause.kind != .virtualized {
            var event = draft(.materialize)
            event.node = store.slots[item.collection].id
            event.index = item.index
            events.append(event)
        }
        if track == .main {
            for (container, _) in store.scrollToShow(target) { events.append(scrollEvent(container, cause: cause)) }
        }
    }

    func scrollEvent(_ container: Int, cause: Cause) -> Event {
        var event = draft(.scroll, cause: cause)
        event.node = store.slots[container].id
        event.offsetX = store.scrolls[container]?.x
        event.offsetY = store.scrolls[container]?.y
        return event
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
        for position in events.indices { events[position].revision = currentRevision }
        return events
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
        let focused = slot(.main), accessibilityFocused = slot(.accessibility)
        var path: [String] = []
        if let focusedSlot = store.slot(focusedId) { path = store.pathIDs(focusedSlot) }
        let item = focused.flatMap { store.itemOf($0) }.map { (store.slots[$0.collection].id, $0.index) }
        return Snapshot(focused: focusedId, focusedPath: path, a11y: a11yId,
                        reads: allReads(.main, focus: focused), a11yReads: allReads(.accessibility, focus: accessibilityFocused),
                        values: focusedValues(focused), item: item)
    }

    /// Keeps or re-evaluates focus after the tree changed and builds the call's events.
    mutating func afterStructuralChange(_ before: Snapshot, warnFor: Set<BindingRegistry.Pair>? = nil) -> Outcome {
        var events = [draft(.scene)]
        var warnings: [String] = []
        // Main focus: kept when its node survives as a candidate.
        if let id = before.focused, slot(.main) == nil {
            var newFocus: Int?
            var cause = Cause(kind: .removed)
            if let resolved = store.resolve(id), store.isCandidate(resolved) {
                // A virtual item whose collection was sent again; or its index is now built.
                newFocus = resolved
                if store.slots[resolved].id != id { cause = Cause(kind: .materialized) }
            } else if let (cid, index) = before.item, let collection = store.idToSlot[cid], let coll = store.collections[collection]?.spec {
                if index < coll.count, store.collections[collection]?.built[index] == nil, let itemSlot = store.item(collection, index) {
                    newFocus = itemSlot
                    cause = Cause(kind: .virtualized)
                } else if index >= coll.count, let lastIndex = store.nextCandidateIndex(collection, after: coll.count, forward: false) {
                    newFocus = store.item(collection, lastIndex)
                }
            }
            if newFocus == nil { newFocus = store.reevaluate(after: Array(before.focusedPath.dropFirst())) }
            focusedId = newFocus.map { store.slots[$0].id }
            hints.main = newFocus ?? -1
            if let newFocus { remember(newFocus) }
            if focusedId != id {
                events.append(draft(.focus, from: id, to: focusedId, cause: cause, track: .main))
                pendingItemEvents = newFocus.map { (slot: $0, cause: cause) }
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
                var event = draft(.bindings, track: track)
                event.bindings = changed
                events.append(event)
            }
        }
        let values = focusedValues(slot(.main))
        if values != before.values {
            var event = draft(.values, track: .main)
            event.values = values
            events.append(event)
        }
        if let pending = pendingItemEvents {
            pendingItemEvents = nil
            itemAndScrollEvents(pending.slot, track: .main, cause: pending.cause, into: &events)
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
