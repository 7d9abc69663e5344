import AdapterKit
import CMalloc
import FocusEngine
import FocusWire
import SystemCalls
import Varlink

/// One page target: its scene in focusd (`chromium:` + target id), kept current from the page
/// agent's messages, and focusd's events applied to it (adapters.md §2).
final class PageAdapter {
    let targetId: String
    let session: String
    let sceneName: String
    private unowned let browser: BrowserSession
    private var link: FocusdLink { browser.link }
    /// The scene as the page last described it.
    private(set) var scene: Scene?
    /// What focusd last said holds focus (so the page's echo of it is not reported back).
    private(set) var focusdFocus: String?
    /// The page's own focus at its document's first scene, to report once focusd is ready.
    private var initialFocus: String??
    private var monitored = false
    /// The page's document is shown (`visibilityState`).
    var visible = true

    init(browser: BrowserSession, targetId: String, session: String) {
        self.browser = browser
        self.targetId = targetId
        self.session = session
        sceneName = "chromium:\(targetId)"
    }

    /// The isolated world the page agent runs in, in every document of the target (its frames'
    /// too): the page's DOM, none of its JavaScript globals (docs/adapter-decisions.md, "Pages
    /// nobody wrote for focusd"). A page that replaces `Array.prototype.map`, `JSON`, `Map` or
    /// `Element.prototype.focus`, or sets a `window.__focusd` of its own, changes nothing the agent
    /// uses, and the agent and its binding are out of the page's reach.
    static let agentWorld = "focusd"

    /// The agent's world in the top document now (where `call` evaluates), nil before it is made.
    private var agentContext: Int64?

    /// Installs the page agent in this and every later document of the target.
    func start() {
        let cdp: DevToolsConnection = browser.connection
        cdp.send("Page.enable", [:], session: session)
        // The binding only in the agent's world, in every document (by the world's name).
        cdp.send("Runtime.addBinding", ["name": "__focusdNotify", "executionContextName": .string(Self.agentWorld)], session: session)
        cdp.send(
            "Page.addScriptToEvaluateOnNewDocument",
            ["source": .string(browser.pageScript), "worldName": .string(Self.agentWorld)], session: session)
        cdp.send("Runtime.enable", [:], session: session)
        // A kiosk's window has focus; a headless or unfocused one fires no focus events without this.
        cdp.send("Emulation.setFocusEmulationEnabled", ["enabled": true], session: session)
        // The document already there: its agent world made now (its context's notice installs the
        // agent, `contextCreated`); a page attached before its document loaded sends its scene at
        // DOMContentLoaded, one attached after at once.
        ensureAgentWorld()
        cdp.send("Runtime.runIfWaitingForDebugger", [:], session: session)
    }

    /// The agent's world in the top document, made if it is not there (a document that committed
    /// while the script for new documents was being registered has none). The world of a name is
    /// one per frame (a second call answers the same context), so this never makes a second agent.
    private func ensureAgentWorld() {
        (browser.connection as DevToolsConnection).send(
            "Page.createIsolatedWorld", ["frameId": .string(targetId), "worldName": .string(Self.agentWorld)], session: session
        ) { [targetId] result in
            if case .failure(let error) = result { AdapterLog.debug("page \(targetId): no agent world yet: \(error)") }
        }
    }

    /// A context of the top document appeared. Its main world: a new document, whose agent world
    /// is made if the script for new documents did not make it. The agent's world: the binding is
    /// installed in this very context first (one created while the binding was being added may
    /// lack it, and every message the agent sent there was dropped), then the agent is evaluated
    /// there (it installs itself once: `window.__focusd`), and the scene it could not send
    /// without the binding, if any, is sent.
    func contextCreated(_ context: JSONValue) {
        guard let id = context["id"]?.integerValue, context["auxData"]?["frameId"]?.stringValue == targetId else { return }
        if context["auxData"]?["isDefault"]?.boolValue == true {
            ensureAgentWorld()
            return
        }
        guard context["name"]?.stringValue == Self.agentWorld else { return }
        agentContext = id
        let cdp: DevToolsConnection = browser.connection
        cdp.send("Runtime.addBinding", ["name": "__focusdNotify", "executionContextId": .integer(id)], session: session)
        cdp.send(
            "Runtime.evaluate",
            ["expression": .string(browser.pageScript + "\n;window.__focusd && window.__focusd.retry();"), "contextId": .integer(id)],
            session: session
        ) { [targetId] result in
            AdapterLog.debug("page \(targetId): agent in context \(id): \((try? result.get())?.compactText ?? "failed")")
        }
    }

