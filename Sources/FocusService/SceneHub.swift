import FocusEngine
import FocusWire

/// Identifies one client connection (the Varlink layer hands these out).
public typealias ConnectionID = UInt64

/// What a `Monitor` stream of `io.focusd.Focus` is sent: the first reply is a state, later ones
/// events; a monitor that fell behind is sent one state again in place of the events it missed.
public enum MonitorMessage: Sendable {
    case state(FocusState)
    case event(Event)
}

/// All scenes of the daemon, who owns them, which one is active, and who monitors them
/// (focus.md §9, service.md §2).
///
/// Not thread-safe by design: the daemon calls it from its one event loop only, so device
/// commands and client calls are serialised without locks. Every mutating call delivers its
/// events to the monitors before it returns, so the caller's reply goes out after them (§11).
///
/// Decisions where focus.md is silent:
/// - A `Monitor` without a scene follows the active scene: when the active scene changes it is
///   sent a `scene` event naming the new one, then that scene's state.
/// - `scene` events come when a scene's tree is replaced or updated (the engine's), when a scene
///   is created or removed, and when the active scene changes, so clients that draw the layout
///   (`focusctl watch`) refresh it.
/// - Changing which scene is active does not bump revisions (the scenes' own states did not
///   change; `active` is derived from the hub); the `scene` event announces it.
public final class SceneHub {
    struct Entry {
        var session: SceneSession
        /// nil for a persistent scene (any allowed client may replace or remove it).
        var owner: ConnectionID?
        /// Who set it last (a persistent scene too), for the per-connection and per-uid caps;
        /// nil: the daemon's own (the demo scene), which no cap counts.
        var setter: Setter?
        /// Larger is more recent; used to fall back when the active scene is removed.
        var activatedAt: UInt64
        /// The scene's last directional move on the main track (`io.focusd.Inspect.ExplainMove`),
        /// kept with the scene: in a dictionary of its own, every move hashed the scene's name
        /// again to store it (the entry is found already), and a dropped scene had to be removed
        /// from both.
        var lastMove: LastMove?
    }

    /// The connection and uid a scene is charged to.
    public struct Setter: Hashable, Sendable {
        public var connection: ConnectionID
        public var uid: UInt32
        public init(connection: ConnectionID, uid: UInt32) {
            self.connection = connection
            self.uid = uid
        }
    }

    /// What one client may hold (service.md §2: nothing a client sends may grow the daemon
    /// without bound). Persistent scenes count for the uid that set them after their connection
    /// closes, which is why uids are capped, not only connections.
    public struct Caps: Sendable {
        public var scenesPerConnection: Int
        public var scenesPerUid: Int
        public var nodesPerUid: Int
        public init(scenesPerConnection: Int = .max, scenesPerUid: Int = .max, nodesPerUid: Int = .max) {
            self.scenesPerConnection = scenesPerConnection
            self.scenesPerUid = scenesPerUid
            self.nodesPerUid = nodesPerUid
        }
    }

    public struct MonitorID: Hashable, Sendable {
        let raw: UInt64
    }

    /// A class, held in an array in the order monitors subscribed: a delivery reads each one's
    /// scene and closure through one reference (a struct copied out of a dictionary was a
    /// retain and a release of its scene name and of its closure's context per monitor and event).
    final class Monitor {
        let id: UInt64
        /// nil: follow the active scene.
        let scene: String?
        /// Handed each message with its delivery's number (``addMonitor(scene:deliveries:)``).
        let deliver: (MonitorMessage, UInt64) -> Void
        init(id: UInt64, scene: String?, deliver: @escaping (MonitorMessage, UInt64) -> Void) {
            self.id = id
            self.scene = scene
            self.deliver = deliver
        }

        /// Whether an event of the scene `named` (nil: of no scene by name) reaches this monitor;
        /// `followers`: it also reaches the monitors that follow the active scene.
        @inline(__always)
        func reached(named: String?, followers: Bool) -> Bool {
            scene == nil ? followers || named == nil : scene == named
        }
    }

