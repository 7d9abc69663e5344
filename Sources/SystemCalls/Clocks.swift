#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The two clocks: CLOCK_MONOTONIC for timers and deadlines, CLOCK_REALTIME for kernel event
/// stamps (evdev reports microseconds since the epoch). `clock_gettime` is called only here.
extension Posix {
    /// CLOCK_MONOTONIC now, in microseconds.
    public static func monotonicUsec() -> Int64 { microseconds(now(CLOCK_MONOTONIC)) }

    /// CLOCK_REALTIME now, in microseconds (the clock of evdev timestamps).
    public static func realtimeUsec() -> Int64 { microseconds(now(CLOCK_REALTIME)) }

    /// CLOCK_MONOTONIC now, in nanoseconds.
    public static func monotonicNanoseconds() -> UInt64 {
        let time = now(CLOCK_MONOTONIC)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Sleeps until CLOCK_MONOTONIC reads `nanoseconds` (`clock_nanosleep` with `TIMER_ABSTIME`,
    /// resumed after a signal handler ran).
    public static func sleep(untilMonotonicNanoseconds nanoseconds: UInt64) {
        var time = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        // clock_nanosleep returns the error number instead of setting errno.
        _ = try? outcome("clock_nanosleep") { () -> (Int32, errno: Int32?) in
            let result = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil)
            return (result, result == 0 ? nil : result)
        }
    }

    private static func now(_ clock: clockid_t) -> timespec {
        var time = timespec()
        clock_gettime(clock, &time)
        return time
    }

    private static func microseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000
    }
}
