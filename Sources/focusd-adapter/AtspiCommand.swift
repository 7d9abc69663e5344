import AdapterKit
import ArgumentParser
import AtspiBus
import FocusEngine

#if canImport(Glibc)
import Glibc
#endif

/// `focusd-adapter atspi`: any GTK or Qt application through the accessibility bus (adapters.md §3).
struct AtspiCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "atspi",
        abstract: "Adapt every GTK or Qt application of the session through the accessibility bus (AT-SPI).",
        discussion: """
            Finds the accessibility bus (org.a11y.Bus on the session bus, else the X root window's \
            AT_SPI_BUS property), turns accessibility on, and keeps one scene per top-level window \
            in focusd (named atspi:BUS:PATH); the active window's scene is the active one.
            """
    )

    @OptionGroup var options: AdapterOptions

    func run() throws {
        AdapterLog.verbose = options.verbose
        let loop = AdapterLoop()
        let link = FocusdLink(loop: loop, socket: try options.socketPath())
        let bridge = AtspiBridge(loop: loop, link: link)
        link.delegate = bridge
        try loop.stopOnSignals([SIGTERM, SIGINT]) { _ in }
        link.start()
        bridge.start()
        loop.run()
        bridge.stop()
        link.stop()
    }
}

/// Joins the accessibility bus (AtspiBus) to focusd (AdapterKit's link) on the adapter's loop.
final class AtspiBridge: FocusdLinkDelegate, AtspiSceneSink {
    private let loop: AdapterLoop
    private let link: FocusdLink
    private var adapter: AtspiAdapter?
    private var watch: AdapterLoop.Token?
    private var timer: AdapterLoop.Token?
    private var timerDeadline: UInt64?
    /// Seconds before the next attempt to reach the accessibility bus (doubling up to 30).
    private var retryDelay = 1

    init(loop: AdapterLoop, link: FocusdLink) {
        self.loop = loop
        self.link = link
    }

    /// Connects to the accessibility bus now, or retries later (with a clear message once).
    func start() {
        do {
            let address = try AtspiAdapter.findBus { AdapterLog.warning($0) }
            let adapter = AtspiAdapter(sink: self, log: { AdapterLog.warning($0) })
            if AdapterLog.verbose { adapter.debug = { text in AdapterLog.debug("\(Double(AtspiAdapter.now() % 100_000_000) / 1000) ms \(text)") } }
            try adapter.start(address: address)
            self.adapter = adapter
            retryDelay = 1
            AdapterLog.info("atspi: following the applications on the accessibility bus at \(address)")
            // POLLOUT too while sd-bus has output queued behind a full socket buffer (a first
            // read queues thousands of calls), so a request is written as soon as there is room.
            watch = loop.watch(adapter.descriptor, wantsWrite: { [unowned self] in
                (self.adapter?.events ?? 0) & Int16(POLLOUT) != 0
            }) { [unowned self] _ in self.wake() }
            loop.post { [unowned self] in self.wake() }
        } catch {
            AdapterLog.error("\(error); trying again in \(retryDelay) s")
            loop.schedule(after: .seconds(retryDelay)) { [weak self] in self?.start() }
            retryDelay = min(retryDelay * 2, 30)
        }
    }

    func stop() {
        loop.remove(watch)
        loop.remove(timer)
        adapter?.close()
        adapter = nil
    }

    private func wake() {
        guard let adapter else { return }
        do {
            try adapter.wake()
        } catch {
            AdapterLog.error("atspi: lost the accessibility bus (\(error)); its scenes are withdrawn until it is back")
            stop()
            loop.schedule(after: .seconds(1)) { [weak self] in self?.start() }
            return
        }
        rearm()
    }

    /// One timer at the adapter's earliest deadline (a bus call's timeout, an unconfirmed focus
    /// request); none while it has none, so an idle adapter sleeps.
    private func rearm() {
        let deadline = adapter?.deadline
        guard deadline != timerDeadline else { return }
        loop.remove(timer)
        timer = nil
        timerDeadline = deadline
        guard let deadline else { return }
        let now = AtspiAdapter.now()
        let delay = deadline > now ? deadline - now : 0
        timer = loop.schedule(after: .microseconds(Int64(delay))) { [unowned self] in
            self.timer = nil
            self.timerDeadline = nil
            self.wake()
        }
    }

    // MARK: AtspiSceneSink

    func publish(_ name: String, root: SceneNode) { link.publish(Scene(name: name, root: root.wire())) }
    func removeScene(_ name: String) { link.withdraw(name) }
    func activateScene(_ name: String) { link.activate(name) }
    func reportFocus(_ name: String, node: String) { link.reportFocus(node, in: name) }

    // MARK: FocusdLinkDelegate

    func sceneReady(_ link: FocusdLink, state: FocusState) {
        adapter?.sceneReady(state.scene, focused: state.focused)
        rearm()
    }

    func received(_ link: FocusdLink, event: Event) {
        guard let adapter, let target = event.to else { return }
        switch event.kind {
        case .focus where event.track != .accessibility:
            adapter.handle(scene: event.scene, command: .focus(target))
        case .activate:
            adapter.handle(scene: event.scene, command: .activate(target))
        case .edit:
            adapter.handle(scene: event.scene, command: .edit(target, detents: event.detents ?? 0))
        default:
            return
        }
        rearm()
    }
}
