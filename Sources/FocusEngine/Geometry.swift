// Directional scoring (focus.md §2): every direction is turned into a move to the left in a
// "canonical" coordinate system, so one set of formulas serves all four.

/// A frame seen from a directional move: the move goes towards smaller `l`; `t`/`b` is the cross axis.
struct CanonRect: Sendable {
    var l: Double
    var t: Double
    var r: Double
    var b: Double

    /// Mirrors / transposes `rect` so that a move in `direction` becomes a move to the left.
    @inline(__always)
    init(_ rect: Rect, _ direction: Direction) {
        switch direction {
        case .left: (l, t, r, b) = (rect.x, rect.y, rect.x + rect.width, rect.y + rect.height)
        case .right: (l, t, r, b) = (-(rect.x + rect.width), rect.y, -rect.x, rect.y + rect.height)
        case .up: (l, t, r, b) = (rect.y, rect.x, rect.y + rect.height, rect.x + rect.width)
        default: (l, t, r, b) = (-(rect.y + rect.height), rect.x, -rect.y, rect.x + rect.width)
        }
    }
}

/// The measurements of one candidate frame `d` against the source frame `s`.
struct Measure: Sendable {
    var inDirection: Bool
    var inBeam: Bool
    var fullyBeyond: Bool
    var major: Double
    var majorFar: Double
    var score: Double

    @inline(__always)
    init(s: CanonRect, d: CanonRect) {
        inDirection = (s.r > d.r || s.l >= d.r) && s.l > d.l
        inBeam = d.b > s.t && d.t < s.b
        fullyBeyond = s.l >= d.r
        major = max(0, s.l - d.r)
        majorFar = max(1, s.l - d.l)
        let minor = abs((d.t + (d.b - d.t) / 2) - (s.t + (s.b - s.t) / 2))
        score = 13 * major * major + minor * minor
    }
}

/// One scored target: a node slot with its measure.
struct Scored: Sendable {
    var slot: Int
    var measure: Measure

    /// Whether `other` (measured `m`) is better than this one by score: lower, or equal and
    /// earlier in tree order (focus.md §2's tie rule, the same for the index and brute force).
    @inline(__always)
    func isBeaten(by other: Int, _ m: Measure, slots: [Slot]) -> Bool {
        m.score < measure.score || (m.score == measure.score && SceneStore.precedes(slots, other, slot))
    }
}

extension Direction {
    /// Left and right.
    var isHorizontal: Bool { self == .left || self == .right }
}

/// How the winner is chosen among the targets of a directional search (focus.md §2).
///
/// "Better than" is not transitive when in-beam and out-of-beam candidates mix on a vertical move
/// (the `majorFar` rule), so a linear scan would depend on scan order. The engine therefore decides
/// in two exact steps, which agree with "better than" whenever one candidate beats all others:
/// `bestBeam` is the in-beam candidate with the lowest score and `bestOut` the out-of-beam one (ties:
/// earlier in tree order); then `bestBeam` wins if it beam-beats `bestOut`, else the lower score wins
/// (equal scores: earlier in tree order). Under `tvos` only `bestBeam` exists.
enum Winner {
    @inline(__always)
    static func beamBeats(_ d1: Measure, _ d2: Measure, horizontal: Bool) -> Bool {
        guard d1.inBeam, !d2.inBeam else { return false }
        if !d2.fullyBeyond { return true }
        if horizontal { return true }
        return d1.major < d2.majorFar
    }

    static func combine(
        beam: Scored?, out: Scored?, horizontal: Bool, precedes: (Int, Int) -> Bool
    ) -> Scored? {
        guard let beam else { return out }
        guard let out else { return beam }
        if beamBeats(beam.measure, out.measure, horizontal: horizontal) { return beam }
        if beam.measure.score < out.measure.score { return beam }
        if out.measure.score < beam.measure.score { return out }
        return precedes(beam.slot, out.slot) ? beam : out
    }
}
