import Glibc
import InputMapping
import SystemCalls

@testable import InputDevices

/// A kernel played by the test: nodes with scripted answers, a virtual clock, and a record of
/// every call that changes something (open, close, grab). Drives the real `LoopCore` and
/// `InputCore` on the test's own thread: no threads, no sleeps, no real time.
final class FakeKernel: InputKernel {
    /// One node as the fake kernel has it.
    struct Node {
        var id: String
        /// What `open` returns; nil: `openError` (ENOTTY by default, not an evdev node).
        var identity: DeviceIdentity?
        var openError = PosixError(call: "libevdev_new_from_fd", errno: ENOTTY)
        var group: String?
        /// What the next `read` returns, then empties.
        var pending: [EvdevReading] = []
        var readError: PosixError?
        var keysDown: Set<UInt16> = []
        var grabError: PosixError?
        var udevProperties: [String: String]?
        /// Sysfs knows the node: its sighting carries the identity (without capabilities).
        var inSysfs = false
    }

    var udevRuns = false
    var now: Int64 = 1_000_000
    var nodes: [String: Node] = [:]
    /// Discovery news waiting for the next `.discovery` wake-up.
    var news: [DiscoveryNews] = []
    var armed: Int64?
    var libinputUnavailable: String?
    private(set) var opened: Set<String> = []
    private(set) var watched: Set<String> = []
    private(set) var grabbed: Set<String> = []
    private(set) var inLibinput: Set<String> = []
    /// "open N", "close N", "grab N", "ungrab N", "read N", "libinput N", in order.
    private(set) var calls: [String] = []

    func monotonicUsec() -> Int64 { now }
    /// The wall clock runs with the virtual monotonic one, from this offset.
    var wallOffset: Int64 = 1_700_000_000_000_000
    func wallClockUsec() -> Int64 { wallOffset + now }

    func sighting(_ node: String, _ kind: Sighting) -> NodeSighting {
        let entry = nodes[node]
        let name = node.split(separator: "/").last.map(String.init) ?? node
        return NodeSighting(
            node: node, kind: kind,
            udev: entry?.udevProperties.map { .init(properties: $0, group: entry?.group) },
            id: entry?.id ?? name,
            sysfsIdentity: entry.flatMap { $0.inSysfs ? $0.identity.map { DeviceIdentity(
                name: $0.name, bus: $0.bus, vendor: $0.vendor, product: $0.product, version: $0.version, phys: $0.phys,
                uniq: $0.uniq, node: node, group: entry?.group) } : nil },
            sysfsGroup: entry?.group)
    }

    func enumerate() throws(PosixError) -> [DiscoveryNews] {
        nodes.keys.sorted().map { .sighted(sighting($0, .enumerated)) }
    }

    func discoveryNews() throws(PosixError) -> [DiscoveryNews] {
        defer { news = [] }
        return news
    }

    func describe(node: String) -> NodeSighting { sighting(node, .changed) }

    func wait() throws(PosixError) -> [Wakeup] {
        fatalError("tests serve wake-ups themselves")
    }

    func arm(deadline: Int64?) throws(PosixError) { armed = deadline }

    func open(_ node: String) throws(PosixError) -> DeviceIdentity {
        calls.append("open \(node)")
        guard let entry = nodes[node] else { throw PosixError(call: "open(\(node))", errno: ENOENT) }
        guard var identity = entry.identity else { throw entry.openError }
        identity.node = node
        opened.insert(node)
        return identity
    }

    func watch(_ node: String) throws(PosixError) {
        guard opened.contains(node) else { throw PosixError(call: "watch", errno: EBADF) }
        watched.insert(node)
    }

    func addToLibinput(_ node: String) -> LibinputOutcome {
        if let libinputUnavailable { return .unavailable(reason: libinputUnavailable) }
        calls.append("libinput \(node)")
        inLibinput.insert(node)
        return .added
    }

    func close(_ node: String) {
        guard opened.contains(node) || inLibinput.contains(node) else { return }
        calls.append("close \(node)")
        if grabbed.remove(node) != nil { calls.append("ungrab \(node)") }
        opened.remove(node)
        watched.remove(node)
        inLibinput.remove(node)
    }

    func read(_ node: String) throws(PosixError) -> [EvdevReading]? {
        guard watched.contains(node) else { return nil }
        calls.append("read \(node)")
        if let error = nodes[node]?.readError { throw error }
        defer { nodes[node]?.pending = [] }
        return nodes[node]?.pending ?? []
    }

    func keysDown(_ node: String) -> Set<UInt16> { nodes[node]?.keysDown ?? [] }

    func setGrab(_ node: String, _ grab: Bool) throws(PosixError) {
        if let error = nodes[node]?.grabError { throw error }
        calls.append("\(grab ? "grab" : "ungrab") \(node)")
        if grab { grabbed.insert(node) } else { grabbed.remove(node) }
    }

    /// Pass-through devices by source node: their spec and every frame written, in order.
    private(set) var passthroughs: [String: (spec: PassthroughSpec, frames: [[InputEvent]])] = [:]
    /// The event node the next pass-through device gets (nil: the kernel names none).
    var nextPassthroughNode: String? = "/dev/input/event90"
    /// Fails the next pass-through creation (no /dev/uinput).
    var passthroughError: PosixError?

