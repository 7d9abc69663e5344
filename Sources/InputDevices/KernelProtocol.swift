// What the input thread asks of the kernel, and Linux's answer over Evdev, Epoll, Udev,
// InotifyWatcher, Libinput and Sysfs. `LoopCore` carries `InputCore`'s actions out through it.
import Glibc
import InputMapping
import SystemCalls

/// Why the input thread woke up.
enum Wakeup: Equatable {
    /// Another thread queued commands (the eventfd was drained).
    case commands
    /// The deadline armed with `arm` passed (the timerfd was drained).
    case timer
    /// udev or inotify has news.
    case discovery
    /// libinput has events.
    case libinput
    /// An opened and watched node is readable.
    case device(node: String)
}

/// What discovery reports.
enum DiscoveryNews: Equatable {
    case sighted(NodeSighting)
    case removed(node: String)
    /// The watched directory went away with every node in it.
    case directoryRemoved(prefix: String)
}

/// How adding a node to libinput went.
enum LibinputOutcome: Equatable {
    case added
    case failed(PosixError)
    /// libinput itself cannot be used (not installed, no context).
    case unavailable(reason: String)
}

/// The kernel as the input thread sees it: one object per loop, used only on its thread.
protocol InputKernel: AnyObject {
    /// Discovery is udev's (libinput's path backend needs its database); else inotify's.
    var udevRuns: Bool { get }
    /// CLOCK_MONOTONIC in microseconds.
    func monotonicUsec() -> Int64
    /// CLOCK_REALTIME in microseconds (the clock of the kernel's event stamps).
    func wallClockUsec() -> Int64
    /// The nodes present now (after subscribing to changes).
    func enumerate() throws(PosixError) -> [DiscoveryNews]
    /// What discovery has to say after a `.discovery` wake-up.
    func discoveryNews() throws(PosixError) -> [DiscoveryNews]
    /// A node given by hand, described as well as udev and sysfs can before it is opened.
    func describe(node: String) -> NodeSighting
    /// Sleeps until something is ready (no timeout: the deadline is armed with `arm`).
    func wait() throws(PosixError) -> [Wakeup]
    /// Arms the wake-up at the monotonic time `deadline` (µs), or disarms it (nil).
    func arm(deadline: Int64?) throws(PosixError)
    /// Opens the node with libevdev and holds it: its identity.
    func open(_ node: String) throws(PosixError) -> DeviceIdentity
    /// Adds the opened node to the wait set; on failure the node is closed.
    func watch(_ node: String) throws(PosixError)
    func addToLibinput(_ node: String) -> LibinputOutcome
    /// Ungrabs, stops watching and closes whatever is held for the node.
    func close(_ node: String)
    /// Reads what the opened node has now; nil when it is not open.
    func read(_ node: String) throws(PosixError) -> [EvdevReading]?
    /// The keys down on the opened node, as the kernel has them now.
    func keysDown(_ node: String) -> Set<UInt16>
    func setGrab(_ node: String, _ grab: Bool) throws(PosixError)
    /// Creates the opened node's pass-through uinput device: its event node, when known.
    func createPassthrough(_ node: String, _ spec: PassthroughSpec) throws(PosixError) -> String?
    /// Writes frames of key events to the node's pass-through device, each followed by a
    /// SYN_REPORT, all in one write(2).
    func writePassthrough(_ node: String, _ frames: [[InputEvent]]) throws(PosixError)
    /// Destroys the node's pass-through device.
    func destroyPassthrough(_ node: String)
    func nodeExists(_ node: String) -> Bool
    /// Gestures libinput recognised after a `.libinput` wake-up.
    func dispatchLibinput() throws(PosixError) -> [InputCore.NodeGesture]
    /// Gestures whose time ran out at `now`.
    func expireLibinput(now: Int64) -> [InputCore.NodeGesture]
    /// The earliest gesture deadline (monotonic µs).
    var libinputDeadline: Int64? { get }
}

/// Linux: epoll over an eventfd (commands), a timerfd, the discovery descriptor, libinput's
/// descriptor and every opened evdev node.
final class LinuxInputKernel: InputKernel {
    private static let wakeToken: UInt64 = 0
    private static let timerToken: UInt64 = 1
    private static let discoveryToken: UInt64 = 2
    private static let libinputToken: UInt64 = 3

