// AdapterKit: what every focusd adapter shares (adapters.md §1). No toolkit in here: a client of
// focusd's public io.focusd.Focus interface on its Varlink socket, and a poll loop to run on.
//
// The API, and how an adapter uses it:
//
//     let loop = AdapterLoop()                               // the adapter's one thread
//     let link = FocusdLink(loop: loop, socket: FocusdLink.socketPath(option: socketOption)!)
//     link.delegate = self                                   // a FocusdLinkDelegate
//     link.start()                                           // connects, and reconnects for ever
//     link.publish(scene)            // first time SetScene; later the diff (UpdateScene, ScrollTo)
//     link.update(scene, requests)   // a change the adapter already knows (ScenePatch.apply): no diff
//     link.activate("chromium:T")    // ActivateScene, now and after every reconnect
//     link.reportFocus("login", in: "chromium:T")            // focus the interface moved itself
//     link.withdraw("chromium:T")    // RemoveScene
//     try loop.stopOnSignals([SIGTERM, SIGINT]) { _ in … }; loop.run()
//
// The delegate (all on the loop's thread):
//   - `sceneReady(state)` once the scene's Monitor is subscribed, after every SetScene of a new
//     scene (again after each reconnect): apply `state.focused` to the interface, or report the
//     interface's own focus with `reportFocus` when it has one;
//   - `received(event)` for each event of an owned scene (focus, scroll, activate, edit, command,
//     blocked, scene, materialize, bindings, values), in order;
//   - `connectionChanged(connected:reason:)` when focusd goes away or comes back (the link re-sends
//     every scene by itself, then `sceneReady` follows for each);
//   - `sceneRejected(name:error:)` when focusd refuses a scene (an invalid one, another owner).
//
// Every scene published is owned by the link's connection (so it goes when the adapter exits) and
// monitored on a connection of its own (a Monitor stream holds its connection). The link keeps
// the last scene sent; `publish` sends only what changed, and scroll events update that copy, so
// the interface scrolling as focusd asked does not echo back.
import FocusEngine
import FocusWire
import SystemCalls
import Varlink

#if canImport(Glibc)
import Glibc
#endif

/// What an adapter hears from its ``FocusdLink`` (on the loop's thread).
public protocol FocusdLinkDelegate: AnyObject {
    func sceneReady(_ link: FocusdLink, state: FocusState)
    func received(_ link: FocusdLink, event: Event)
    func connectionChanged(_ link: FocusdLink, connected: Bool, reason: String?)
    func sceneRejected(_ link: FocusdLink, name: String, error: String)
}

extension FocusdLinkDelegate {
    public func connectionChanged(_ link: FocusdLink, connected: Bool, reason: String?) {}
    public func sceneRejected(_ link: FocusdLink, name: String, error: String) {
        AdapterLog.error("focusd refused scene '\(name)': \(error)")
    }
}

/// An adapter's connection to focusd: owns its scenes, keeps them current in diffs, delivers
/// their events, and survives focusd restarting.
public final class FocusdLink {
    public weak var delegate: (any FocusdLinkDelegate)?
    public let socket: String
    private let loop: AdapterLoop
    private var control: VarlinkPeer?
    private var waiting: SocketWaiter?
    private var started = false
    /// Quick retries left after the socket's directory changed (a socket is bound before it listens).
    private var retries = 0
    private var warned = false

    private struct Entry {
        /// What the adapter wants focusd to have.
        var wanted: Scene
        /// `wanted.root` as JSON text already (the client's own description of it), sent as it
        /// is in a SetScene; nil when `wanted` changed since.
        var wantedRoot: [UInt8]?
        /// What focusd has been sent (nil: not yet on this connection).
        var sent: Scene?
        var monitor: VarlinkPeer?
    }

    private var entries: [String: Entry] = [:]
    private var active: String?

    public init(loop: AdapterLoop, socket: String) {
        self.loop = loop
        self.socket = socket
    }

    /// focusd's socket: `option` (`--socket`), else `$FOCUSD_SOCKET`, else `/run/focusd/focusd.sock`
    /// for root, else `$XDG_RUNTIME_DIR/focusd/focusd.sock` (service.md §1); nil when that needs
    /// `XDG_RUNTIME_DIR` and it is not set.
    public static func socketPath(option: String?, environment: (String) -> String? = Posix.environment) -> String? {
        if let option, !option.isEmpty { return option }
        if let path = environment("FOCUSD_SOCKET"), !path.isEmpty { return path }
        if getuid() == 0 { return "/run/focusd/focusd.sock" }
        guard let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty else { return nil }
        return "\(runtime)/focusd/focusd.sock"
    }

