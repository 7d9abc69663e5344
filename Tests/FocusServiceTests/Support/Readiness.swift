import Foundation

/// The `$NOTIFY_SOCKET` a test gives the daemon it spawns: a datagram socket the daemon sends
/// `READY=1` to once it serves (`sd_notify`, as a `Type=notify` unit gets it). The test waits
/// on that datagram, not on a retried connection; when the process ends first, its exit
/// handler sends `EXITED=1` here, so a daemon that dies at start-up fails the wait at once.
final class ReadinessSocket: @unchecked Sendable {
    let path: String
    private let fd: Int32

    init(directory: String) throws {
        path = directory + "/notify.sock"
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("notify socket: errno \(errno)") }
        let bound = Self.withAddress(path) { bind(fd, $0, $1) }
        guard bound == 0 else {
            let code = errno
            Glibc.close(fd)
            throw TestFailure("bind \(path): errno \(code)")
        }
    }

    deinit { Glibc.close(fd) }

    /// The environment for the daemon: the caller's, with `NOTIFY_SOCKET` set.
    var environment: [String: String] {
        ProcessInfo.processInfo.environment.merging(["NOTIFY_SOCKET": path]) { $1 }
    }

    /// Says the process ended (from its termination handler).
    func processExited() {
        let sender = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard sender >= 0 else { return }
        defer { Glibc.close(sender) }
        let message = Array("EXITED=1".utf8)
        _ = Self.withAddress(path) { address, length in
            message.withUnsafeBytes { sendto(sender, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), address, length) }
        }
    }

    /// Blocks until the daemon says `READY=1` (true) or its process ends (false); `seconds` is
    /// only a bound for a daemon that hangs, never the expected wait.
    func waitForReady(seconds: Double) -> Bool {
        let deadline = monotonicMilliseconds() + seconds * 1000
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = deadline - monotonicMilliseconds()
            guard left > 0 else { return false }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(left.rounded(.up))) == 1 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { continue }
            let lines = String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n")
            if lines.contains("READY=1") { return true }
            if lines.contains("EXITED=1") { return false }
        }
    }

    private static func withAddress<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}

/// The file a spawned daemon logs to (its stdout and stderr). Written by the daemon itself, so
/// what it logged before a reply is in the file when the reply arrives; a test that waits for a
/// line blocks on inotify (the file was written) rather than re-reading it on a timer.
final class LogFile: @unchecked Sendable {
    let path: String

    init(path: String) {
        self.path = path
        _ = FileManager.default.createFile(atPath: path, contents: nil)
    }

    /// A handle for the process's stdout and stderr.
    func handleForWriting() -> FileHandle? { FileHandle(forWritingAtPath: path) }

    /// Everything written so far.
    var text: String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// Blocks until `check` holds for the file's text (true), or `seconds` pass without it
    /// (false; only a bound for a daemon that never writes it).
    func wait(seconds: Double = 20, until check: (String) -> Bool) -> Bool {
        let watch = inotify_init1(Int32(IN_CLOEXEC))
        guard watch >= 0 else { return check(text) }
        defer { Glibc.close(watch) }
        // Watching before the first look: a write between the two still wakes the wait.
        guard inotify_add_watch(watch, path, UInt32(IN_MODIFY)) >= 0 else { return check(text) }
        let deadline = monotonicMilliseconds() + seconds * 1000
        var events = [UInt8](repeating: 0, count: 4096)
        while true {
            if check(text) { return true }
            let left = deadline - monotonicMilliseconds()
            guard left > 0 else { return false }
            var descriptor = pollfd(fd: watch, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, Int32(left.rounded(.up))) == 1 {
                _ = events.withUnsafeMutableBytes { read(watch, $0.baseAddress, $0.count) }
            }
        }
    }
}