    /// Checked by every SetScene and UpdateScene; a config reload changes them for every scene
    /// (scenes already installed stay as they are, even above the new limits).
    public var limits: Limits {
        didSet {
            for name in entries.keys { entries[name]!.session.limits = limits }
        }
    }
    public var caps: Caps
    /// Called after scenes were dropped or replaced, with roughly how many nodes went (the
    /// daemon hands large amounts of freed memory back to the system).
    public var nodesFreed: ((Int) -> Void)?
    /// Given each tree that goes once the hub holds it no more: a scene removed or dropped with
    /// its owner's connection, and the tree a `SetScene` replaced. The daemon frees it on the
    /// worker, where freeing 100,000 nodes holds up no one (a client closing with four such
    /// scenes held every other client 20-30 ms on the loop).
    public var treeDropped: ((DroppedTree) -> Void)?
    /// A tree the hub let go of, to be freed where its freeing costs no one.
    public enum DroppedTree {
        case scene(SceneSession)
        case replaced(SceneSession.PreparedTree)

        public var nodeCount: Int {
            switch self {
            case .scene(let session): session.nodeCount
            case .replaced(let tree): tree.nodeCount
            }
        }
    }
    /// Every key added or removed goes through ``entryAdded(_:_:)`` or ``entryRemoved(_:)``, which
    /// count the change (``shapeChanges``); a session changed in place is not one.
    private var entries: [String: Entry] = [:]
    /// Changes of ``entries``' keys: an index ``index(of:)`` kept is good while this is the same.
    @exclusivity(unchecked) private var shapeChanges: UInt64 = 0
    /// The name ``index(of:)`` last found, its index and ``shapeChanges`` then (three fields, not
    /// an optional tuple: copying one out went through its value witness). A `Move` names its
    /// scene three times (the change, its reply after the delivery, the input router's watch):
    /// each lookup hashed the name (~300 instructions), where comparing it with this is one compare.
    @exclusivity(unchecked) private var lastName = ""
    @exclusivity(unchecked) private var lastIndex: [String: Entry].Index?
    @exclusivity(unchecked) private var lastShape: UInt64 = 0
    @exclusivity(unchecked) public private(set) var activeName: String?
    private var clock: UInt64 = 0
    /// Ordered by id (ids only grow), so one is found by binary search.
    private var monitors: [Monitor] = []
    private var nextMonitor: UInt64 = 1
    /// The number of the last delivery (``addMonitor(scene:deliveries:)``). It and `activeName`
    /// are only read and assigned whole, so their runtime access checks
    /// (`@exclusivity(unchecked)`: ~85 instructions each, several per event) could never fire.
    @exclusivity(unchecked) private var lastDelivery: UInt64 = 0

    /// A directional move as its `focus` or `blocked` event told it.
    public struct LastMove: Hashable, Sendable {
        public var from: String?
        public var direction: Direction
        /// The revision the move left the scene at.
        public var revision: Int
        /// The sections' remembered focus before the move (the entering rules read it).
        public var memory: [String: String]
        /// The scroll offsets before the move (the search measures clipped, scrolled frames).
        public var scrolls: ScrollMemory
    }

    public init(limits: Limits = Limits(), caps: Caps = Caps()) {
        self.limits = limits
        self.caps = caps
    }

    // MARK: Reading

    /// The names of all scenes, sorted, and the active one.
    public func list() -> (scenes: [String], active: String?) {
        (entries.keys.sorted(), activeName)
    }

    /// The state of `name`, or of the active scene when nil.
    public func state(of name: String?) throws(FocusError) -> FocusState {
        let name = try resolve(name)
        return entries[name]!.session.state(active: name == activeName)
    }

    /// A copy of the session of `name` (nil: active) with its resolved name, for read-only tools
    /// (explain, plan); the copy shares the engine's buffers until it writes.
    public func session(named name: String?) throws(FocusError) -> (name: String, session: SceneSession) {
        let name = try resolve(name)
        return (name, entries[name]!.session)
    }

    /// The last directional move of the scene `name`, if it had one since it was created.
    public func lastDirectionalMove(of name: String) -> LastMove? { entries[name]?.lastMove }

    /// The active scene's session, for the input path (roles and interactions of the focused node).
    public var activeSession: SceneSession? {
        activeName.flatMap { entries[$0]?.session }
    }

