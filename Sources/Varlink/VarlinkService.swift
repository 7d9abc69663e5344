// The interface definitions (VarlinkInterface, its parser) are VarlinkIDL's, a target of their own
// so the code generator can read them without SwiftNIO; every user of Varlink sees them as before.
@_exported import VarlinkIDL
import Logging
import NIOCore

/// The handler of one interface: called on the connection's event loop with each call to one of
/// the interface's methods (``VarlinkCallContext/method`` says which).
///
/// Answer with ``VarlinkCallContext/reply(_:)``, ``VarlinkCallContext/fail(_:)`` or a
/// ``VarlinkCallContext/stream()``, now or later (on the same event loop); throwing a
/// ``VarlinkError`` answers with that error. Later calls on the connection wait until this one
/// is answered (for a stream: finished), so always answer.
public typealias VarlinkInterfaceHandler = (VarlinkCallContext) throws(VarlinkError) -> Void

/// The services a Varlink server offers: its identity (for `GetInfo`), its interfaces with their
/// handlers, and hooks to admit connections and authorize calls.
///
/// Not thread-safe by design: it lives on one event loop, together with every connection and
/// handler, so the state handlers touch needs no locks. Build it, then hand it to
/// ``VarlinkServer/start(service:endpoint:configuration:eventLoop:)``.
public final class VarlinkService {
    /// `GetInfo`'s identity fields.
    public var vendor: String
    public var product: String
    public var version: String
    public var url: String

    /// Called once a connection's peer credentials are known; return `false` to refuse it (it is
    /// closed at once, e.g. past a per-uid cap: ``connections(ofUID:)`` does not yet include the
    /// connection being decided).
    public var acceptConnection: ((VarlinkConnection) -> Bool)?

    /// Called before each call is dispatched (including `org.varlink.service`); return an error
    /// (e.g. `PermissionDenied`) to answer with it instead of calling the handler.
    public var authorizeCall: ((VarlinkCallContext) -> VarlinkError?)?

    /// Called when an accepted connection closes, after its own ``VarlinkConnection/onClose(_:)`` callbacks.
    public var connectionClosed: ((VarlinkConnection) -> Void)?

    /// Called with a byte count when a connection let go of a large amount of memory: a large
    /// call once it has been dispatched, a connection's unread input and unsent replies when it
    /// closes. (The daemon hands such memory back to the system.)
    public var memoryReleased: ((Int) -> Void)?

    /// An interface and its handler, held once: a tuple here was copied out of the dictionary on
    /// every call (a retain and a release of each of the interface's strings, arrays and
    /// dictionaries and of the handler), where a class costs one of each.
    fileprivate final class Registration {
        let interface: VarlinkInterface
        let handler: VarlinkInterfaceHandler
        init(_ interface: VarlinkInterface, _ handler: @escaping VarlinkInterfaceHandler) {
            self.interface = interface
            self.handler = handler
        }
    }
    private var interfacesByName: [String: Registration] = [:]

    /// A method's name as found among the interfaces: its member name, its interface's
    /// registration and its declaration (nil when not found). The last one is kept for the next
    /// call, which is usually of the same method (a remote's moves, a client's polling): one
    /// comparison of the name instead of cutting the interface's and member's names from it (two
    /// new strings) and two hash lookups, ~1.1k instructions a call.
    final class ResolvedMethod {
        let name: String
        let member: String
        fileprivate let registration: Registration?
        let declared: VarlinkInterface.Method?

        fileprivate init(_ call: VarlinkCall, in interfaces: [String: Registration]) {
            name = call.method
            member = call.memberName
            registration = interfaces[call.interface]
            declared = registration?.interface.methods[member]
        }
    }
    /// Unchecked: only read and assigned whole, in ``resolve(_:)`` and ``register(_:handler:)``,
    /// which call out to nothing while the access is open.
    @exclusivity(unchecked) private var lastResolved: ResolvedMethod?

    /// The last method resolved, which the next call's parse may share (``VarlinkCall/small(_:knownMethod:)``).
    var lastMethodName: String? { lastResolved?.name }

    /// The call's method resolved (see ``ResolvedMethod``).
    func resolve(_ call: VarlinkCall) -> ResolvedMethod {
        if let last = lastResolved, last.name == call.method { return last }
        let resolved = ResolvedMethod(call, in: interfacesByName)
        lastResolved = resolved
        return resolved
    }
    private var interfaceOrder: [String] = []
    private var liveConnections: [UInt64: VarlinkConnection] = [:]

