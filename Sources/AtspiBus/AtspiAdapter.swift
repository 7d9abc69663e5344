// The accessibility-bus side of `focusd-adapter atspi` (adapters.md §3): follows every registered
// application on the bus, keeps one `AccessibleTree` per application from the bus's replies and
// events, hands its windows' scenes to an `AtspiSceneSink` (the focusd side, which sends them as
// diffs), and applies focusd's focus, activation and edits to the applications.
//
// Single-threaded: it runs on the adapter's loop, which waits for `descriptor` to be readable or
// for `deadline`, then calls `wake()`. A wake-up handles every message that arrived, re-reads the
// extents a flood of `bounds-changed` events asked for once, and publishes each changed window
// once: that is the coalescing adapters.md §3 asks for. Nothing runs while nothing arrives.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where the adapter's scenes go (the focusd side). Called on the bus thread.
public protocol AtspiSceneSink: AnyObject {
    /// The scene `name` is now `root` (the first time a SetScene, later the difference).
    func publish(_ name: String, root: SceneNode)
    func removeScene(_ name: String)
    func activateScene(_ name: String)
    /// Focus the application moved itself (focus.md `Focus`).
    func reportFocus(_ name: String, node: String)
}

/// What focusd asks of a window (from its scene's monitor).
public enum AtspiCommand: Sendable, Equatable {
    case focus(String)
    case activate(String)
    case edit(String, detents: Int)
}

public struct AtspiSetupError: Error, CustomStringConvertible {
    public var description: String
}

public final class AtspiAdapter {
    static let root = "/org/a11y/atspi/accessible/root"
    static let registry = "org.a11y.atspi.Registry"
    /// How long a `GrabFocus` may stay unconfirmed before the adapter re-reads the application's
    /// focus and tells focusd (the "one update period" of adapters.md §1).
    public static let confirmWindow: UInt64 = 250_000

    private final class App {
        let bus: String
        var name = ""
        var tree = AccessibleTree()
        /// Reads in flight per window ("" for the application's root): a window's scene is built
        /// when the reads under it (and the root's, which decide which windows there are) are in;
        /// another window's reads do not hold it back.
        var pending: [String: Int] = [:]
        var dirtyWindows = Set<String>()
        var sent: [String: SceneNode] = [:]
        /// Accessibles whose bounds must be read again at the end of this wake-up, each with the
        /// extents known when its first event came: replies the application sent before the
        /// event (read before it re-laid out) arrive before it, so a move is judged against these.
        var boundsDirty: [String: Extents?] = [:]
        /// Reads of a window's extents in flight: until they are answered, its origin the adapter
        /// knows may not be the one an answer about its widgets was computed with (the window moved).
        var windowReads: [String: Int] = [:]
        /// Placements and announcements of accessibles not known yet (GTK 3 may lay a widget out
        /// and announce it before its `children-changed`), used when the path is learned.
        var early = EarlyNotices()
        init(bus: String) { self.bus = bus }
    }

    private struct Sync {
        var focusd: String?
        var pending: (target: String, deadline: UInt64)?
    }

    private let sink: AtspiSceneSink
    private let log: (String) -> Void
    private var connection: DBusConnection!
    private var registryOwner = ""
    private var apps: [String: App] = [:]
    private var syncs: [String: Sync] = [:]
    private var activeScene: String?
    private var wantsActive: String?
    public private(set) var address = ""
    /// Where `--verbose` lines go (nil: nowhere).
    public var debug: ((String) -> Void)?
    /// When the last answer to a read came (for `--verbose`: how long after it a scene is sent).
    private var lastAnswer: UInt64 = 0
    /// Calls sent, by method (`Properties.Get` by property), for `--verbose`.
    private var callCounts: [String: Int] = [:]
    /// First placements whose extents were predicted from their event, and those a read then
    /// found elsewhere (for `--verbose` and the tests).
    public private(set) var predictions = 0
    public private(set) var predictionsWrong = 0
    /// The earliest deadline of a focus request waiting for its `focused` event.
    private var confirmDeadline: UInt64?

    public init(sink: AtspiSceneSink, log: @escaping (String) -> Void) {
        self.sink = sink
        self.log = log
    }

    public static func sceneName(bus: String, window: String) -> String { "atspi:\(bus):\(window)" }

    public static func parse(scene: String) -> (bus: String, window: String)? {
        guard scene.hasPrefix("atspi:"), let slash = scene.firstIndex(of: "/") else { return nil }
        let bus = scene[scene.index(scene.startIndex, offsetBy: 6)..<scene.index(before: slash)]
        guard scene[scene.index(before: slash)] == ":" else { return nil }
        return (String(bus), String(scene[slash...]))
    }

    // MARK: setup

    /// The accessibility bus's address: `org.a11y.Bus.GetAddress` on the session bus, else the X
    /// root window's `AT_SPI_BUS`; accessibility is turned on through `org.a11y.Status`.
    public static func findBus(log: (String) -> Void) throws(AtspiSetupError) -> String {
        var sessionProblem = "DBUS_SESSION_BUS_ADDRESS is not set"
        if getenv("DBUS_SESSION_BUS_ADDRESS") != nil {
            do throws(DBusError) {
                let session = try DBusConnection.session()
                defer { session.close() }
                _ = try? session.callAndWait(
                    destination: "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.freedesktop.DBus.Properties", member: "Set",
                    arguments: [.string("org.a11y.Status"), .string("IsEnabled"), .variantBool(true)])
                let reply = try session.callAndWait(destination: "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.a11y.Bus", member: "GetAddress")
                if let address = reply.first?.string, !address.isEmpty { return address }
                sessionProblem = "org.a11y.Bus.GetAddress answered no address"
            } catch {
                sessionProblem = "org.a11y.Bus.GetAddress on the session bus failed (\(error))"
            }
        }
        if let address = rootWindowProperty(), !address.isEmpty {
            log("atspi: \(sessionProblem); using the X root window's AT_SPI_BUS")
            return address
        }
        throw AtspiSetupError(description: "no accessibility bus: \(sessionProblem), and the X root window has no AT_SPI_BUS property (start at-spi-bus-launcher in the session, or Xvfb with -noreset)")
    }

