// The one place where errno and negative return codes become Swift values.
import Glibc

/// A failed system or library call: the call's name and the errno it reported.
public struct PosixError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The call that failed, e.g. `open(/dev/input/event3)` or `libevdev_next_event`.
    public var call: String
    /// The errno value (positive).
    public var errno: Int32

    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    /// `EACCES` / `EPERM`: the node exists but we may not open it (yet).
    public var isPermissionDenied: Bool { errno == EACCES || errno == EPERM }
    /// `ENODEV` / `ENOENT` / `ENXIO`: the device or node is gone.
    public var isGone: Bool { errno == ENODEV || errno == ENOENT || errno == ENXIO }

    public var description: String {
        "\(call): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}

/// The result of a call on a non-blocking descriptor.
enum IOResult<Value> {
    case value(Value)
    /// `EAGAIN` / `EWOULDBLOCK`: nothing to do now, wait for the descriptor to be ready.
    case wouldBlock

    /// The value, or nil when the call would have blocked.
    var value: Value? {
        if case .value(let v) = self { return v }
        return nil
    }
}

/// Thin wrappers over system calls, all funnelled through `Posix.outcome`.
enum Posix {
    /// The one errno helper: runs `attempt` until it does not fail with `EINTR`, maps `EAGAIN` to
    /// `.wouldBlock` and any other error code to a `PosixError` naming `call`.
    ///
    /// - Parameters:
    ///   - call: the name reported in the error.
    ///   - attempt: returns the call's value and, when it failed, its (positive) errno.
    static func outcome<Value>(
        _ call: @autoclosure () -> String, _ attempt: () -> (Value, errno: Int32?)
    ) throws(PosixError) -> IOResult<Value> {
        while true {
            let (value, code) = attempt()
            guard let code else { return .value(value) }
            switch code {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: throw PosixError(call: call(), errno: code)
            }
        }
    }

    /// A system call in the C convention: a negative result means failure with `errno` set.
    static func syscall<Value: BinaryInteger>(
        _ call: @autoclosure () -> String, _ body: () -> Value
    ) throws(PosixError) -> IOResult<Value> {
        try outcome(call()) {
            let result = body()
            return (result, result < 0 ? Glibc.errno : nil)
        }
    }

    /// A library call in the kernel convention (libevdev, libinput): a negative result is `-errno`.
    static func negatedErrno(
        _ call: @autoclosure () -> String, _ body: () -> Int32
    ) throws(PosixError) -> IOResult<Int32> {
        try outcome(call()) {
            let result = body()
            return (result, result < 0 ? -result : nil)
        }
    }

    /// A call that must succeed now: `.wouldBlock` is reported as the `EAGAIN` error it is.
    static func required<Value: BinaryInteger>(
        _ call: @autoclosure () -> String, _ body: () -> Value
    ) throws(PosixError) -> Value {
        let name = call()
        switch try syscall(name, body) {
        case .value(let v): return v
        case .wouldBlock: throw PosixError(call: name, errno: EAGAIN)
        }
    }

    /// Opens `path` read-only, non-blocking and close-on-exec.
    static func openReadOnly(_ path: String) throws(PosixError) -> FileDescriptor {
        FileDescriptor(try required("open(\(path))") { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) })
    }

    /// `read(2)` into `buffer`; 0 means end of file.
    static func read(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer, call: String = "read")
        throws(PosixError) -> IOResult<Int>
    {
        try syscall(call) { Glibc.read(fd.raw, buffer.baseAddress, buffer.count) }
    }

    /// CLOCK_MONOTONIC now, in microseconds.
    static func monotonicUsec() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }

    /// CLOCK_REALTIME now, in microseconds (the clock of evdev timestamps).
    static func realtimeUsec() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }
}

/// An open file descriptor that is closed exactly once: by `close()` or when the owner drops it.
///
/// Not Sendable: it belongs to the thread that uses it (the input loop).
final class FileDescriptor {
    /// The descriptor number; -1 once closed.
    private(set) var raw: Int32

    init(_ raw: Int32) {
        self.raw = raw
    }

    var isOpen: Bool { raw >= 0 }

    /// Closes the descriptor; later calls do nothing. `EINTR` is not retried (Linux has released
    /// the descriptor already) and other errors are ignored: there is nothing left to undo.
    func close() {
        guard raw >= 0 else { return }
        _ = Glibc.close(raw)
        raw = -1
    }

    /// Hands the descriptor to another owner (a C library that closes it itself).
    func release() -> Int32 {
        defer { raw = -1 }
        return raw
    }

    deinit { close() }
}

@available(*, unavailable)
extension FileDescriptor: Sendable {}
