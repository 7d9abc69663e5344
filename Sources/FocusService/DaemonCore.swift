import FocusConfig
import FocusEngine
import FocusWire
import InputMapping
import Logging
import NIOCore
import NIOPosix
import Varlink

#if canImport(Glibc)
import Glibc
#endif

/// Everything that lives on the event loop.
final class DaemonCore {
    let hub: SceneHub
    let memory: MemoryReturn
    let focus: FocusInterface
    let input: InputInterface
    let router: InputRouter
    /// Who may call what; replaced whole on a reload.
    var access: AccessPolicy {
        get { accessGrant.policy }
        set { accessGrant = AccessGrant(newValue) }
    }
    /// ``access`` in a box read by every call's check: the policy (six sets) read from this class
    /// for a call was copied out first, a retain and a release of each set (~600 instructions a
    /// call); the box's `let` is read in place.
    private(set) var accessGrant: AccessGrant
    /// The socket's group when it grants access (system mode), for recomputing `access` on reload.
    let socketGID: UInt32?
    var maxConnectionsPerUID: Int
    /// The socket file, for the read-only users' ACL (nil: an abstract or unknown socket).
    var socketPath: String?
    /// Whether focusd wrote that ACL (only then does a config without read-only users remove it:
    /// an ACL an administrator set by hand stays).
    var socketACLWritten = false
    /// Where WebSocket clients are served (fixed at start; its access class follows reloads).
    var webSocketListen: ListenAddress?
    /// The WebSocket server, whose origins, token and cap follow reloads.
    var webSocketServer: VarlinkWebSocketServer?
    let logger: Logger
    /// The service both servers serve (set once it is made): a device frame's writes are batched
    /// through it as a call's are.
    var varlink: VarlinkService?
    /// Where device frames' time goes (kept at log level `debug`, logged when focusd stops).
    let inputPathTimes: InputPathTimes?

    init(eventLoop: any EventLoop, configuration: Configuration, socketGID: UInt32?, logger: Logger, worker: NIOThreadPool? = nil,
         promptWorker: NIOThreadPool? = nil, promptBytes: Int = 0) {
        hub = SceneHub(limits: Limits(configuration.limits), caps: SceneHub.Caps(configuration.limits))
        memory = MemoryReturn(eventLoop: eventLoop, worker: worker, logger: logger)
        focus = FocusInterface(hub: hub, logger: logger, worker: worker, promptWorker: promptWorker, promptBytes: promptBytes)
        router = InputRouter(eventLoop: eventLoop, hub: hub)
        input = InputInterface(router: router)
        self.socketGID = socketGID
        accessGrant = AccessGrant(AccessPolicy(settings: configuration.access, daemonUID: getuid(), socketGID: socketGID))
        maxConnectionsPerUID = configuration.limits.maxConnectionsPerUid
        self.logger = logger
        inputPathTimes = logger.logLevel <= .debug ? InputPathTimes() : nil
        hub.nodesFreed = { [memory] nodes in memory.freed(nodes: nodes) }
        if let worker {
            hub.treeDropped = { [eventLoop] tree in
                let dropped = DroppedTree(tree)
                // On the loop's next turn the hub's own references are gone, so the worker's
                // release is the last one and the scene's memory is freed there.
                eventLoop.execute { worker.submit { _ in dropped.tree = nil } }
            }
        }
        focus.memory = memory
    }

    /// Installs the built-in demo scene (`--demo`): persistent, set by no connection.
    func installDemoScene() throws {
        let scene = try JSONValue.parse(EmbeddedResources.demoScene).decode(Scene.self)
        _ = try hub.setScene(scene, by: 0)
    }

    /// The access policy of `configuration`, WebSocket clients included.
    func makeAccess(_ configuration: Configuration) -> AccessPolicy {
        var access = AccessPolicy(settings: configuration.access, daemonUID: getuid(), socketGID: socketGID)
        if let webSocketListen {
            access.webSocket = configuration.websocket.effectiveAccess(for: webSocketListen) == .full ? .full : .readOnly
        }
        return access
    }
}

/// The scene limits and caps of `[limits]`, read the same way at start and on reload.
extension Limits {
    init(_ settings: LimitSettings) {
        self.init(maxNodes: settings.maxNodes, maxDepth: settings.maxDepth)
    }
}

extension SceneHub.Caps {
    init(_ settings: LimitSettings) {
        self.init(
            scenesPerConnection: settings.maxScenesPerConnection, scenesPerUid: settings.maxScenesPerUid,
            nodesPerUid: settings.maxNodesPerUid)
    }
}

/// A dropped tree on its way to the worker thread to be freed. Only the worker touches it once
/// it is handed over (the loop keeps no reference), hence `@unchecked Sendable`.
private final class DroppedTree: @unchecked Sendable {
    var tree: SceneHub.DroppedTree?
    init(_ tree: SceneHub.DroppedTree) { self.tree = tree }
}