    /// `xprop -root AT_SPI_BUS` (x11-utils): the bus launcher's address where there is no session bus.
    private static func rootWindowProperty() -> String? {
        guard getenv("DISPLAY") != nil, let pipe = popen("xprop -root AT_SPI_BUS 2>/dev/null", "r") else { return nil }
        var output = ""
        var buffer = [CChar](repeating: 0, count: 512)
        while fgets(&buffer, Int32(buffer.count), pipe) != nil {
            output += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        pclose(pipe)
        guard let open = output.firstIndex(of: "\""), let close = output.lastIndex(of: "\""), open < close else { return nil }
        return String(output[output.index(after: open)..<close])
    }

    /// Connects to the bus at `address`, listens to its events and reads every application.
    public func start(address: String) throws(AtspiSetupError) {
        self.address = address
        do throws(DBusError) {
            connection = try DBusConnection.connect(address: address)
            // The registry is activated on demand by the accessibility bus.
            _ = try? connection.callAndWait(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "StartServiceByName", arguments: [.string(AtspiAdapter.registry), .uint32(0)])
            registryOwner = try connection.callAndWait(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetNameOwner", arguments: [.string(AtspiAdapter.registry)]
            ).first?.string ?? ""
            // Only the members the adapter follows: a toolkit's other events (a progress bar's
            // PropertyChange of its value, many a second in Qt's gallery) are not routed here.
            for member in ["StateChanged", "ChildrenChanged", "BoundsChanged"] {
                try connection.addMatch("type='signal',interface='org.a11y.atspi.Event.Object',member='\(member)'") { [unowned self] in
                    self.objectEvent($0)
                }
            }
            try connection.addMatch("type='signal',interface='org.a11y.atspi.Event.Window'") { [unowned self] in self.windowEvent($0) }
            // at-spi2-atk announces each accessible it makes with its role and state: an added
            // widget's are then known without waiting for the answers to its reads.
            try connection.addMatch("type='signal',interface='org.a11y.atspi.Cache',member='AddAccessible'") { [unowned self] in
                self.cacheAdded($0)
            }
            try connection.addMatch("type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged'") { [unowned self] signal in
                if let name = signal.body.first?.string, signal.body.count == 3, signal.body[2].string == "" { self.appGone(name) }
            }
            // Toolkits send only the events someone registered for (at-spi2-atk, Qt).
            for event in ["object:state-changed", "object:children-changed", "object:bounds-changed", "window:activate",
                          "window:deactivate", "window:create", "window:destroy"] {
                _ = try connection.callAndWait(
                    destination: AtspiAdapter.registry, path: "/org/a11y/atspi/registry", interface: "org.a11y.atspi.Registry",
                    member: "RegisterEvent", arguments: [.string(event), .stringArray([]), .string("")])
            }
        } catch {
            throw AtspiSetupError(description: "accessibility bus at \(address): \(error)")
        }
        debug?("atspi: connected, events registered: listing the applications")
        call(AtspiAdapter.registry, AtspiAdapter.root, "Accessible", "GetChildren") { [unowned self] result in
            guard case .success(let values) = result else { return self.log("atspi: the registry lists no applications: \(result)") }
            for child in values.first?.items ?? [] {
                if let bus = child.items?.first?.string { self.appAdded(bus) }
            }
        }
    }

    // MARK: the loop's side

    /// The bus connection's descriptor: call `wake()` when it is readable.
    public var descriptor: Int32 { connection?.descriptor ?? -1 }

    /// The poll events sd-bus waits for on `descriptor`: POLLIN, and POLLOUT while output is queued.
    public var events: Int16 { connection?.events ?? 0 }

    /// When to call `wake()` even if nothing arrives (CLOCK_MONOTONIC µs): the bus's earliest call
    /// timeout or the earliest unconfirmed focus request; nil: no deadline.
    public var deadline: UInt64? { [connection?.deadline, confirmDeadline].compactMap { $0 }.min() }

    /// Handles everything that arrived and every deadline that passed, then publishes what changed.
    /// Throws when the accessibility bus is gone (the caller starts again later).
    public func wake() throws(DBusError) {
        try connection.processAll()
        if let due = confirmDeadline, due <= Self.now() { settleDue() }
        flush()
    }

    /// Closes the bus connection and withdraws every scene.
    public func close() {
        for (bus, app) in apps { for window in app.sent.keys { dropScene(AtspiAdapter.sceneName(bus: bus, window: window)) } }
        apps = [:]
        connection?.close()
    }

    public static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
    }

    // MARK: reading

    private func call(
        _ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [DBusArgument] = [],
        reply: @escaping (Result<[DBusValue], DBusError>) -> Void
    ) {
        let qualified = interface.contains(".") ? interface : "org.a11y.atspi.\(interface)"
        if debug != nil {
            var kind = member
            if member == "Get", case .string(let property)? = arguments.last { kind = property }
            callCounts[kind, default: 0] += 1
        }
        connection.call(destination: destination, path: path, interface: qualified, member: member, arguments: arguments, reply: reply)
    }

