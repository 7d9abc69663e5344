import FocusEngine
import FocusWire
import Logging
import NIOCore
import NIOPosix
import Varlink

/// `io.focusd.Focus` (and `io.focusd.Inspect`) served over Varlink: decodes each call's
/// parameters, runs it on the `SceneHub`, and answers. Runs on the daemon's one event loop.
///
/// Every mutating call's events reach the monitors inside the hub call, before the reply is
/// queued here (focus.md §11).
final class FocusInterface {
    let hub: SceneHub
    /// Where warnings go besides the reply (focus.md §5: ambiguous bindings in the reply and the log).
    let logger: Logger
    /// Where `Lint` runs (nil: on the event loop). A lint of 20,000 candidates takes a quarter
    /// of a second: on the loop, every other client and device would wait that long.
    let worker: NIOThreadPool?
    /// Where calls of at most ``promptBytes`` are built instead of on `worker` (nil: on
    /// `worker` too): a thread at the loop's own priority, for what a client waits on and
    /// takes a core for ~20 ms, not a quarter of a second (a web page of ~20,000 elements;
    /// 5,000 buttons are 410 KB, read and built in ~20 ms). Larger ones (a 9 MiB scene of
    /// 100,000 nodes) stay on `worker` below the loop's priority, where they cannot hold the
    /// loop up however loaded the machine (docs/worker-priority.md).
    let promptWorker: NIOThreadPool?
    /// `[limits] promptBuildBytes`.
    let promptBytes: Int
    /// Told what a lint freed (its index and graph, built on the worker thread).
    var memory: MemoryReturn?
    init(hub: SceneHub, logger: Logger = Logger(label: "focusd"), worker: NIOThreadPool? = nil, promptWorker: NIOThreadPool? = nil, promptBytes: Int = 0) {
        self.hub = hub
        self.logger = logger
        self.worker = worker
        self.promptWorker = promptWorker
        self.promptBytes = promptBytes
    }

    /// Logs a call's warnings about scene `scene` (nil: the active one).
    private func log(_ warnings: [String], scene: String?) {
        for warning in warnings {
            logger.warning("scene '\(scene ?? hub.activeName ?? "")': \(warning)")
        }
    }

    // MARK: Parameters of each method

    private struct SetSceneParameters: Decodable { var scene: Scene }
    private struct UpdateSceneParameters: Decodable {
        var scene: String
        var upsert: [NodePatch]?
        var remove: [String]?
        init(_ decoded: SceneDecoding.DecodedUpdate) {
            scene = decoded.scene
            upsert = decoded.upsert
            remove = decoded.remove
        }
        init(scene: String, upsert: [NodePatch]?, remove: [String]?) {
            self.scene = scene
            self.upsert = upsert
            self.remove = remove
        }
    }
    private struct SceneNameParameters: Decodable { var scene: String }
    private struct OptionalSceneParameters: Decodable { var scene: String? }
    private struct SetBindingParameters: Decodable {
        var name: String
        var isTrue: Bool?
        var value: String?
        var scene: String?
        var track: Track?
    }
    private struct ResetFocusParameters: Decodable {
        var scope: String?
        var scene: String?
    }
    private struct ScrollToParameters: Decodable {
        var node: String
        var offsetX: Double
        var offsetY: Double
        var scene: String?
    }
    private struct SendParameters: Decodable {
        var command: String
        var detents: Int?
        var scene: String?
    }

    /// `SetScene`'s parameters, read by ``SceneDecoding`` when it can, else by `Decodable`.
    private static func setSceneParameters(_ parameters: JSONValue) throws(VarlinkError) -> SetSceneParameters {
        if let scene = SceneDecoding.scene(parameters: parameters) { return SetSceneParameters(scene: scene) }
        return try parameters.decodeParameters(SetSceneParameters.self)
    }

    /// `UpdateScene`'s parameters, read by ``SceneDecoding`` when it can, else by `Decodable`.
    private static func updateSceneParameters(_ parameters: JSONValue) throws(VarlinkError) -> UpdateSceneParameters {
        if let p = SceneDecoding.patches(parameters: parameters) { return UpdateSceneParameters(scene: p.scene, upsert: p.upsert, remove: p.remove) }
        return try parameters.decodeParameters(UpdateSceneParameters.self)
    }

    // MARK: Replies

    private struct StateReply: Encodable { var state: FocusState }
    private struct StateWarningsReply: Encodable {
        var state: FocusState
        var warnings: [String]
    }
    private struct ConsumedReply: Encodable {
        var consumed: Bool
        var state: FocusState
    }
    private struct ScenesReply: Encodable {
        var scenes: [String]
        var active: String?
    }
    private struct ProblemsReply: Encodable { var problems: [Problem] }

