import Foundation
import Testing
import Varlink

/// The checkout's root, from this file's path (Tests/FocusServiceTests/Support/…).
enum ServiceTestPaths {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()
    /// The daemon `swift build --build-tests` left in .build/debug.
    static var focusd: String { root + "/.build/debug/focusd" }
    static var examples: String { root + "/Tests/FocusEngineTests/Examples" }
    static var peerScripts: String { root + "/Tests/FocusServiceTests/peer" }
    /// The contract's folder beside the checkout (`../shared/spec`, where CI puts it).
    static var sharedSpec: String { root + "/../shared/spec" }
    /// An interface file as the contract gives it, else the package's copy (the daemon embeds
    /// that copy; EmbeddedResourcesTests keeps the three equal).
    static func interfaceFile(_ name: String) -> String {
        let spec = sharedSpec + "/" + name
        if FileManager.default.fileExists(atPath: spec) { return spec }
        return root + "/Sources/FocusService/Resources/" + name
    }
    static var focusInterface: String { interfaceFile("io.focusd.Focus.varlink") }
}

/// A `focusd --no-devices` started for one test on a socket in a fresh temporary directory,
/// stopped with SIGTERM by ``stop()`` (or killed when the value goes away without it).
final class FocusdProcess: @unchecked Sendable {
    let directory: String
    let socketPath: String
    let process = Process()
    private let logFile: LogFile
    private var stopped = false
    private var exited: ExitSignal?

    /// Starts the daemon and waits (at most 20 s, only a bound for a hung daemon) until it says
    /// it serves: `READY=1` on the `$NOTIFY_SOCKET` this test gives it, as systemd would.
    ///
    /// - Parameters:
    ///   - config: the text of a config file passed with `--config`.
    ///   - umask: the umask the daemon starts with (through `sh -c 'umask …; exec …'`).
    ///   - demo: install the demo scene (it is in before the daemon is ready).
    ///   - arguments: more command-line arguments (e.g. `--input-directory`, replacing `--no-devices`).
    ///   - fileLimit: the daemon's `RLIMIT_NOFILE` (through `sh -c 'ulimit -n …; exec …'`).
    init(config: String? = nil, umask: String? = nil, demo: Bool = false, devices: [String]? = nil, fileLimit: Int? = nil) throws {
        directory = try Self.makeTemporaryDirectory()
        socketPath = directory + "/run/focusd.sock"
        logFile = LogFile(path: directory + "/focusd.log")
        var arguments = ["--socket", socketPath]
        arguments += devices ?? ["--no-devices"]
        if demo { arguments.append("--demo") }
        if let config {
            let path = directory + "/focusd.toml"
            try config.write(toFile: path, atomically: true, encoding: .utf8)
            arguments += ["--config", path]
        }
        let binary = ServiceTestPaths.focusd
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw TestFailure("\(binary) is missing: run `swift build --build-tests` first")
        }
        if umask != nil || fileLimit != nil {
            let setup = (umask.map { ["umask \($0)"] } ?? []) + (fileLimit.map { ["ulimit -n \($0)"] } ?? [])
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", (setup + ["exec \"$0\" \"$@\""]).joined(separator: " && "), binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
        }
        let readiness = try ReadinessSocket(directory: directory)
        process.environment = readiness.environment
        let log = logFile.handleForWriting()
        process.standardOutput = log
        process.standardError = log
        exited = ExitSignal(process, also: readiness.processExited)
        try process.run()
        if readiness.waitForReady(seconds: 20) { return }
        terminate()
        throw TestFailure("focusd did not come up on \(socketPath): \(log_)")
    }

    deinit {
        terminate()
        try? FileManager.default.removeItem(atPath: directory)
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    /// What the daemon logged so far.
    var log_: String { logFile.text }

    /// Waits (at most `seconds`, a bound for a daemon that never says it) until the daemon has
    /// logged `text`; whether it did.
    func waitForLog(_ text: String, seconds: Double = 20) -> Bool { logFile.wait(seconds: seconds) { $0.contains(text) } }

    /// Waits until the daemon's log satisfies `check`.
    func waitForLog(seconds: Double = 20, until check: (String) -> Bool) -> Bool { logFile.wait(seconds: seconds, until: check) }

    /// A new client connection (30 s per reply unless said otherwise).
    func connect(timeout: Duration = .seconds(10)) throws -> TestClient {
        try TestClient(path: socketPath, timeout: timeout)
    }

    /// Resident memory from /proc/<pid>/status, in KiB.
    func residentKiB() -> Int? { ProcStatus.residentKiB(pid: pid) }

    /// SIGTERM, then waits up to 5 s for a clean exit; returns the exit status (nil: had to be killed).
    @discardableResult
    func stop() -> Int32? {
        guard !stopped else { return process.isRunning ? nil : process.terminationStatus }
        stopped = true
        guard process.isRunning else { return process.terminationStatus }
        kill(pid, SIGTERM)
        if exited?.wait(seconds: 5) != true {
            kill(pid, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    private func terminate() {
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
        }
        stopped = true
    }

    static func makeTemporaryDirectory() throws -> String {
        var template = Array("/tmp/focusd-service-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed: errno \(errno)") }
        return String(cString: made)
    }
}

/// A failure of the test's own machinery (not of the daemon).
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Figures from /proc.
enum ProcStatus {
    /// VmRSS of `pid`, in KiB.
    static func residentKiB(pid: Int32) -> Int? { field("VmRSS:", pid: pid) }

    /// VmHWM of `pid` (the most it was ever resident), in KiB.
    static func peakResidentKiB(pid: Int32) -> Int? { field("VmHWM:", pid: pid) }

    private static func field(_ name: String, pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }
}

/// Runs a program to completion and returns its status and output (stdout and stderr together).
enum Subprocess {
    static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = 30) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// `python3 -c SCRIPT ARGS…` (python3 from PATH, with the varlink package).
    static func python(_ script: String, _ arguments: [String], timeout: TimeInterval = 30) throws -> (status: Int32, output: String) {
        try run("/usr/bin/env", ["python3", "-c", script] + arguments, timeout: timeout)
    }
}

