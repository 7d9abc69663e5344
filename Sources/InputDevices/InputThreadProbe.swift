// What the input thread's own code costs per key press, without a device: the real `LoopCore`,
// `InputCore`, `FrameAssembler` and device mappers over a kernel that replays a keyboard's press
// and release frames. Benchmarks/InputBench runs it under callgrind, whose instruction counts are
// repeatable on a loaded machine; the scenario 78 in the guest gives the whole thread's time.
//
// What it leaves out is the kernel's side: epoll_wait, libevdev's read(2) calls, the timerfd
// syscall and the delegate's hop to the event loop (NIO's `execute`).
import InputMapping
import SystemCalls

/// Drives the input thread's code with recorded frames (Benchmarks/InputBench).
package enum InputThreadProbe {
    /// Serves `presses` presses and releases of KEY_RIGHT on a keyboard listed beside two other
    /// devices (a second keyboard and a power button, as the QEMU guest has), each press and each
    /// release one wake-up with one frame of three events (MSC_SCAN, EV_KEY, SYN_REPORT), as the
    /// kernel sends them, mapped with the keyboard's defaults.
    /// - Returns: the number of commands handed to the delegate, and how often the device list was
    ///   published.
    package static func run(presses: Int) -> (commands: Int, publishes: Int) {
        let kernel = ReplayKernel()
        let delegate = CountingDelegate()
        var publishes = 0
        let configuration = InputLoopConfiguration(useUdev: false, classify: { DeviceClassifier.classify($0) })
        let loop = LoopCore(
            configuration: configuration, kernel: kernel, delegate: delegate, takeCommands: { [] },
            publish: { _ in publishes += 1 }, countWakeup: {})
        loop.begin()
        let node = ReplayKernel.testKeyboard
        for _ in 0..<presses {
            for value: Int32 in [1, 0] {
                let stamp = kernel.wallClockUsec()
                kernel.queue(node, [
                    InputEvent(type: EventCode.EV_MSC, code: EventCode.MSC_SCAN, value: 0x4d, timeUsec: stamp),
                    InputEvent(type: EventCode.EV_KEY, code: EventCode.KEY_RIGHT, value: value, timeUsec: stamp),
                    InputEvent(type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0, timeUsec: stamp),
                ])
                kernel.now += 200
                loop.serve([.device(node: node)])
                // Held 30 ms, then 70 ms until the next press (scenario 78's rhythm).
                kernel.now += value == 1 ? 30_000 : 70_000
            }
        }
        return (delegate.commands, publishes)
    }
}

/// Counts what the loop hands on.
private final class CountingDelegate: InputLoopDelegate, @unchecked Sendable {
    var commands = 0
    func deviceAdded(_ device: DeviceInfo) {}
    func deviceRemoved(id: String) {}
    func deviceChanged(_ device: DeviceInfo) {}
    func mapped(id: String, frame: [InputEvent]?, commands: [MappedCommand]) { self.commands += commands.count }
}

/// Three evdev nodes whose events are queued by the probe and split into frames by the real
/// `FrameAssembler`, on a virtual clock.
private final class ReplayKernel: InputKernel {
    static let testKeyboard = "/dev/input/event3"
    var now: Int64 = 1_000_000
    private var identities: [String: DeviceIdentity] = [:]
    private var queued: [String: [InputEvent]] = [:]
    private var assemblers: [String: FrameAssembler] = [:]
    private var open: Set<String> = []

    init() {
        let keys = Set((1...248).map { UInt16($0) })
        var keyboard = Capabilities()
        keyboard.keys = keys
        keyboard.misc = [EventCode.MSC_SCAN]
        keyboard.leds = [0, 1, 2]
        keyboard.kernelRepeat = true
        keyboard.eventTypes = [EventCode.EV_SYN, EventCode.EV_KEY, EventCode.EV_MSC, EventCode.EV_LED, 0x14]
        var button = Capabilities()
        button.keys = [116]
        button.eventTypes = [EventCode.EV_SYN, EventCode.EV_KEY]
        identities["/dev/input/event0"] = DeviceIdentity(name: "Power Button", bus: 0x19, product: 1, node: "/dev/input/event0", capabilities: button)
        identities["/dev/input/event1"] = DeviceIdentity(
            name: "AT Translated Set 2 keyboard", bus: 0x11, vendor: 1, product: 1, node: "/dev/input/event1", capabilities: keyboard)
        identities[Self.testKeyboard] = DeviceIdentity(
            name: "focusd-test keyboard", bus: 0x03, vendor: 0x1234, product: 0x5678, node: Self.testKeyboard, capabilities: keyboard)
    }

    func queue(_ node: String, _ events: [InputEvent]) { queued[node, default: []] += events }

    var udevRuns: Bool { false }
    func monotonicUsec() -> Int64 { now }
    func wallClockUsec() -> Int64 { 1_700_000_000_000_000 + now }
    func enumerate() throws(PosixError) -> [DiscoveryNews] {
        identities.keys.sorted().map { .sighted(describe(node: $0)) }
    }
    func discoveryNews() throws(PosixError) -> [DiscoveryNews] { [] }
    func describe(node: String) -> NodeSighting {
        NodeSighting(node: node, kind: .enumerated, id: "input\(node.last!)-event\(node.last!)", sysfsIdentity: identities[node])
    }
    func wait() throws(PosixError) -> [Wakeup] { [] }
    func arm(deadline: Int64?) throws(PosixError) {}
    func open(_ node: String) throws(PosixError) -> DeviceIdentity {
        guard let identity = identities[node] else { throw PosixError(call: "open(\(node))", errno: 2) }
        open.insert(node)
        return identity
    }
    func watch(_ node: String) throws(PosixError) {}
    func addToLibinput(_ node: String) -> LibinputOutcome { .unavailable(reason: "not in the probe") }
    func close(_ node: String) { open.remove(node) }
    func read(_ node: String) throws(PosixError) -> [EvdevReading]? {
        guard open.contains(node) else { return nil }
        var events = queued.removeValue(forKey: node) ?? []
        events.reverse()
        return try assemblers[node, default: FrameAssembler()].read(
            next: { _ in events.popLast().map { .event($0) } }, state: { ([], [:]) })
    }
    func keysDown(_ node: String) -> Set<UInt16> { [] }
    func setGrab(_ node: String, _ grab: Bool) throws(PosixError) {}
    func createPassthrough(_ node: String, _ spec: PassthroughSpec) throws(PosixError) -> String? { nil }
    func writePassthrough(_ node: String, _ frames: [[InputEvent]]) throws(PosixError) {}
    func destroyPassthrough(_ node: String) {}
    func nodeExists(_ node: String) -> Bool { identities[node] != nil }
    func dispatchLibinput() throws(PosixError) -> [InputCore.NodeGesture] { [] }
    func expireLibinput(now: Int64) -> [InputCore.NodeGesture] { [] }
    var libinputDeadline: Int64? { nil }
}
