import Foundation

/// Says when a process ended, without polling: made before `run()` (it takes the process's
/// termination handler), then ``wait(seconds:)`` blocks until the exit or the timeout.
final class ExitSignal: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    /// `also` runs first on exit (e.g. ``ReadinessSocket/processExited()``, to end a wait for
    /// readiness).
    init(_ process: Process, also: (@Sendable () -> Void)? = nil) {
        process.terminationHandler = { [semaphore] _ in
            also?()
            semaphore.signal()
        }
    }

    /// Whether the process ended within `seconds` (stays true once it did).
    func wait(seconds: Double) -> Bool {
        guard semaphore.wait(timeout: .now() + seconds) == .success else { return false }
        semaphore.signal()
        return true
    }
}