    /// Reads the active scene's session in place (``activeSession`` copies the entry out: a
    /// retain and release of each of its buffers); nil without an active scene.
    func withActiveSession<R>(_ body: (borrowing SceneSession) -> R) -> R? {
        guard let name = activeName, let index = index(of: name) else { return nil }
        return inPlace(at: index) { entry in body(entry.session) }  // reading `values[index]` copies
    }

    // MARK: Scenes

    /// `SetScene`: create the scene (it becomes active) or replace it (focus kept when its node
    /// survives). Another connection's scene: `SceneOwned`. A persistent scene has no owner.
    public func setScene(_ scene: Scene, by connection: ConnectionID, uid: UInt32? = nil) throws(FocusError) -> (FocusState, [String]) {
        let owner: ConnectionID? = scene.persist == true ? nil : connection
        let setter = uid.map { Setter(connection: connection, uid: $0) }
        if let entry = entries[scene.name], let current = entry.owner, current != connection {
            throw .sceneOwned(scene: scene.name)
        }
        if let setter { try checkCaps(setter, replacing: scene.name, newScene: true, addedNodes: Self.count(scene.root)) }
        if let index = entries.index(forKey: scene.name) {
            // Built here and swapped in, as `install` does, so the replaced tree can be handed
            // over: a small scene replacing one of 100,000 nodes frees them off the loop. (What
            // the build depends on is read in place: a copy of the session held beside the
            // swap would share its buffers.)
            let (limits, scrollIds) = inPlace(at: index) { ($0.session.limits, $0.session.scrollContainerIds) }
            var tree = try SceneSession.prepare(scene, limits: limits, scrollContainerIds: scrollIds)
            var entry = entryRemoved(scene.name)!  // the one reference: no copy
            let before = entry.session.nodeCount
            let outcome = entry.session.replace(swapping: &tree)
            entry.owner = owner
            entry.setter = setter
            entryAdded(scene.name, entry)
            nodesFreed?(before)
            treeDropped?(.replaced(tree))
            deliver(outcome.events, scene: scene.name)  // the engine's own `scene` event leads them
            return (entry.session.state(active: scene.name == activeName), outcome.warnings)
        }
        let session = try SceneSession(scene: scene, limits: limits)
        clock += 1
        entryAdded(scene.name, Entry(session: session, owner: owner, setter: setter, activatedAt: clock))
        activeName = scene.name
        // Named monitors that outlived an earlier scene of this name learn of the new one;
        // monitors that follow the active scene are told it changed.
        announceScene(scene.name, toFollowers: false)
        announceActiveChange()
        return (session.state(active: true), session.ambiguityWarnings())
    }

    // MARK: Scenes built off the event loop

    /// What building a `SetScene` depends on besides the scene: whether a scene of that name
    /// is installed, the limits, and the installed scene's scroll containers (sent again, they
    /// are clamped, not refused). A build is swapped in only while these are unchanged.
    public struct BuildBasis: Sendable, Equatable {
        var exists: Bool
        var limits: Limits
        var scrollContainerIds: Set<String>
    }

    /// A `SetScene`'s scene decoded, validated and indexed away from the hub (any thread), for
    /// ``install(_:by:uid:)`` to swap in on the hub's thread.
    public struct BuiltScene: Sendable {
        enum Tree: Sendable {
            case new(SceneSession)
            case replacement(SceneSession.PreparedTree)
        }
        public let name: String
        let persist: Bool?
        /// Every node of the scene as sent (the caps count them; validation may stop earlier).
        let nodeCount: Int
        let basis: BuildBasis
        var tree: Result<Tree, FocusError>
    }

    public func buildBasis(for name: String) -> BuildBasis {
        BuildBasis(exists: entries[name] != nil, limits: limits,
                   scrollContainerIds: entries[name]?.session.scrollContainerIds ?? [])
    }

    /// The costly part of ``setScene(_:by:uid:)``: touches no hub, so it may run on a worker thread.
    public static func build(_ scene: Scene, on basis: BuildBasis) -> BuiltScene {
        let tree: Result<BuiltScene.Tree, FocusError>
        if basis.exists {
            tree = Result { () throws(FocusError) in
                .replacement(try SceneSession.prepare(scene, limits: basis.limits, scrollContainerIds: basis.scrollContainerIds))
            }
        } else {
            tree = Result { () throws(FocusError) in .new(try SceneSession(scene: scene, limits: basis.limits)) }
        }
        return BuiltScene(name: scene.name, persist: scene.persist, nodeCount: count(scene.root), basis: basis, tree: tree)
    }

