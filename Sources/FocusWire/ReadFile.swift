#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

import SystemCalls

/// Why a file could not be read, in the words a user acts on.
public struct FileReadError: Error, CustomStringConvertible {
    public var description: String
    /// The file does not exist (`ENOENT`).
    public var isMissing = false
}

/// The whole content of the file at `path`, refusing files over `limit` bytes.
///
/// (FoundationEssentials' `Data(contentsOf:)` would do, but linking FoundationEssentials costs the
/// daemon ~3 MiB of resident code; see docs/performance.md.)
public func readFile(_ path: String, limit: Int) throws(FileReadError) -> [UInt8] {
    do {
        return try Posix.readWholeFile(path, limit: limit)
    } catch {
        switch error.errno {
        case ENOENT: throw FileReadError(description: "no such file", isMissing: true)
        case EACCES, EPERM: throw FileReadError(description: "permission denied")
        case EISDIR: throw FileReadError(description: "is a directory")
        case EFBIG: throw FileReadError(description: "larger than \(limit) bytes")
        default: throw FileReadError(description: "cannot read it (\(error.message))")
        }
    }
}