/// Milliseconds since an arbitrary point (monotonic).
func monotonicMilliseconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1_000_000
}

/// The p-th percentile (0…100) of `values`.
func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * p / 100).rounded()))
    return sorted[index]
}

/// A client of the tests that sends calls and waits for replies: over the socket (``TestClient``)
/// or in process (``LocalClient``). The calls below are the same on both.
protocol ServiceClient: AnyObject {
    func send(_ call: VarlinkCall) throws
    /// The next reply (`nil`: the client's own default wait); throws when none comes.
    func receive(timeout: Duration?) throws -> VarlinkReply
}

extension ServiceClient {
    /// Calls `method`; an error reply throws `VarlinkError`.
    @discardableResult
    func call(_ method: String, _ parameters: JSONValue = [:]) throws -> JSONValue {
        try send(VarlinkCall(method: method, parameters: parameters))
        let reply = try receive(timeout: nil)
        if let error = reply.error { throw VarlinkError(error, parameters: reply.parameters) }
        return reply.parameters
    }

    /// Calls `method` and returns the error it failed with (nil when it succeeded).
    func error(calling method: String, _ parameters: JSONValue = [:]) throws -> VarlinkError? {
        do {
            try call(method, parameters)
            return nil
        } catch let error as VarlinkError {
            return error
        }
    }

    /// Sends a `more` call; read its replies with `next(timeout:)`.
    func callMore(_ method: String, _ parameters: JSONValue = [:]) throws -> Self {
        try send(VarlinkCall(method: method, parameters: parameters, more: true))
        return self
    }
}

/// A blocking Varlink client for the tests.
///
/// Not `Varlink.VarlinkClient`: in a debug build its receive path costs ~12 ms per reply (it
/// zero-fills 64 KiB per read), which would swamp every timing here. This one reads into a reused
/// buffer and finds the NUL with memchr; replies are parsed with the Varlink module's parser.
final class TestClient: ServiceClient {
    let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var pending: [UInt8] = []
    /// The default wait for each reply.
    var timeout: Duration