    /// Whether the control connection is up.
    public var isConnected: Bool { control?.isOpen ?? false }

    /// Connects now, or as soon as focusd's socket appears.
    public func start() {
        started = true
        connect()
    }

    /// Closes every connection (focusd drops the scenes).
    public func stop() {
        started = false
        waiting = nil
        unread.removeAll()
        for name in entries.keys { entries[name]?.monitor?.close() }
        control?.close()
        control = nil
    }

    /// The scene as last sent to focusd (what its node ids and offsets are there).
    public func sentScene(_ name: String) -> Scene? {
        settle(name)
        return entries[name]?.sent
    }

    /// Makes focusd's scene `scene.name` this one: a SetScene the first time (then its Monitor is
    /// subscribed and `sceneReady` follows), later only the difference from what was sent.
    /// `encodedRoot`, when given, is `scene.root` as JSON text that decodes to exactly that node
    /// (the client's own description): a SetScene then sends those bytes instead of encoding the
    /// tree again (a quarter of a 1,000-candidate reflow's cost in the adapter).
    public func publish(_ scene: Scene, encodedRoot: [UInt8]? = nil) {
        settle(scene.name)
        entries[scene.name, default: Entry(wanted: scene)].wanted = scene
        entries[scene.name]?.wantedRoot = encodedRoot
        guard let control, control.isOpen else { return }
        guard let sent = entries[scene.name]?.sent else {
            if entries[scene.name]?.monitor == nil { setScene(scene.name) }
            return
        }
        switch SceneDiff.changes(from: sent, to: scene) {
        case .none:
            break
        case .replace:
            setScene(scene.name)
        case .update(let upsert, let remove, let scroll):
            entries[scene.name]?.sent = scene
            send(scene.name, upsert: upsert, remove: remove, scroll: scroll)
        }
    }

    /// Makes focusd's scene `name` the client's own description of its root, `encodedRoot` (JSON
    /// text), sent in a SetScene at once, before the adapter reads it (a new document's first
    /// scene of 5,000 candidates: the adapter's read of the page's message took 30-90 ms before
    /// the SetScene could go). The link's copy is read from the very bytes focusd was sent, by
    /// focusd's own reader (`SceneBytes`), once focusd has answered that SetScene: read at once, it
    /// took one of two cores (8 ms quiet, 17-27 ms under load) while focusd built the scene and
    /// the browser painted the page. Text that reader leaves to the general way is read by
    /// `decode`, which must give the scene `encodedRoot` describes. When neither can read it,
    /// focusd is sent the scene the link had again (or the scene is removed, when it had none),
    /// so focusd never keeps a scene the adapter does not know.
    ///
    /// `done` gets the scene read (nil when none could be): after focusd's answer, or sooner when
    /// the scene is used before it (``sentScene(_:)``, ``publish(_:encodedRoot:)``,
    /// ``update(_:_:)``, ``reportFocus(_:in:completion:)``, another `replace`: each reads it
    /// first, so nothing sees the scene as it was before). It is not called when the scene is
    /// withdrawn or the link stopped first. Without a connection, or while an earlier SetScene of
    /// the scene is unanswered, this is `publish` of the decoded scene and `done` is called at
    /// once (nothing is sent before it is read).
    public func replace(_ name: String, encodedRoot: [UInt8], decode: @escaping () -> Scene?, done: @escaping (Scene?) -> Void) {
        settle(name)
        let previous = entries[name]
        guard let control, control.isOpen, previous == nil || previous?.sent != nil else {
            let scene = decode()
            if let scene { publish(scene, encodedRoot: encodedRoot) }
            done(scene)
            return
        }
        let parameters = Self.setSceneParameters(name, root: encodedRoot)
        unread[name] = Unread(parameters: parameters, decode: decode, done: done)
        sendSetScene(name, parameters: parameters)
    }

    /// A scene sent by `replace` and not read yet: its SetScene's parameters, the general way to
    /// read them, and who waits for the result.
    private struct Unread {
        var parameters: [UInt8]
        var decode: () -> Scene?
        var done: (Scene?) -> Void
    }

    private var unread: [String: Unread] = [:]

