import Foundation
import Testing

extension ServiceSocketTests {
    /// The reference examples (focus.md §12) driven through the daemon's socket by an independent
    /// Varlink implementation: the Python `varlink` package (peer/run_examples.py).
    @Suite("Reference examples through the socket")
    struct ExamplesOverSocket {
        @Test("every reference example holds through the socket, driven by the Python varlink client")
        func examplesThroughPythonClient() throws {
            let files = try FileManager.default.contentsOfDirectory(atPath: ServiceTestPaths.examples)
                .filter { $0.hasSuffix(".json") }.sorted()
            try #require(files.count >= 19, "the examples are missing from \(ServiceTestPaths.examples)")
            let daemon = try FocusdProcess()
            defer { daemon.stop() }
            let script = ServiceTestPaths.peerScripts + "/run_examples.py"
            let run = try Subprocess.run(
                "/usr/bin/env", ["python3", script, daemon.socketPath] + files.map { ServiceTestPaths.examples + "/" + $0 },
                timeout: 40)
            #expect(run.status == 0, "\(run.output)")
            let passed = run.output.split(separator: "\n").filter { $0.hasPrefix("ok ") }.count
            #expect(passed == files.count, "\(run.output)")
            #expect(daemon.isRunning, "the daemon died: \(daemon.log_)")
        }
    }
}
