#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Unix stream sockets: `sockaddr_un`, connecting, waiting, shutting down.
extension Posix {
    /// Fills a `sockaddr_un` for `path` and calls `body` with it; paths too long for `sun_path` fail
    /// with `ENAMETOOLONG`.
    public static func withUnixAddress<R>(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R
    ) throws(PosixError) -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else {
            throw PosixError(call: "sockaddr_un", errno: ENAMETOOLONG, path: path)
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
    public static func connectUnix(path: String) throws(PosixError) -> Int32 {
        let fd = try check("socket") { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        do {
            let result = try withUnixAddress(path) { address, length in
                Result { () throws(PosixError) in try check("connect", path: path) { connect(fd, address, length) } }
            }
            _ = try result.get()
        } catch {
            closeDescriptor(fd)
            throw error
        }
        return fd
    }

    /// Whether something accepts connections on the Unix socket at `path` (a live server).
    public static func isListening(path: String) -> Bool {
        guard let fd = try? connectUnix(path: path) else { return false }
        closeDescriptor(fd)
        return true
    }

    /// Waits until `fd` is readable; `false` on timeout. `timeoutMilliseconds` < 0 waits forever.
    public static func waitReadable(_ fd: Int32, timeoutMilliseconds: Int32) throws(PosixError) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = try check("poll") { poll(&descriptor, 1, timeoutMilliseconds) }
        return ready > 0
    }

    public static func shutdownWrite(_ fd: Int32) throws(PosixError) {
        try check("shutdown") { shutdown(fd, Int32(SHUT_WR)) }
    }

    /// `getsockopt(SO_TYPE)` / `SO_ACCEPTCONN` checks that `fd` is a listening stream socket.
    public static func isListeningStreamSocket(_ fd: Int32) -> Bool {
        var type: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) == 0, type == Int32(SOCK_STREAM.rawValue) else {
            return false
        }
        var listening: Int32 = 0
        length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0 && listening != 0
    }

    /// Writes to a non-blocking stream socket what it takes now, without raising `SIGPIPE`
    /// (`send` with `MSG_NOSIGNAL | MSG_DONTWAIT`): the bytes taken, `.wouldBlock` when it takes
    /// none, or the error (`EPIPE`, `ECONNRESET`: the peer is gone).
    public static func sendNow(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(PosixError) -> IOResult<Int> {
        try syscall("send") { send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
    }

    /// The socket's cookie (`SO_COOKIE`, Linux 4.12): a number the kernel gives each socket and
    /// does not give another while the system runs, so it tells whether a descriptor is still the
    /// socket it was; nil when `fd` is not a socket.
    public static func socketCookie(_ fd: Int32) -> UInt64? {
        var cookie: UInt64 = 0
        var length = socklen_t(MemoryLayout<UInt64>.size)
        guard getsockopt(fd, SOL_SOCKET, socketCookieOption, &cookie, &length) == 0 else { return nil }
        return cookie
    }

    /// `SO_COOKIE` (asm-generic/socket.h; not exported by the Glibc module).
    public static let socketCookieOption: Int32 = 57

    /// `ECONNRESET`: the peer closed with data unread.
    public static let connectionReset = ECONNRESET
}