    // MARK: Dispatch

    func handle(_ context: VarlinkCallContext) throws(VarlinkError) {
        if let name = waitingScene(of: context) {
            logger.debug("scene '\(name)': \(context.method) waits for the scene being built")
            waiting[name]!.append(context)
            return
        }
        try handleNow(context)
    }

    /// The interface's methods by name: `FocusMethod(rawValue:)` compared the name with each
    /// case's in turn (~1k instructions for a `Move`); a hash lookup costs a fraction of that.
    private static let methodsByName = Dictionary(uniqueKeysWithValues: FocusMethod.allCases.map { ($0.rawValue, $0) })
    /// The method the last call named, by name: a remote's calls are one method again and again,
    /// and comparing the name with it (the same string, or a small one compared as two words)
    /// costs a fraction of hashing it for the lookup. Unchecked: only read and assigned whole.
    @exclusivity(unchecked) private var lastMethod: (name: String, method: FocusMethod)?

    /// The method `name` names, if the interface has it.
    private func method(named name: String) -> FocusMethod? {
        if let lastMethod, lastMethod.name == name { return lastMethod.method }
        guard let method = Self.methodsByName[name] else { return nil }
        lastMethod = (name, method)
        return method
    }

    private func handleNow(_ context: VarlinkCallContext) throws(VarlinkError) {
        // Memory a large call (its JSON tree, the decoded scene) or a dropped scene frees goes
        // back to the system through MemoryReturn: the Varlink layer and the hub report it.
        let caller = context.connection.id
        guard let method = method(named: context.method) else {
            throw VarlinkError.methodNotImplemented(context.call.method)
        }
        do {
            switch method {
            case .setScene:
                // Read straight from the message's bytes on the parser thread (SceneDecoding.largeCalls).
                let decoded = context.decoded as? SceneDecoding.DecodedScene
                if let worker, let name = context.parameters["scene"]?["name"]?.stringValue, Self.isLargeScene(context.parameters, decoded) {
                    let carried = Carried(context.takeParameters())
                    carried.decoded = context.takeDecoded() as? SceneDecoding.DecodedScene
                    if carried.decoded != nil { logger.debug("scene '\(name)': SetScene was read from its bytes") }
                    buildScene(context, name: name, carried: carried, on: builder(context, scene: nil, else: worker))
                    break
                }
                let p = try decoded.map { SetSceneParameters(scene: $0.scene) } ?? Self.setSceneParameters(context.parameters)
                let (state, warnings) = try hub.setScene(p.scene, by: caller, uid: context.peer.uid)
                log(warnings, scene: p.scene.name)
                try reply(context, StateWarningsReply(state: state, warnings: warnings))
            case .updateScene:
                // Read straight from the message's bytes when it can (SceneDecoding.largeCalls).
                let decoded = context.decoded as? SceneDecoding.DecodedUpdate
                if let decoded { logger.debug("scene '\(decoded.scene)': UpdateScene was read from its bytes") }
                if let worker, let name = context.parameters["scene"]?.stringValue, buildsOffLoop(context.parameters, decoded, scene: name) {
                    let carried = Carried(context.takeParameters())
                    carried.decodedUpdate = context.takeDecoded() as? SceneDecoding.DecodedUpdate
                    buildUpdate(context, name: name, carried: carried, on: builder(context, scene: name, else: worker))
                    break
                }
                let p = try decoded.map(UpdateSceneParameters.init) ?? Self.updateSceneParameters(context.parameters)
                let (state, warnings) = try hub.updateScene(p.scene, upsert: p.upsert ?? [], remove: p.remove ?? [], by: caller)
                log(warnings, scene: p.scene)
                try reply(context, StateWarningsReply(state: state, warnings: warnings))
            case .removeScene:
                let p = try context.decodeParameters(SceneNameParameters.self)
                try hub.removeScene(p.scene, by: caller)
                context.reply()
            case .activateScene:
                let p = try context.decodeParameters(SceneNameParameters.self)
                let state = try hub.activate(p.scene)
                try reply(context, StateReply(state: state))
            case .listScenes:
                let (scenes, active) = hub.list()
                try reply(context, ScenesReply(scenes: scenes, active: active))
            case .getState:
                let p = try context.decodeParameters(OptionalSceneParameters.self)
                try reply(context, StateReply(state: try hub.state(of: p.scene)))
            case .move:
                let p = try MoveCall(context: context)
                let (_, reply) = try hub.withSession(p.scene) { session throws(FocusError) in
                    try session.move(p.direction, wrap: p.wrap, track: p.track ?? .main)
                } read: { outcome, session, active in
                    Self.reply { json throws in try ReplyWriter.moved(outcome.moved, session, active: active, into: &json) }
                }
                context.reply(try reply.get())
            case .focus:
                let p = try FocusCall(parameters: context.parameters)
                let (_, reply) = try hub.withSession(p.scene) { session throws(FocusError) in
                    try session.focus(p.id, track: p.track ?? .main)
                } read: { _, session, active in
                    Self.reply { json throws in try ReplyWriter.state(session, active: active, into: &json) }
                }
                context.reply(try reply.get())
            case .setBinding:
                let p = try context.decodeParameters(SetBindingParameters.self)
                let (outcome, state) = try hub.withSession(p.scene) { session throws(FocusError) in
                    try session.setBinding(name: p.name, isTrue: p.isTrue, value: p.value, track: p.track ?? .main)
                }
                log(outcome.warnings, scene: p.scene)
                try reply(context, StateWarningsReply(state: state, warnings: outcome.warnings))
            case .resetFocus:
                let p = try context.decodeParameters(ResetFocusParameters.self)
                let (_, state) = try hub.withSession(p.scene) { session throws(FocusError) in
                    try session.resetFocus(scope: p.scope)
                }
                try reply(context, StateReply(state: state))
            case .send:
                let p = try context.decodeParameters(SendParameters.self)
                let (outcome, state) = try hub.withSession(p.scene) { session throws(FocusError) in
                    session.send(p.command, detents: p.detents)
                }
                try reply(context, ConsumedReply(consumed: outcome.consumed, state: state))
            case .scrollTo:
                let p = try context.decodeParameters(ScrollToParameters.self)
                let (_, state) = try hub.withSession(p.scene) { session throws(FocusError) in
                    try session.scrollTo(p.node, offsetX: p.offsetX, offsetY: p.offsetY)
                }
                try reply(context, StateReply(state: state))
            case .monitor:
                try monitor(context)
            case .lint:
                guard let worker else {
                    let p = try context.decodeParameters(SetSceneParameters.self)
                    try reply(context, ProblemsReply(problems: try hub.lint(p.scene)))
                    break
                }
                // Decoding the scene and linting it touch nothing installed: both run on the
                // worker thread, and the reply goes out from the loop (later calls on this
                // connection wait for it, as for any call).
                let parameters = context.call.parameters
                let limits = hub.limits
                let memory = self.memory
                logger.debug("Lint is queued on the worker thread")
                worker.runIfActive(eventLoop: context.connection.eventLoop) { () throws -> VarlinkEncodedReply in
                    let p = try parameters.decodeParameters(SetSceneParameters.self)
                    let problems = try SceneSession.lint(p.scene, limits: limits)
                    // Encoded here too: thousands of problems are no work for the loop, and
                    // they are freed here.
                    do { return try VarlinkEncodedReply(encoding: ProblemsReply(problems: problems), continues: false) } catch {
                        throw VarlinkError("org.varlink.service.InvalidParameter", parameters: ["parameter": "scene"])
                    }
                }.assumeIsolated().whenComplete { result in
                    // The lint's index, moves and graph were freed on the worker thread.
                    memory?.freed(bytes: 64 << 20)
                    switch result {
                    case .success(let reply):
                        context.reply(reply)
                    case .failure(let error as FocusError):
                        context.fail(Self.varlinkError(error))
                    case .failure(let error as VarlinkError):
                        context.fail(error)
                    case .failure:
                        context.fail(VarlinkError("org.varlink.service.InvalidParameter", parameters: ["parameter": "scene"]))
                    }
                }
            }
        } catch let error as FocusError {
            throw Self.varlinkError(error)
        } catch let error as VarlinkError {
            throw error
        } catch {
            throw VarlinkError("org.varlink.service.InvalidParameter", parameters: ["parameter": "parameters"])
        }
    }

