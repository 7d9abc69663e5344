#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Signals taken synchronously: blocked in every thread, received by `sigwaitinfo`.
///
/// focusd handles SIGTERM, SIGINT and SIGHUP this way instead of with handlers or Swift
/// concurrency: the waiting thread sleeps in the kernel, so an idle daemon never wakes up.
public struct SignalSet: Sendable {
    private let signals: [Int32]

    /// Blocks `signals` in the calling thread (call it before starting threads: they inherit it).
    public static func block(_ signals: [Int32]) -> SignalSet {
        var set = Self.set(of: signals)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        return SignalSet(signals: signals)
    }

    /// Waits for one of the signals and returns it (`EINTR`, another signal's handler having run,
    /// waits again).
    public func wait() -> Int32 {
        var set = Self.set(of: signals)
        while true {
            // sigwaitinfo only fails with EINTR for a valid set; anything else would be a bug here.
            if let received = try? Posix.required("sigwaitinfo", { sigwaitinfo(&set, nil) }), received > 0 {
                return received
            }
        }
    }

    private static func set(of signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        return set
    }
}
