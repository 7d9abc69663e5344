#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A failed system or library call: the call's name, the errno it reported and, when the call
/// named a file, its path.
public struct PosixError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The call that failed, e.g. `open(/dev/input/event3)`, `connect` or `libevdev_next_event`.
    public var call: String
    /// The errno value (positive).
    public var errno: Int32
    /// The path involved, when it is not part of `call` already.
    public var path: String?

    public init(call: String, errno: Int32, path: String? = nil) {
        self.call = call
        self.errno = errno
        self.path = path
    }

    /// `EACCES` / `EPERM`: the node exists but we may not open it (yet).
    public var isPermissionDenied: Bool { errno == EACCES || errno == EPERM }
    /// `ENODEV` / `ENOENT` / `ENXIO`: the device or node is gone.
    public var isGone: Bool { errno == ENODEV || errno == ENOENT || errno == ENXIO }

    /// The C library's words for `errno` (`strerror`).
    public var message: String { String(cString: strerror(errno)) }

    public var description: String {
        if let path { return "\(call)(\(path)): \(message) (errno \(errno))" }
        return "\(call): \(message) (errno \(errno))"
    }
}
