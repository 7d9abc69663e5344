#if canImport(Glibc)
import Glibc
#endif

/// Signals taken synchronously: blocked in every thread, received by `sigwaitinfo`.
///
/// focusd handles SIGTERM, SIGINT and SIGHUP this way instead of with handlers or Swift
/// concurrency: the waiting thread sleeps in the kernel, so an idle daemon never wakes up.
public struct SignalSet: Sendable {
    private let signals: [Int32]

    /// Blocks `signals` in the calling thread (call it before starting threads: they inherit it).
    public static func block(_ signals: [Int32]) -> SignalSet {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        return SignalSet(signals: signals)
    }

    /// Waits for one of the signals and returns it.
    public func wait() -> Int32 {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        while true {
            let received = sigwaitinfo(&set, nil)
            if received > 0 { return received }
            // EINTR (another signal's handler ran): wait again.
        }
    }
}
