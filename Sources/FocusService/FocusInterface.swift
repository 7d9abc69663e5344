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
    /// Told what a lint freed (its index and graph, built on the worker thread).
    var memory: MemoryReturn?
    init(hub: SceneHub, logger: Logger = Logger(label: "focusd"), worker: NIOThreadPool? = nil) {
        self.hub = hub
        self.logger = logger
        self.worker = worker
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
        // Memory a large call (its JSON tree, the decoded scene) or a dropped scene frees goes
        // back to the system through MemoryReturn: the Varlink layer and the hub report it.
        let caller = context.connection.id
        guard let method = FocusMethod(rawValue: context.method) else {
            throw VarlinkError.methodNotImplemented(context.call.method)
        }
        do {
            switch method {
            case .setScene:
                let p = try context.decodeParameters(SetSceneParameters.self)
                let (state, warnings) = try hub.setScene(p.scene, by: caller, uid: context.peer.uid)
                log(warnings, scene: p.scene.name)
                try reply(context, StateWarningsReply(state: state, warnings: warnings))
            case .updateScene:
                let p = try context.decodeParameters(UpdateSceneParameters.self)
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
                let p = try MoveCall(parameters: context.parameters)
                let (outcome, state) = try hub.withSession(p.scene) { session throws(FocusError) in
                    try session.move(p.direction, wrap: p.wrap, track: p.track ?? .main)
                }
                try context.reply { json throws in try ReplyWriter.moved(outcome.moved, state, into: &json) }
            case .focus:
                let p = try FocusCall(parameters: context.parameters)
                let (_, state) = try hub.withSession(p.scene) { session throws(FocusError) in
                    try session.focus(p.id, track: p.track ?? .main)
                }
                try context.reply { json throws in try ReplyWriter.state(state, into: &json) }
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
                worker.runIfActive(eventLoop: context.connection.eventLoop) { () throws -> [Problem] in
                    let p = try parameters.decodeParameters(SetSceneParameters.self)
                    return try SceneSession.lint(p.scene, limits: limits)
                }.assumeIsolated().whenComplete { result in
                    // The lint's index, moves and graph were freed on the worker thread.
                    memory?.freed(bytes: 64 << 20)
                    switch result {
                    case .success(let problems):
                        do { try context.reply(encoding: ProblemsReply(problems: problems)) } catch {
                            context.fail(VarlinkError("org.varlink.service.InvalidParameter", parameters: ["parameter": "scene"]))
                        }
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
        guard let method = InspectMethod(rawValue: context.method), method != .record else {
            throw VarlinkError.methodNotImplemented(context.call.method)
        }
        do {
            switch method {
            case .getScene:
                let p = try context.decodeParameters(OptionalSceneParameters.self)
                let (scene, state) = try hub.scene(named: p.scene)
                struct SceneReply: Encodable {
                    var scene: Scene
                    var state: FocusState
                }
                try reply(context, SceneReply(scene: scene, state: state))
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
                    try reply(context, Reply(explanation: try session.explainMove(direction, limit: limit)))
                } else {
                    guard let last = hub.lastDirectionalMove(of: name) else {
                        throw VarlinkError("io.focusd.Inspect.NoDirectionalMove", parameters: ["scene": .string(name)])
                    }
                    // The node the move started from may be gone since: explain from nothing then. The scene
                    // is explained as it is now, with the sections' memory and the scroll offsets from
                    // before the move.
                    let from = last.from.flatMap { session.contains(node: $0) ? $0 : nil }
                    try reply(context, Reply(explanation: try session.explainMove(last.direction, from: from, memory: last.memory, scrolls: last.scrolls, limit: limit),
                                             revision: last.revision))
                }
            case .planPath:
                struct Parameters: Decodable {
                    var scene: String?
                    var target: String
                }
                struct Reply: Encodable { var plan: PathPlan }
                let p = try context.decodeParameters(Parameters.self)
                let (_, session) = try hub.session(named: p.scene)
                try reply(context, Reply(plan: try session.planPath(to: p.target)))
            case .record:
                throw VarlinkError.methodNotImplemented(context.call.method)
            }
        } catch let error as FocusError {
            switch error {
            case .noSuchScene(let name):
                throw VarlinkError("io.focusd.Inspect.NoSuchScene", parameters: ["scene": .string(name)])
            case .noSuchNode(let id):
                throw VarlinkError("io.focusd.Inspect.NoSuchNode", parameters: ["id": .string(id)])
            case .notFocusable(let id):
                throw VarlinkError("io.focusd.Inspect.NotFocusable", parameters: ["id": .string(id)])
            default:
                throw Self.varlinkError(error)
            }
        } catch let error as VarlinkError {
            throw error
        } catch {
            throw VarlinkError("org.varlink.service.InvalidParameter", parameters: ["parameter": "parameters"])
        }
    }

    /// `Monitor`: the first reply comes at once and carries the state, or nothing when no scene
    /// is installed yet (a `scene` event follows when one is); later replies one event each.
    /// Focus, bindings and values events are coalescible: a client that falls behind skips them
    /// and gets the latest state once it has caught up.
    private func monitor(_ context: VarlinkCallContext) throws {
        let p = try context.decodeParameters(OptionalSceneParameters.self)
        let stream = try context.stream()
        var answered = false
        let id = try hub.addMonitor(scene: p.scene) { [unowned self] message in
            answered = true
            switch message {
            case .state(let state):
                _ = try? stream.send(encoding: StateReply(state: state))
            case .event(let event):
                let coalescible = event.kind == .focus || event.kind == .bindings || event.kind == .values
                if let reply = self.encoded(event) { stream.send(reply, coalescible: coalescible) }
            }
        }
        if !answered {
            struct NothingYet: Encodable {}
            _ = try? stream.send(encoding: NothingYet())
        }
        stream.onCaughtUp = { [unowned self] in
            if let state = self.hub.snapshot(for: id) { _ = try? stream.send(encoding: StateReply(state: state)) }
        }
        stream.onClose = { [unowned self] in self.hub.removeMonitor(id) }
    }

    /// The last event sent to monitors and its reply, encoded once for all of them: the hub
    /// hands each event to every monitor in turn, and equal events are the same bytes.
    private var lastEvent: (event: Event, reply: VarlinkEncodedReply)?

    private func encoded(_ event: Event) -> VarlinkEncodedReply? {
        if let lastEvent, lastEvent.event == event { return lastEvent.reply }
        guard let reply = try? VarlinkEncodedReply(writing: { json throws in try ReplyWriter.event(event, into: &json) }) else { return nil }
        lastEvent = (event, reply)
        return reply
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