    private func appAdded(_ bus: String) {
        guard apps[bus] == nil, bus != connection.uniqueName, bus != registryOwner else { return }
        let app = App(bus: bus)
        apps[bus] = app
        app.tree[AtspiAdapter.root] = Accessible(path: AtspiAdapter.root, parent: nil)
        call(bus, AtspiAdapter.root, "org.freedesktop.DBus.Properties", "Get", [.string("org.a11y.atspi.Accessible"), .string("Name")]) { result in
            if case .success(let v) = result { app.name = v.first?.string ?? "" }
        }
        // One call for the role, state and place in the tree of every accessible the toolkit has
        // made (at-spi2-atk: GTK 3); then only the extents (and the children lists the listing
        // lacks) are read. Qt 5 answers an empty list, others UnknownMethod: the walk then.
        let key = begin(app, AtspiAdapter.root)
        call(bus, "/org/a11y/atspi/cache", "Cache", "GetItems") { [unowned self] result in
            defer { self.answered(app, AtspiAdapter.root, key) }
            if case .success(let v) = result, let listed = v.first?.items {
                let items = listed.compactMap(AtspiAdapter.cacheItem)
                if items.contains(where: { $0.parent == AtspiAdapter.root }) {
                    self.debug?("atspi: \(app.bus) listed \(items.count) accessibles in Cache.GetItems")
                    for path in app.tree.load(items, root: AtspiAdapter.root) {
                        self.adoptEarly(app, path)
                        self.readNeeded(app, path)
                    }
                    if app.tree[AtspiAdapter.root]?.childrenRead != true { self.readChildren(app, AtspiAdapter.root) }
                    return
                }
            }
            self.readChildren(app, AtspiAdapter.root)
        }
    }

    /// A `Cache.GetItems` entry: ((bus, path), (bus, application), (bus, parent), index in parent,
    /// child count, interfaces, name, role, description, states).
    static func cacheItem(_ value: DBusValue) -> AccessibleTree.CacheItem? {
        guard let f = value.items, f.count >= 10, let path = f[0].items?[safe: 1]?.string, let parent = f[2].items?[safe: 1]?.string,
              let index = f[3].int, let count = f[4].int, let role = f[7].int, let words = f[9].items?.compactMap(\.int) else { return nil }
        return AccessibleTree.CacheItem(path: path, parent: parent, index: index, childCount: count, role: role, states: AtspiStates(words: words))
    }

    private func appGone(_ bus: String) {
        guard let app = apps.removeValue(forKey: bus) else { return }
        for window in app.sent.keys { dropScene(AtspiAdapter.sceneName(bus: bus, window: window)) }
    }

    private func dropScene(_ name: String) {
        sink.removeScene(name)
        syncs[name] = nil
        if activeScene == name { activeScene = nil }
    }

    /// Reads an accessible's role and state (both in flight at once), then what the scene needs
    /// of it (`readNeeded`): most accessibles cost two or three calls instead of four (a button's
    /// children list, a panel's or a label's extents, and everything of a hidden subtree beyond
    /// its root's role and state are not read). `eager` (a widget added while the window is
    /// shown, and what it holds): its extents and children list are asked at once with the
    /// role and state, one round trip instead of two, since the time to its scene counts more
    /// than its calls.
    private func read(_ app: App, _ path: String, parent: String, eager: Bool = false) {
        if app.tree[path] == nil || app.tree[path]?.parent != parent {
            app.tree.remove(path)
            app.tree[path] = Accessible(path: path, parent: parent)
        }
        let key = begin(app, path)
        call(app.bus, path, "Accessible", "GetRole") { [unowned self] result in
            if case .success(let v) = result, let role = v.first?.int { app.tree.nodes[path]?.role = role }
            app.tree.nodes[path]?.roleRead = true
            self.readNeeded(app, path)
            self.answered(app, path, key)
        }
        readState(app, path)
        if eager {
            readExtents(app, path)
            readChildren(app, path, eager: true)
        }
        adoptEarly(app, path)
    }

    /// `path` is known now: what the application said of it before (its placement, its
    /// announcement) is used as if it had come now. The reads are sent all the same and win.
    private func adoptEarly(_ app: App, _ path: String) {
        guard let kept = app.early.take(path) else { return }
        let used = app.tree.adopt(kept, at: path)
        debug?("atspi: \(path) learned; used from before it: \(used.announced ? "its announcement" : "no announcement"), \(used.placed ? "its placement" : "no placement")")
        if used.announced { announced(app, path) }
        // Its placement is re-read as a bounds-changed is where its extents were asked already
        // (an added widget, read eagerly); otherwise the read still to come says.
        if used.placed, app.tree[path]?.extentsAsked == true { placed(app, path, kept.placement) }
    }

    /// Once an accessible's role and state are known (and again when it is shown, or becomes
    /// focusable): its extents and its children list where the scene needs them, each asked once.
    private func readNeeded(_ app: App, _ path: String) {
        guard let node = app.tree[path], node.roleRead, node.statesRead else { return }
        let needs = AccessibleTree.needs(node, isWindow: node.parent == AtspiAdapter.root)
        if needs.extents && !node.extentsAsked { readExtents(app, path) }
        if needs.children && !node.childrenAsked { readChildren(app, path) }
    }

    /// Reads an accessible's state, then what the scene needs of it.
    private func readState(_ app: App, _ path: String) {
        let key = begin(app, path)
        call(app.bus, path, "Accessible", "GetState") { [unowned self] result in
            if case .success(let v) = result, let words = v.first?.items?.compactMap(\.int), app.tree[path] != nil {
                let states = AtspiStates(words: words)
                if app.tree[path]?.showingPredicted == true {
                    app.tree.nodes[path]?.showingPredicted = false
                    if !states.contains(AtspiStates.showing) {
                        self.predictionsWrong += 1
                        self.debug?("atspi: \(path) was predicted showing at its placement; its state says not")
                    }
                }
                app.tree.nodes[path]?.states = states
                app.tree.nodes[path]?.statesRead = true
                app.tree.learn(states)
                self.readNeeded(app, path)
            } else if case .failure = result {
                app.tree.remove(path)
            }
            self.answered(app, path, key)
        }
    }