    func createPassthrough(_ node: String, _ spec: PassthroughSpec) throws(PosixError) -> String? {
        if let passthroughError { throw passthroughError }
        calls.append("passthrough \(node)")
        passthroughs[node] = (spec, [])
        return nextPassthroughNode
    }

    /// Called at each pass-through write, before it is recorded (tests of what came before it).
    var onWrite: (() -> Void)?

    /// One call per write: "write NODE" and each frame as "code:value,..." (frames apart by spaces).
    func writePassthrough(_ node: String, _ frames: [[InputEvent]]) throws(PosixError) {
        onWrite?()
        calls.append(
            "write \(node) " + frames.map { $0.map { "\($0.code):\($0.value)" }.joined(separator: ",") }.joined(separator: " "))
        passthroughs[node]?.frames.append(contentsOf: frames)
    }

    func destroyPassthrough(_ node: String) {
        guard passthroughs.removeValue(forKey: node) != nil else { return }
        calls.append("destroy passthrough \(node)")
    }

    func nodeExists(_ node: String) -> Bool { nodes[node] != nil }

    func dispatchLibinput() throws(PosixError) -> [InputCore.NodeGesture] { [] }
    func expireLibinput(now: Int64) -> [InputCore.NodeGesture] { [] }
    var libinputDeadline: Int64? { nil }
}

/// A `LoopCore` over a `FakeKernel`, with a recorder, a command queue and the published list.
final class FakeLoop {
    let kernel = FakeKernel()
    let recorder = Recorder()
    var commands: [LoopCommand] = []
    private(set) var published: [DeviceInfo] = []
    /// How often the loop published its device list.
    private(set) var publishCount = 0
    private(set) var loop: LoopCore!
    /// The answers to `lend` and `reclaim` commands: token and device, in order.
    private(set) var completed: [(token: Int, device: DeviceInfo?)] = []
    /// Policy calls per node (each open attempt asks once before opening and once after).
    private(set) var policyCalls: [String: Int] = [:]

    init(
        retryDelaysUsec: [Int64] = [10_000, 20_000], classify: @escaping @Sendable (DeviceIdentity) -> DeviceClass = { _ in .keyboard },
        policy: @escaping @Sendable (DeviceIdentity, [DeviceIdentity]) -> DevicePolicy = { _, _ in .default },
        mapping: DeviceMappers.Settings? = nil, focusContext: @escaping @Sendable () -> FocusContext = { FocusContext() }
    ) {
        let counter = PolicyCounter()
        self.counter = counter
        var configuration = InputLoopConfiguration(
            useUdev: false, retryDelaysUsec: retryDelaysUsec, classify: classify,
            policy: { identity, siblings in
                _ = counter.policy(identity)
                return policy(identity, siblings)
            }, mapping: mapping)
        configuration.focusContext = focusContext
        self.configuration = configuration
    }

    private let counter: PolicyCounter
    private let configuration: InputLoopConfiguration

    func policyCalls(_ node: String) -> Int { counter.calls(node) }

    /// Enumerates what the kernel has (the loop thread's start).
    func start() {
        loop = LoopCore(
            configuration: configuration, kernel: kernel, delegate: recorder,
            takeCommands: { [unowned self] in defer { commands = [] }; return commands },
            publish: { [unowned self] in
                published = $0
                publishCount += 1
            }, countWakeup: {}, complete: { [unowned self] token, device in completed.append((token, device)) })
        loop.begin()
    }

    /// A command from another thread, served as its eventfd wake-up.
    func send(_ command: LoopCommand) {
        commands.append(command)
        loop.serve([.commands])
    }

    /// A node appears (udev add / inotify create).
    func plug(_ node: String, _ entry: FakeKernel.Node) {
        kernel.nodes[node] = entry
        kernel.news.append(.sighted(kernel.sighting(node, .created)))
        loop.serve([.discovery])
    }

    /// A node's attributes changed (udev change / inotify attrib).
    func change(_ node: String) {
        kernel.news.append(.sighted(kernel.sighting(node, .changed)))
        loop.serve([.discovery])
    }

    /// The node is removed.
    func unplug(_ node: String) {
        kernel.nodes[node] = nil
        kernel.news.append(.removed(node: node))
        loop.serve([.discovery])
    }

    /// The device has these readings pending and its descriptor is readable.
    func deliver(_ node: String, _ readings: [EvdevReading]) {
        kernel.nodes[node]?.pending += readings
        loop.serve([.device(node: node)])
    }

    /// Advances the virtual clock to the armed deadline and serves the timer; false when none.
    @discardableResult
    func fireTimer() -> Bool {
        guard let at = kernel.armed else { return false }
        kernel.now = max(kernel.now, at)
        loop.serve([.timer])
        return true
    }

    var devices: [DeviceInfo] { published }
}

/// A keyboard identity as a fake node reports it.
func keyboard(_ name: String = "test keys", keys: Set<UInt16> = [28, 103, 108]) -> DeviceIdentity {
    DeviceIdentity(name: name, bus: 3, vendor: 1, product: 2, capabilities: Capabilities(keys: keys))
}

/// A key frame (EV_KEY code value), without its SYN_REPORT.
func keyFrame(_ code: UInt16, _ value: Int32, at time: Int64 = 1_700_000_000_000_000) -> EvdevReading {
    .frame([InputEvent(type: 1, code: code, value: value, timeUsec: time)])
}
