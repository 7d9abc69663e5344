import FocusConfig
import FocusWire
import InputMapping
import Varlink

/// Who may call what (service.md §1): root, the daemon's own uid and members of the socket's
/// group (plus the config's `allowedUids` / `allowedGids`) call everything; the config's read-only
/// uids and gids may only read; anyone else is denied every call but the introspection of
/// `org.varlink.service`.
///
/// The narrower grant wins: a peer listed read-only (by uid, or by one of its groups) may only
/// read even when its group is the socket's or an allowed one; only root and the daemon's own uid
/// are never narrowed. A denial is the error the called interface declares:
/// `io.focusd.Focus.PermissionDenied` (with `method`) for io.focusd.Focus, and
/// `org.varlink.service.PermissionDenied` for io.focusd.Input and io.focusd.Inspect, which
/// declare none of their own.
struct AccessPolicy: Sendable {
    enum Level: Comparable, Sendable {
        case denied, readOnly, full
    }

    var fullUIDs: Set<UInt32>
    var fullGIDs: Set<UInt32>
    var readOnlyUIDs: Set<UInt32>
    var readOnlyGIDs: Set<UInt32>
    /// What WebSocket clients may call (they have no credentials): `[websocket] access`.
    var webSocket: Level = .full

    /// The calls a read-only peer may make: those the method tables mark read-only.
    static let readOnlyMethods = Set(FocusMethod.readOnlyNames + InputMethod.readOnlyNames + InspectMethod.readOnlyNames)

    /// - Parameters:
    ///   - daemonUID: the daemon's own uid.
    ///   - socketGID: the socket's group, when it has one that grants access (system mode).
    /// With root, the uid that has full access whatever the config lists. Two numbers compared,
    /// not a set of them: every call asks, and hashing the caller's uid cost more than the rest.
    var daemonUID: UInt32

    init(settings: AccessSettings, daemonUID: UInt32, socketGID: UInt32?) {
        self.daemonUID = daemonUID
        fullUIDs = Set(settings.allowedUids)  // root and daemonUID are asked first
        fullGIDs = Set(settings.allowedGids + (socketGID.map { [$0] } ?? []))
        readOnlyUIDs = Set(settings.readOnlyUids)
        readOnlyGIDs = Set(settings.readOnlyGids)
    }

    @inline(__always) func level(of peer: PeerCredentials) -> Level {
        func inGroups(_ gids: Set<UInt32>) -> Bool {
            gids.contains(peer.gid) || peer.groups.contains { gids.contains($0) }
        }
        if peer.uid == 0 || peer.uid == daemonUID { return .full }
        if readOnlyUIDs.contains(peer.uid) || inGroups(readOnlyGIDs) { return .readOnly }
        if fullUIDs.contains(peer.uid) || inGroups(fullGIDs) { return .full }
        return .denied
    }

    /// nil when `method` (fully qualified) is allowed for `peer`, else the error to answer with.
    /// (The level first: full access, the usual case, needs no look at the method's name.)
    @inline(__always) func check(_ method: String, peer: PeerCredentials, transport: VarlinkTransport = .unixSocket) -> VarlinkError? {
        let level = transport == .unixSocket ? level(of: peer) : webSocket
        if level == .full || method.hasPrefix("org.varlink.service.") { return nil }
        switch level {
        case .readOnly where Self.readOnlyMethods.contains(method): return nil
        default:
            guard method.hasPrefix("io.focusd.Focus.") else { return .permissionDenied }
            return VarlinkError("io.focusd.Focus.PermissionDenied", parameters: ["method": .string(method)])
        }
    }
}

/// An ``AccessPolicy`` held by reference (see ``DaemonCore/accessGrant``).
final class AccessGrant: Sendable {
    let policy: AccessPolicy
    init(_ policy: AccessPolicy) { self.policy = policy }
}
