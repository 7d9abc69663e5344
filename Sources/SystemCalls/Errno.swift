#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The result of a call on a non-blocking descriptor.
public enum IOResult<Value> {
    case value(Value)
    /// `EAGAIN` / `EWOULDBLOCK`: nothing to do now, wait for the descriptor to be ready.
    case wouldBlock

    /// The value, or nil when the call would have blocked.
    public var value: Value? {
        if case .value(let v) = self { return v }
        return nil
    }
}

/// The operating system, as the rest of focusd calls it: every system call goes through here, so
/// errno, `EINTR` and `EAGAIN` are handled in one place (in the manner of swift-system's
/// `valueOrErrno(retryOnInterrupt:)` and NIO's `syscall(blocking:)`).
///
/// The helpers take the call as a closure that returns what the kernel returned: that is the seam
/// a test uses to play the kernel (`outcome("fake") { (-1, EINTR) }`). Everything the real kernel
/// can do here (pipes, signals, files, sockets) the tests do for real.
public enum Posix {
    /// The one errno helper: runs `attempt` until it does not fail with `EINTR`, maps `EAGAIN` to
    /// `.wouldBlock` and any other error code to a `PosixError` naming `call`.
    ///
    /// - Parameters:
    ///   - call: the name reported in the error.
    ///   - path: the file the call named, reported in the error.
    ///   - attempt: returns the call's value and, when it failed, its (positive) errno.
    public static func outcome<Value>(
        _ call: @autoclosure () -> String, path: String? = nil, _ attempt: () -> (Value, errno: Int32?)
    ) throws(PosixError) -> IOResult<Value> {
        while true {
            let (value, code) = attempt()
            guard let code else { return .value(value) }
            switch code {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: throw PosixError(call: call(), errno: code, path: path)
            }
        }
    }

    /// A system call in the C convention: a negative result means failure with `errno` set.
    public static func syscall<Value: BinaryInteger>(
        _ call: @autoclosure () -> String, path: String? = nil, _ body: () -> Value
    ) throws(PosixError) -> IOResult<Value> {
        try outcome(call(), path: path) {
            let result = body()
            return (result, result < 0 ? currentErrno() : nil)
        }
    }

    /// A library call in the kernel convention (libevdev, libinput): a negative result is `-errno`.
    public static func negatedErrno(
        _ call: @autoclosure () -> String, _ body: () -> Int32
    ) throws(PosixError) -> IOResult<Int32> {
        try outcome(call()) {
            let result = body()
            return (result, result < 0 ? -result : nil)
        }
    }

    /// A call that must succeed now (a blocking descriptor, or no descriptor at all):
    /// `.wouldBlock` is reported as the `EAGAIN` error it is.
    @discardableResult
    public static func required<Value: BinaryInteger>(
        _ call: @autoclosure () -> String, path: String? = nil, _ body: () -> Value
    ) throws(PosixError) -> Value {
        let name = call()
        switch try syscall(name, path: path, body) {
        case .value(let v): return v
        case .wouldBlock: throw PosixError(call: name, errno: EAGAIN, path: path)
        }
    }

    /// A library call that returns a pointer, nil on failure with `errno` set (libudev's
    /// constructors): the pointer, or the error; `ENOMEM` when the library failed and left
    /// `errno` 0.
    public static func pointer<Pointer>(_ call: @autoclosure () -> String, _ body: () -> Pointer?) throws(PosixError) -> Pointer {
        setErrno(0)
        if let pointer = body() { return pointer }
        let code = currentErrno()
        throw PosixError(call: call(), errno: code == 0 ? ENOMEM : code)
    }

    /// ``required(_:path:_:)`` under the name the Varlink code calls it by.
    @discardableResult
    public static func check<Value: FixedWidthInteger>(
        _ call: String, path: String? = nil, _ body: () -> Value
    ) throws(PosixError) -> Value {
        try required(call, path: path, body)
    }
}

/// `errno` of the calling thread (inside `Posix`, `errno` would be ambiguous with
/// `PosixError.errno` in some contexts).
@inline(__always)
func currentErrno() -> Int32 {
    #if canImport(Glibc)
    Glibc.errno
    #else
    Musl.errno
    #endif
}

/// Sets `errno` of the calling thread (before a call that may fail without setting it).
@inline(__always)
func setErrno(_ value: Int32) {
    #if canImport(Glibc)
    Glibc.errno = value
    #else
    Musl.errno = value
    #endif
}
