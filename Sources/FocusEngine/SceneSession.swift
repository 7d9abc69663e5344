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
public struct SceneSession: Sendable {
    /// Validates `scene` and evaluates default focus at the root (focus.md §4).
    /// Throws `.invalidScene` / `.tooManyNodes`; nothing is created on error.
    public init(scene: Scene, limits: Limits = Limits()) throws(FocusError) {
        fatalError("FocusEngine: not yet implemented")
    }

    /// Which search directional moves use; `.spatialIndex` unless a test or benchmark says otherwise.
    public var searchStrategy: SearchStrategy {
        get { fatalError("FocusEngine: not yet implemented") }
        set { fatalError("FocusEngine: not yet implemented") }
    }

    /// The scene's name.
    public var name: String { fatalError("FocusEngine: not yet implemented") }

    /// The scene as last installed (after updates), for clients that draw it.
    public var scene: Scene { fatalError("FocusEngine: not yet implemented") }

    /// The current revision (bumped once by every call that changes the state).
    public var revision: Int { fatalError("FocusEngine: not yet implemented") }

    /// The state as `FocusState`; `active` is the service's to say.
    public func state(active: Bool) -> FocusState { fatalError("FocusEngine: not yet implemented") }

    /// The `role` of the node holding main focus, if any (typing keys are unmapped for search/text).
    public var focusedRole: String? { fatalError("FocusEngine: not yet implemented") }

    /// True when the node holding main focus has the `edit` interaction (the crown edits it).
    public var focusedIsEditable: Bool { fatalError("FocusEngine: not yet implemented") }

    /// `SetScene` on an existing scene: replace the tree; focus is kept when its node survives as a
    /// candidate, else re-evaluated as for a removed node. On error nothing changes.
    public mutating func replace(with scene: Scene) throws(FocusError) -> Outcome {
        fatalError("FocusEngine: not yet implemented")
    }

    /// `UpdateScene`: upsert subtrees, then remove ids. On error nothing changes.
    public mutating func update(upsert: [NodePatch], remove: [String]) throws(FocusError) -> Outcome {
        fatalError("FocusEngine: not yet implemented")
    }

    /// `Move`. A directional move on the accessibility track throws `.invalidParameter("direction")`.
    public mutating func move(
        _ direction: Direction, wrap: Bool? = nil, track: Track = .main, device: String? = nil
    ) throws(FocusError) -> Outcome {
        fatalError("FocusEngine: not yet implemented")
    }

    /// `Focus`: programmatic focus; nil dismisses. `.noSuchNode` / `.notFocusable`.
    public mutating func focus(_ id: String?, track: Track = .main) throws(FocusError) -> Outcome {
        fatalError("FocusEngine: not yet implemented")
    }

    /// `SetBinding` (focus.md §5): Bool bindings take `isTrue`, value bindings take `value`.
    public mutating func setBinding(
        name: String, isTrue: Bool?, value: String?, track: Track = .main
    ) throws(FocusError) -> Outcome {
        fatalError("FocusEngine: not yet implemented")
    }

    /// `ResetFocus`: re-evaluate default focus in `scope` (nil: the whole scene). `.noSuchScope`.
    public mutating func resetFocus(scope: String?) throws(FocusError) -> Outcome {
        fatalError("FocusEngine: not yet implemented")
    }

    /// `Send` and device commands (focus.md §7). `crown` takes `detents` (signed; positive = next),
    /// with `fraction` / `velocity` passed through to edit events; `wrap` lets a device profile make
    /// crown moves wrap. Unknown commands are published as `command` events, never errors.
    public mutating func send(
        _ command: String, detents: Int? = nil, fraction: Double? = nil, velocity: Double? = nil,
        wrap: Bool? = nil, device: String? = nil
    ) -> Outcome {
        fatalError("FocusEngine: not yet implemented")
    }

    /// `Lint` (focus.md §10) without installing the scene. `.tooManyNodes` above
    /// `limits.lintMaxCandidates` candidates; `.invalidScene` as for `init`.
    public static func lint(_ scene: Scene, limits: Limits = Limits()) throws(FocusError) -> [Problem] {
        fatalError("FocusEngine: not yet implemented")
    }
}