    /// The text of `org.varlink.service`, served like any other interface.
    public static let serviceInterfaceDescription = """
        # The Varlink Service Interface is provided by every varlink service. It
        # describes the service and the interfaces it implements.
        interface org.varlink.service

        # Get a list of all the interfaces a service provides and information
        # about the implementation.
        method GetInfo() -> (
          vendor: string,
          product: string,
          version: string,
          url: string,
          interfaces: []string
        )

        # Get the description of an interface that is implemented by this service.
        method GetInterfaceDescription(interface: string) -> (description: string)

        # The requested interface was not found.
        error InterfaceNotFound (interface: string)

        # The requested method was not found
        error MethodNotFound (method: string)

        # The interface defines the requested method, but the service does not
        # implement it.
        error MethodNotImplemented (method: string)

        # One of the passed parameters is invalid.
        error InvalidParameter (parameter: string)

        # Client is denied access
        error PermissionDenied ()

        # Method is expected to be called with 'more' set to true, but wasn't
        error ExpectedMore ()

        """

    public init(vendor: String, product: String, version: String, url: String) {
        self.vendor = vendor
        self.product = product
        self.version = version
        self.url = url
        let serviceInterface = try! VarlinkInterface(description: Self.serviceInterfaceDescription)
        register(serviceInterface) { [unowned self] context throws(VarlinkError) in
            try self.serveIntrospection(context)
        }
    }

    /// Adds an interface; calls to its declared methods go to `handler`. Replaces an interface of
    /// the same name.
    public func register(_ interface: VarlinkInterface, handler: @escaping VarlinkInterfaceHandler) {
        if interfacesByName[interface.name] == nil { interfaceOrder.append(interface.name) }
        interfacesByName[interface.name] = Registration(interface, handler)
        lastResolved = nil
    }

    /// Parses `description` and adds the interface; returns it (its name, methods).
    @discardableResult
    public func register(
        description: String, handler: @escaping VarlinkInterfaceHandler
    ) throws(VarlinkInterfaceSyntaxError) -> VarlinkInterface {
        let interface = try VarlinkInterface(description: description)
        register(interface, handler: handler)
        return interface
    }

    /// Names of the interfaces served, `org.varlink.service` first, then in registration order.
    public var interfaceNames: [String] { interfaceOrder }

    /// The registered interface called `name`.
    public func interface(named name: String) -> VarlinkInterface? { interfacesByName[name]?.interface }

    /// The open, accepted connections.
    public var connections: [VarlinkConnection] { Array(liveConnections.values) }

    /// The open, accepted connections of one user.
    public func connections(ofUID uid: UInt32) -> [VarlinkConnection] {
        liveConnections.values.filter { $0.peer.uid == uid }
    }

    /// How many open, accepted connections one user has, without visiting them: a per-uid cap is
    /// checked at every connection, and counting by a pass over all of them made opening n
    /// connections cost the loop n² steps.
    public func connectionCount(ofUID uid: UInt32) -> Int { connectionsByUID[uid] ?? 0 }
    private var connectionsByUID: [UInt32: Int] = [:]

    // MARK: Batched writes

    /// Unchecked: only read and changed by `+=`/`-=` (see ``VarlinkConnection``'s rule).
    @exclusivity(unchecked) private var writeBatchDepth = 0
    /// Unchecked: each access is one whole operation that calls out to nothing while it is open
    /// (`append`, `count`, a read by index, `removeAll`); a connection flushed from the loop below
    /// may append to it, but only between two of those reads. Checked, each of the 9 connections a
    /// `Move` with 8 monitors writes paid two runtime checks (~63 instructions each) here.
    @exclusivity(unchecked) private var connectionsToFlush: [VarlinkConnection] = []

    /// Whether writes are being batched (inside ``batchingWrites(_:)``).
    var isBatchingWrites: Bool { writeBatchDepth > 0 }

    /// Runs `body`, holding back what it sends on any connection until it returns; then each
    /// connection written to gets one write and one flush (one system call) for all of it.
    /// Every call is dispatched in one, so a change's events reach each monitor together and
    /// before the caller's reply is flushed. Use it on the event loop around anything that
    /// sends to many connections (a device command's events). Nests.
    public func batchingWrites<T>(_ body: () throws -> T) rethrows -> T {
        writeBatchDepth += 1
        defer {
            // (Not for an empty list: a pump's last pass dispatches nothing, and emptying an
            // empty array with `removeAll(keepingCapacity:)` cost ~220 instructions.)
            if writeBatchDepth == 1 && !connectionsToFlush.isEmpty {
                // Still batching while flushing: a write completing at once may answer the next
                // pipelined call, whose writes join this list and are flushed in this loop.
                var index = 0
                while index < connectionsToFlush.count {
                    let connection = connectionsToFlush[index]
                    index += 1
                    connection.flushOutgoing()
                }
                connectionsToFlush.removeAll(keepingCapacity: true)
            }
            writeBatchDepth -= 1
        }
        return try body()
    }

