// Reduces libinput's touchpad events to focus gestures: swipes and taps. Pure: no clock inside;
// the caller feeds samples and calls `expire` at `deadline`.
import InputMapping

/// Turns a touch surface's swipes, pointer motion bursts and clicks into `Gesture`s.
///
///     idle ──motion──▶ burst ──motion within gap──▶ burst (accumulate)
///       ▲                │ gap elapsed (expire) / swipe begins / click
///       └────────────────┘ emit .swipe if the burst moved at least minimumDistance
///     idle ──swipe begin (3/4 fingers)──▶ swiping ──update──▶ swiping ──end──▶ emit .swipe (not if cancelled)
///     any ──button press──▶ emit the pending burst, then .tap
struct GestureReducer: Equatable {
    /// One libinput event, motion in millimetres, time in microseconds of one monotonic clock.
    enum Sample: Equatable {
        case swipeBegin(fingers: Int)
        case swipeUpdate(dx: Double, dy: Double)
        case swipeEnd(cancelled: Bool)
        case pointerMotion(dx: Double, dy: Double)
        case buttonPress
        case buttonRelease
    }

    /// A pointer burst ends after this long without motion.
    var burstGapUsec: Int64 = 80_000
    /// Shorter motion (in mm) is a wobble, not a swipe.
    var minimumDistance: Double = 3.0

    private var swipe: (dx: Double, dy: Double)?
    private var burst: (dx: Double, dy: Double, lastUsec: Int64)?

    init(burstGapUsec: Int64 = 80_000, minimumDistance: Double = 3.0) {
        self.burstGapUsec = burstGapUsec
        self.minimumDistance = minimumDistance
    }

    static func == (a: GestureReducer, b: GestureReducer) -> Bool {
        a.burstGapUsec == b.burstGapUsec && a.minimumDistance == b.minimumDistance
            && a.swipe?.dx == b.swipe?.dx && a.swipe?.dy == b.swipe?.dy
            && a.burst?.dx == b.burst?.dx && a.burst?.dy == b.burst?.dy && a.burst?.lastUsec == b.burst?.lastUsec
    }

    /// When `expire` must be called: the end of the current pointer burst, if any.
    var deadline: Int64? { burst.map { $0.lastUsec + burstGapUsec } }

    /// Feeds one sample at `timeUsec`; returns the gestures it completes.
    mutating func handle(_ sample: Sample, at timeUsec: Int64) -> [Gesture] {
        var done = expire(now: timeUsec)
        switch sample {
        case .swipeBegin(let fingers):
            done += endBurst(at: timeUsec)
            swipe = fingers >= 3 ? (0, 0) : nil
        case .swipeUpdate(let dx, let dy):
            if let current = swipe { swipe = (current.dx + dx, current.dy + dy) }
        case .swipeEnd(let cancelled):
            if let current = swipe, !cancelled, Self.length(current.dx, current.dy) >= minimumDistance {
                done.append(.swipe(dx: current.dx, dy: current.dy, timeUsec: timeUsec))
            }
            swipe = nil
        case .pointerMotion(let dx, let dy):
            let current = burst ?? (0, 0, timeUsec)
            burst = (current.dx + dx, current.dy + dy, timeUsec)
        case .buttonPress:
            done += endBurst(at: timeUsec)
            done.append(.tap(timeUsec: timeUsec))
        case .buttonRelease:
            break
        }
        return done
    }

    /// Ends a burst whose gap has elapsed by `now`.
    mutating func expire(now: Int64) -> [Gesture] {
        guard let deadline, now >= deadline, let current = burst else { return [] }
        return endBurst(at: current.lastUsec)
    }

    private mutating func endBurst(at timeUsec: Int64) -> [Gesture] {
        guard let current = burst else { return [] }
        burst = nil
        guard Self.length(current.dx, current.dy) >= minimumDistance else { return [] }
        return [.swipe(dx: current.dx, dy: current.dy, timeUsec: current.lastUsec)]
    }

    private static func length(_ dx: Double, _ dy: Double) -> Double { (dx * dx + dy * dy).squareRoot() }
}
