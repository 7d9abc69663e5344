#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An open file descriptor that is closed exactly once: by `close()` or when the owner drops it.
///
/// Not Sendable: it belongs to the thread that uses it (the input loop).
public final class FileDescriptor {
    /// The descriptor number; -1 once closed.
    public private(set) var raw: Int32

    public init(_ raw: Int32) {
        self.raw = raw
    }

    public var isOpen: Bool { raw >= 0 }

    /// Closes the descriptor; later calls do nothing. `EINTR` is not retried (Linux has released
    /// the descriptor already) and other errors are ignored: there is nothing left to undo.
    public func close() {
        guard raw >= 0 else { return }
        Posix.closeDescriptor(raw)
        raw = -1
    }

    /// Hands the descriptor to another owner (a C library that closes it itself).
    public func release() -> Int32 {
        defer { raw = -1 }
        return raw
    }

    deinit { close() }
}

@available(*, unavailable)
extension FileDescriptor: Sendable {}

extension Posix {
    /// Closes `fd`, never retried on `EINTR`: Linux releases the descriptor either way.
    public static func closeDescriptor(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #else
        _ = Musl.close(fd)
        #endif
    }

    /// Opens `path` read-only, non-blocking and close-on-exec.
    public static func openReadOnly(_ path: String) throws(PosixError) -> FileDescriptor {
        FileDescriptor(try required("open(\(path))") { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) })
    }

    /// Opens `path` for reading and writing, close-on-exec (`/dev/uinput`).
    public static func openReadWrite(_ path: String) throws(PosixError) -> FileDescriptor {
        FileDescriptor(try required("open(\(path))") { open(path, O_RDWR | O_CLOEXEC) })
    }

    /// `read(2)` into `buffer`; 0 means end of file.
    public static func read(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer, call: String = "read")
        throws(PosixError) -> IOResult<Int>
    {
        try syscall(call) { systemRead(fd.raw, buffer.baseAddress, buffer.count) }
    }

    /// Reads what is available (at most `capacity` bytes) from a blocking descriptor and appends it
    /// to `buffer`; 0 means end of stream. Reads into scratch space, so `buffer` grows only by what
    /// arrived. read(2), not recv(2): this also reads regular files (/proc/PID/status), where recv
    /// fails with ENOTSOCK.
    public static func read(_ fd: Int32, into buffer: inout [UInt8], capacity: Int = 65536) throws(PosixError) -> Int {
        var received: Result<Int, PosixError> = .success(0)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { scratch in
            do throws(PosixError) {
                let count = try required("read") { systemRead(fd, scratch.baseAddress!, capacity) }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<count]))
                received = .success(count)
            } catch {
                received = .failure(error)
            }
        }
        return try received.get()
    }

    /// The whole content of the file at `path`. A file larger than `limit` bytes fails with
    /// `EFBIG` (nothing more is read).
    public static func readWholeFile(_ path: String, limit: Int) throws(PosixError) -> [UInt8] {
        let fd = try required("open", path: path) { open(path, O_RDONLY | O_CLOEXEC) }
        defer { closeDescriptor(fd) }
        var bytes: [UInt8] = []
        while true {
            let count = try read(fd, into: &bytes)
            if count == 0 { return bytes }
            guard bytes.count <= limit else { throw PosixError(call: "read", errno: EFBIG, path: path) }
        }
    }

    /// Replaces the file at `path` (created with mode 0644 less the umask) by `bytes`.
    public static func writeWholeFile(_ path: String, _ bytes: some Collection<UInt8>) throws(PosixError) {
        let fd = try required("open", path: path) { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        defer { closeDescriptor(fd) }
        try writeAll(fd, bytes)
    }

    /// Writes all of `bytes` to `fd` with write(2), waiting as a blocking descriptor does.
    public static func writeAll(_ fd: Int32, _ bytes: some Collection<UInt8>) throws(PosixError) {
        try transferAll(bytes, call: "write") { pointer, count in systemWrite(fd, pointer, count) }
    }

    /// Writes all of `bytes` to the socket `fd` with send(2) and `MSG_NOSIGNAL` (a closed peer is
    /// `EPIPE`, not `SIGPIPE`).
    public static func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws(PosixError) {
        try transferAll(bytes, call: "send") { pointer, count in send(fd, pointer, count, Int32(MSG_NOSIGNAL)) }
    }

    /// The write-all loop: `transfer` until every byte is taken; a transfer of 0 bytes is `EPIPE`.
    private static func transferAll(
        _ bytes: some Collection<UInt8>, call: String, _ transfer: (UnsafeRawPointer, Int) -> Int
    ) throws(PosixError) {
        let contiguous = Array(bytes)
        var offset = 0
        while offset < contiguous.count {
            let written = try required(call) {
                contiguous.withUnsafeBytes { raw in transfer(raw.baseAddress! + offset, raw.count - offset) }
            }
            guard written > 0 else { throw PosixError(call: call, errno: EPIPE) }
            offset += written
        }
    }
}

/// The C library's `read(2)` (inside `Posix`, `read` names the helper above).
@inline(__always)
func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(fd, buffer, count)
    #else
    Musl.read(fd, buffer, count)
    #endif
}

/// The C library's `write(2)`.
@inline(__always)
func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
    #else
    Musl.write(fd, buffer, count)
    #endif
}
