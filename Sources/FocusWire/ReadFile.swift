#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why a file could not be read, in the words a user acts on.
public struct FileReadError: Error, CustomStringConvertible {
    public var description: String
    /// The file does not exist (`ENOENT`).
    public var isMissing = false
}

/// The whole content of the file at `path`, refusing files over `limit` bytes.
///
/// (FoundationEssentials' `Data(contentsOf:)` would do, but linking FoundationEssentials costs the
/// daemon ~3 MiB of resident code; see the README's memory figures.)
public func readFile(_ path: String, limit: Int) throws(FileReadError) -> [UInt8] {
    func failure(_ code: Int32) -> FileReadError {
        switch code {
        case ENOENT: FileReadError(description: "no such file", isMissing: true)
        case EACCES, EPERM: FileReadError(description: "permission denied")
        case EISDIR: FileReadError(description: "is a directory")
        default: FileReadError(description: "cannot read it (\(String(cString: strerror(code))))")
        }
    }
    var descriptor: Int32
    repeat { descriptor = open(path, O_RDONLY | O_CLOEXEC) } while descriptor < 0 && errno == EINTR
    guard descriptor >= 0 else { throw failure(errno) }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            throw failure(errno)
        }
        if count == 0 { return bytes }
        guard bytes.count + count <= limit else {
            throw FileReadError(description: "larger than \(limit) bytes")
        }
        bytes += chunk[0..<count]
    }
}