    /// `SetScene` with a scene built by ``build(_:on:)``: the same checks in the same order, the
    /// same state, events, warnings and errors as ``setScene(_:by:uid:)``. nil when what the
    /// build depended on changed meanwhile (a config reload, the scene dropped with its owner's
    /// connection): build it again. A replaced tree is left in `built`, to be freed elsewhere.
    public func install(_ built: inout BuiltScene, by connection: ConnectionID, uid: UInt32? = nil) throws(FocusError) -> (FocusState, [String])? {
        let name = built.name
        let owner: ConnectionID? = built.persist == true ? nil : connection
        let setter = uid.map { Setter(connection: connection, uid: $0) }
        if let entry = entries[name], let current = entry.owner, current != connection {
            throw .sceneOwned(scene: name)
        }
        if let setter { try checkCaps(setter, replacing: name, newScene: true, addedNodes: built.nodeCount) }
        guard buildBasis(for: name) == built.basis else { return nil }
        switch built.tree {
        case .failure(let error):
            throw error
        case .success(.replacement(var tree)):
            built.tree = .failure(.noSuchScene(scene: name))  // let go of it: `tree` is the one reference
            var entry = entryRemoved(name)!
            let before = entry.session.nodeCount
            let outcome = entry.session.replace(swapping: &tree)
            entry.owner = owner
            entry.setter = setter
            entryAdded(name, entry)
            built.tree = .success(.replacement(tree))  // now the old tree
            nodesFreed?(before)
            deliver(outcome.events, scene: name)
            return (entry.session.state(active: name == activeName), outcome.warnings)
        case .success(.new(let session)):
            built.tree = .failure(.noSuchScene(scene: name))
            clock += 1
            entryAdded(name, Entry(session: session, owner: owner, setter: setter, activatedAt: clock))
            activeName = name
            announceScene(name, toFollowers: false)
            announceActiveChange()
            return (session.state(active: true), session.ambiguityWarnings())
        }
    }

    /// What building an `UpdateScene` depends on: the session as it was (nil: no such scene)
    /// and its revision and limits. Device commands act on a scene while its update is built;
    /// a build is swapped in only if none did.
    public struct UpdateBasis: Sendable {
        var session: SceneSession?
        var revision: Int
        var limits: Limits
    }

    /// An `UpdateScene` applied to a copy of the session away from the hub.
    public struct BuiltUpdate: Sendable {
        public let name: String
        let basis: (exists: Bool, revision: Int, limits: Limits)
        /// Nodes the patch adds (ids not yet in the scene), for the caps.
        let added: Int
        let hasUpserts: Bool
        var result: Result<(session: SceneSession, outcome: Outcome), FocusError>
        /// After ``installUpdate(_:by:)``: the session that was replaced, to be freed elsewhere.
        var replaced: SceneSession?
    }

    public func updateBasis(for name: String) -> UpdateBasis {
        let session = entries[name]?.session
        return UpdateBasis(session: session, revision: session?.revision ?? 0, limits: limits)
    }

    /// The costly part of ``updateScene(_:upsert:remove:by:)`` on a copy: touches no hub.
    public static func buildUpdate(_ name: String, upsert: [NodePatch], remove: [String], on basis: UpdateBasis) -> BuiltUpdate {
        let exists = basis.session != nil
        let key = (exists: exists, revision: basis.revision, limits: basis.limits)
        guard var session = basis.session else {
            return BuiltUpdate(name: name, basis: key, added: 0, hasUpserts: !upsert.isEmpty, result: .failure(.noSuchScene(scene: name)))
        }
        var added = 0
        for patch in upsert { added += count(patch.node) { !session.contains($0) } }
        let result = Result { () throws(FocusError) in
            let outcome = try session.update(upsert: upsert, remove: remove)
            return (session: session, outcome: outcome)
        }
        return BuiltUpdate(name: name, basis: key, added: added, hasUpserts: !upsert.isEmpty, result: result)
    }