    /// io.focusd.Inspect but `Record` (``InputInterface/record(_:)``, which the daemon routes there).
    func handleInspect(_ context: VarlinkCallContext) throws(VarlinkError) {
        if let name = waitingScene(of: context) {
            waiting[name]!.append(context)
            return
        }
        try handleInspectNow(context)
    }

    private func handleInspectNow(_ context: VarlinkCallContext) throws(VarlinkError) {
        guard let method = InspectMethod(rawValue: context.method), method != .record else {
            throw VarlinkError.methodNotImplemented(context.call.method)
        }
        do {
            switch method {
            case .getScene:
                let p = try context.decodeParameters(OptionalSceneParameters.self)
                let (name, session) = try hub.session(named: p.scene)
                let active = name == hub.activeName
                struct SceneReply: Encodable {
                    var scene: Scene
                    var state: FocusState
                }
                try answer(context, from: session) { session in SceneReply(scene: session.scene, state: session.state(active: active)) }
            case .explainMove:
                struct Parameters: Decodable {
                    var scene: String?
                    var direction: Direction?
                    var limit: Int?
                }
                struct Reply: Encodable {
                    var explanation: MoveExplanation
                    var revision: Int?
                }
                let p = try context.decodeParameters(Parameters.self)
                if let limit = p.limit, limit < 1 {
                    throw VarlinkError("org.varlink.service.InvalidParameter", parameters: ["parameter": "limit"])
                }
                let (name, session) = try hub.session(named: p.scene)
                let limit = p.limit ?? 50
                if let direction = p.direction {
                    try answer(context, from: session) { session in Reply(explanation: try session.explainMove(direction, limit: limit)) }
                } else {
                    guard let last = hub.lastDirectionalMove(of: name) else {
                        throw VarlinkError("io.focusd.Inspect.NoDirectionalMove", parameters: ["scene": .string(name)])
                    }
                    // The node the move started from may be gone since: explain from nothing then. The scene
                    // is explained as it is now, with the sections' memory and the scroll offsets from
                    // before the move.
                    let from = last.from.flatMap { session.contains(node: $0) ? $0 : nil }
                    try answer(context, from: session) { session in
                        Reply(explanation: try session.explainMove(last.direction, from: from, memory: last.memory, scrolls: last.scrolls, limit: limit),
                              revision: last.revision)
                    }
                }
            case .planPath:
                struct Parameters: Decodable {
                    var scene: String?
                    var target: String
                }
                struct Reply: Encodable { var plan: PathPlan }
                let p = try context.decodeParameters(Parameters.self)
                let (_, session) = try hub.session(named: p.scene)
                try answer(context, from: session) { session in Reply(plan: try session.planPath(to: p.target)) }
            case .record:
                throw VarlinkError.methodNotImplemented(context.call.method)
            }
        } catch {
            throw Self.inspectError(error)
        }
    }

