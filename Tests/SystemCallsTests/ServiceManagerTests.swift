import Glibc
import SystemCalls
import Testing

/// `Posix.notifyServiceManager`, the `sd_notify(3)` datagram focusd sends when it is ready, read
/// by a socket of the test as systemd would read it. Serialized: `NOTIFY_SOCKET` is the
/// process's environment.
@Suite("The service manager's notification", .serialized)
struct ServiceManagerTests {
    /// A datagram socket bound to `address` (a path, or `@name` for an abstract address).
    func listener(_ address: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(address.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &socketAddress) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        try #require(bound == 0, "bind \(address): errno \(errno)")
        return fd
    }

    /// The datagrams that arrive within `seconds` until one carries `marker`.
    func receive(_ fd: Int32, marker: String, seconds: Int32 = 5) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&descriptor, 1, seconds * 1000) == 1 {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            let text = String(decoding: buffer[..<count], as: UTF8.self)
            if text.contains(marker) { return text }
        }
        return nil
    }

    @Test("READY=1 reaches the socket named by a path, and the variable is removed when asked")
    func pathSocket() throws {
        var template = Array("/tmp/notify-XXXXXX".utf8CString)
        let directory = String(cString: try #require(mkdtemp(&template)))
        defer { rmdir(directory) }
        let path = directory + "/notify.sock"
        let fd = try listener(path)
        defer { close(fd); unlink(path) }
        let marker = "X_TEST=\(getpid())-path"
        setenv("NOTIFY_SOCKET", path, 1)
        #expect(try Posix.notifyServiceManager("READY=1\n\(marker)", unsetEnvironment: true))
        #expect(getenv("NOTIFY_SOCKET") == nil)
        #expect(receive(fd, marker: marker) == "READY=1\n\(marker)")
    }

    @Test("an abstract address (@name) is reached without a trailing NUL in its name")
    func abstractSocket() throws {
        let name = "@focusd-notify-test-\(getpid())"
        let fd = try listener(name)
        defer { close(fd) }
        let marker = "X_TEST=\(getpid())-abstract"
        setenv("NOTIFY_SOCKET", name, 1)
        defer { unsetenv("NOTIFY_SOCKET") }
        #expect(try Posix.notifyServiceManager("READY=1\n\(marker)"))
        #expect(receive(fd, marker: marker) == "READY=1\n\(marker)")
    }

    @Test("without NOTIFY_SOCKET nothing is sent and the answer says so; a socket nobody listens on is an error")
    func noManager() throws {
        unsetenv("NOTIFY_SOCKET")
        #expect(try Posix.notifyServiceManager("READY=1") == false)
        setenv("NOTIFY_SOCKET", "/nonexistent/notify.sock", 1)
        defer { unsetenv("NOTIFY_SOCKET") }
        #expect(throws: PosixError.self) { try Posix.notifyServiceManager("READY=1") }
    }
}
