import AdapterKit
import FocusEngine
import FocusWire
import SystemCalls
import Varlink

#if canImport(Glibc)
import Glibc
#endif

/// The chromium adapter: a browser's page targets, each a scene in focusd (adapters.md §2).
///
/// `run(...)` is the whole adapter: it connects to focusd and to the browser (launching it over
/// `--remote-debugging-pipe`, or attaching to a loopback debugging port), follows the browser's
/// pages, and returns when the adapter should exit (a signal, the launched browser gone).
public final class BrowserSession: FocusdLinkDelegate {
    /// How the adapter reaches the browser.
    public enum Mode {
        /// Start `command` with `--remote-debugging-pipe` added; stop it on exit.
        case launch([String])
        /// Attach to a browser's debugging port at a loopback `ADDRESS:PORT`; reconnect when it goes.
        case connect(String)
    }

    let loop: AdapterLoop
    let link: FocusdLink
    private let mode: Mode
    private(set) var connection: DevToolsConnection!
    private var pages: [String: PageAdapter] = [:]  // by session id
    private var sessionsByTarget: [String: String] = [:]
    private(set) var activePage: PageAdapter?
    private var browserPid: Int32?
    private var reconnectDelay: Duration = .milliseconds(250)
    /// Why the adapter stopped, when it was not asked to (nil: a signal).
    public private(set) var failure: String?

    /// Who acts on a keyboard's keys the browser receives natively (adapters.md §2).
    public enum Keyboards: String, Sendable, CaseIterable {
        /// The page, as without the adapter (focusd maps only what its own devices send).
        case browser
        /// focusd: the page agent swallows the navigation keys of a real keyboard.
        case focusd
    }

    /// The page agent's source, as every page of this browser gets it.
    let pageScript: String

    public init(mode: Mode, socket: String, keyboards: Keyboards = .browser) {
        pageScript = PageScript.source(keyboards: keyboards)
        loop = AdapterLoop()
        link = FocusdLink(loop: loop, socket: socket)
        self.mode = mode
        link.delegate = self
    }

    /// Runs the adapter until SIGTERM/SIGINT or the launched browser's exit.
    /// - Throws: ``BrowserError`` when the browser cannot be started or reached at first.
    public func run() throws(BrowserError) {
        do {
            try loop.stopOnSignals([SIGTERM, SIGINT, SIGHUP]) { signal in
                AdapterLog.info("signal \(signal): stopping")
            }
        } catch {
            throw BrowserError("cannot take signals: \(error)")
        }
        try open()
        link.start()
        loop.run()
        shutdown()
        if let failure { throw BrowserError(failure) }
    }

    // MARK: The browser

    private func open() throws(BrowserError) {
        switch mode {
        case .launch(let command):
            connection = try launch(command)
        case .connect(let endpoint):
            connection = try DevToolsConnection.connect(loop: loop, endpoint: endpoint)
            AdapterLog.info("attached to the browser at \(endpoint)")
        }
        connection.onEvent = { [unowned self] method, params, session in self.event(method, params, session) }
        connection.onClose = { [unowned self] reason in self.browserClosed(reason) }
        connection.send("Target.setDiscoverTargets", ["discover": true]) { [weak self] result in
            if case .failure(let error) = result {
                self?.fail("the browser refused Target.setDiscoverTargets: \(error)")
            }
        }
    }

    private func launch(_ command: [String]) throws(BrowserError) -> DevToolsConnection {
        guard !command.isEmpty else { throw BrowserError("--launch needs a browser command after `--`") }
        // The browser reads commands on its fd 3 and writes replies on its fd 4.
        let toBrowser: (read: Int32, write: Int32)
        let fromBrowser: (read: Int32, write: Int32)
        do {
            toBrowser = try Posix.makePipe()
            fromBrowser = try Posix.makePipe()
        } catch { throw BrowserError("cannot make the DevTools pipes: \(error)") }
        // A page's first scene comes as one DevTools event of ~0.5 MB (5,000 candidates): through
        // a pipe of 64 KiB the browser wrote it in eight parts, each waiting for the adapter to be
        // scheduled and drain the last (11 ms for the event, on two cores busy with the page's
        // first paint). With 1 MiB it is written at once and read in one wake. A kernel that
        // refuses keeps the pipe as it was, which works, only slower.
        Posix.growPipe(fromBrowser.read, to: 1 << 20)
        var arguments = command
        if !arguments.contains("--remote-debugging-pipe") { arguments.insert("--remote-debugging-pipe", at: 1) }
        do {
            browserPid = try Posix.spawn(arguments, mapping: [(3, toBrowser.read), (4, fromBrowser.write)])
        } catch {
            for fd in [toBrowser.read, toBrowser.write, fromBrowser.read, fromBrowser.write] { Posix.closeDescriptor(fd) }
            throw BrowserError("cannot start the browser '\(command[0])': \(error.message)")
        }
        Posix.closeDescriptor(toBrowser.read)
        Posix.closeDescriptor(fromBrowser.write)
        AdapterLog.info("started \(command[0]) (pid \(browserPid!)) over --remote-debugging-pipe")
        return DevToolsConnection(loop: loop, readFD: fromBrowser.read, writeFD: toBrowser.write)
    }

