import SystemCalls

/// The two clocks the input path uses: kernel event stamps are CLOCK_REALTIME (µs since the
/// epoch), timers run on CLOCK_MONOTONIC (NIO's deadlines).
enum WallClock {
    /// Microseconds since the epoch, now.
    static func nowUsec() -> Int64 {
        Posix.realtimeUsec()
    }
}