    /// Reads an accessible's extents; `moved` runs (before the answer is counted in) when their
    /// origin differs from `since` (or they became real, or stopped being real).
    private func readExtents(_ app: App, _ path: String, movedFrom since: Extents? = nil, moved: (() -> Void)? = nil) {
        app.tree.nodes[path]?.extentsAsked = true
        let key = begin(app, path)
        let isWindow = app.tree[path]?.parent == AtspiAdapter.root
        if isWindow { app.windowReads[path, default: 0] += 1 }
        call(app.bus, path, "Component", "GetExtents", [.uint32(0)]) { [unowned self] result in
            if isWindow { app.windowReads[path] = (app.windowReads[path] ?? 1) > 1 ? app.windowReads[path]! - 1 : nil }
            if case .success(let v) = result, let r = v.first?.items?.compactMap(\.int), r.count == 4 {
                let new = Extents(x: r[0], y: r[1], width: r[2], height: r[3])
                let held = app.tree[path]?.extents
                app.tree.nodes[path]?.extents = new
                if app.tree[path]?.parent == AtspiAdapter.root {
                    if app.tree.learnWindowPlacement(of: path, predicted: held) {
                        self.predictionsWrong += 1
                        self.debug?("atspi: window \(path) was predicted at \(String(describing: held)) from its placement; read at \(String(describing: new)): its size is read, not predicted, from now on")
                    }
                } else if let window = app.tree.window(of: path, root: AtspiAdapter.root),
                          let (predicted, found) = app.tree.learnPlacement(
                            of: path, window: window, windowKnown: app.windowReads[window] == nil && app.boundsDirty.index(forKey: window) == nil) {
                    self.predictionsWrong += 1
                    self.debug?("atspi: \(path) was predicted at offset \(predicted) from its placement; read at \(found): its container's children are read, not predicted, from now on")
                }
                if since?.x != new?.x || since?.y != new?.y { moved?() }
            }
            self.answered(app, path, key)
        }
    }

    /// Reads an accessible's children list and reads the children it did not know. `eager`: asked
    /// with the accessible's state, before its answer (the application answers in order, so the
    /// state is known when the list arrives): the children are read only where it is shown, and
    /// read eagerly too.
    private func readChildren(_ app: App, _ path: String, eager: Bool = false) {
        app.tree.nodes[path]?.childrenAsked = true
        let key = begin(app, path)
        call(app.bus, path, "Accessible", "GetChildren") { [unowned self] result in
            defer { self.answered(app, path, key) }
            guard case .success(let v) = result, let node = app.tree[path] else { return }
            if eager && node.statesRead && !AccessibleTree.mayShow(node.states) {
                app.tree.nodes[path]?.childrenAsked = false  // asked again when it is shown
                return
            }
            let children = (v.first?.items ?? []).compactMap { child -> String? in
                guard let parts = child.items, parts.count == 2, parts[0].string == app.bus else { return nil }
                return parts[1].string
            }
            let old = node.children
            for gone in Set(old).subtracting(children) where app.tree[gone]?.parent == path { app.tree.remove(gone) }
            app.tree.nodes[path]?.children = children
            app.tree.nodes[path]?.childrenRead = true
            for child in children where app.tree[child]?.parent != path || path == AtspiAdapter.root {
                self.read(app, child, parent: path, eager: eager)
            }
            if path == AtspiAdapter.root {
                for window in app.sent.keys where !children.contains(window) { app.dirtyWindows.insert(window) }
            }
        }
    }

    /// Counts a read of `path` in flight under its window (the key its answer is counted off).
    private func begin(_ app: App, _ path: String) -> String {
        let key = app.tree.window(of: path, root: AtspiAdapter.root) ?? ""
        app.pending[key, default: 0] += 1
        return key
    }

    private func answered(_ app: App, _ path: String, _ key: String) {
        lastAnswer = Self.now()
        if let left = app.pending[key], left > 1 { app.pending[key] = left - 1 } else { app.pending[key] = nil }
        if let window = app.tree.window(of: path, root: AtspiAdapter.root) { app.dirtyWindows.insert(window) }
    }

    // MARK: events