    /// Reads the scene `replace` sent as `name`, if it is not read yet (focusd answered, or the
    /// scene is about to be used), and tells `replace`'s caller.
    private func settle(_ name: String) {
        let done: (Scene?) -> Void
        let read: Scene?
        do {  // the text (and what `decode` holds) is freed before `done` runs: it may hand the pages back
            guard let pending = unread.removeValue(forKey: name) else { return }
            done = pending.done
            read = pending.parameters.withUnsafeBytes { SceneBytes.setScene(document: $0, depthLimit: JSONValue.defaultDepthLimit) }
                ?? pending.decode()
        }
        guard let scene = read, scene.name == name, scene.isNameAndRootOnly else {
            if entries[name] != nil {
                setScene(name)
            } else {
                control?.call(FocusMethod.removeScene.qualified, ["scene": .string(name)]) { _ in }
            }
            done(nil)
            return
        }
        entries[name, default: Entry(wanted: scene)].wanted = scene
        // The text is not kept: it served the one SetScene that counts; a re-send after focusd
        // restarts encodes the scene (as after any patch), and the adapter's resident memory with a
        // page of 5,000 candidates is 0.4 MB less (adapters.md §4: ≤ 16 MiB).
        entries[name]?.wantedRoot = nil
        entries[name]?.sent = scene
        done(scene)
    }

    /// Makes focusd's scene `scene.name` this one through changes the adapter already knows
    /// (`ScenePatch.apply` made `scene` and `requests` together), without comparing whole scenes.
    /// Before the scene was first sent on this connection it is a `publish`.
    public func update(_ scene: Scene, _ requests: ScenePatch.Requests) {
        settle(scene.name)
        guard let control, control.isOpen, entries[scene.name]?.sent != nil else {
            publish(scene)
            return
        }
        entries[scene.name]?.wanted = scene
        entries[scene.name]?.wantedRoot = nil
        entries[scene.name]?.sent = scene
        send(scene.name, upsert: requests.upsert, remove: requests.remove, scroll: requests.scroll)
    }