    /// The agent sent a message from `context` (only the top document's agent sends): that is
    /// where the adapter's calls go, whatever order the contexts' notices came in.
    func agentSpoke(in context: Int64) {
        agentContext = context
    }

    /// The page is gone (closed, crashed, detached).
    func stop() {
        link.withdraw(sceneName)
    }

    // MARK: From the page

    /// A message of the page agent (the binding's payload).
    func received(_ payload: String) {
        if held != nil {
            hold(payload)
            return
        }
        let start = Posix.monotonicNanoseconds()
        defer {
            AdapterLog.debug("page \(targetId): message of \(payload.utf8.count) bytes handled in \((Posix.monotonicNanoseconds() - start) / 1000) µs")
            // A big scene's parse trees are freed now: hand the pages back (RSS, adapters.md §4);
            // while a new document's scene is being read, after that read (`sceneReceived`).
            if payload.utf8.count >= 128 << 10 && held == nil { _ = cmalloc_trim() }
        }
        // A whole scene with its root last (as the agent writes it): its few other members are
        // read, and the root's bytes go to focusd before the adapter reads them (`sceneReceived`).
        if payload.utf8.starts(with: #"{"t":"scene","#.utf8), let parts = Self.sceneParts(Array(payload.utf8)),
            let head = try? JSONValue.parse(parts.head),
            head["t"]?.stringValue == "scene"
        {
            sceneReceived(head, encodedRoot: parts.root)
            return
        }
        guard let message = try? JSONValue.parse(payload), let kind = message["t"]?.stringValue else {
            AdapterLog.warning("page \(targetId) sent an unreadable message; ignored")
            return
        }
        switch kind {
        case "scene":
            sceneReceived(message, encodedRoot: nil)
        case "offsets", "patch":
            // A part of the scene: it must follow the last message applied, else (a message lost,
            // one that did not fit) the agent is asked for the whole scene.
            guard let expected = pageSequence else { return }  // the whole scene is on its way
            guard var scene, let seq = message["seq"]?.integerValue, Int(seq) == expected + 1 else {
                requestWholeScene("message \(message["seq"]?.integerValue.map(String.init) ?? "without a number") after \(expected)")
                return
            }
            pageSequence = Int(seq)
            do {
                let patch = try Self.patch(message)
                let requests = try patch.apply(to: &scene.root)
                self.scene = scene
                link.update(scene, requests)
                focusFirstCandidate()
            } catch {
                requestWholeScene("\(error)")
            }
        case "focus":
            // Focus the page moved itself (a click, a script, Tab, a dialog opening).
            if let seq = message["seq"]?.integerValue { pageReports = Int(seq) }
            guard let id = message["id"]?.stringValue else { return }
            awaitingCandidate = false
            guard id != focusdFocus else { return }
            report(id)
        case "visibility":
            visible = message["visible"]?.boolValue ?? true
            if visible { browser.show(self) }
        default:
            AdapterLog.debug("page \(targetId): unknown message \(kind)")
        }
    }

    /// A whole scene: `message` with its root, or its other members and the root's text
    /// (`encodedRoot`). A new document's scene replaces focusd's at once from that text, and the
    /// adapter reads it once focusd has answered (``FocusdLink/replace(_:encodedRoot:decode:done:)``):
    /// the page's messages that come meanwhile are held and applied after it, in order. Another
    /// whole scene is compared with the scene sent (a few changed nodes go as an UpdateScene).
    private func sceneReceived(_ message: JSONValue, encodedRoot: [UInt8]?) {
        let fresh = message["fresh"]?.boolValue == true
        let known = link.sentScene(sceneName) != nil || monitored
        let decode = { [sceneName, targetId] () -> Scene? in
            guard let rootValue = encodedRoot.flatMap({ try? JSONValue.parse($0) }) ?? message["root"],
                let root = try? NodeReading.node(rootValue)
            else {
                AdapterLog.warning("page \(targetId) described a scene focusd's types do not fit; ignored")
                return nil
            }
            return Scene(name: sceneName, root: root)
        }
        guard fresh, let encodedRoot else {
            if let read = decode() {
                link.publish(read, encodedRoot: encodedRoot)
                adopt(read, message, fresh: fresh, known: known)
                if !fresh { focusFirstCandidate() }
            }
            return
        }
        held = []
        let sent = Posix.monotonicNanoseconds()
        link.replace(sceneName, encodedRoot: encodedRoot, decode: decode) { [weak self] read in
            guard let self else { return }
            let later = self.held ?? []
            self.held = nil
            AdapterLog.debug("page \(self.targetId): its new document's scene read \((Posix.monotonicNanoseconds() - sent) / 1000) µs after it was sent, \(later.count) message(s) held meanwhile")
            // A newer document's scene among them: this document's work is dropped (its focus).
            let superseded = later.first.map(Self.isNewDocument) ?? false
            if let read { self.adopt(read, message, fresh: !superseded, known: known) }
            _ = cmalloc_trim()  // the SetScene's text and the read's garbage (RSS, adapters.md §4)
            for payload in later { self.received(payload) }
        }
    }

    /// The page's messages that came after a new document's scene was sent to focusd and before
    /// the adapter read it (nil when none is being read), to apply in order after it.
    private var held: [String]?

    /// Holds `payload` until the scene being read is; a new document's scene drops the older
    /// document's messages held before it (they would be replaced unapplied).
    private func hold(_ payload: String) {
        if Self.isNewDocument(payload) { held = [] }
        held?.append(payload)
    }

    /// Whether `payload` is a new document's first scene (`fresh`), reading only its head when
    /// its root is last (as the agent writes it).
    static func isNewDocument(_ payload: String) -> Bool {
        guard payload.utf8.starts(with: #"{"t":"scene","#.utf8) else { return false }
        let bytes = Array(payload.utf8)
        return (try? JSONValue.parse(sceneParts(bytes)?.head ?? bytes))?["fresh"]?.boolValue == true
    }

    /// `read`, the scene of the page's whole-scene `message`, as the page's scene from now on;
    /// for a new document's (`fresh`), its focus: its own, or focusd's.
    private func adopt(_ read: Scene, _ message: JSONValue, fresh: Bool, known: Bool) {
        scene = read
        if let seq = message["seq"]?.integerValue { pageSequence = Int(seq) }
        if visible && (browser.activePage == nil || browser.activePage === self) { browser.show(self) }
        if fresh {
            pageReports = 0  // the new document's agent numbers its reports from 1
            awaitingCandidate = false
            // The document's own focus, else its fragment's target, else focusd's default.
            let own = message["focus"]?.stringValue ?? message["fragment"]?.stringValue
            if known && monitored {
                adoptDocumentFocus(own)
            } else {
                initialFocus = .some(own)
            }
        }
    }

    /// The number of the agent's last scene message applied (scene, patch, offsets).
    /// nil while the whole scene asked for is on its way.
    private var pageSequence: Int? = 0

    /// Asks the agent for the whole scene, read again (a gap or a mismatch in its patches).
    private func requestWholeScene(_ why: String) {
        AdapterLog.warning("page \(targetId): a patch does not fit the scene (\(why)); reading the whole page again")
        pageSequence = nil  // nothing fits until the whole scene comes
        call("whole", [])
    }

    /// The agent's `patch` (or `offsets`) message as a ``ScenePatch``.
    static func patch(_ message: JSONValue) throws -> ScenePatch {
        var patch = ScenePatch()
        func fail(_ what: String) -> NodeReading.ReadError { NodeReading.ReadError(description: "a patch with \(what)") }
        for entry in message["parents"]?.arrayValue ?? [] {
            guard let parent = entry["id"]?.stringValue, let ids = entry["children"]?.arrayValue else { throw fail("a parent without id or children") }
            patch.children.append(ScenePatch.Children(
                parent: parent,
                ids: try ids.map { guard let id = $0.stringValue else { throw fail("a child id that is not a string") }; return id },
                nodes: try (entry["nodes"]?.arrayValue ?? []).map(NodeReading.node)))
        }
        for entry in message["frames"]?.arrayValue ?? [] {
            guard let items = entry.arrayValue, items.count == 5, let id = items[0].stringValue, let x = items[1].doubleValue,
                let y = items[2].doubleValue, let width = items[3].doubleValue, let height = items[4].doubleValue
            else { throw fail("a frame that is not [id, x, y, width, height]") }
            patch.frames.append((id, Rect(x: x, y: y, width: width, height: height)))
        }
        patch.own = try (message["own"]?.arrayValue ?? []).map(NodeReading.node)
        for entry in message["offsets"]?.arrayValue ?? [] {
            guard let items = entry.arrayValue, items.count == 3, let id = items[0].stringValue,
                let x = items[1].doubleValue, let y = items[2].doubleValue
            else { throw fail("an offset that is not [id, x, y]") }
            patch.offsets.append(ScrollOffset(node: id, offsetX: x, offsetY: y))
        }
        return patch
    }

    /// The text of a scene message's root, which the agent puts last (``sceneParts(_:)``).
    static func rootText(_ payload: String) -> [UInt8]? {
        sceneParts(Array(payload.utf8))?.root
    }

    /// A scene message cut in two: its other members as a message of their own (`head`), and the
    /// text of its root — only when the root is the message's last top-level member and nothing
    /// before it is an object or array (so `root` is exactly what a parse of the message reads
    /// as its root, and `head` exactly its other members).
    static func sceneParts(_ bytes: [UInt8]) -> (head: [UInt8], root: [UInt8])? {
        let key = Array(#","root":"#.utf8)
        guard bytes.count > key.count + 2, bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return nil }
        return bytes.withUnsafeBufferPointer { bytes -> (head: [UInt8], root: [UInt8])? in
            var inString = false, escaped = false, depth = 0
            var member: Int?  // where `,"root":` starts
            var index = 1
            let end = bytes.count - 1
            while index < end {
                let byte = bytes[index]
                if inString {
                    if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                } else if member == nil {
                    if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") { return nil }
                    if byte == key[0], index + key.count < bytes.count, bytes[index..<index + key.count].elementsEqual(key) {
                        member = index
                        index += key.count
                        continue
                    }
                } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    depth += 1
                } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    depth -= 1
                    if depth < 0 { return nil }
                } else if byte == UInt8(ascii: ","), depth == 0 {
                    return nil  // another member after the root
                }
                index += 1
            }
            guard let member, member + key.count < end, depth == 0, !inString else { return nil }
            return (Array(bytes[0..<member]) + [UInt8(ascii: "}")], Array(bytes[(member + key.count)..<end]))
        }
    }