    private let epoll: FileDescriptor
    private let timer: FileDescriptor
    private let wakeFD: Int32
    private let udev: UdevMonitor?
    private let inotify: InotifyWatcher?
    private var libinput: LibinputContext?
    private let sysfs: Sysfs
    private var devices: [String: EvdevDevice] = [:]
    private var tokens: [UInt64: String] = [:]
    private var nodeTokens: [String: UInt64] = [:]
    private var nextToken: UInt64 = 16
    private var inLibinput: Set<String> = []
    private var passthroughs: [String: UinputDevice] = [:]

    var udevRuns: Bool { udev != nil }

    /// Subscribes to discovery (udev monitor or inotify) before anything is enumerated.
    init(configuration: InputLoopConfiguration, wakeFD: Int32) throws(PosixError) {
        self.wakeFD = wakeFD
        sysfs = Sysfs(root: configuration.sysfsRoot)
        epoll = try Epoll.create()
        timer = try Epoll.timer()
        try Epoll.add(epoll, fd: wakeFD, token: Self.wakeToken)
        try Epoll.add(epoll, fd: timer.raw, token: Self.timerToken)
        if configuration.useUdev ?? UdevMonitor.daemonRuns(controlPath: configuration.udevControlPath) {
            let monitor = try UdevMonitor()
            udev = monitor
            inotify = nil
            try Epoll.add(epoll, fd: monitor.fd, token: Self.discoveryToken)
        } else {
            let watcher = try InotifyWatcher(directory: configuration.inputDirectory)
            inotify = watcher
            udev = nil
            try Epoll.add(epoll, fd: watcher.rawFD, token: Self.discoveryToken)
        }
    }

    func monotonicUsec() -> Int64 { Posix.monotonicUsec() }

    func wallClockUsec() -> Int64 { Posix.realtimeUsec() }

    func enumerate() throws(PosixError) -> [DiscoveryNews] {
        if let udev { return try udev.enumerate().map { .sighted(sighting($0, as: .enumerated)) } }
        guard let inotify else { return [] }
        return inotify.enumerate().map { .sighted(sighting(inotify.path(of: $0), as: .enumerated)) }
    }

    func discoveryNews() throws(PosixError) -> [DiscoveryNews] {
        if let udev {
            return udev.receive().map { record in
                switch record.action {
                case "remove": .removed(node: record.node)
                case "change": .sighted(sighting(record, as: .changed))
                default: .sighted(sighting(record, as: .created))
                }
            }
        }
        guard let inotify else { return [] }
        return try inotify.readChanges().flatMap { change -> [DiscoveryNews] in
            switch change {
            case .appeared(let name): [.sighted(sighting(inotify.path(of: name), as: .created))]
            case .attributesChanged(let name): [.sighted(sighting(inotify.path(of: name), as: .changed))]
            case .removed(let name): [.removed(node: inotify.path(of: name))]
            case .directoryAppeared: inotify.enumerate().map { .sighted(sighting(inotify.path(of: $0), as: .enumerated)) }
            case .directoryRemoved: [.directoryRemoved(prefix: inotify.directory)]
            }
        }
    }

    func describe(node: String) -> NodeSighting { sighting(node, as: .changed) }

    private func sighting(_ record: UdevRecord, as kind: Sighting) -> NodeSighting {
        var result = sighting(record.node, as: kind, lookUp: false)
        result.udev = NodeSighting.UdevFacts(properties: record.properties, group: record.group)
        return result
    }

    /// What sysfs (and udev's database, without a record) say about a node.
    private func sighting(_ node: String, as kind: Sighting, lookUp: Bool = true) -> NodeSighting {
        let eventName = node.split(separator: "/").last.map(String.init) ?? node
        return NodeSighting(
            node: node, kind: kind, udev: nil, id: sysfs.deviceID(eventName: eventName),
            sysfsIdentity: sysfs.identity(eventName: eventName, node: node),
            databaseProperties: lookUp ? udev?.record(forNode: node)?.properties ?? [:] : [:],
            sysfsGroup: sysfs.group(eventName: eventName))
    }