    /// `UpdateScene` with the patches (written as text by hand: a reflow's ~1,000 of them through
    /// `Codable` cost more than the page's own reading), then a `ScrollTo` for each offset.
    private func send(_ name: String, upsert: [NodePatch], remove: [String], scroll: [ScrollOffset]) {
        guard let control else { return }
        if !upsert.isEmpty || !remove.isEmpty {
            var json = JSONBytes(capacity: 64 + upsert.count * 128)
            json.raw(#"{"scene":"#)
            json.string(name)
            json.raw(#","upsert":"#)
            do {
                try PatchText.write(upsert, into: &json)
            } catch {
                delegate?.sceneRejected(self, name: name, error: "cannot encode the patches: \(error)")
                return
            }
            json.raw(#","remove":"#)
            json.write(remove)
            json.byte(UInt8(ascii: "}"))
            control.call(FocusMethod.updateScene.qualified, encodedParameters: json.bytes) { [weak self] result in
                self?.answered(result, scene: name, call: "UpdateScene", resend: true)
            }
        }
        for offset in scroll {
            let parameters: JSONValue = [
                "scene": .string(name), "node": .string(offset.node),
                "offsetX": .double(offset.offsetX), "offsetY": .double(offset.offsetY),
            ]
            control.call(FocusMethod.scrollTo.qualified, parameters) { [weak self] result in
                self?.answered(result, scene: name, call: "ScrollTo", resend: false)
            }
        }
    }

    /// Removes scene `name` from focusd and forgets it.
    public func withdraw(_ name: String) {
        let unanswered = unread.removeValue(forKey: name) != nil  // sent, never read
        let entry = entries.removeValue(forKey: name)
        guard unanswered || entry != nil else { return }
        entry?.monitor?.close()
        if active == name { active = nil }
        if unanswered || entry?.sent != nil {
            control?.call(FocusMethod.removeScene.qualified, ["scene": .string(name)]) { _ in }
        }
    }

    /// Makes scene `name` the active one (now, or once it is sent; again after a reconnect).
    public func activate(_ name: String) {
        active = name
        guard entries[name]?.sent != nil else { return }
        control?.call(FocusMethod.activateScene.qualified, ["scene": .string(name)]) { [weak self] result in
            self?.answered(result, scene: name, call: "ActivateScene", resend: false)
        }
    }

    /// Tells focusd the interface moved focus itself (nil: nothing holds focus). A node focusd does
    /// not take (NotFocusable) is reported to the log only: focusd keeps its own focus, and its
    /// next event brings the interface back in line.
    public func reportFocus(_ id: String?, in scene: String, completion: ((FocusState?) -> Void)? = nil) {
        settle(scene)
        guard entries[scene]?.sent != nil, let control else {
            completion?(nil)
            return
        }
        control.call(FocusMethod.focus.qualified, ["scene": .string(scene), "id": id.map { .string($0) } ?? .null]) { result in
            switch result {
            case .success(let reply) where reply.error == nil:
                completion?(try? reply.parameters["state"]?.decode(FocusState.self))
            case .success(let reply):
                AdapterLog.debug("focusd did not take focus \(id ?? "null") in \(scene): \(reply.error!)")
                completion?(nil)
            case .failure:
                completion?(nil)
            }
        }
    }

    /// Calls any other io.focusd.Focus method on the control connection (GetState, Send, …).
    public func call(_ method: FocusMethod, _ parameters: JSONValue, reply: @escaping (Result<JSONValue, any Error>) -> Void) {
        guard let control else { return reply(.failure(VarlinkClientError.connectionClosed)) }
        control.call(method.qualified, parameters) { result in
            switch result {
            case .success(let answer):
                if let error = answer.error { reply(.failure(VarlinkError(error, parameters: answer.parameters))) } else { reply(.success(answer.parameters)) }
            case .failure(let error): reply(.failure(error))
            }
        }
    }

    // MARK: Connection

    private func connect() {
        guard started, control == nil else { return }
        let peer: VarlinkPeer
        do {
            peer = try VarlinkPeer(loop: loop, path: socket)
        } catch {
            if !warned {
                AdapterLog.warning("focusd is not reachable at \(socket) (\(error.message)); waiting for it to start")
                warned = true
            }
            if retries > 0 {
                retries -= 1
                loop.schedule(after: .milliseconds(50)) { [weak self] in self?.connect() }
            } else {
                waitForSocket()
            }
            return
        }
        waiting = nil
        warned = false
        control = peer
        peer.onClose = { [unowned self] reason in self.lost(reason) }
        AdapterLog.info("connected to focusd at \(socket)")
        delegate?.connectionChanged(self, connected: true, reason: nil)
        for name in entries.keys.sorted() { setScene(name) }
    }

    private func lost(_ reason: String) {
        AdapterLog.warning("lost focusd at \(socket): \(reason); its scenes are re-sent when it is back")
        control = nil
        for name in entries.keys {
            entries[name]?.monitor?.close()
            entries[name]?.monitor = nil
            entries[name]?.sent = nil
        }
        delegate?.connectionChanged(self, connected: false, reason: reason)
        loop.post { [weak self] in self?.connect() }
    }

    /// Waits, without polling, for the socket to (re)appear: an inotify watch on its directory
    /// (or the nearest existing ancestor, while the directory itself is missing).
    private func waitForSocket() {
        waiting = SocketWaiter(loop: loop, path: socket) { [weak self] in
            self?.waiting = nil
            self?.retries = 5
            self?.connect()
        }
        if waiting == nil {
            // No directory could be watched (inotify unavailable): try again in a second.
            loop.schedule(after: .seconds(1)) { [weak self] in self?.connect() }
        }
    }

    // MARK: Scenes

    private func setScene(_ name: String) {
        guard control != nil, let scene = entries[name]?.wanted else { return }
        entries[name]?.sent = scene
        let parameters: [UInt8]
        if let root = entries[name]?.wantedRoot, scene.isNameAndRootOnly {
            parameters = Self.setSceneParameters(name, root: root)
        } else {
            do {
                parameters = Array("{\"scene\":".utf8) + (try JSONTextEncoder().encode(scene)) + [UInt8(ascii: "}")]
            } catch {
                delegate?.sceneRejected(self, name: name, error: "cannot encode the scene: \(error)")
                return
            }
        }
        sendSetScene(name, parameters: parameters)
    }

    /// SetScene's parameters for a scene of a name and a root (JSON text) alone.
    private static func setSceneParameters(_ name: String, root: [UInt8]) -> [UInt8] {
        var parameters = Array("{\"scene\":{\"name\":".utf8)
        parameters += JSONValue.string(name).serialized()
        parameters += Array(",\"root\":".utf8)
        parameters += root
        parameters += Array("}}".utf8)
        return parameters
    }

    private func sendSetScene(_ name: String, parameters: [UInt8]) {
        guard let control else { return }
        control.call(FocusMethod.setScene.qualified, encodedParameters: parameters) { [weak self] result in
            guard let self else { return }
            self.settle(name)  // a scene `replace` sent is read now that focusd has it
            guard self.entries[name] != nil else { return }  // withdrawn meanwhile
            guard case .success(let reply) = result, reply.error == nil else {
                self.entries[name]?.sent = nil
                if case .success(let reply) = result { self.rejected(name, reply) }
                return
            }
            if self.entries[name]?.monitor == nil { self.subscribe(name) }
            if self.active == name { self.activate(name) }
        }
    }

    private func subscribe(_ name: String) {
        let monitor: VarlinkPeer
        do {
            monitor = try VarlinkPeer(loop: loop, path: socket)
        } catch {
            AdapterLog.warning("cannot open a monitor connection to focusd: \(error)")
            return
        }
        entries[name]?.monitor = monitor
        monitor.onClose = { [weak self] reason in
            // The monitor alone went (focusd closes everything when it stops: `lost` handles that).
            guard let self, self.entries[name]?.monitor === monitor else { return }
            self.entries[name]?.monitor = nil
            AdapterLog.debug("monitor of \(name) closed: \(reason)")
        }
        monitor.call(FocusMethod.monitor.qualified, ["scene": .string(name)], more: true) { [weak self] result in
            guard let self, case .success(let reply) = result else { return }
            if let error = reply.error {
                AdapterLog.warning("focusd refused to monitor \(name): \(error)")
                return
            }
            if let state = reply.parameters["state"], let decoded = try? state.decode(FocusState.self) {
                self.delegate?.sceneReady(self, state: decoded)
            } else if let event = reply.parameters["event"], let decoded = try? event.decode(Event.self) {
                self.note(decoded)
                self.delegate?.received(self, event: decoded)
            }
        }
    }

    /// Keeps the sent copy's offsets as focusd scrolled them.
    private func note(_ event: Event) {
        guard event.kind == .scroll, let node = event.node else { return }
        settle(event.scene)  // a scene replaced, whose answer this connection has not read yet
        guard var sent = entries[event.scene]?.sent else { return }
        let x = event.offsetX ?? 0, y = event.offsetY ?? 0
        if sent.root.setScrollOffset(of: node, x: x, y: y) { entries[event.scene]?.sent = sent }
    }

    private func answered(_ result: Result<VarlinkReply, VarlinkClientError>, scene: String, call: String, resend: Bool) {
        guard case .success(let reply) = result, let error = reply.error else { return }
        if error == "io.focusd.Focus.NoSuchScene" || resend {
            // focusd lost or refused the change: send the whole scene again.
            AdapterLog.warning("\(call) on \(scene) failed (\(error) \(reply.parameters.compactDescription)); sending the whole scene")
            if entries[scene] != nil, control != nil { setScene(scene) }
        } else {
            AdapterLog.debug("\(call) on \(scene): \(error)")
        }
    }

    private func rejected(_ name: String, _ reply: VarlinkReply) {
        let error = reply.error ?? "unknown"
        var text = "\(error) \(reply.parameters.compactDescription)"
        if error == "io.focusd.Focus.SceneOwned" {
            text = "another client of focusd owns a scene named '\(name)' (another adapter running?)"
        }
        delegate?.sceneRejected(self, name: name, error: text)
    }
}

extension Node {
    /// Sets the scroll offset of the container `id` in this subtree; false when it is not there.
    public mutating func setScrollOffset(of id: String, x: Double, y: Double) -> Bool {
        if self.id == id {
            scroll?.offsetX = x
            scroll?.offsetY = y
            return true
        }
        guard var children else { return false }
        for index in children.indices where children[index].setScrollOffset(of: id, x: x, y: y) {
            self.children = children
            return true
        }
        return false
    }
}

extension JSONValue {
    /// Compact JSON text, for messages.
    var compactDescription: String { String(decoding: serialized(), as: UTF8.self) }
}

/// Calls `ready` when something changes in the directory of `path` (or the nearest existing
/// ancestor), re-arming itself on the way down to the socket's own directory.
final class SocketWaiter {
    private let loop: AdapterLoop
    private var fd: Int32 = -1
    private var token: AdapterLoop.Token?

    init?(loop: AdapterLoop, path: String, ready: @escaping () -> Void) {
        self.loop = loop
        var directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        while true {
            if directory.isEmpty { directory = "/" }
            if let fd = try? Posix.watchDirectory(directory) {
                self.fd = fd
                break
            }
            guard directory != "/" else { return nil }
            directory = String(directory[..<(directory.lastIndex(of: "/") ?? directory.startIndex)])
        }
        token = loop.watch(fd) { [unowned self] _ in
            Posix.drain(self.fd)
            ready()
        }
    }

    deinit {
        loop.remove(token)
        if fd >= 0 { Posix.closeDescriptor(fd) }
    }
}

extension Scene {
    /// Whether the scene is its name and its root alone, so that SetScene's parameters can be
    /// written as the name and the root's text (``FocusdLink``'s `setSceneParameters`).
    fileprivate var isNameAndRootOnly: Bool {
        layoutDirection == nil && policy == nil && sequentialWrap == nil && persist == nil
    }
}