    /// `UpdateScene` with an update built by ``buildUpdate(_:upsert:remove:on:)``: the same checks
    /// in the same order and the same outcome as ``updateScene(_:upsert:remove:by:)``; nil when
    /// the scene changed meanwhile (build it again).
    public func installUpdate(_ built: inout BuiltUpdate, by connection: ConnectionID) throws(FocusError) -> (FocusState, [String])? {
        let name = built.name
        guard let owner = entries[name].map({ $0.owner }) else { throw .noSuchScene(scene: name) }
        if let owner, owner != connection { throw .sceneOwned(scene: name) }
        if let setter = entries[name]!.setter, built.hasUpserts {
            try checkCaps(setter, replacing: name, newScene: false, addedNodes: built.added)
        }
        guard built.basis.exists, built.basis.revision == entries[name]!.session.revision, built.basis.limits == limits else { return nil }
        switch built.result {
        case .failure(let error):
            throw error
        case .success(var applied):
            built.result = .failure(.noSuchScene(scene: name))
            let before = entries[name]!.session.nodeCount
            swap(&entries[name]!.session, &applied.session)
            built.replaced = applied.session
            deliver(applied.outcome.events, scene: name)
            let after = entries[name]!.session.nodeCount
            if after < before { nodesFreed?(before - after) }
            return (entries[name]!.session.state(active: name == activeName), applied.outcome.warnings)
        }
    }

    /// How many nodes the scene `name` holds (0 when there is none).
    public func nodeCount(of name: String) -> Int { entries[name]?.session.nodeCount ?? 0 }

    /// ``SceneSession/nodesUnder(_:limit:)`` of the scene `name` (0 when there is none).
    public func nodesUnder(_ ids: some Sequence<String>, in name: String, limit: Int) -> Int {
        guard let index = entries.index(forKey: name) else { return 0 }
        return inPlace(at: index) { $0.session.nodesUnder(ids, limit: limit) }
    }

    /// `UpdateScene`: upsert subtrees, remove ids; focus kept when its node survives.
    public func updateScene(
        _ name: String, upsert: [NodePatch], remove: [String], by connection: ConnectionID
    ) throws(FocusError) -> (FocusState, [String]) {
        guard let owner = entries[name].map({ $0.owner }) else { throw .noSuchScene(scene: name) }
        if let owner, owner != connection { throw .sceneOwned(scene: name) }
        if let setter = entries[name]!.setter, !upsert.isEmpty {
            // Nodes the patch adds (ids not yet in the scene); what it removes is not subtracted,
            // so the check errs on the safe side and costs only the patch's size.
            let session = entries[name]!.session
            var added = 0
            for patch in upsert { added += Self.count(patch.node) { !session.contains($0) } }
            try checkCaps(setter, replacing: name, newScene: false, addedNodes: added)
        }
        let before = entries[name]!.session.nodeCount
        // In place, as in withSession: an update of one node must not copy the scene.
        let outcome = try entries[name]!.session.update(upsert: upsert, remove: remove)
        deliver(outcome.events, scene: name)
        let after = entries[name]!.session.nodeCount
        if after < before { nodesFreed?(before - after) }
        return (entries[name]!.session.state(active: name == activeName), outcome.warnings)
    }

    /// Nodes in the subtree of `node` (those whose id passes `counted`).
    private static func count(_ node: Node, where counted: (String) -> Bool = { _ in true }) -> Int {
        var total = 0
        var stack = [node]
        while let next = stack.popLast() {
            if counted(next.id) { total += 1 }
            if let children = next.children { stack.append(contentsOf: children) }
        }
        return total
    }