    private func objectEvent(_ signal: DBusSignal) {
        if signal.sender == registryOwner || apps[signal.sender] == nil {
            // The registry's desktop root: applications come and go.
            if signal.member == "ChildrenChanged", signal.path == AtspiAdapter.root,
               let detail = signal.body.first?.string, let bus = signal.body[safe: 3]?.items?.first?.string {
                if detail.hasPrefix("add") { appAdded(bus) } else if detail.hasPrefix("remove") { appGone(bus) }
            }
            return
        }
        guard let app = apps[signal.sender] else { return }
        // A child removed, known or not: what was kept of it from before is not used.
        if signal.member == "ChildrenChanged", signal.body.first?.string?.hasPrefix("remove") == true,
           let child = signal.body[safe: 3]?.items?[safe: 1]?.string {
            app.early.forget(child)
        }
        guard app.tree[signal.path] != nil else { return keepEarly(app, signal) }
        let path = signal.path
        if signal.member != "BoundsChanged" { debug?("atspi: \(signal.member) \(signal.body.first?.string ?? "") \(signal.body[safe: 1]?.int ?? 0) on \(path)") }
        let detail = signal.body.first?.string ?? ""
        let on = (signal.body[safe: 1]?.int ?? 0) != 0
        switch signal.member {
        case "StateChanged":
            guard let state = AtspiStates.named(detail) else { return }
            app.tree.nodes[path]?.states.set(state, on)
            if on { app.tree.learn(AtspiStates(bits: 1 << UInt64(state))) }
            if on && (state == AtspiStates.showing || state == AtspiStates.visible || state == AtspiStates.focusable) {
                // Shown (or focusable) now: what was not read while it was not needed.
                readNeeded(app, path)
            }
            if state == AtspiStates.defunct && on { app.tree.remove(path) }
            markDirty(app, path)
            if state == AtspiStates.focused {
                if on { app.tree.lastFocused = path } else if app.tree.lastFocused == path { app.tree.lastFocused = nil }
            }
            if state == AtspiStates.focused && on { appFocused(app, path) }
            if state == AtspiStates.active && on && app.tree[path]?.parent == AtspiAdapter.root { windowActivated(app, path) }
        case "ChildrenChanged":
            // The event names the child: it is read at once, with the parent's list (which keeps
            // the order true), instead of after the list's answer (one round trip less, and the
            // application answers both in one go).
            if let child = signal.body[safe: 3]?.items, child.count == 2, child[0].string == app.bus || child[0].string == "",
               let childPath = child[1].string, childPath != path, app.tree[path]?.childrenRead == true {
                if detail.hasPrefix("add"), app.tree[childPath]?.parent != path {
                    var children = app.tree[path]?.children ?? []
                    let index = signal.body[safe: 1]?.int ?? -1
                    children.insert(childPath, at: (0...children.count).contains(index) ? index : children.count)
                    app.tree.nodes[path]?.children = children
                    read(app, childPath, parent: path, eager: true)
                } else if detail.hasPrefix("remove"), app.tree[childPath]?.parent == path {
                    app.tree.nodes[path]?.children.removeAll { $0 == childPath }
                    app.tree.remove(childPath)
                    markDirty(app, path)
                }
            }
            readChildren(app, path)
        case "BoundsChanged":
            if let placement = AtspiAdapter.placement(signal) { placed(app, path, placement) }
        default:
            break
        }
    }

    /// A `bounds-changed` event's rectangle (GTK 3: the allocation, on the surface the widget is
    /// drawn on): `.some(nil)` where it is not real (INT_MIN), nil where the event carries none.
    private static func placement(_ signal: DBusSignal) -> Extents?? {
        guard let r = signal.body[safe: 3]?.items?.compactMap(\.int), r.count == 4 else { return nil }
        return .some(Extents(x: r[0], y: r[1], width: r[2], height: r[3]))
    }

    /// `path` was placed (its `bounds-changed`, or one kept from before the path was known).
    private func placed(_ app: App, _ path: String, _ placement: Extents?) {
        app.tree.nodes[path]?.placement = placement
        // Coalesced: one re-read of the kept accessibles under it per wake-up (flush).
        if app.boundsDirty.index(forKey: path) == nil { app.boundsDirty.updateValue(app.tree[path]?.extents, forKey: path) }
    }

    /// An event about an accessible the adapter does not know yet: a placement and a state change
    /// (of an announced one) are kept for when its path is learned; `defunct` forgets what was kept.
    private func keepEarly(_ app: App, _ signal: DBusSignal) {
        debug?("atspi: \(signal.member) \(signal.body.first?.string ?? "") \(signal.body[safe: 1]?.int ?? 0) on unknown \(signal.path) of \(signal.sender)")
        let detail = signal.body.first?.string ?? ""
        switch signal.member {
        case "BoundsChanged":
            if let placement = AtspiAdapter.placement(signal) { app.early.placed(signal.path, placement) }
        case "StateChanged":
            guard let state = AtspiStates.named(detail) else { return }
            let on = (signal.body[safe: 1]?.int ?? 0) != 0
            if state == AtspiStates.defunct && on { app.early.forget(signal.path) } else { app.early.stateChanged(signal.path, state: state, on: on) }
        default:
            break
        }
    }

    /// `Cache.AddAccessible`: an accessible the adapter knows whose role and state are not read
    /// yet takes them from the announcement (`AccessibleTree.announce`); one it does not know yet
    /// (at-spi2-atk may announce it before its `children-changed`) is kept until it is learned.
    private func cacheAdded(_ signal: DBusSignal) {
        guard let app = apps[signal.sender], let item = signal.body.first.flatMap(AtspiAdapter.cacheItem) else { return }
        if app.tree[item.path] == nil {
            app.early.announced(item)
        } else if app.tree.announce(item) {
            announced(app, item.path)
        }
    }

    /// `path` took its role and state from its announcement: what the scene needs of it is read.
    private func announced(_ app: App, _ path: String) {
        debug?("atspi: \(path) announced by the application's cache: role \(app.tree[path]?.role ?? 0)")
        readNeeded(app, path)
        markDirty(app, path)
    }

    private func windowEvent(_ signal: DBusSignal) {
        guard let app = apps[signal.sender] else { return }
        switch signal.member {
        case "Activate":
            app.tree.nodes[signal.path]?.states.set(AtspiStates.active, true)
            windowActivated(app, signal.path)
        case "Deactivate":
            app.tree.nodes[signal.path]?.states.set(AtspiStates.active, false)
        case "Create", "Destroy":
            readChildren(app, AtspiAdapter.root)
        default:
            break
        }
    }

    private func markDirty(_ app: App, _ path: String) {
        if let window = app.tree.window(of: path, root: AtspiAdapter.root) { app.dirtyWindows.insert(window) }
    }