    init(path: String, timeout: Duration = .seconds(10)) throws {
        self.timeout = timeout
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let code = errno
            // Closed here, and marked so: a class whose init throws after every stored property is
            // set still runs deinit, which would close this number a second time, by then perhaps
            // a descriptor another test (running in parallel) just opened.
            close()
            throw TestFailure("connect \(path): errno \(code)")
        }
    }

    private var closed = false
    deinit { close() }

    func close() {
        if !closed { Glibc.close(fd) }
        closed = true
    }

    // MARK: Calls (``ServiceClient``)

    /// The next reply's parameters on a stream (nil on timeout); an error reply throws.
    func next(timeout: Duration) throws -> JSONValue? {
        guard let text = try receiveText(timeout: timeout) else { return nil }
        let reply = try VarlinkReply(message: Array(text.utf8))
        if let error = reply.error { throw VarlinkError(error, parameters: reply.parameters) }
        return reply.parameters
    }

    func send(_ call: VarlinkCall) throws {
        try sendRaw(call.serialized() + [0])
    }

    /// Sends bytes as they are.
    func sendRaw(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw TestFailure("send: errno \(errno)") }
            offset += sent
        }
    }

    /// Sends `message` (a whole call, NUL included) and returns the reply's text, unparsed.
    func roundTrip(_ message: [UInt8]) throws -> String {
        try sendRaw(message)
        guard let text = try receiveText(timeout: timeout) else { throw TestFailure("no reply within \(timeout)") }
        return text
    }

    /// The next reply, parsed.
    func receive(timeout: Duration? = nil) throws -> VarlinkReply {
        let wait = timeout ?? self.timeout
        guard let text = try receiveText(timeout: wait) else { throw TestFailure("no reply within \(wait)") }
        return try VarlinkReply(message: Array(text.utf8))
    }

    /// The next message's text, or nil when none came within `timeout`; throws when the
    /// connection is closed.
    func receiveText(timeout: Duration) throws -> String? {
        let deadline = monotonicMilliseconds() + Double(timeout.components.seconds) * 1000
            + Double(timeout.components.attoseconds) / 1e15
        while true {
            let end: Int? = pending.withUnsafeBytes { raw in
                guard let base = raw.baseAddress, let found = memchr(base, 0, raw.count) else { return nil }
                return UnsafeRawPointer(found) - base
            }
            if let end {
                let text = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeFirst(end + 1)
                return text
            }
            let left = deadline - monotonicMilliseconds()
            guard left > 0 else { return nil }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(left.rounded(.up))) == 1 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw ConnectionClosed() }
            pending.append(contentsOf: buffer[..<count])
        }
    }

    struct ConnectionClosed: Error {}

    /// Whether the daemon closed the connection within `timeout` (replies meanwhile are dropped).
    func waitForClose(timeout: Duration) -> Bool {
        let deadline = monotonicMilliseconds() + Double(timeout.components.seconds) * 1000
        while monotonicMilliseconds() < deadline {
            do {
                _ = try receiveText(timeout: .milliseconds(Int64(max(1, deadline - monotonicMilliseconds()))))
            } catch is ConnectionClosed {
                return true
            } catch {
                return false
            }
        }
        return false
    }

    /// The next `expected` events of a Monitor stream (a state reply counts as itself), each
    /// waited for (10 s bounds a daemon that never sends it), then any more already here. A
    /// call's events are queued to monitors before its reply, so once the caller has the reply
    /// nothing of it is still to come.
    func events(expected: Int) throws -> [JSONValue] {
        var events: [JSONValue] = []
        while events.count < expected, let next = try next(timeout: .seconds(10)) { events.append(next["event"] ?? next) }
        while let next = try next(timeout: .milliseconds(1)) { events.append(next["event"] ?? next) }
        return events
    }

    /// Shuts the sending side and waits until the daemon, having answered everything, closes
    /// the connection; then closes it here. Once it returns true the daemon counts the
    /// connection no more and has dropped its scenes (both happen as it closes the connection);
    /// `timeout` only bounds a daemon that never closes it.
    func closeAndWaitUntilReleased(timeout: Duration = .seconds(10)) -> Bool {
        shutdown(fd, Int32(SHUT_WR))
        defer { close() }
        return waitForClose(timeout: timeout)
    }

    /// A call message as bytes, NUL included.
    static func message(_ method: String, _ parameters: JSONValue) -> [UInt8] {
        VarlinkCall(method: method, parameters: parameters).serialized() + [0]
    }
}
