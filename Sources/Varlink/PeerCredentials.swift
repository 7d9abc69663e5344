import NIOCore
import Synchronization
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

/// No room at all: `SO_PEERGROUPS` into it succeeds only when the peer has no supplementary groups.
private struct NoGroups: Sendable {}

extension PeerCredentials {
    /// Reads the credentials of a connected Unix socket channel. Must run on its event loop, where
    /// NIO answers socket options synchronously.
    ///
    /// NIO's getter hides the length `SO_PEERGROUPS` returns, so trailing zeros of the fixed buffer
    /// cannot be told from group 0; the kernel keeps groups sorted, so only a leading 0 is
    /// ambiguous once a peer is known to have groups, and then (as when there are more than 256
    /// groups) `/proc/<pid>/status` decides.
    static func read(from channel: any Channel) -> EventLoopFuture<PeerCredentials> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(PosixError(call: "SO_PEERCRED", errno: ENOTSUP))
        }
        let credentials: EventLoopFuture<UCred> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return credentials.flatMap { ucred in
            // A peer without supplementary groups (most services) is told apart from one whose
            // only group is 0 by asking for none: the kernel accepts an empty buffer only when
            // there is nothing to put in it (ERANGE otherwise). Without this, every such
            // connection read /proc on the event loop.
            let none: EventLoopFuture<NoGroups> = provider.unsafeGetSocketOption(
                level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(59 /* SO_PEERGROUPS */))
            let groups: EventLoopFuture<GroupList?> = none.map { _ in nil }.flatMapError { _ in
                let list: EventLoopFuture<GroupList> = provider.unsafeGetSocketOption(
                    level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(59 /* SO_PEERGROUPS */))
                return list.map { Optional($0) }
            }
            return groups.map { list -> [UInt32] in
                guard let list else { return [] }
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

    /// Times ``procGroups(pid:)`` read `/proc` (for tests).
    static let procStatusReads = Atomic<Int>(0)

    /// The `Groups:` line of `/proc/<pid>/status`.
    static func procGroups(pid: Int32) -> [UInt32]? {
        procStatusReads.add(1, ordering: .relaxed)
        guard pid > 0, let status = try? Posix.readWholeFile("/proc/\(pid)/status", limit: 1 << 20) else { return nil }
        return groups(inStatus: status)
    }

    /// The numbers of the `Groups:` line of a `/proc/<pid>/status` text, in one pass over its
    /// bytes: every connection of a peer whose only group is 0 reads it on the event loop, and
    /// splitting the text into lines and words was a quarter of the loop's time while a client
    /// opened a thousand connections.
    static func groups(inStatus status: [UInt8]) -> [UInt32]? {
        let key = Array("Groups:".utf8)
        var index = 0
        while index < status.count {
            if status.count - index >= key.count && status[index..<index + key.count].elementsEqual(key) {
                var groups: [UInt32] = []
                var number: UInt64?
                index += key.count
                while index < status.count && status[index] != UInt8(ascii: "\n") {
                    let byte = status[index]
                    if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                        number = (number ?? 0) * 10 + UInt64(byte - UInt8(ascii: "0"))
                        if number! > UInt64(UInt32.max) { return nil }
                    } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                        if let value = number { groups.append(UInt32(value)) }
                        number = nil
                    } else {
                        return nil
                    }
                    index += 1
                }
                if let value = number { groups.append(UInt32(value)) }
                return groups
            }
            // The next line.
            while index < status.count && status[index] != UInt8(ascii: "\n") { index += 1 }
            index += 1
        }
        return nil
    }
}