    /// The Varlink error an `io.focusd.Inspect` call answers for `error`.
    private static func inspectError(_ error: any Error) -> VarlinkError {
        switch error {
        case FocusError.noSuchScene(let name):
            VarlinkError("io.focusd.Inspect.NoSuchScene", parameters: ["scene": .string(name)])
        case FocusError.noSuchNode(let id):
            VarlinkError("io.focusd.Inspect.NoSuchNode", parameters: ["id": .string(id)])
        case FocusError.notFocusable(let id):
            VarlinkError("io.focusd.Inspect.NotFocusable", parameters: ["id": .string(id)])
        case let error as FocusError:
            varlinkError(error)
        case let error as VarlinkError:
            error
        default:
            VarlinkError("org.varlink.service.InvalidParameter", parameters: ["parameter": "parameters"])
        }
    }

    /// Answers a read-only `Inspect` call with `body`'s reply for `session` (a copy: it shares
    /// the engine's buffers until the loop writes to them). On a large scene `body` runs and its
    /// reply is encoded on the worker thread, and the reply goes out from the loop; later calls on
    /// this connection wait for it, as for any call (`GetScene` of 100,000 nodes held every
    /// other client about a second on the loop: ServiceBench --hostile).
    private func answer<R: Encodable>(
        _ context: VarlinkCallContext, from session: SceneSession, _ body: @escaping @Sendable (SceneSession) throws -> R
    ) throws {
        guard let worker, session.nodeCount >= Self.offLoopValues else { return try reply(context, body(session)) }
        logger.debug("io.focusd.Inspect.\(context.method) is answered on the worker thread")
        worker.runIfActive(eventLoop: context.connection.eventLoop) { () throws -> VarlinkEncodedReply in
            try VarlinkEncodedReply(encoding: body(session), continues: false)
        }.assumeIsolated().whenComplete { [memory] result in
            memory?.freed(nodes: session.nodeCount)  // what the worker built for the reply (GetScene: the whole tree)
            switch result {
            case .success(let reply): context.reply(reply)
            case .failure(let error): context.fail(Self.inspectError(error))
            }
        }
    }

    // MARK: Scenes built off the event loop