    /// Tells focusd the page's own focus. focusd's focus events older than its answer are not
    /// applied back: applied late, they would take focus from where the page has moved it since.
    private func report(_ id: String) {
        focusdFocus = id
        inFlight.append(id)
        link.reportFocus(id, in: sceneName) { [weak self] state in
            guard let self else { return }
            if !self.inFlight.isEmpty { self.inFlight.removeFirst() }
            guard let revision = state?.revision else { return }
            self.reportedRevision = max(self.reportedRevision, revision)
            // An event held back while this report was in flight, newer than focusd's answer:
            // focusd moved on after the page's focus, so it is applied now.
            if self.inFlight.isEmpty, let held = self.heldBack {
                self.heldBack = nil
                if held.revision > revision {
                    if let to = held.to { self.applyFocus(to) } else { self.call("blur", []) }
                }
            }
        }
    }

    /// The page's reports focusd has not answered yet, oldest first. focusd's Monitor stream and
    /// the answers come on different connections, so the event a report causes can arrive before
    /// the answer that would mark it stale. The echo of an older report still in flight is not
    /// applied (it would take focus from where the page has moved it since: the page focusing b1
    /// then b0 quickly ended on b1); the latest report's echo is, since it undoes any older event
    /// applied before the answers were read.
    private var inFlight: [String] = []

