// What a device's rotary input is, and how many of its counts make one detent (input.md §5).

/// The rotary source of a device and its default counts per detent.
public enum RotaryKind: Hashable, Sendable {
    /// Griffin PowerMate: REL_DIAL, ~94 counts per turn, no physical detents → 4 counts per detent.
    case powerMate
    /// Microsoft Surface Dial: REL_DIAL in 0.1° → 100 counts (10°) per detent.
    case surfaceDial
    /// A GPIO rotary encoder (rotary-encoder driver, relative axis): 1 step × its steps-per-period.
    case gpioEncoder(axis: UInt16)
    /// Another REL_DIAL knob: 1 count per detent.
    case dial
    /// REL_WHEEL_HI_RES: 120 per detent (REL_WHEEL beside it is ignored).
    case hiResWheel
    /// REL_WHEEL without a hi-res axis: 1 per detent.
    case wheel
    /// ABS_WHEEL (a ring or absolute knob): its range / 24 per detent, wrapping at the ends.
    case absoluteWheel(AxisInfo)

    /// The rotary kind of a device, nil when it has none. Pointer wheels count (they act as a crown).
    public static func detect(_ identity: DeviceIdentity, deviceClass: DeviceClass) -> RotaryKind? {
        let rel = identity.capabilities.relativeAxes
        let name = identity.name.lowercased()
        if rel.contains(EventCode.REL_DIAL) {
            if name.includes("powermate") || (identity.vendor == 0x077D && [0x0410, 0x04AA].contains(identity.product)) {
                return .powerMate
            }
            if name.includes("surface dial") || (identity.vendor == 0x045E && identity.product == 0x091B) {
                return .surfaceDial
            }
            return .dial
        }
        if rel.contains(EventCode.REL_WHEEL_HI_RES) { return .hiResWheel }
        if rel.contains(EventCode.REL_WHEEL) { return .wheel }
        if let info = identity.capabilities.absoluteAxes[EventCode.ABS_WHEEL], deviceClass == .rotary {
            return .absoluteWheel(info)
        }
        if deviceClass == .rotary {
            // A GPIO encoder reports on the one relative axis its device tree names.
            for axis in [EventCode.REL_X, EventCode.REL_Y, EventCode.REL_Z, EventCode.REL_MISC] where rel.contains(axis) {
                return .gpioEncoder(axis: axis)
            }
        }
        return nil
    }

    /// Default counts per detent (a profile's `rotary.countsPerDetent` replaces it; for a GPIO
    /// encoder that is its steps-per-period).
    public var defaultCountsPerDetent: Double {
        switch self {
        case .powerMate: 4
        case .surfaceDial: 100
        case .gpioEncoder: 1
        case .dial: 1
        case .hiResWheel: 120
        case .wheel: 1
        case .absoluteWheel(let info): max(1, Double(Int64(info.maximum) - Int64(info.minimum) + 1) / 24)
        }
    }

    /// The (type, code) of the event that carries this kind's motion.
    var source: (type: UInt16, code: UInt16) {
        switch self {
        case .powerMate, .surfaceDial, .dial: (EventCode.EV_REL, EventCode.REL_DIAL)
        case .gpioEncoder(let axis): (EventCode.EV_REL, axis)
        case .hiResWheel: (EventCode.EV_REL, EventCode.REL_WHEEL_HI_RES)
        case .wheel: (EventCode.EV_REL, EventCode.REL_WHEEL)
        case .absoluteWheel: (EventCode.EV_ABS, EventCode.ABS_WHEEL)
        }
    }

    /// Wheels count up for "away from the user"; the crown's positive is wheel down (next).
    var sign: Double {
        switch self {
        case .hiResWheel, .wheel: -1
        default: 1
        }
    }
}

/// Turns rotary counts into detents: keeps the remainder, drops it on a change of direction,
/// measures velocity in detents per second (input.md §5).
public struct RotaryAccumulator: Hashable, Sendable {
    public let countsPerDetent: Double
    /// Counts not yet making a whole detent, signed.
    public private(set) var remainder: Double = 0
    /// Recent motion (kernel µs, detents), for velocity.
    private var samples: [(time: Int64, detents: Double)] = []
    static let velocityWindowUsec: Int64 = 250_000

    public init(countsPerDetent: Double) {
        self.countsPerDetent = countsPerDetent
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.countsPerDetent == rhs.countsPerDetent && lhs.remainder == rhs.remainder
            && lhs.samples.map(\.time) == rhs.samples.map(\.time) && lhs.samples.map(\.detents) == rhs.samples.map(\.detents)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(countsPerDetent)
        hasher.combine(remainder)
    }

    /// Adds signed counts at a kernel time: whole detents (signed), the kept remainder as a
    /// fraction of a detent, and the velocity in detents per second (signed).
    public mutating func add(_ counts: Double, timeUsec: Int64) -> (detents: Int, fraction: Double, velocity: Double) {
        guard counts != 0 else { return (0, remainder / countsPerDetent, velocity(at: timeUsec)) }
        if remainder != 0 && (remainder > 0) != (counts > 0) {
            remainder = 0
        }
        if let last = samples.last, (last.detents > 0) != (counts > 0) {
            samples.removeAll()
        }
        remainder += counts
        let whole = (remainder / countsPerDetent).rounded(.towardZero)
        remainder -= whole * countsPerDetent
        // Float noise: snap a remainder within a millionth of a detent to a whole one.
        if abs(remainder) < countsPerDetent * 1e-9 { remainder = 0 }
        samples.append((timeUsec, counts / countsPerDetent))
        // Keep the window plus the one sample before it (the start of the first interval).
        while samples.count > 2 && samples[1].time <= timeUsec - Self.velocityWindowUsec { samples.removeFirst() }
        return (Int(whole), remainder / countsPerDetent, velocity(at: timeUsec))
    }

    /// Detents per second over the last 250 ms.
    func velocity(at timeUsec: Int64) -> Double {
        guard let last = samples.last else { return 0 }
        let inWindow = samples.filter { $0.time > timeUsec - Self.velocityWindowUsec }
        guard !inWindow.isEmpty else { return 0 }
        let total = inWindow.reduce(0) { $0 + $1.detents }
        let firstIndex = samples.firstIndex { $0.time > timeUsec - Self.velocityWindowUsec }!
        let start: Int64
        if firstIndex > 0 {
            // The interval before the window's first sample counts at most back to the window's
            // start: a turn after a pause must not be diluted by the pause.
            start = max(samples[firstIndex - 1].time, timeUsec - Self.velocityWindowUsec)
        } else {
            start = last.time - Self.velocityWindowUsec  // from rest: spread over the window
        }
        let seconds = Double(max(1000, timeUsec - start)) / 1_000_000
        return total / seconds
    }

    /// Forgets the remainder and the motion history.
    public mutating func reset() {
        remainder = 0
        samples.removeAll()
    }
}