    private func browserClosed(_ reason: String) {
        for page in pages.values { page.stop() }
        pages.removeAll()
        sessionsByTarget.removeAll()
        activePage = nil
        switch mode {
        case .launch:
            var status = ""
            if let pid = browserPid, let code = Posix.reap(pid, wait: true) {
                status = code & 0x7F == 0 ? " (exit status \((code >> 8) & 0xFF))" : " (killed by signal \(code & 0x7F))"
                browserPid = nil
            }
            fail("the browser exited\(status): \(reason)")
        case .connect(let endpoint):
            AdapterLog.warning("\(reason); reconnecting to \(endpoint)")
            reconnect(endpoint)
        }
    }

    /// Attaches again to a debugging port whose browser went away, waiting longer each time (a
    /// TCP port cannot be watched, so this is the one timer of an adapter without its browser).
    private func reconnect(_ endpoint: String) {
        loop.schedule(after: reconnectDelay) { [weak self] in
            guard let self else { return }
            do throws(BrowserError) {
                try self.open()
                self.reconnectDelay = .milliseconds(250)
            } catch {
                AdapterLog.debug("still no browser at \(endpoint): \(error)")
                self.reconnectDelay = min(self.reconnectDelay * 2, .seconds(5))
                self.reconnect(endpoint)
            }
        }
    }

    private func fail(_ reason: String) {
        failure = reason
        loop.stop()
    }

    private func shutdown() {
        link.stop()
        connection?.close()
        if let pid = browserPid {
            Posix.signalProcess(pid, SIGTERM)
            // Up to 3 s for the browser to exit (woken by its exit, not by a timer), then SIGKILL.
            if Posix.reap(pid, withinMilliseconds: 3000) != nil { browserPid = nil }
            if browserPid != nil {
                Posix.signalProcess(pid, SIGKILL)
                _ = Posix.reap(pid, wait: true)
            }
        }
    }

    // MARK: Targets

    private func event(_ method: String, _ params: JSONValue, _ session: String?) {
        AdapterLog.debug("browser: \(method)")
        switch method {
        case "Target.targetCreated", "Target.targetInfoChanged":
            guard let info = params["targetInfo"], info["type"]?.stringValue == "page",
                let target = info["targetId"]?.stringValue, sessionsByTarget[target] == nil
            else { return }
            sessionsByTarget[target] = ""
            connection.send("Target.attachToTarget", ["targetId": .string(target), "flatten": true]) { [weak self] result in
                guard let self else { return }
                switch result {
                case .success(let reply):
                    guard let id = reply["sessionId"]?.stringValue else { return }
                    let page = PageAdapter(browser: self, targetId: target, session: id)
                    self.pages[id] = page
                    self.sessionsByTarget[target] = id
                    page.start()
                case .failure(let error):
                    self.sessionsByTarget[target] = nil
                    AdapterLog.warning("cannot attach to page \(target): \(error)")
                }
            }
        case "Target.targetDestroyed", "Target.detachedFromTarget":
            let target = params["targetId"]?.stringValue
            let id = params["sessionId"]?.stringValue ?? target.flatMap { sessionsByTarget[$0] }
            guard let id, let page = pages.removeValue(forKey: id) else {
                if let target { sessionsByTarget[target] = nil }
                return
            }
            sessionsByTarget[page.targetId] = nil
            page.stop()
            if activePage === page {
                activePage = nil
                if let next = pages.values.first(where: { $0.visible }) { show(next) }
            }
        case "Runtime.bindingCalled":
            guard let session, params["name"]?.stringValue == "__focusdNotify", let payload = params["payload"]?.stringValue else { return }
            if let context = params["executionContextId"]?.integerValue { pages[session]?.agentSpoke(in: context) }
            pages[session]?.received(payload)
        case "Runtime.executionContextCreated":
            guard let session, let context = params["context"] else { return }
            pages[session]?.contextCreated(context)
        case "Inspector.targetCrashed":
            if let session, let page = pages[session] {
                AdapterLog.warning("page \(page.targetId) crashed; its scene is withdrawn")
                page.stop()
            }
        default:
            break
        }
    }

    /// Makes `page`'s scene the active one.
    func show(_ page: PageAdapter) {
        guard activePage !== page || link.sentScene(page.sceneName) == nil else { return }
        activePage = page
        link.activate(page.sceneName)
    }

    // MARK: FocusdLinkDelegate

    public func sceneReady(_ link: FocusdLink, state: FocusState) {
        page(named: state.scene)?.ready(state)
    }

    public func received(_ link: FocusdLink, event: Event) {
        page(named: event.scene)?.received(event)
    }

    private func page(named scene: String) -> PageAdapter? {
        guard scene.hasPrefix("chromium:"), let session = sessionsByTarget[String(scene.dropFirst("chromium:".count))] else { return nil }
        return pages[session]
    }
}