    /// From this many JSON values in its parameters (a scene of some 500 plain nodes), a
    /// `SetScene` or `UpdateScene` is decoded, validated, indexed (or applied to a copy) on the
    /// worker thread and swapped in on the loop; smaller ones are done at once, in place (a
    /// one-node update must not copy the scene).
    static let offLoopValues = 4_096
    /// An `UpdateScene` is applied to a copy of its scene: the prompt worker builds it only for
    /// a scene of fewer nodes than this (about what the default ``promptBytes``, 2 MiB, hold).
    static let promptNodes = 25_000
    /// Builds of one call done again because what they depended on changed meanwhile, before
    /// the call is done on the loop instead (a device moving focus in the scene being updated
    /// at every turn would otherwise keep it from ever being swapped in).
    static let rebuilds = 2

    /// Scenes with a build under way on the worker.
    private var building: Set<String> = []
    /// Calls to a scene being built (or to the active scene when it is), in arrival order: a
    /// single loop would answer them after the build's call, so they wait for its swap (or its
    /// failure) and are then run in that order. Calls to other scenes are not held; device
    /// commands are not held either (a stalled key is a missed key): they act on the scene as
    /// it stands, and the build is swapped in after them (a replacement keeps focus as it
    /// would; an update is built again, at most ``rebuilds`` times, if one changed the scene).
    private var waiting: [String: [VarlinkCallContext]] = [:]

    /// What a call built off the loop carries from one thread to the other: its parameters and,
    /// once swapped in, what it replaced; both are freed on the worker, where freeing the
    /// memory of 100,000 nodes holds up no one.
    private final class Carried: @unchecked Sendable {
        var parameters: JSONValue?
        /// A `SetScene`'s scene read from the message's bytes (then `parameters` hold only its name).
        var decoded: SceneDecoding.DecodedScene?
        /// An `UpdateScene`'s patches read from the message's bytes (then `parameters` hold only its name).
        var decodedUpdate: SceneDecoding.DecodedUpdate?
        var scene: SceneHub.BuiltScene?
        var update: SceneHub.BuiltUpdate?
        var garbage: [any Sendable] = []
        var attempts = 0
        init(_ parameters: JSONValue) { self.parameters = parameters }
        func drop() {
            parameters = nil
            decoded = nil
            decodedUpdate = nil
            scene = nil
            update = nil
            garbage.removeAll()
        }
    }

    /// Whether `value` holds at least `limit` JSON values (stops counting there).
    static func isLarge(_ value: JSONValue, limit: Int = offLoopValues) -> Bool {
        valueCount(value, limit: limit) >= limit
    }

    /// How many JSON values `value` holds, counted up to `limit`.
    static func valueCount(_ value: JSONValue, limit: Int) -> Int {
        var count = 0
        func visit(_ value: JSONValue) -> Bool {
            count += 1
            if count >= limit { return true }
            switch value {
            case .array(let elements):
                for element in elements where visit(element) { return true }
            case .object(let members):
                for member in members.values where visit(member) { return true }
            default:
                break
            }
            return false
        }
        _ = visit(value)
        return count
    }

    /// Whether `UpdateScene` parameters are large enough to be applied to a copy off the loop. A
    /// patch of a leaf without an index (a node without children: a reflow's new frame, which
    /// focusd applies where the node stands) counts as one value: a page's reflow sends ~1,000 of them, and copying the
    /// scene for the worker (at nice 10) cost more than applying them in place (the chromium
    /// adapter's mutation figure, docs/adapter-decisions.md). Subtrees count every value.
    static func isLargeUpdate(_ parameters: JSONValue, limit: Int = offLoopValues) -> Bool {
        guard case .array(let patches)? = parameters["upsert"] else { return isLarge(parameters, limit: limit) }
        var count = parameters["remove"]?.arrayValue?.count ?? 0
        for patch in patches {
            count += patch["node"]?["children"] == nil && patch["index"] == nil ? 1 : valueCount(patch, limit: limit - count)
            if count >= limit { return true }
        }
        return false
    }

    /// Whether an `UpdateScene` of the scene `name` is applied to a copy on the worker: a large
    /// patch, or a small one that takes apart a subtree of many nodes (it costs as much: removing
    /// one node that holds 100,000 held every other client for seconds on the loop).
    private func buildsOffLoop(_ parameters: JSONValue, _ decoded: SceneDecoding.DecodedUpdate?, scene name: String) -> Bool {
        if decoded.map({ Self.isLargeUpdate($0) }) ?? Self.isLargeUpdate(parameters) { return true }
        let touched = decoded.map(Self.touchedIds) ?? Self.touchedIds(parameters)
        return hub.nodesUnder(touched, in: name, limit: Self.offLoopValues) >= Self.offLoopValues
    }

