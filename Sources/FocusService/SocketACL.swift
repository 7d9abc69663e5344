import CMalloc
import FocusConfig
import InputMapping
import SystemCalls

#if canImport(Glibc)
import Glibc
#endif

/// Lets the config's read-only uids and gids reach the socket on the default deployment (a 0660
/// socket of group `focusd` in a 0750 directory), without making it world-accessible: POSIX ACL
/// entries on the socket (read and write, which `connect` needs) and search on its directory.
/// What they may call is still decided per call by `AccessPolicy` (read-only calls only).
///
/// Written as the `system.posix_acl_access` extended attribute (no libacl). While read-only users
/// are configured focusd owns the ACL of the socket and its directory: it is replaced on every
/// reload, so a uid removed from the config loses its entry, and removed when the last one goes;
/// without any, focusd leaves an ACL set by hand alone. Setting an ACL
/// needs the file's owner (or CAP_FOWNER): under socket activation, `focusd.socket` makes the
/// socket the focusd user's (`SocketUser=focusd`) for this.
enum SocketACL {
    /// Tags and the "no id" value of the kernel's ACL format (linux/posix_acl_xattr.h).
    private static let userObj: UInt16 = 0x01, user: UInt16 = 0x02, groupObj: UInt16 = 0x04, group: UInt16 = 0x08
    private static let mask: UInt16 = 0x10, other: UInt16 = 0x20
    private static let undefinedID: UInt32 = 0xFFFF_FFFF

    /// Grants the read-only uids and gids of `access` the socket at `path` (read and write) and
    /// search in its directory; with none, removes focusd's entries. Returns the problems (empty
    /// on success), for the log.
    static func apply(_ access: AccessSettings, socketPath path: String) -> [String] {
        let uids = Array(Set(access.readOnlyUids)).sorted(), gids = Array(Set(access.readOnlyGids)).sorted()
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        var problems: [String] = []
        for (file, extra) in [(path, UInt16(6)), (directory.isEmpty ? "/" : directory, UInt16(1))] {
            if let problem = set(file, uids: uids, gids: gids, extra: extra) { problems.append(problem) }
        }
        return problems
    }

    /// Sets (or, with no uids and gids, removes) the access ACL of `file`, keeping its mode's
    /// owner, group and other bits; `extra` is what each listed uid and gid gets.
    private static func set(_ file: String, uids: [UInt32], gids: [UInt32], extra: UInt16) -> String? {
        var status = stat()
        do {
            try Posix.required("stat", path: file) { stat(file, &status) }
        } catch {
            return "\(file): \(error.message)"
        }
        if uids.isEmpty && gids.isEmpty {
            do {
                try Posix.required("removexattr", path: file) { removexattr(file, "system.posix_acl_access") }
            } catch where error.errno != ENODATA && error.errno != EOPNOTSUPP {
                return "\(file): cannot remove the ACL: \(error.message)"
            } catch {}
            return nil
        }
        let mode = UInt16(status.st_mode & 0o777)
        let ownerBits = (mode >> 6) & 7, groupBits = (mode >> 3) & 7, otherBits = mode & 7
        var entries: [(UInt16, UInt16, UInt32)] = [(userObj, ownerBits, undefinedID)]
        entries += uids.map { (user, extra, $0) }
        entries.append((groupObj, groupBits, undefinedID))
        entries += gids.map { (group, extra, $0) }
        // The mask bounds the named entries and the group: both must keep what they get.
        entries.append((mask, groupBits | extra, undefinedID))
        entries.append((other, otherBits, undefinedID))
        var bytes: [UInt8] = []
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        append(UInt32(2))  // POSIX_ACL_XATTR_VERSION
        for (tag, permissions, id) in entries {
            append(tag)
            append(permissions)
            append(id)
        }
        do {
            try Posix.required("setxattr", path: file) {
                bytes.withUnsafeBytes { setxattr(file, "system.posix_acl_access", $0.baseAddress, $0.count, 0) }
            }
        } catch {
            return "\(file): cannot set an ACL for the read-only uids and gids: \(error.message)"
        }
        return nil
    }

    /// The path a listening Unix socket is bound to (socket activation), if it has one.
    static func boundPath(of fd: Int32) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        guard ok, address.sun_family == sa_family_t(AF_UNIX) else { return nil }
        let path = withUnsafeBytes(of: address.sun_path) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return path.hasPrefix("/") ? path : nil
    }
}
