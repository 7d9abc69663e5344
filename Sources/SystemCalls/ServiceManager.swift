#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The service manager's notification protocol (`sd_notify(3)`): one datagram of
/// `KEY=value` lines to the Unix socket named by `$NOTIFY_SOCKET` (a path, or an abstract
/// address when it starts with `@`). systemd starts a `Type=notify` unit's dependents on
/// `READY=1`; a test that spawns the daemon waits on the same datagram instead of retrying
/// connections.
extension Posix {
    /// Sends `state` (e.g. `"READY=1"`) to `$NOTIFY_SOCKET`; false when no manager asked for it.
    /// With `unsetEnvironment`, the variable is removed so no child inherits it.
    @discardableResult
    public static func notifyServiceManager(_ state: String, unsetEnvironment: Bool = false) throws(PosixError) -> Bool {
        guard let target = environment("NOTIFY_SOCKET"), !target.isEmpty else { return false }
        if unsetEnvironment { Posix.unsetEnvironment("NOTIFY_SOCKET") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(target.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw PosixError(call: "sockaddr_un", errno: ENAMETOOLONG, path: target) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: bytes) }
        // An abstract address is exactly its bytes; a path carries its NUL.
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1))
        let fd = try check("socket") { socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        defer { closeDescriptor(fd) }
        let message = Array(state.utf8)
        try withUnsafePointer(to: &address) { pointer throws(PosixError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress throws(PosixError) in
                try check("sendto", path: target) {
                    message.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), socketAddress, length) }
                }
            }
        }
        return true
    }
}