    /// focusd's latest focus event that came while a report of the page's was in flight.
    private var heldBack: Event?

    /// The revision focusd answered the page's latest report with.
    private var reportedRevision = -1

    /// A new document's focus: its own (reported), else focusd's (applied).
    private func adoptDocumentFocus(_ own: String?) {
        if let own {
            report(own)
            return
        }
        // The page's reports read by now: one read while focusd answers (HTML's autofocus, a script
        // focusing at load) is newer than the answer, and the agent keeps it (`applyFocus`).
        let seen = pageReports
        let events = focusdEvents
        link.call(.getState, ["scene": .string(sceneName)]) { [weak self] result in
            guard let self, case .success(let reply) = result, let state = try? reply["state"]?.decode(FocusState.self) else { return }
            // A focus event of focusd's came meanwhile (a client's Focus): it is newer, and applied.
            guard self.focusdEvents == events else { return }
            self.applyFocusdFocus(state, seen: seen)
        }
    }

    /// focusd's focus events that focused something, received: an answer asked for before the
    /// latest of them is older than it (the event was applied; the answer is not). An event of no
    /// focus is not counted: the old document's focus lost when its scene was replaced comes on the
    /// Monitor connection before or after the answer, and dropping the answer for it left a new
    /// document with no focus.
    private var focusdEvents = 0

