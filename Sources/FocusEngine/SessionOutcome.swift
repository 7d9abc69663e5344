// What a session call returns and what bounds it: `Outcome`, `Limits`, `SearchStrategy`.

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