    /// Refuses a scene (`newScene`) or an update adding `addedNodes` to `name` that would take
    /// its setter past a cap: `InvalidScene` naming the cap and the config key that sets it.
    private func checkCaps(_ setter: Setter, replacing name: String, newScene: Bool, addedNodes: Int) throws(FocusError) {
        var connectionScenes = 0, uidScenes = 0, uidNodes = 0
        for (other, entry) in entries {
            guard let charged = entry.setter else { continue }
            // A scene being replaced is counted as the new one, not twice.
            if newScene && other == name { continue }
            if charged.connection == setter.connection { connectionScenes += 1 }
            if charged.uid == setter.uid {
                uidScenes += 1
                uidNodes += entry.session.nodeCount
            }
        }
        if newScene {
            if connectionScenes + 1 > caps.scenesPerConnection {
                throw .invalidScene(
                    reason: "this connection already has \(connectionScenes) scenes, the limit (maxScenesPerConnection = \(caps.scenesPerConnection))",
                    node: nil)
            }
            if uidScenes + 1 > caps.scenesPerUid {
                throw .invalidScene(
                    reason: "uid \(setter.uid) already has \(uidScenes) scenes, persistent ones included, the limit (maxScenesPerUid = \(caps.scenesPerUid))",
                    node: nil)
            }
        }
        if uidNodes + addedNodes > caps.nodesPerUid {
            throw .invalidScene(
                reason: "uid \(setter.uid) would hold \(uidNodes + addedNodes) nodes in all its scenes, over the limit (maxNodesPerUid = \(caps.nodesPerUid))",
                node: nil)
        }
    }

    /// `RemoveScene`. Another connection's scene: `SceneOwned`.
    public func removeScene(_ name: String, by connection: ConnectionID) throws(FocusError) {
        guard let entry = entries[name] else { throw .noSuchScene(scene: name) }
        if let owner = entry.owner, owner != connection { throw .sceneOwned(scene: name) }
        drop(name)
    }

    /// `ActivateScene`.
    public func activate(_ name: String) throws(FocusError) -> FocusState {
        guard entries[name] != nil else { throw .noSuchScene(scene: name) }
        clock += 1
        entries[name]!.activatedAt = clock
        if activeName != name {
            activeName = name
            announceActiveChange()
        }
        return entries[name]!.session.state(active: true)
    }

    /// A connection closed: its non-persistent scenes go (focus.md §9).
    public func connectionClosed(_ connection: ConnectionID) {
        let owned = entries.filter { $0.value.owner == connection }.map(\.key).sorted()
        for name in owned { drop(name) }
    }

    private func drop(_ name: String) {
        guard let entry = entryRemoved(name) else { return }
        defer {
            nodesFreed?(entry.session.nodeCount)
            treeDropped?(.scene(entry.session))
        }
        let wasActive = activeName == name
        let event = Event(kind: .scene, scene: name, revision: entry.session.revision)
        deliver(event, named: name, followers: false)
        if wasActive {
            activeName = entries.max { $0.value.activatedAt < $1.value.activatedAt }?.key
            if activeName == nil {
                deliver(event, named: nil, followers: true)  // the followers alone
            }
            announceActiveChange()
        }
    }

    // MARK: Focus calls

    /// Runs `body` on the session of `name` (nil: active), delivers its events, and returns the
    /// outcome with the new state. The session is changed in place: a copy taken out of the
    /// dictionary would share the engine's buffers, and its first write to each would copy it
    /// whole, making every move cost the size of the scene.
    public func withSession(
        _ name: String?, _ body: (inout SceneSession) throws(FocusError) -> Outcome
    ) throws(FocusError) -> (Outcome, FocusState) {
        try withSession(name, body) { _, session, active in session.state(active: active) }
    }

    /// ``withSession(_:_:)`` with the session handed in place to `read` once its events are
    /// delivered (with the outcome and whether it is the active scene), instead of building its
    /// state: a reply written straight from the session (`ReplyWriter`). `read` must not call
    /// back into the hub (the session is borrowed from it while `read` runs).
    public func withSession<Reply>(
        _ name: String?, _ body: (inout SceneSession) throws(FocusError) -> Outcome,
        read: (Outcome, SceneSession, Bool) -> Reply
    ) throws(FocusError) -> (Outcome, Reply) {
        let (name, index) = try resolveIndex(name)
        let outcome = try apply(resolved: name, at: index, body)
        let active = name == activeName
        return (outcome, inPlace(name) { entry in read(outcome, entry.session, active) })
    }

    /// `withSession` without the new state, for callers that only publish the events (a device's
    /// command): a state costs the focus path, the bindings, the values and the scroll offsets,
    /// built and thrown away on every key press otherwise.
    @discardableResult
    public func apply(_ name: String?, _ body: (inout SceneSession) throws(FocusError) -> Outcome) throws(FocusError) -> Outcome {
        let (name, index) = try resolveIndex(name)
        return try apply(resolved: name, at: index, body)
    }