    /// Where a call built off the loop is built: the prompt worker for a message of at most
    /// ``promptBytes`` (and, for an `UpdateScene` of `scene`, a scene of fewer than
    /// ``promptNodes`` nodes), else the worker below the loop's priority.
    private func builder(_ context: VarlinkCallContext, scene: String?, else worker: NIOThreadPool) -> NIOThreadPool {
        guard let promptWorker, context.messageSize <= promptBytes else { return worker }
        if let scene, hub.nodeCount(of: scene) >= Self.promptNodes { return worker }
        return promptWorker
    }

    /// The ids an `UpdateScene` removes or may replace (its patches' nodes), for
    /// ``SceneHub/nodesUnder(_:in:limit:)`` to count what stands under them.
    static func touchedIds(_ parameters: JSONValue) -> [String] {
        (parameters["remove"]?.arrayValue ?? []).compactMap(\.stringValue)
            + (parameters["upsert"]?.arrayValue ?? []).compactMap { $0["node"]?["id"]?.stringValue }
    }

    static func touchedIds(_ update: SceneDecoding.DecodedUpdate) -> [String] {
        (update.remove ?? []) + (update.upsert ?? []).map(\.node.id)
    }

    /// ``isLargeUpdate(_:limit:)`` of the patches ``SceneBytes`` read: the same count, from
    /// what they read (``SceneDecoding/valueCount(_:limit:)``).
    static func isLargeUpdate(_ update: SceneDecoding.DecodedUpdate, limit: Int = offLoopValues) -> Bool {
        guard let patches = update.upsert else { return 2 + (update.remove.map { 1 + $0.count } ?? 0) >= limit }
        var count = update.remove?.count ?? 0
        for patch in patches {
            count += patch.node.children == nil && patch.index == nil ? 1 : 2 + (patch.index == nil ? 0 : 1) + SceneDecoding.valueCount(patch.node, limit: limit - count)
            if count >= limit { return true }
        }
        return false
    }

    /// Whether `SetScene` parameters (or the scene ``SceneBytes`` read, then the parameters
    /// hold only its name) are large enough to be built off the loop: the same count either way.
    static func isLargeScene(_ parameters: JSONValue, _ decoded: SceneDecoding.DecodedScene?, limit: Int = offLoopValues) -> Bool {
        guard let decoded else { return isLarge(parameters, limit: limit) }
        return SceneDecoding.valueCount(decoded.scene, limit: limit) >= limit
    }

    /// The scene whose queue `context` must wait in, if any.
    private func waitingScene(of context: VarlinkCallContext) -> String? {
        guard !waiting.isEmpty else { return nil }
        let parameters = context.parameters
        let name: String?
        // Inspect's methods (this serves both) are not in FocusMethod: they read the default.
        switch FocusMethod(rawValue: context.method) {
        case .listScenes, .lint:
            return nil
        case .setScene:
            name = parameters["scene"]?["name"]?.stringValue
        case .updateScene, .removeScene, .activateScene:
            name = parameters["scene"]?.stringValue
        default:
            name = parameters["scene"]?.stringValue ?? hub.activeName
        }
        guard let name, waiting[name] != nil else { return nil }
        return name
    }

    /// A build of `name` ended (swapped in or refused): frees what it left on the worker, then
    /// runs the calls that waited for it, in order, until one starts another build of `name`.
    private func buildEnded(_ name: String, _ carried: Carried, on worker: NIOThreadPool, eventLoop: any EventLoop) {
        building.remove(name)
        let memory = self.memory
        worker.runIfActive(eventLoop: eventLoop) { carried.drop() }.assumeIsolated().whenComplete { _ in
            // The decoded scene, its JSON tree and the replaced tree are gone now.
            memory?.freed(bytes: 64 << 20)
        }
        while !building.contains(name), let next = waiting[name]?.first {
            waiting[name]!.removeFirst()
            // A stream for a client that went away would stay subscribed: not started.
            if next.more && !next.connection.isOpen { continue }
            do {
                if next.call.interface == "io.focusd.Inspect" { try handleInspectNow(next) } else { try handleNow(next) }
            } catch {
                next.fail(error)
            }
        }
        if !building.contains(name) { waiting[name] = nil }
    }

    /// The Varlink error a call's handler would have thrown for `error`.
    private static func callError(_ error: any Error) -> VarlinkError {
        switch error {
        case let error as FocusError: return varlinkError(error)
        case let error as VarlinkError: return error
        default: return VarlinkError("org.varlink.service.InvalidParameter", parameters: ["parameter": "parameters"])
        }
    }

