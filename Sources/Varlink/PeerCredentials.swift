import NIOCore
import SystemCalls

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Who is on the other end of a connection, as the kernel saw it at `connect` time
/// (`SO_PEERCRED`, and `SO_PEERGROUPS` for the supplementary groups).
public struct PeerCredentials: Hashable, Sendable, CustomStringConvertible {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    /// Supplementary groups (sorted, as the kernel keeps them).
    public var groups: [UInt32]

    public init(pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32] = []) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }

    /// Whether the peer's primary or a supplementary group is `gid`.
    public func isMember(ofGroup gid: UInt32) -> Bool {
        self.gid == gid || groups.contains(gid)
    }

    /// Credentials that could not be read (uid and gid `UInt32.max`, pid 0): trust nothing.
    public static let unknown = PeerCredentials(pid: 0, uid: .max, gid: .max)

    public var description: String { "pid \(pid) uid \(uid) gid \(gid) groups \(groups)" }
}

/// `struct ucred` layout (pid, uid, gid) for `SO_PEERCRED`.
private struct UCred: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}

/// Room for the supplementary groups returned by `SO_PEERGROUPS`.
private struct GroupList: Sendable {
    static let capacity = 256
    var gids = InlineArray<256, UInt32>(repeating: 0)
}

extension PeerCredentials {
    /// Reads the credentials of a connected Unix socket channel. Must run on its event loop, where
    /// NIO answers socket options synchronously.
    ///
    /// NIO's getter hides the length `SO_PEERGROUPS` returns, so trailing zeros of the fixed buffer
    /// cannot be told from group 0; the kernel keeps groups sorted, so only a leading 0 is
    /// ambiguous, and then (as when there are more than 256 groups) `/proc/<pid>/status` decides.
    static func read(from channel: any Channel) -> EventLoopFuture<PeerCredentials> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(PosixError(call: "SO_PEERCRED", errno: ENOTSUP))
        }
        let credentials: EventLoopFuture<UCred> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return credentials.flatMap { ucred in
            let groups: EventLoopFuture<GroupList> = provider.unsafeGetSocketOption(
                level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(59 /* SO_PEERGROUPS */))
            return groups.map { list -> [UInt32] in
                var gids: [UInt32] = []
                for index in 0..<GroupList.capacity {
                    let gid = list.gids[index]
                    if gid == 0 && index > 0 { break }
                    gids.append(gid)
                }
                if gids == [0] { return procGroups(pid: ucred.pid) ?? [] }
                return gids
            }.recover { _ in
                procGroups(pid: ucred.pid) ?? []
            }.map { groups in
                PeerCredentials(pid: ucred.pid, uid: ucred.uid, gid: ucred.gid, groups: groups)
            }
        }
    }

    /// The `Groups:` line of `/proc/<pid>/status`.
    static func procGroups(pid: Int32) -> [UInt32]? {
        guard pid > 0, let status = Posix.readTextFile("/proc/\(pid)/status") else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("Groups:") {
            return line.dropFirst("Groups:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap {
                UInt32($0)
            }
        }
        return nil
    }
}