    private func apply(
        resolved name: String, at index: [String: Entry].Index, _ body: (inout SceneSession) throws(FocusError) -> Outcome
    ) throws(FocusError) -> Outcome {
        // Every access goes through the entry in place: reading `entries[name]!.session.x`
        // copies the entry out first, a retain and release of each of the session's buffers.
        let outcome = try inPlace(at: index) { entry throws(FocusError) in
            let memory = entry.session.sectionMemory  // a reference, copied only if it changes
            let scrolls = entry.session.scrollMemory  // likewise
            let outcome = try body(&entry.session)
            Self.noteDirectionalMove(outcome.events, in: &entry, memory: memory, scrolls: scrolls)
            return outcome
        }
        deliver(outcome.events, scene: name)
        return outcome
    }

    /// Runs `body` on the entry of `name` (which exists) in place, without copying it out.
    private func inPlace<R, E: Error>(_ name: String, _ body: (inout Entry) throws(E) -> R) throws(E) -> R {
        // Through `values` by index: `entries[name]!` moves the entry out into an optional and
        // back, a copy of it each way (1.4k instructions).
        try inPlace(at: index(of: name)!, body)
    }

    /// The index of `name`'s entry: the last one found when the name and the keys are the same.
    private func index(of name: String) -> [String: Entry].Index? {
        if lastShape == shapeChanges, let lastIndex, lastName == name { return lastIndex }
        guard let index = entries.index(forKey: name) else { return nil }
        (lastName, lastIndex, lastShape) = (name, index, shapeChanges)
        return index
    }

    /// Adds or replaces the entry of `name` (the one way keys are added).
    private func entryAdded(_ name: String, _ entry: Entry) {
        entries[name] = entry
        shapeChanges &+= 1
    }

    /// Removes the entry of `name` (the one way keys are removed).
    private func entryRemoved(_ name: String) -> Entry? {
        shapeChanges &+= 1
        return entries.removeValue(forKey: name)
    }

    private func inPlace<R, E: Error>(at index: [String: Entry].Index, _ body: (inout Entry) throws(E) -> R) throws(E) -> R {
        try body(&entries.values[index])
    }

    /// `Lint` of a scene that is not installed.
    public func lint(_ scene: Scene) throws(FocusError) -> [Problem] {
        try SceneSession.lint(scene, limits: limits)
    }

    /// The scene `name` names (nil: the active one) and its entry's index, found with one lookup
    /// (the name's hash), for a change made at once; anything after a delivery looks the name up
    /// again (a monitor may have changed the scenes). `noSuchScene` when it is not installed
    /// (with an empty name when there is no active scene).
    private func resolveIndex(_ name: String?) throws(FocusError) -> (String, [String: Entry].Index) {
        guard let found = installed(name) else { throw .noSuchScene(scene: name ?? "") }
        return found
    }

    /// ``resolveIndex(_:)``'s name.
    private func resolve(_ name: String?) throws(FocusError) -> String {
        try resolveIndex(name).0
    }

    // MARK: Monitors

    /// Subscribes to the events of `scene` (nil: whatever scene is active). The current state is
    /// delivered at once when there is one. `NoSuchScene` for a named scene that does not exist.
    public func addMonitor(
        scene: String?, deliver: @escaping (MonitorMessage) -> Void
    ) throws(FocusError) -> MonitorID {
        try addMonitor(scene: scene) { message, _ in deliver(message) }
    }

    /// ``addMonitor(scene:deliver:)`` whose closure is also handed each message's delivery
    /// number: the monitors one event is handed to at once (one delivery) are all handed the
    /// same number, and every other delivery has another (0: a state), so an interface can
    /// encode an event once for all of them by comparing one number instead of whole events.
    /// The closure runs only inside the hub's own calls.
    public func addMonitor(
        scene: String?, deliveries deliver: @escaping (MonitorMessage, _ delivery: UInt64) -> Void
    ) throws(FocusError) -> MonitorID {
        if let scene, entries[scene] == nil { throw .noSuchScene(scene: scene) }
        let id = nextMonitor
        nextMonitor += 1
        monitors.append(Monitor(id: id, scene: scene, deliver: deliver))
        if let (name, index) = installed(scene) {
            deliver(.state(entries.values[index].session.state(active: name == activeName)), 0)
        }
        return MonitorID(raw: id)
    }