    /// `SetScene` of a large scene: decoded, validated and indexed on the worker; swapped in on
    /// the loop with the same checks, in the same order, as ``SceneHub/setScene(_:by:uid:)``.
    /// (What was built stays in `carried`, so that no variable on the loop holds the last
    /// reference to it.)
    private func buildScene(_ context: VarlinkCallContext, name: String, carried: Carried, on worker: NIOThreadPool) {
        building.insert(name)
        if waiting[name] == nil { waiting[name] = [] }
        carried.attempts += 1
        logger.debug("scene '\(name)': SetScene is built on the \(worker === promptWorker ? "prompt " : "")worker thread")
        let basis = hub.buildBasis(for: name)
        let eventLoop = context.connection.eventLoop
        worker.runIfActive(eventLoop: eventLoop) { () throws -> Void in
            carried.garbage.removeAll()  // an earlier attempt's
            let p = try carried.decoded.map { SetSceneParameters(scene: $0.scene) } ?? Self.setSceneParameters(carried.parameters!)
            carried.scene = SceneHub.build(p.scene, on: basis)
        }.assumeIsolated().whenComplete { [self] result in
            var again = false
            defer { if !again { buildEnded(name, carried, on: self.worker ?? worker, eventLoop: eventLoop) } }  // freed below the loop's priority
            if case .failure(let error) = result { return context.fail(Self.callError(error)) }
            // A connection that closed during the build had its scenes dropped: a single loop
            // would have installed this one and dropped it then, unless it persists.
            if !context.connection.isOpen && carried.scene!.persist != true { return }
            do {
                let installed: (FocusState, [String])?
                if carried.attempts > Self.rebuilds {
                    let p = try carried.decoded.map { SetSceneParameters(scene: $0.scene) } ?? Self.setSceneParameters(carried.parameters!)
                    installed = try hub.setScene(p.scene, by: context.connection.id, uid: context.peer.uid)
                } else {
                    installed = try hub.install(&carried.scene!, by: context.connection.id, uid: context.peer.uid)
                }
                guard let (state, warnings) = installed else {
                    // What the build depended on changed: build it again; the calls keep waiting.
                    carried.garbage.append(carried.scene.take()!)
                    again = true
                    return buildScene(context, name: name, carried: carried, on: worker)
                }
                log(warnings, scene: name)
                try reply(context, StateWarningsReply(state: state, warnings: warnings))
            } catch {
                context.fail(Self.callError(error))
            }
        }
    }

    /// `UpdateScene` of a large patch: applied to a copy of the scene on the worker; swapped in
    /// on the loop with the same checks, in the same order, as ``SceneHub/updateScene(_:upsert:remove:by:)``.
    private func buildUpdate(_ context: VarlinkCallContext, name: String, carried: Carried, on worker: NIOThreadPool) {
        building.insert(name)
        if waiting[name] == nil { waiting[name] = [] }
        carried.attempts += 1
        logger.debug("scene '\(name)': UpdateScene is built on the \(worker === promptWorker ? "prompt " : "")worker thread")
        let basis = hub.updateBasis(for: name)
        let eventLoop = context.connection.eventLoop
        worker.runIfActive(eventLoop: eventLoop) { () throws -> Void in
            carried.garbage.removeAll()
            let p = try carried.decodedUpdate.map(UpdateSceneParameters.init) ?? Self.updateSceneParameters(carried.parameters!)
            carried.update = SceneHub.buildUpdate(name, upsert: p.upsert ?? [], remove: p.remove ?? [], on: basis)
        }.assumeIsolated().whenComplete { [self] result in
            var again = false
            defer { if !again { buildEnded(name, carried, on: self.worker ?? worker, eventLoop: eventLoop) } }  // freed below the loop's priority
            if case .failure(let error) = result { return context.fail(Self.callError(error)) }
            do {
                let installed: (FocusState, [String])?
                if carried.attempts > Self.rebuilds {
                    let p = try carried.decodedUpdate.map(UpdateSceneParameters.init) ?? Self.updateSceneParameters(carried.parameters!)
                    installed = try hub.updateScene(name, upsert: p.upsert ?? [], remove: p.remove ?? [], by: context.connection.id)
                } else {
                    installed = try hub.installUpdate(&carried.update!, by: context.connection.id)
                }
                guard let (state, warnings) = installed else {
                    carried.garbage.append(carried.update.take()!)
                    again = true
                    return buildUpdate(context, name: name, carried: carried, on: worker)
                }
                log(warnings, scene: name)
                try reply(context, StateWarningsReply(state: state, warnings: warnings))
            } catch {
                context.fail(Self.callError(error))
            }
        }
    }