    /// Flushes `connection` when the batch under way ends.
    func flushAfterBatch(_ connection: VarlinkConnection) {
        connectionsToFlush.append(connection)
    }

    // MARK: Dispatch

    /// Routes a call: upgrade refused, unknown interface or method answered with the standard
    /// errors, the authorization hook consulted, then the interface's handler.
    /// (The call is read in place through the context: a copy of it held here was a retain and
    /// a release of each of its parts per call.)
    func dispatch(_ context: VarlinkCallContext, resolved: ResolvedMethod) {
        if context.call.upgrade {
            context.fail(.invalidParameter("upgrade"))
            return
        }
        guard let entry = resolved.registration else {
            context.fail(.interfaceNotFound(context.call.interface))
            return
        }
        guard let method = resolved.declared else {
            context.fail(.methodNotFound(context.call.method))
            return
        }
        if let denial = authorizeCall?(context) {
            context.fail(denial)
            return
        }
        // A parameter the method does not declare is a mistake to report, not to ignore (a typo
        // would otherwise pass unnoticed); sd-varlink answers the same. Nested fields are
        // checked by the strict decoding of `decodeParameters`.
        // The smallest unknown name, without an array of them for every call.
        var unknown: String?
        context.call.forEachParameter { name, _ in
            if !method.inputFields.contains(name), unknown.map({ name < $0 }) ?? true { unknown = name }
        }
        if let unknown {
            context.fail(.invalidParameter(unknown))
            return
        }
        do {
            try entry.handler(context)
        } catch {
            context.fail(error)
        }
        context.handlerReturned()
    }

    private func serveIntrospection(_ context: VarlinkCallContext) throws(VarlinkError) {
        switch context.method {
        case "GetInfo":
            context.reply([
                "vendor": .string(vendor), "product": .string(product), "version": .string(version),
                "url": .string(url), "interfaces": .array(interfaceOrder.map { .string($0) }),
            ])
        case "GetInterfaceDescription":
            guard let name = context.parameters["interface"]?.stringValue else {
                throw .invalidParameter("interface")
            }
            guard let entry = interfacesByName[name] else { throw .interfaceNotFound(name) }
            context.reply(["description": .string(entry.interface.description)])
        default:
            throw .methodNotImplemented(context.call.method)
        }
    }

    // MARK: Connection bookkeeping

    /// Set when the server shuts down: a connection still being set up then is refused, so none
    /// outlives the shutdown.
    var isShuttingDown = false
    /// Bytes of partly received messages per uid (``VarlinkServer/Configuration/maxPartialInputPerUID``).
    var partialInput: [UInt32: Int] = [:]
    /// Socket connections open (accepted by the server, credentials read or not).
    var openChannels = 0
    /// Connections refused because ``VarlinkServer/Configuration/maxConnections`` were open.
    var refusedOverCap = 0
    /// Large calls whose parameters were freed on the parser thread, not on the loop (for tests).
    var callsReleasedOffLoop = 0
    /// Socket connections set up since the loop last ran its queued tasks, and the most seen
    /// in one such turn (for tests: ``VarlinkServer/Configuration/acceptsPerLoopTurn``).
    private var setUpThisTurn = 0
    private(set) var mostSetUpInOneTurn = 0

    /// A socket connection was accepted and is being set up.
    func connectionSetUp(eventLoop: any EventLoop) {
        if setUpThisTurn == 0 { eventLoop.assumeIsolated().execute { self.setUpThisTurn = 0 } }
        setUpThisTurn += 1
        mostSetUpInOneTurn = max(mostSetUpInOneTurn, setUpThisTurn)
    }

    func connectionAccepted(_ connection: VarlinkConnection) -> Bool {
        if isShuttingDown { return false }
        if let cap = connection.configuration.maxConnectionsPerUID, connectionCount(ofUID: connection.peer.uid) >= cap {
            connection.logger.notice("connection refused: too many connections for this uid", metadata: ["limit": "\(cap)"])
            return false
        }
        if let acceptConnection, !acceptConnection(connection) { return false }
        liveConnections[connection.id] = connection
        connectionsByUID[connection.peer.uid, default: 0] += 1
        return true
    }

    func connectionDidClose(_ connection: VarlinkConnection) {
        guard liveConnections.removeValue(forKey: connection.id) != nil else { return }
        let left = connectionsByUID[connection.peer.uid, default: 1] - 1
        connectionsByUID[connection.peer.uid] = left > 0 ? left : nil
        connectionClosed?(connection)
    }
}
