// When to try again to open a node that could not be opened.

/// The back-off of reopen attempts: one timed retry per delay, then retries only on the node's
/// next change (udev `change`, inotify IN_ATTRIB), so an idle loop never wakes up on its own.
struct RetrySchedule: Equatable, Sendable {
    /// Delays after the 1st, 2nd, 3rd failure, in microseconds.
    var delaysUsec: [Int64] = [100_000, 500_000, 2_000_000]

    /// The monotonic time of the next timed attempt after `failures` failures at `now`, or nil
    /// when the timed attempts are used up.
    func nextAttempt(afterFailures failures: Int, now: Int64) -> Int64? {
        guard failures >= 1, failures <= delaysUsec.count else { return nil }
        return now + delaysUsec[failures - 1]
    }
}
