#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call: which call, and the errno it left.
public struct PosixError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The call that failed, e.g. `"connect"`.
    public let call: String
    /// The `errno` value.
    public let code: Int32
    /// The path involved, if any.
    public let path: String?

    public init(call: String, code: Int32, path: String? = nil) {
        self.call = call
        self.code = code
        self.path = path
    }

    public var description: String {
        let message = String(cString: strerror(code))
        if let path { return "\(call)(\(path)): \(message) (errno \(code))" }
        return "\(call): \(message) (errno \(code))"
    }
}

/// Every system call of the Varlink module goes through here: one place owns the file
/// descriptors, `sockaddr_un` and errno handling.
enum Posix {
    /// Runs `body`, retrying while it fails with `EINTR`; -1 with any other errno becomes a
    /// ``PosixError`` carrying the code. (The client's sockets block, so there is no `EAGAIN` case.)
    @discardableResult
    static func check<T: FixedWidthInteger>(
        _ call: String, path: String? = nil, _ body: () -> T
    ) throws(PosixError) -> T {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = errno
            if code == EINTR { continue }
            throw PosixError(call: call, code: code, path: path)
        }
    }

    /// Fills a `sockaddr_un` for `path` and calls `body` with it; paths too long for `sun_path` fail
    /// with `ENAMETOOLONG`.
    static func withUnixAddress<R>(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R
    ) throws(PosixError) -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else {
            throw PosixError(call: "sockaddr_un", code: ENAMETOOLONG, path: path)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + 1)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// A blocking, close-on-exec Unix stream socket connected to `path`.
    static func connectUnix(path: String) throws(PosixError) -> Int32 {
        let fd = try check("socket") { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        do {
            let result = try withUnixAddress(path) { address, length in
                Result { () throws(PosixError) in try check("connect", path: path) { connect(fd, address, length) } }
            }
            _ = try result.get()
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// Whether something accepts connections on the Unix socket at `path` (a live server).
    static func isListening(path: String) -> Bool {
        guard let fd = try? connectUnix(path: path) else { return false }
        close(fd)
        return true
    }

    /// Writes all of `bytes` to `fd` (blocking).
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(PosixError) {
        var offset = 0
        while offset < bytes.count {
            let written = try check("send") {
                bytes.withUnsafeBytes { raw in send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL)) }
            }
            offset += written
        }
    }

    /// Reads what is available (at most `capacity` bytes) and appends it to `buffer`; 0 means end
    /// of stream. Reads into scratch space, so `buffer` grows only by what arrived.
    static func read(_ fd: Int32, into buffer: inout [UInt8], capacity: Int = 65536) throws(PosixError) -> Int {
        var received: Result<Int, PosixError> = .success(0)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { scratch in
            do throws(PosixError) {
                // read(2), not recv(2): this also reads regular files (/proc/PID/status), where
                // recv fails with ENOTSOCK.
                let count = try check("read") { systemRead(fd, scratch.baseAddress!, capacity) }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<count]))
                received = .success(count)
            } catch {
                received = .failure(error)
            }
        }
        return try received.get()
    }

    /// Waits until `fd` is readable; `false` on timeout. `timeoutMilliseconds` < 0 waits forever.
    static func waitReadable(_ fd: Int32, timeoutMilliseconds: Int32) throws(PosixError) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = try check("poll") { poll(&descriptor, 1, timeoutMilliseconds) }
        return ready > 0
    }

    static func closeDescriptor(_ fd: Int32) {
        _ = close(fd)  // never retried on EINTR: Linux releases the descriptor either way
    }

    static func shutdownWrite(_ fd: Int32) throws(PosixError) {
        try check("shutdown") { shutdown(fd, Int32(SHUT_WR)) }
    }

    // MARK: Files

    /// Creates `path` (and missing parents) as a directory; sets `mode` on the last component
    /// explicitly when it is created, so the umask does not matter.
    static func makeDirectory(_ path: String, mode: mode_t) throws(PosixError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else { throw PosixError(call: "mkdir", code: ENOTDIR, path: path) }
            return
        }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try makeDirectory(String(path[..<slash]), mode: 0o755)
        }
        do {
            try check("mkdir", path: path) { mkdir(path, mode) }
        } catch where error.code == EEXIST {
            return
        }
        try check("chmod", path: path) { chmod(path, mode) }
    }

    static func setMode(_ path: String, _ mode: mode_t) throws(PosixError) {
        try check("chmod", path: path) { chmod(path, mode) }
    }

    static func setGroup(_ path: String, _ group: gid_t) throws(PosixError) {
        try check("chown", path: path) { chown(path, uid_t.max, group) }
    }

    /// Whether `path` exists and is a socket.
    static func isSocket(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK
    }

    /// The mode bits (permission part) and group of `path`.
    static func modeAndGroup(_ path: String) throws(PosixError) -> (mode: mode_t, group: gid_t) {
        var info = stat()
        try check("stat", path: path) { lstat(path, &info) }
        return (info.st_mode & 0o7777, info.st_gid)
    }

    static func removeFile(_ path: String) throws(PosixError) {
        do {
            try check("unlink", path: path) { unlink(path) }
        } catch where error.code == ENOENT {}
    }

    /// `getsockopt(SO_TYPE)` / `SO_ACCEPTCONN` checks that `fd` is a listening stream socket.
    static func isListeningStreamSocket(_ fd: Int32) -> Bool {
        var type: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) == 0, type == Int32(SOCK_STREAM.rawValue) else {
            return false
        }
        var listening: Int32 = 0
        length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0 && listening != 0
    }

    /// `ECONNRESET`: the peer closed with data unread.
    static let connectionReset = ECONNRESET

    static func processID() -> Int32 { getpid() }
    static func userID() -> UInt32 { getuid() }
    static func groupID() -> UInt32 { getgid() }

    /// The calling process's supplementary groups.
    static func supplementaryGroups() -> [UInt32] {
        let count = getgroups(0, nil)
        guard count > 0 else { return [] }
        var groups = [gid_t](repeating: 0, count: Int(count))
        let actual = getgroups(count, &groups)
        return actual < 0 ? [] : Array(groups.prefix(Int(actual)))
    }

    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    static func unsetEnvironment(_ name: String) { unsetenv(name) }

    /// Reads a small text file (e.g. under /proc) whole.
    static func readTextFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer: [UInt8] = []
        while let count = try? read(fd, into: &buffer, capacity: 4096), count > 0 {}
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Nanoseconds of the monotonic clock.
    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}

/// The C library's `read(2)` (inside `Posix`, `read` names the helper above).
@inline(__always)
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(fd, buffer, count)
    #elseif canImport(Musl)
    Musl.read(fd, buffer, count)
    #else
    Darwin.read(fd, buffer, count)
    #endif
}