    private func windowActivated(_ app: App, _ window: String) {
        let name = AtspiAdapter.sceneName(bus: app.bus, window: window)
        guard app.tree[window]?.parent == AtspiAdapter.root else { return }
        if let scene = app.sent[window] {
            if activeScene != name {
                activeScene = name
                sink.activateScene(name)
            }
            reportAppFocus(app, scene: name, window: scene)
        } else {
            wantsActive = name
        }
    }

    // MARK: sending scenes

    /// After each wake-up: re-read coalesced bounds, then send each changed window whose reads
    /// (and its application root's) are all answered.
    private func flush() {
        for app in apps.values {
            if !app.boundsDirty.isEmpty {
                let known = app.boundsDirty
                // Accessibles placed for the first time (an added widget) first: the application
                // answers in order, and their answers are what brings them into the scene.
                let placed = { (path: String) -> Bool in (known[path] ?? nil) != nil }
                let paths = known.keys.filter { !placed($0) } + known.keys.filter(placed)
                app.boundsDirty = [:]
                var containers = Set<String>()
                // Only what the events name: an accessible whose size or place within its parent
                // changes sends its own bounds-changed. Its kept descendants are read again only
                // when it moved on the screen (a window moved, a container with a window of its
                // own moved): their screen extents moved with it, and no event says so.
                for path in paths {
                    guard let node = app.tree[path] else { continue }
                    let needs = AccessibleTree.needs(node, isWindow: node.parent == AtspiAdapter.root)
                    // A first placement: GTK answers the read below only after it has painted the
                    // frame (tens of ms), but the event carries the placement, and where its
                    // siblings were found on one surface the extents follow from it now. The read
                    // still goes and corrects them.
                    if node.extents == nil, needs.extents, node.parent != AtspiAdapter.root,
                       let window = app.tree.window(of: path, root: AtspiAdapter.root),
                       let (extents, offset) = app.tree.predictedExtents(of: path, window: window) {
                        app.tree.nodes[path]?.extents = extents
                        app.tree.nodes[path]?.predictedOffset = offset
                        predictions += 1
                        let origin = app.tree[window]?.extents ?? extents
                        debug?("atspi: \(path) placed: frame in its window predicted from its siblings' offset: \(Int(extents.x - origin.x)) \(Int(extents.y - origin.y)) \(Int(extents.width)) \(Int(extents.height))")
                        app.dirtyWindows.insert(window)
                    }
                    if app.tree[path]?.predictedOffset != nil, app.tree.showsOnPlacement(path) {
                        app.tree.nodes[path]?.states.set(AtspiStates.showing, true)
                        app.tree.nodes[path]?.showingPredicted = true
                    }
                    // A window that grew (GTK 3 grows it to fit a widget added to it): its new size
                    // now, or the added widget would be clipped away until the read is answered.
                    if node.parent == AtspiAdapter.root, let extents = app.tree.predictedWindowExtents(of: path) {
                        app.tree.nodes[path]?.extents = extents
                        app.tree.nodes[path]?.sizePredicted = true
                        predictions += 1
                        debug?("atspi: window \(path) placed: size predicted from its placement: \(Int(extents.width)) \(Int(extents.height))")
                        app.dirtyWindows.insert(path)
                    }
                    // A shown leaf the scene needs no extents of (a spinner, a progress bar, a
                    // label) costs nothing but its event, however often it moves.
                    if needs.extents || !node.children.isEmpty || !node.roleRead || !node.statesRead {
                        readExtents(app, path, movedFrom: known[path] ?? nil) { [unowned self] in self.moved(app, path) }
                    }
                    // GTK 3 reports a widget shown before it is mapped and sends no event when it
                    // is: its first placement (a bounds change) is when its state is worth reading
                    // again.
                    if !app.tree.isShown(node) || (needs.extents && node.extents == nil) {
                        readState(app, path)
                    }
                    collectContainers(app, path, into: &containers)
                }
                for path in containers { readChildren(app, path) }
                debug?("atspi: \(paths.count) bounds-changed: re-reading their extents, \(containers.count) children lists")
            }
            guard app.pending[""] == nil, !app.dirtyWindows.isEmpty else { continue }
            // A window's first scene waits for all its reads; a sent one is brought up to date
            // with what is known after every wake-up (an added widget reaches focusd as soon as
            // its own reads are in, not after unrelated re-reads of the same window).
            let ready = app.dirtyWindows.filter { app.pending[$0] == nil || app.sent[$0] != nil }
            guard !ready.isEmpty else { continue }
            app.dirtyWindows.subtract(ready)
            let listed = Set(app.tree[AtspiAdapter.root]?.children ?? [])
            for window in ready { send(app, window, listed: listed.contains(window)) }
        }
    }

    /// `path` was read at another place on the screen than when its event came: the kept
    /// accessibles under it moved with it, and no event says so; they are read again. Its window
    /// may have moved too (a window moved by the window manager: GTK 3 may tell of it only at its
    /// next layout, while a container's read already shows it): the window's extents are read
    /// first (unless a read of them is in flight already), so they are answered before the reads
    /// under it (the application answers in order) and no placement offset is learned against a
    /// stale origin.
    private func moved(_ app: App, _ path: String) {
        var under = Set<String>()
        collectKept(app, path, into: &under)
        under.remove(path)
        debug?("atspi: \(path) moved: re-reading \(under.count) extents under it")
        if app.tree[path]?.parent != AtspiAdapter.root, let window = app.tree.window(of: path, root: AtspiAdapter.root),
           app.windowReads[window] == nil {  // one in flight is answered first as well
            readExtents(app, window, movedFrom: app.tree[window]?.extents) { [unowned self] in self.moved(app, window) }
        }
        for child in under { readExtents(app, child) }
    }