    /// focusd's focus applied to the page; when focusd holds none, its default focus. A scene
    /// focusd replaces keeps no focus when it had none (a first document with no candidate, such
    /// as the browser's initial blank one, then the page's own), and only a scene's creation or
    /// `ResetFocus` chooses the default.
    /// (`seen`: the page's reports read when focusd was asked; by default, those read by now.)
    private func applyFocusdFocus(_ state: FocusState, seen: Int? = nil) {
        let seen = seen ?? pageReports
        if let focused = state.focused {
            applyFocus(focused, seen: seen)
            return
        }
        resetFocus(seen: seen)
    }

    /// focusd's default focus chosen (`ResetFocus`) and applied to the page.
    private func resetFocus(seen: Int) {
        let events = focusdEvents
        awaitingCandidate = false
        link.call(.resetFocus, ["scene": .string(sceneName)]) { [weak self] result in
            guard let self, case .success(let reply) = result, let state = try? reply["state"]?.decode(FocusState.self),
                self.focusdEvents == events
            else { return }
            guard let focused = state.focused else {
                // No candidate yet (a page that shows its content after load: a script's render, a
                // fetch, a loading screen): the default is chosen when one appears, unless the
                // page has focused something of its own meanwhile.
                self.focusdFocus = nil
                self.awaitingCandidate = self.pageReports == seen
                AdapterLog.debug("page \(self.targetId): no candidate for the default focus\(self.awaitingCandidate ? "; chosen when one appears" : "")")
                return
            }
            self.applyFocus(focused, seen: seen)
        }
    }

    /// The document has had no focus since it was shown, neither its own nor focusd's, because
    /// focusd's default found no candidate: the first scene that has one gets the default
    /// (adapters.md §2: a new document's focus is its own, else focusd's default; a page that
    /// renders after it loads is shown with focus, as one that renders before).
    private var awaitingCandidate = false

    /// After a change of the scene sent to focusd: the default focus, if the document is waiting
    /// for a candidate and now has one. (focusd takes the ResetFocus after the change: one
    /// connection, in order.)
    private func focusFirstCandidate() {
        guard awaitingCandidate, monitored, let scene, Self.hasCandidate(scene.root) else { return }
        resetFocus(seen: pageReports)
    }

    /// Whether `node` or a descendant is a candidate (focusable, enabled, with an area).
    static func hasCandidate(_ node: Node) -> Bool {
        if node.disabled == true { return false }
        if node.focusable == true, let frame = node.frame, frame.width > 0, frame.height > 0 { return true }
        return node.children?.contains(where: hasCandidate) ?? false
    }

    // MARK: From focusd

    /// focusd subscribed: report the page's own focus, or apply focusd's.
    func ready(_ state: FocusState) {
        monitored = true
        reportedRevision = -1  // a focusd started again counts revisions from the start
        let own = initialFocus ?? nil
        initialFocus = nil
        if let own {
            report(own)
        } else {
            applyFocusdFocus(state)
        }
    }

    func received(_ event: Event) {
        switch event.kind {
        case .focus:
            guard event.track != .accessibility else { return }
            if event.to != nil { focusdEvents += 1 }
            // Older than focusd's answer to the page's latest report: the page has moved on. (The
            // answer's own event is applied: a no-op, or it undoes an older one applied before
            // the answer was read.)
            let echo = event.cause?.kind == .programmatic && event.to != inFlight.last
                && (event.to.map { inFlight.dropLast().contains($0) } ?? false)
            let stale = event.revision < reportedRevision || echo
            focusdFocus = event.to
            if event.to != nil { awaitingCandidate = false }
            if stale { return }
            // While a report of the page's own focus is in flight, focusd takes it after this
            // event (or this event came after it, and the answer says so): applied now, it would
            // take focus from where the page put it until the report's echo put it back.
            if let pending = inFlight.last, event.to != pending {
                heldBack = event
                return
            }
            heldBack = nil
            if let to = event.to { applyFocus(to) } else { call("blur", []) }
        case .scroll:
            guard let node = event.node else { return }
            if var scene, scene.root.setScrollOffset(of: node, x: event.offsetX ?? 0, y: event.offsetY ?? 0) { self.scene = scene }
            call("scroll", [.string(node), .double(event.offsetX ?? 0), .double(event.offsetY ?? 0)])
        case .activate:
            if let to = event.to { call("activate", [.string(to)]) }
        case .edit:
            if let to = event.to, let detents = event.detents { call("edit", [.string(to), .integer(Int64(detents))]) }
        case .command:
            guard let command = event.command else { return }
            let key = Self.keyValue(command)
            call("key", [.string(key), .bool(command == "back")]) { result in
                AdapterLog.debug("\(command) → \(key): \(result?.compactText ?? "no result")")
            }
        default:
            break
        }
    }

