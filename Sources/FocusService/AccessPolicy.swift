import InputMapping
import Varlink

/// Who may call what (service.md §1): root, the daemon's own uid and members of the socket's
/// group (plus the config's `allowedUids` / `allowedGids`) call everything; the config's read-only
/// uids and gids may only read; anyone else is answered `io.focusd.Focus.PermissionDenied` for
/// every call but the introspection of `org.varlink.service`.
struct AccessPolicy: Sendable {
    enum Level: Comparable, Sendable {
        case denied, readOnly, full
    }

    var fullUIDs: Set<UInt32>
    var fullGIDs: Set<UInt32>
    var readOnlyUIDs: Set<UInt32>
    var readOnlyGIDs: Set<UInt32>

    /// The calls a read-only peer may make.
    static let readOnlyMethods: Set<String> = [
        "io.focusd.Focus.GetState", "io.focusd.Focus.ListScenes", "io.focusd.Focus.Monitor",
        "io.focusd.Input.ListDevices", "io.focusd.Input.Monitor", "io.focusd.Inspect.GetScene",
        "io.focusd.Inspect.ExplainMove", "io.focusd.Inspect.PlanPath",
    ]

    /// - Parameters:
    ///   - daemonUID: the daemon's own uid.
    ///   - socketGID: the socket's group, when it has one that grants access (system mode).
    init(settings: AccessSettings, daemonUID: UInt32, socketGID: UInt32?) {
        fullUIDs = Set([0, daemonUID] + settings.allowedUids)
        fullGIDs = Set(settings.allowedGids + (socketGID.map { [$0] } ?? []))
        readOnlyUIDs = Set(settings.readOnlyUids)
        readOnlyGIDs = Set(settings.readOnlyGids)
    }

    func level(of peer: PeerCredentials) -> Level {
        func inGroups(_ gids: Set<UInt32>) -> Bool {
            gids.contains(peer.gid) || peer.groups.contains { gids.contains($0) }
        }
        if fullUIDs.contains(peer.uid) || inGroups(fullGIDs) { return .full }
        if readOnlyUIDs.contains(peer.uid) || inGroups(readOnlyGIDs) { return .readOnly }
        return .denied
    }

    /// nil when `method` (fully qualified) is allowed for `peer`, else the error to answer with.
    func check(_ method: String, peer: PeerCredentials) -> VarlinkError? {
        if method.hasPrefix("org.varlink.service.") { return nil }
        switch level(of: peer) {
        case .full: return nil
        case .readOnly where Self.readOnlyMethods.contains(method): return nil
        default:
            return VarlinkError("io.focusd.Focus.PermissionDenied", parameters: ["method": .string(method)])
        }
    }
}
