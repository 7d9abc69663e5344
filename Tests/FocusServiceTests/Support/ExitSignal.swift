import Foundation

/// Says when a process ended, without polling: made before `run()` (it takes the process's
/// termination handler), then ``wait(seconds:)`` blocks until the exit or the timeout.
final class ExitSignal: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    init(_ process: Process) {
        process.terminationHandler = { [semaphore] _ in semaphore.signal() }
    }

    /// Whether the process ended within `seconds` (stays true once it did).
    func wait(seconds: Double) -> Bool {
        guard semaphore.wait(timeout: .now() + seconds) == .success else { return false }
        semaphore.signal()
        return true
    }
}