    func wait() throws(PosixError) -> [Wakeup] {
        try Epoll.wait(epoll) { ready in
            switch ready.token {
            case Self.wakeToken:
                Epoll.drainCounter(raw: wakeFD)
                return .commands
            case Self.timerToken:
                Epoll.drainCounter(raw: timer.raw)
                return .timer
            case Self.discoveryToken: return .discovery
            case Self.libinputToken: return .libinput
            default: return tokens[ready.token].map { .device(node: $0) }
            }
        }
    }

    func arm(deadline: Int64?) throws(PosixError) {
        try Epoll.arm(timer, atMonotonicUsec: deadline)
    }

    func open(_ node: String) throws(PosixError) -> DeviceIdentity {
        close(node)
        let device = try EvdevDevice(opening: node)
        devices[node] = device
        return device.identity(node: node)
    }

    func watch(_ node: String) throws(PosixError) {
        guard let device = devices[node] else { throw PosixError(call: "watch(\(node))", errno: EBADF) }
        let token = nextToken
        nextToken += 1
        if let fd = device.fd {
            do {
                try Epoll.add(epoll, fd: fd.raw, token: token)
            } catch {
                devices[node] = nil
                throw error
            }
        }
        tokens[token] = node
        nodeTokens[node] = token
    }

    func addToLibinput(_ node: String) -> LibinputOutcome {
        let context: LibinputContext
        if let libinput {
            context = libinput
        } else {
            do {
                context = try LibinputContext()
                try Epoll.add(epoll, fd: context.fd, token: Self.libinputToken)
                libinput = context
            } catch {
                return .unavailable(reason: "\(error)")
            }
        }
        do {
            try context.add(node: node)
            inLibinput.insert(node)
            return .added
        } catch {
            return .failed(error)
        }
    }

    func close(_ node: String) {
        if let device = devices.removeValue(forKey: node) {
            try? device.setGrab(false)
            if let fd = device.fd, nodeTokens[node] != nil { Epoll.remove(epoll, fd: fd.raw) }
        }
        if let token = nodeTokens.removeValue(forKey: node) { tokens[token] = nil }
        if inLibinput.remove(node) != nil { libinput?.remove(node: node) }
    }

    func read(_ node: String) throws(PosixError) -> [EvdevReading]? {
        guard let device = devices[node], nodeTokens[node] != nil else { return nil }
        return try device.readAvailable()
    }

    func keysDown(_ node: String) -> Set<UInt16> {
        guard let device = devices[node] else { return [] }
        return device.fd.flatMap { KernelKeys.down(fd: $0.raw) } ?? device.keysDown()
    }

    func setGrab(_ node: String, _ grab: Bool) throws(PosixError) {
        guard let device = devices[node] else { throw PosixError(call: "libevdev_grab(\(node))", errno: EBADF) }
        try device.setGrab(grab)
    }

    func createPassthrough(_ node: String, _ spec: PassthroughSpec) throws(PosixError) -> String? {
        destroyPassthrough(node)
        let device = try UinputDevice(spec)
        passthroughs[node] = device
        return device.eventNode
    }

    func writePassthrough(_ node: String, _ frames: [[InputEvent]]) throws(PosixError) {
        try passthroughs[node]?.write(frames)
    }

    func destroyPassthrough(_ node: String) {
        passthroughs[node] = nil
    }

    func nodeExists(_ node: String) -> Bool { access(node, F_OK) == 0 }

    func dispatchLibinput() throws(PosixError) -> [InputCore.NodeGesture] {
        guard let libinput else { return [] }
        return try libinput.dispatch().map { InputCore.NodeGesture(node: $0.node, gesture: $0.gesture) }
    }

    func expireLibinput(now: Int64) -> [InputCore.NodeGesture] {
        guard let libinput else { return [] }
        return libinput.expire(now: now).map { InputCore.NodeGesture(node: $0.node, gesture: $0.gesture) }
    }

    var libinputDeadline: Int64? { libinput?.deadline }

    deinit {
        passthroughs = [:]
        for node in devices.keys { close(node) }
    }
}
