import CMalloc

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The calls focusd-adapter's single-threaded loop needs: poll(2) over a few descriptors, pipes,
// inotify (to notice focusd's socket coming back), a loopback TCP connection (a browser's
// DevTools port) and child processes (a browser it launches).

/// One descriptor's readiness as `poll(2)` reports it.
public struct PollReadiness: Sendable, Equatable {
    public var fd: Int32
    /// Readable (or end of stream: a read returns 0).
    public var readable: Bool
    /// Error or hang-up: the peer is gone (a read reports how).
    public var closed: Bool
    /// Writable (only reported for descriptors polled with `writable` interest).
    public var writable: Bool = false
}

extension Posix {
    /// Waits until one of `fds` is readable or closed, or `timeoutMilliseconds` pass (< 0: forever).
    /// `EINTR` returns an empty list (the caller loops).
    public static func pollReadable(_ fds: [Int32], timeoutMilliseconds: Int32) throws(PosixError) -> [PollReadiness] {
        try pollReady(fds.map { ($0, false) }, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Waits until one of `fds` is readable or closed, or writable where `writable` is asked, or
    /// `timeoutMilliseconds` pass (< 0: forever). `EINTR` returns an empty list (the caller loops).
    public static func pollReady(_ fds: [(fd: Int32, writable: Bool)], timeoutMilliseconds: Int32) throws(PosixError) -> [PollReadiness] {
        var entries = fds.map { pollfd(fd: $0.fd, events: Int16(POLLIN) | ($0.writable ? Int16(POLLOUT) : 0), revents: 0) }
        let count = Glibc.poll(&entries, nfds_t(entries.count), timeoutMilliseconds)
        if count < 0 {
            let code = currentErrno()
            if code == EINTR { return [] }
            throw PosixError(call: "poll", errno: code)
        }
        guard count > 0 else { return [] }
        return entries.compactMap { entry in
            guard entry.revents != 0 else { return nil }
            let readable = entry.revents & Int16(POLLIN) != 0
            let closed = entry.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
            let writable = entry.revents & Int16(POLLOUT) != 0
            return PollReadiness(fd: entry.fd, readable: readable, closed: closed, writable: writable)
        }
    }

    /// A close-on-exec pipe: (read end, write end).
    public static func makePipe() throws(PosixError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        try check("pipe") { pipe(&ends) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// Asks for a pipe of `bytes` (F_SETPIPE_SZ; the kernel rounds up to pages; an unprivileged
    /// process gets at most /proc/sys/fs/pipe-max-size, 1 MiB by default): the size it has after,
    /// or nil where the kernel refused (the pipe keeps its size, 64 KiB by default).
    @discardableResult
    public static func growPipe(_ fd: Int32, to bytes: Int32) -> Int32? {
        let size = fcntl(fd, 1031, bytes)  // F_SETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 7; glibc shows it only under _GNU_SOURCE)
        return size < 0 ? nil : size
    }

    /// Writing to a pipe or socket whose reader is gone fails with `EPIPE` instead of killing
    /// the process with SIGPIPE.
    public static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Reads once from a descriptor `poll` reported readable: the bytes read, empty at end of
    /// stream. `ECONNRESET` counts as end of stream.
    public static func readAvailable(_ fd: Int32, capacity: Int = 1 << 16) throws(PosixError) -> [UInt8] {
        var bytes: [UInt8] = []
        do {
            _ = try read(fd, into: &bytes, capacity: capacity)
        } catch where error.errno == ECONNRESET {
            return []
        }
        return bytes
    }

    /// How many bytes a read of `fd` (a pipe or a socket) would return now (FIONREAD), or nil
    /// where the descriptor cannot say.
    public static func bytesReadable(_ fd: Int32) -> Int? {
        var count: Int32 = 0
        let result = withUnsafeMutablePointer(to: &count) { ioctl(fd, UInt(FIONREAD), $0) }
        return result < 0 ? nil : Int(count)
    }

    /// An inotify descriptor (close-on-exec, non-blocking) watching `directory` for entries
    /// created, moved in, changed in attributes or deleted, and for the directory's own removal.
    public static func watchDirectory(_ directory: String) throws(PosixError) -> Int32 {
        let fd = try check("inotify_init1") { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) }
        let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)
        do {
            try check("inotify_add_watch", path: directory) { inotify_add_watch(fd, directory, mask) }
        } catch {
            closeDescriptor(fd)
            throw error
        }
        return fd
    }

    /// Discards what a non-blocking descriptor (an inotify one) has queued.
    public static func drain(_ fd: Int32) {
        var scratch = [UInt8](repeating: 0, count: 4096)
        while scratch.withUnsafeMutableBytes({ systemRead(fd, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// A blocking, close-on-exec TCP connection to `127.0.0.1`/`::1` `port` (`address` is an IPv4
    /// or IPv6 literal), with Nagle's delay off (DevTools messages are small and latency matters).
    public static func connectTCP(address: String, port: UInt16) throws(PosixError) -> Int32 {
        var v4 = in_addr()
        var v6 = in6_addr()
        let family: Int32
        if inet_pton(AF_INET, address, &v4) == 1 {
            family = AF_INET
        } else if inet_pton(AF_INET6, address, &v6) == 1 {
            family = AF_INET6
        } else {
            throw PosixError(call: "inet_pton(\(address))", errno: EINVAL)
        }
        let fd = try check("socket") { socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        do {
            if family == AF_INET {
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = port.bigEndian
                address.sin_addr = v4
                try connect(fd, to: &address)
            } else {
                var address = sockaddr_in6()
                address.sin6_family = sa_family_t(AF_INET6)
                address.sin6_port = port.bigEndian
                address.sin6_addr = v6
                try connect(fd, to: &address)
            }
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        } catch {
            closeDescriptor(fd)
            throw error
        }
        return fd
    }

    /// connect(2) to a `sockaddr_in` or `sockaddr_in6`.
    private static func connect<Address>(_ fd: Int32, to address: inout Address) throws(PosixError) {
        try withUnsafePointer(to: &address) { pointer throws(PosixError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw throws(PosixError) in
                _ = try check("connect") { Glibc.connect(fd, raw, socklen_t(MemoryLayout<Address>.size)) }
            }
        }
    }

    /// Starts `arguments[0]` (looked up in `PATH`) with `arguments`, the child's descriptors
    /// `mapping` (child fd → parent fd) besides 0–2, which it inherits. Returns the process id.
    public static func spawn(_ arguments: [String], mapping: [(child: Int32, parent: Int32)]) throws(PosixError) -> Int32 {
        // Each parent fd is first copied above every target (so one dup2 cannot overwrite the
        // source of a later one, and a source already at its target loses close-on-exec).
        var copies: [Int32] = []
        defer { copies.forEach { closeDescriptor($0) } }
        for (_, parent) in mapping {
            copies.append(try check("fcntl(F_DUPFD_CLOEXEC)") { fcntl(parent, F_DUPFD_CLOEXEC, 64) })
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (index, (child, _)) in mapping.enumerated() { posix_spawn_file_actions_adddup2(&actions, copies[index], child) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with no blocked signals and default dispositions (SIGPIPE included).
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let cStrings = arguments.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        var argv = cStrings + [nil]
        let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, environ)
        if result != 0 { throw PosixError(call: "posix_spawnp(\(arguments[0]))", errno: result) }
        return pid
    }

    /// Sends `signal` to process `pid` (a process already gone is not an error).
    public static func signalProcess(_ pid: Int32, _ signal: Int32) {
        _ = kill(pid, signal)
    }

    /// Reaps `pid` if it has exited: its wait status, or nil while it runs.
    public static func reap(_ pid: Int32, wait: Bool = false) -> Int32? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, wait ? 0 : WNOHANG)
        return result == pid ? status : (result < 0 ? -1 : nil)
    }

    /// Reaps `pid` once it exits, waiting up to `timeoutMilliseconds` for that: its wait status,
    /// or nil if it still runs then. Sleeps in poll(2) on a pidfd, which becomes readable when
    /// the process exits (no timer that wakes to ask); a kernel without `pidfd_open` (before
    /// 5.3) gets one wait of the whole timeout, then one `WNOHANG` reap.
    public static func reap(_ pid: Int32, withinMilliseconds timeoutMilliseconds: Int32) -> Int32? {
        if let status = reap(pid) { return status }
        let fd = cpidfd_open(pid)
        guard fd >= 0 else {
            if currentErrno() == ESRCH { return reap(pid) }  // exited between the two calls
            sleep(untilMonotonicNanoseconds: monotonicNanoseconds() + UInt64(max(timeoutMilliseconds, 0)) * 1_000_000)
            return reap(pid)
        }
        defer { _ = close(fd) }
        let deadline = monotonicNanoseconds() + UInt64(max(timeoutMilliseconds, 0)) * 1_000_000
        while true {
            let now = monotonicNanoseconds()
            guard now < deadline else { return reap(pid) }
            // Empty: the time is up, or a signal came (then the rest of the time is waited).
            guard let ready = try? pollReadable([fd], timeoutMilliseconds: Int32((deadline - now + 999_999) / 1_000_000)), ready.isEmpty
            else { return reap(pid) }
        }
    }
}