    /// `Monitor`: the first reply comes at once and carries the state, or nothing when no scene
    /// is installed yet (a `scene` event follows when one is); later replies one event each.
    /// Focus, bindings and values events are coalescible: a client that falls behind skips them
    /// and gets the latest state once it has caught up.
    private func monitor(_ context: VarlinkCallContext) throws {
        let p = try context.decodeParameters(OptionalSceneParameters.self)
        let stream = try context.stream()
        // Asked before, not noted by the closure: a `var` captured by the escaping closure was a
        // boxed variable written (and access-checked) on every event of every monitor.
        let answered = hub.deliversStateAtOnce(scene: p.scene)
        let replies = eventReplies  // held by the closure: no reference back to the interface to check
        let id = try hub.addMonitor(scene: p.scene) { message, delivery in replies.send(message, delivery: delivery, to: stream) }
        if !answered {
            struct NothingYet: Encodable {}
            _ = try? stream.send(encoding: NothingYet())
        }
        stream.onCaughtUp = { [unowned self] in
            if let state = self.hub.snapshot(for: id) { _ = try? stream.send(encoding: StateReply(state: state)) }
        }
        stream.onClose = { [unowned self] in self.hub.removeMonitor(id) }
    }

    /// The monitors' events, each encoded once for all of them.
    private let eventReplies = EventReplies()

    /// The last event sent to monitors and its reply, encoded once for all of them: the hub
    /// hands each event to every monitor in turn, and equal events are the same bytes. The hub
    /// numbers each delivery (``SceneHub/addMonitor(scene:deliveries:)``): one number to
    /// compare, where comparing the events themselves cost more than encoding one. A class of
    /// its own, held by each monitor's closure: the closure held the interface `unowned` (a
    /// checked load per event and monitor) and asked the hub for the number.
    private final class EventReplies {
        /// The last delivery's number, its reply and whether it is coalescible. Three fields, not
        /// an optional tuple: reading the tuple copied it whole through its value witness (~145
        /// instructions per monitor). Unchecked: only read and assigned whole (see
        /// `VarlinkConnection`'s rule); checked, each monitor's event paid ~85 instructions for it.
        @exclusivity(unchecked) private var lastDelivery: UInt64 = 0
        @exclusivity(unchecked) private var lastReply: VarlinkEncodedReply?
        @exclusivity(unchecked) private var lastCoalescible = false

        /// Sends `message` on `stream`: a state as it is, an event as its reply encoded once per
        /// delivery (focus, bindings and values events coalescible). The event is read out of
        /// `message` only to encode it.
        func send(_ message: MonitorMessage, delivery: UInt64, to stream: VarlinkStream) {
            if delivery != 0 && delivery == lastDelivery, let reply = lastReply {
                stream.send(reply, coalescible: lastCoalescible)
                return
            }
            switch message {
            case .state(let state):
                _ = try? stream.send(encoding: StateReply(state: state))
            case .event(let event):
                guard let reply = try? VarlinkEncodedReply(writing: { json throws in try ReplyWriter.event(event, into: &json) })
                else { return }
                let coalescible = event.kind == .focus || event.kind == .bindings || event.kind == .values
                (lastDelivery, lastReply, lastCoalescible) = (delivery, reply, coalescible)
                stream.send(reply, coalescible: coalescible)
            }
        }
    }

    /// A reply written by hand (``VarlinkEncodedReply/init(continues:capacity:writing:)``),
    /// or the error its writer threw (a non-finite scroll offset).
    private static func reply(writing write: (inout JSONBytes) throws -> Void) -> Result<VarlinkEncodedReply, any Error> {
        Result { try VarlinkEncodedReply(continues: false, capacity: 512, writing: write) }
    }

    private func reply(_ context: VarlinkCallContext, _ value: some Encodable) throws {
        try context.reply(encoding: value)
    }

    /// The Varlink error for an engine error: the interface's qualified name and parameters.
    static func varlinkError(_ error: FocusError) -> VarlinkError {
        var parameters: [String: JSONValue] = [:]
        for (key, value) in error.parameters {
            switch value {
            case .string(let text): parameters[key] = .string(text)
            case .int(let number): parameters[key] = .integer(Int64(number))
            case .null: continue
            }
        }
        return VarlinkError(error.varlinkName, parameters: .object(parameters))
    }
}
