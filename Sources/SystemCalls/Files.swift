#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Paths: directories, modes, groups, sockets on disk, small text files.
extension Posix {
    /// Creates `path` (and missing parents) as a directory; sets `mode` on the last component
    /// explicitly when it is created, so the umask does not matter.
    public static func makeDirectory(_ path: String, mode: mode_t) throws(PosixError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else { throw PosixError(call: "mkdir", errno: ENOTDIR, path: path) }
            return
        }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try makeDirectory(String(path[..<slash]), mode: 0o755)
        }
        do {
            try check("mkdir", path: path) { mkdir(path, mode) }
        } catch where error.errno == EEXIST {
            return
        }
        try check("chmod", path: path) { chmod(path, mode) }
    }

    public static func setMode(_ path: String, _ mode: mode_t) throws(PosixError) {
        try check("chmod", path: path) { chmod(path, mode) }
    }

    public static func setGroup(_ path: String, _ group: gid_t) throws(PosixError) {
        try check("chown", path: path) { chown(path, uid_t.max, group) }
    }

    /// Whether `path` exists and is a socket.
    public static func isSocket(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK
    }

    public static func removeFile(_ path: String) throws(PosixError) {
        do {
            try check("unlink", path: path) { unlink(path) }
        } catch where error.errno == ENOENT {}
    }

    /// Reads a small text file (e.g. under /proc) whole; nil when it cannot be read.
    public static func readTextFile(_ path: String) -> String? {
        guard let bytes = try? readWholeFile(path, limit: 1 << 20) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
