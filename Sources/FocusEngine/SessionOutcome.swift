// What a session call returns and what bounds it: `Outcome`, `Limits`, `SearchStrategy`.

/// Limits applied to scenes (service.md §2).
public struct Limits: Hashable, Sendable {
    /// Nodes per scene; above it `TooManyNodes` (default 100,000, focus.md §1).
    public var maxNodes: Int
    /// Levels per scene tree; deeper is `InvalidScene` (default 100, focus.md §1).
    public var maxDepth: Int
    /// Candidates `Lint` audits at most; above it `TooManyNodes` (default 20,000, focus.md §10).
    public var lintMaxCandidates: Int

    /// The contract's defaults unless a limit is given (the daemon's config may change them).
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

    /// An outcome; a call that did nothing returns the defaults.
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