    /// `path` and its descendants that are in a sent scene, whose screen extents follow `path`'s
    /// when it moves; `path` itself too when it is a window, a section or focusable.
    private func collectKept(_ app: App, _ path: String, into out: inout Set<String>) {
        guard let node = app.tree[path] else { return }
        // Not yet known not to matter: its first extents may have been read before it was placed.
        if node.parent == AtspiAdapter.root || !node.statesRead || node.states.contains(AtspiStates.focusable)
            || AtspiRole.sections.contains(node.role) {
            out.insert(path)
        }
        if let window = app.tree.window(of: path, root: AtspiAdapter.root), let scene = app.sent[window] {
            if node.parent == AtspiAdapter.root {
                out.formUnion(scene.ids())
                return
            }
            if let kept = scene.find(path) { out.formUnion(kept.ids()) }
            var stack = node.children
            while let child = stack.popLast() {
                if scene.find(child) != nil { out.insert(child) }
                stack += app.tree[child]?.children ?? []
            }
        }
    }

    /// A container that changed size may have gained children without a `children-changed`
    /// event (GTK 3's `gtk_box_pack_start` sends none): the children lists of the containers under
    /// it are read again (children already known are not re-read). Leaves (a spinner, a progress
    /// bar) cost nothing here, however often they move.
    private func collectContainers(_ app: App, _ path: String, into out: inout Set<String>) {
        var stack = [path]
        while let next = stack.popLast() {
            guard let node = app.tree[next], node.childrenRead, !node.children.isEmpty || node.parent == AtspiAdapter.root,
                  app.tree.isShown(node) else { continue }
            out.insert(next)
            stack += node.children
        }
    }

    private func send(_ app: App, _ window: String, listed: Bool) {
        let name = AtspiAdapter.sceneName(bus: app.bus, window: window)
        let scene = listed ? SceneBuilder.scene(of: window, in: app.tree) : nil
        guard let scene, app.tree[window].map(app.tree.isShown) == true else {
            if app.sent.removeValue(forKey: window) != nil { dropScene(name) }
            return
        }
        if app.sent[window] == scene { return }
        debug?("atspi: publishing \(name) (\(scene.ids().count) nodes), \(Double(Self.now() - lastAnswer) / 1000) ms after the last answer")
        let isNew = app.sent[window] == nil
        if isNew, debug != nil {
            var candidates = 0
            var stack = scene.children
            while let node = stack.popLast() {
                if node.focusable { candidates += 1 }
                stack += node.children
            }
            let counts = callCounts.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            debug?("atspi: first scene of \(name): \(app.tree.nodes.count) accessibles known, \(candidates) candidates; calls sent so far: \(callCounts.values.reduce(0, +)) (\(counts))")
        }
        app.sent[window] = scene
        sink.publish(name, root: scene)
        if isNew {
            // A first SetScene makes a scene active in focusd; the active window decides instead.
            let isActive = app.tree[window]?.states.contains(AtspiStates.active) == true || wantsActive == name
            if isActive {
                activeScene = name
                wantsActive = nil
                sink.activateScene(name)
            } else if let activeScene {
                sink.activateScene(activeScene)
            } else {
                activeScene = name
            }
        }
    }

    // MARK: focus both ways

    /// The application focused `path`: done when it answers the adapter's own request; otherwise
    /// (unless a request is still in flight: a stale duplicate) reported to focusd.
    private func appFocused(_ app: App, _ path: String) {
        guard let window = app.tree.window(of: path, root: AtspiAdapter.root), let scene = app.sent[window] else { return }
        let name = AtspiAdapter.sceneName(bus: app.bus, window: window)
        var sync = syncs[name, default: Sync()]
        if let pending = sync.pending {
            if pending.target == path {
                sync.pending = nil
                sync.focusd = path
            }
            syncs[name] = sync
            armTimer()
            return
        }
        syncs[name] = sync
        guard scene.find(path)?.focusable == true, sync.focusd != path else { return }
        syncs[name]?.focusd = path
        sink.reportFocus(name, node: path)
    }

    /// focusd has scene `name` (first set, or set again after focusd restarted) with `focused`:
    /// the application's own focus is reported; only where it shows none is focusd's applied.
    public func sceneReady(_ name: String, focused: String?) {
        guard let (bus, window) = AtspiAdapter.parse(scene: name), let app = apps[bus], let scene = app.sent[window] else { return }
        syncs[name, default: Sync()].focusd = focused
        if let own = app.tree.focusedCandidate(in: scene) {
            if own != focused {
                syncs[name]?.focusd = own
                sink.reportFocus(name, node: own)
            }
        } else if let focused {
            grabFocus(app, name, focused)
        }
    }

    private func reportAppFocus(_ app: App, scene name: String, window scene: SceneNode) {
        guard syncs[name]?.pending == nil, let focused = app.tree.focusedCandidate(in: scene), syncs[name]?.focusd != focused else { return }
        syncs[name, default: Sync()].focusd = focused
        sink.reportFocus(name, node: focused)
    }

    /// focusd's focus, activation or edit for scene `name`.
    public func handle(scene name: String, command: AtspiCommand) {
        guard let (bus, window) = AtspiAdapter.parse(scene: name), let app = apps[bus], app.sent[window] != nil else { return }
        switch command {
        case .focus(let path):
            syncs[name, default: Sync()].focusd = path
            if app.tree[path]?.states.contains(AtspiStates.focused) == true { return }
            grabFocus(app, name, path)
        case .activate(let path):
            activate(app, path)
        case .edit(let path, let detents):
            edit(app, path, detents: detents)
        }
    }

