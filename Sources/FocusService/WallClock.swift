#if canImport(Glibc)
import Glibc
#endif

/// The two clocks the input path uses: kernel event stamps are CLOCK_REALTIME (µs since the
/// epoch), timers run on CLOCK_MONOTONIC (NIO's deadlines).
enum WallClock {
    /// Microseconds since the epoch, now.
    static func nowUsec() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }
}