    /// DOM focus to `id`; when the page refuses (the element is gone, a script took focus back),
    /// the page's actual focus is told to focusd at once.
    /// The number of the page's latest focus report read (the agent numbers them; a new document
    /// starts again, and so does this, from its first report).
    private var pageReports = 0

    /// focusd's focus applied to the page, unless the page moved focus after its latest report
    /// read here: that newer report is in flight, focusd will follow it, and applying this would
    /// take focus from where the page put it (the page focusing b1 then b0 quickly ended on b1).
    private func applyFocus(_ id: String, seen: Int? = nil) {
        call("focus", [.string(id), .integer(Int64(seen ?? pageReports))]) { [weak self] result in
            guard let self, let result, result["ok"]?.boolValue == false, result["moved"]?.boolValue != true else { return }
            if let active = result["active"]?.stringValue, active != self.focusdFocus { self.report(active) }
        }
    }

    /// `__focusd.NAME(ARGUMENTS…)` in the page; `done` gets its value (nil on failure).
    private func call(_ name: String, _ arguments: [JSONValue], done: ((JSONValue?) -> Void)? = nil) {
        let text = arguments.map { String(decoding: $0.serialized(), as: UTF8.self) }.joined(separator: ",")
        evaluate("window.__focusd && window.__focusd.\(name)(\(text))") { result in
            done?(result)
        }
    }

    /// `expression` in the agent's world of the top document (nil before there is one).
    private func evaluate(_ expression: String, done: @escaping (JSONValue?) -> Void) {
        guard let agentContext else {
            done(nil)
            return
        }
        let parameters: JSONValue = ["expression": .string(expression), "returnByValue": true, "contextId": .integer(agentContext)]
        (browser.connection as DevToolsConnection).send("Runtime.evaluate", parameters, session: session) { result in
            switch result {
            case .success(let value):
                if let exception = value["exceptionDetails"] {
                    AdapterLog.warning("page \(self.targetId): the page agent failed: \(exception["exception"]?["description"]?.stringValue ?? exception.compactText)")
                    done(nil)
                } else {
                    done(value["result"]?["value"])
                }
            case .failure(let error):
                // A page navigating away mid-call: its next document sends its own scene.
                AdapterLog.debug("page \(self.targetId): \(error)")
                done(nil)
            }
        }
    }

    /// A focusd command as the key of the UI Events key values (names focusd does not know are
    /// passed as they are, capitalized).
    static func keyValue(_ command: String) -> String {
        switch command {
        case "back": "BrowserBack"
        case "home": "BrowserHome"
        case "menu": "ContextMenu"
        case "search": "BrowserSearch"
        case "playPause": "MediaPlayPause"
        case "play": "MediaPlay"
        case "pause": "MediaPause"
        case "stop": "MediaStop"
        case "fastForward": "MediaFastForward"
        case "rewind": "MediaRewind"
        case "nextTrack": "MediaTrackNext"
        case "previousTrack": "MediaTrackPrevious"
        case "record": "MediaRecord"
        case "channelUp": "ChannelUp"
        case "channelDown": "ChannelDown"
        case "info": "Info"
        case "guide": "Guide"
        case "volumeUp": "AudioVolumeUp"
        case "volumeDown": "AudioVolumeDown"
        case "mute": "AudioVolumeMute"
        case "select": "Enter"
        case "red": "ColorF0Red"
        case "green": "ColorF1Green"
        case "yellow": "ColorF2Yellow"
        case "blue": "ColorF3Blue"
        case "subtitles": "ClosedCaptionToggle"
        case "settings": "Settings"
        case "exit": "Exit"
        default: command.prefix(1).uppercased() + command.dropFirst()
        }
    }
}

extension JSONValue {
    var compactText: String { String(decoding: serialized(), as: UTF8.self) }
}