    private func grabFocus(_ app: App, _ name: String, _ path: String) {
        debug?("atspi: GrabFocus \(path) in \(name)")
        syncs[name, default: Sync()].pending = (path, Self.now() + AtspiAdapter.confirmWindow)
        armTimer()
        call(app.bus, path, "Component", "GrabFocus") { [unowned self] result in
            switch result {
            case .success(let v) where v.first?.bool == true:
                break  // done when the `focused` event comes (or re-read at the deadline)
            case .success:
                self.focusThroughSelection(app, name, path)
            case .failure(let error):
                if error.name.hasSuffix("NotSupported") || error.name.hasSuffix("UnknownMethod") {
                    self.log("atspi: application '\(app.name)' (\(app.bus)) cannot take focus requests: GrabFocus answered \(error) (GTK 4 before 4.10 does not support them)")
                } else {
                    self.log("atspi: GrabFocus on \(path) of '\(app.name)' failed: \(error)")
                }
                self.focusThroughSelection(app, name, path)
            }
        }
    }

    /// Items that refuse GrabFocus (Qt's list items) are focused by selecting them in their container.
    private func focusThroughSelection(_ app: App, _ name: String, _ path: String) {
        guard let parent = app.tree[path]?.parent else { return settle(name) }
        call(app.bus, path, "Accessible", "GetIndexInParent") { [unowned self] result in
            guard case .success(let v) = result, let index = v.first?.int, index >= 0 else { return self.settle(name) }
            self.call(app.bus, parent, "Selection", "SelectChild", [.int32(Int32(index))]) { [unowned self] result in
                guard case .success(let v) = result, v.first?.bool == true else { return self.settle(name) }
                // Selected; the container takes keyboard focus and Qt then reports its current
                // item focused (the confirmation the request waits for).
                self.call(app.bus, parent, "Component", "GrabFocus") { _ in }
            }
        }
    }

    /// A request the application did not carry out: focusd is told where the application's focus is.
    private func settle(_ name: String) {
        syncs[name]?.pending = nil
        armTimer()
        guard let (bus, window) = AtspiAdapter.parse(scene: name), let app = apps[bus], let scene = app.sent[window] else { return }
        guard let focused = app.tree.focusedCandidate(in: scene) else { return }
        if syncs[name]?.focusd != focused {
            syncs[name]?.focusd = focused
            sink.reportFocus(name, node: focused)
        }
    }

    private func armTimer() {
        confirmDeadline = syncs.values.compactMap { $0.pending?.deadline }.min()
    }

    private func settleDue() {
        let now = Self.now()
        for (name, sync) in syncs where (sync.pending?.deadline ?? .max) <= now { settle(name) }
        armTimer()
    }

    private func activate(_ app: App, _ path: String) {
        call(app.bus, path, "Action", "GetActions") { [unowned self] result in
            guard case .success(let v) = result else { return self.log("atspi: \(path) of '\(app.name)' has no actions to activate") }
            let names = (v.first?.items ?? []).map { $0.items?.first?.string?.lowercased() ?? "" }
            guard let index = ["click", "press", "activate", "toggle"].lazy.compactMap({ names.firstIndex(of: $0) }).first else {
                return self.log("atspi: \(path) of '\(app.name)' has no click, press, activate or toggle action (it has \(names))")
            }
            self.call(app.bus, path, "Action", "DoAction", [.int32(Int32(index))]) { [unowned self] result in
                if case .failure(let error) = result { self.log("atspi: DoAction(\(names[index])) on \(path) failed: \(error)") }
            }
        }
    }

    /// The `Value` properties are read one by one (all four in flight at once): Qt 5.15 crashes
    /// on `Properties.GetAll` of `org.a11y.atspi.Value` (a segmentation fault in the application,
    /// seen with PyQt5 5.15.9 on Qt 5.15.8).
    private func edit(_ app: App, _ path: String, detents: Int) {
        let names = ["CurrentValue", "MinimumValue", "MaximumValue", "MinimumIncrement"]
        var props: [String: Double] = [:]
        var left = names.count
        for name in names {
            call(app.bus, path, "org.freedesktop.DBus.Properties", "Get", [.string("org.a11y.atspi.Value"), .string(name)]) { [unowned self] result in
                if case .success(let v) = result, let d = v.first?.double { props[name] = d }
                left -= 1
                if left == 0 { self.setValue(app, path, props, detents: detents) }
            }
        }
    }

    private func setValue(_ app: App, _ path: String, _ props: [String: Double], detents: Int) {
        guard let current = props["CurrentValue"], let low = props["MinimumValue"], let high = props["MaximumValue"] else {
            return log("atspi: \(path) of '\(app.name)' reports no current, minimum and maximum value")
        }
        let target = ValueStep.next(current: current, minimum: low, maximum: high, increment: props["MinimumIncrement"] ?? 0, detents: detents)
        call(app.bus, path, "org.freedesktop.DBus.Properties", "Set",
             [.string("org.a11y.atspi.Value"), .string("CurrentValue"), .variantDouble(target)]) { [unowned self] result in
            if case .failure(let error) = result { self.log("atspi: setting the value of \(path) failed: \(error)") }
        }
    }
}

/// adapters.md §3's `edit`: steps of the minimum increment; an increment of 0 steps by 1 on an
/// integer range, else by 1/100 of the range; clamped to the range.
public enum ValueStep {
    public static func next(current: Double, minimum: Double, maximum: Double, increment: Double, detents: Int) -> Double {
        var step = increment
        if !(step > 0) || !step.isFinite {
            step = minimum.rounded() == minimum && maximum.rounded() == maximum ? 1 : (maximum - minimum) / 100
        }
        return min(max(current + Double(detents) * step, minimum), maximum)
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