    /// Whether ``addMonitor(scene:deliver:)`` delivers a state at once for `scene` (nil: the
    /// active one): the scene is installed.
    public func deliversStateAtOnce(scene: String?) -> Bool {
        installed(scene) != nil
    }

    /// `scene` (nil: the active one) and its entry's index, when it is installed.
    private func installed(_ scene: String?) -> (name: String, index: [String: Entry].Index)? {
        guard let name = scene ?? activeName, let index = index(of: name) else { return nil }
        return (name, index)
    }

    public func removeMonitor(_ id: MonitorID) {
        if let index = monitorIndex(id) { monitors.remove(at: index) }
    }

    /// Where the monitor `id` is in ``monitors``, if it is there.
    private func monitorIndex(_ id: MonitorID) -> Int? {
        var low = 0, high = monitors.count
        while low < high {
            let middle = (low + high) / 2
            if monitors[middle].id < id.raw { low = middle + 1 } else { high = middle }
        }
        return low < monitors.count && monitors[low].id == id.raw ? low : nil
    }

    /// The current state for a monitor's catch-up snapshot (nil when its scene is gone).
    public func snapshot(for id: MonitorID) -> FocusState? {
        guard let index = monitorIndex(id), let name = monitors[index].scene ?? activeName,
            let entry = entries[name]
        else { return nil }
        return entry.session.state(active: name == activeName)
    }

    private func deliver(_ events: [Event], scene: String) {
        guard !events.isEmpty else { return }
        let isActive = scene == activeName
        // Each event to every monitor in turn (each monitor still gets them in order), so the
        // interface encodes each once for all of them.
        // By index: `for event in events` copied each event (a retain and a release of each of
        // its strings and arrays) before the delivery's own copy into its message.
        for index in events.indices {
            deliver(events[index], named: scene, followers: isActive)
        }
    }

    /// Hands `event` to every monitor it reaches (``Monitor/reached(named:followers:)``), as one
    /// delivery (its own number). The monitors as they were when it began: one a monitor's
    /// closure adds is not handed this event, one it removes still is (its stream has ended).
    private func deliver(_ event: Event, named scene: String?, followers: Bool) {
        lastDelivery += 1
        let delivery = lastDelivery
        let message = MonitorMessage.event(event)  // one copy of the event, not one per monitor
        let monitors = self.monitors
        for index in monitors.indices where monitors[index].reached(named: scene, followers: followers) {
            monitors[index].deliver(message, delivery)
        }
    }

    /// Keeps the last directional move among `events` in the scene's `entry` for `ExplainMove`.
    private static func noteDirectionalMove(_ events: [Event], in entry: inout Entry, memory: [String: String], scrolls: ScrollMemory) {
        // By index: `for e in events` copied every event (a retain and a release of each of its
        // strings) to read three of its fields.
        for index in events.indices where events[index].kind == .focus || events[index].kind == .blocked {
            guard let cause = events[index].cause, cause.kind == .directional, let d = cause.direction,
                (events[index].track ?? .main) == .main
            else { continue }
            entry.lastMove = LastMove(
                from: events[index].from, direction: d, revision: events[index].revision, memory: memory, scrolls: scrolls)
        }
    }

    private func announceScene(_ name: String, toFollowers: Bool = true) {
        guard let entry = entries[name] else { return }
        let event = Event(kind: .scene, scene: name, revision: entry.session.revision)
        let reachesFollowers = toFollowers && name == activeName
        deliver(event, named: name, followers: reachesFollowers)
    }

    private func announceActiveChange() {
        guard let name = activeName, let entry = entries[name] else { return }
        let event = Event(kind: .scene, scene: name, revision: entry.session.revision)
        let state = entry.session.state(active: true)
        lastDelivery += 1
        let delivery = lastDelivery
        let message = MonitorMessage.event(event)
        for monitor in monitors where monitor.scene == nil {
            monitor.deliver(message, delivery)
            monitor.deliver(.state(state), 0)
        }
    }
}
