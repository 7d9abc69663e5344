// The input thread's state: the listed nodes and what happens on each kind of wake-up.
import Glibc
import InputMapping
import Logging
import SystemCalls

/// One node the loop knows about (listed, retried, ignored or read).
private final class NodeEntry {
    let node: String
    let id: String
    /// What was reported to the delegate; nil until listed.
    var listed: DeviceInfo?
    var info: DeviceInfo
    var evdev: EvdevDevice?
    var token: UInt64?
    var inLibinput = false
    var failures = 0
    var retryAt: Int64?
    var policyGrab: GrabMode = .shared
    var grabOverride: GrabMode?
    var properties: [String: String] = [:]
    var group: String?
    /// focusd's own virtual device: known so it is not reopened, never listed.
    var own = false
    /// The device was unplugged (ENODEV) and reported removed; the node itself has not been
    /// removed yet. Only its removal or a new node at the same path ends this.
    var gone = false

    init(node: String, id: String) {
        self.node = node
        self.id = id
        let name = node.split(separator: "/").last.map(String.init) ?? node
        info = DeviceInfo(id: id, identity: DeviceIdentity(name: name, node: node))
    }

    var isOpen: Bool { evdev != nil || inLibinput }
    var wantedGrab: GrabMode { grabOverride ?? policyGrab }
}

/// The loop's state and handlers; used only on the loop thread (built on the starting one).
final class LoopCore {
    private static let wakeToken: UInt64 = 0
    private static let timerToken: UInt64 = 1
    private static let discoveryToken: UInt64 = 2
    private static let libinputToken: UInt64 = 3

    private let configuration: InputLoopConfiguration
    private let delegate: any InputLoopDelegate
    private let logger = Logger(label: "focusd.input")
    private let epoll: FileDescriptor
    private let timer: FileDescriptor
    private let wakeFD: Int32
    private let udev: UdevMonitor?
    private let inotify: InotifyWatcher?
    private var libinput: LibinputContext?
    private let sysfs: Sysfs
    private let schedule: RetrySchedule
    private var entries: [String: NodeEntry] = [:]
    private var tokens: [UInt64: String] = [:]
    private var nextToken: UInt64 = 16
    private var armedDeadline: Int64?
    private var running = true
    private let takeCommands: () -> [LoopCommand]
    private let publish: ([DeviceInfo]) -> Void
    private let countWakeup: () -> Void

    /// Subscribes to discovery (udev monitor or inotify) before anything is enumerated.
    init(
        configuration: InputLoopConfiguration, delegate: any InputLoopDelegate, wakeFD: Int32,
        takeCommands: @escaping () -> [LoopCommand], publish: @escaping ([DeviceInfo]) -> Void,
        countWakeup: @escaping () -> Void
    ) throws(PosixError) {
        self.configuration = configuration
        self.delegate = delegate
        self.wakeFD = wakeFD
        self.takeCommands = takeCommands
        self.publish = publish
        self.countWakeup = countWakeup
        sysfs = Sysfs(root: configuration.sysfsRoot)
        schedule = RetrySchedule(delaysUsec: configuration.retryDelaysUsec)
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

    /// Enumerates, then serves wake-ups until shutdown; then ungrabs and closes everything.
    func run() {
        logger.info("input loop started", metadata: ["discovery": "\(udev != nil ? "udev" : "inotify")"])
        enumerate()
        rearmTimer()
        publishSnapshot()
        while running {
            let ready: [Epoll.Ready]
            do {
                ready = try Epoll.wait(epoll)
            } catch {
                logger.critical("epoll_wait failed, input loop stops", metadata: ["error": "\(error)"])
                break
            }
            countWakeup()
            for event in ready { handle(token: event.token) }
            rearmTimer()
            publishSnapshot()
        }
        for node in entries.keys.sorted() { forget(node) }
        publishSnapshot()
        logger.info("input loop stopped")
    }

    private func handle(token: UInt64) {
        switch token {
        case Self.wakeToken:
            Epoll.drainCounter(raw: wakeFD)
            for command in takeCommands() { perform(command) }
        case Self.timerToken:
            Epoll.drainCounter(raw: timer.raw)
            timerFired()
        case Self.discoveryToken:
            discoveryReady()
        case Self.libinputToken:
            libinputReady()
        default:
            if let node = tokens[token] { deviceReady(node) }
        }
    }

    // MARK: discovery

    private func enumerate() {
        if let udev {
            do {
                for record in try udev.enumerate() { consider(record.node, record: record, as: .enumerated) }
            } catch {
                logger.error("udev enumeration failed", metadata: ["error": "\(error)"])
            }
        } else if let inotify {
            for name in inotify.enumerate() { consider(inotify.path(of: name), record: nil, as: .enumerated) }
        }
    }

    private func discoveryReady() {
        if let udev {
            for record in udev.receive() {
                switch record.action {
                case "remove": forget(record.node)
                case "change": consider(record.node, record: record, as: .changed)
                default: consider(record.node, record: record, as: .created)
                }
            }
        } else if let inotify {
            let changes: [DirectoryChange]
            do {
                changes = try inotify.readChanges()
            } catch {
                logger.error("inotify read failed", metadata: ["error": "\(error)"])
                return
            }
            for change in changes {
                switch change {
                case .appeared(let name): consider(inotify.path(of: name), record: nil, as: .created)
                case .attributesChanged(let name): consider(inotify.path(of: name), record: nil, as: .changed)
                case .removed(let name): forget(inotify.path(of: name))
                case .directoryAppeared:
                    for name in inotify.enumerate() { consider(inotify.path(of: name), record: nil, as: .enumerated) }
                case .directoryRemoved:
                    for node in entries.keys.sorted() where node.hasPrefix(inotify.directory + "/") { forget(node) }
                }
            }
        }
    }

    /// How discovery saw a node.
    private enum Sighting {
        /// Listed at start (or when the directory appeared).
        case enumerated
        /// udev `add`, inotify IN_CREATE / IN_MOVED_TO.
        case created
        /// udev `change`, inotify IN_ATTRIB, or a node given by hand.
        case changed
    }

    /// A node was seen: list and open it if new, try again if it is waiting for a retry,
    /// otherwise nothing (the same node enumerated and reported is listed once).
    private func consider(_ node: String, record: UdevRecord?, as sighting: Sighting) {
        if let entry = entries[node] {
            if entry.gone {
                // An unplugged device's node: only a new node at this path revives it.
                guard sighting == .created else { return }
                entries[node] = nil
            } else {
                // New udev properties (rules ran after we enumerated, a rule now sets
                // FOCUSD_IGNORE or ID_INPUT_*) mean deciding again.
                let changed = record.map { $0.properties != entry.properties } ?? false
                if let record {
                    entry.properties = record.properties
                    entry.group = record.group ?? entry.group
                }
                guard !entry.own else { return }
                if changed {
                    closeForReopen(entry)
                    attempt(entry)
                } else if sighting == .changed && !entry.isOpen {
                    attempt(entry)
                }
                return
            }
        }
        let eventName = node.split(separator: "/").last.map(String.init) ?? node
        let entry = NodeEntry(node: node, id: sysfs.deviceID(eventName: eventName))
        entry.properties = record?.properties ?? udev?.record(forNode: node)?.properties ?? [:]
        entry.group = record?.group ?? sysfs.group(eventName: eventName)
        if let known = sysfs.identity(eventName: eventName, node: node) { entry.info.identity = known }
        entry.info.identity.udevProperties = entry.properties
        entry.info.identity.group = entry.group
        entries[node] = entry
        attempt(entry)
        reconsiderSiblings(of: entry)
    }

    /// The identities of the other listed nodes of `entry`'s physical device (same group).
    private func siblings(of entry: NodeEntry) -> [DeviceIdentity] {
        guard let group = entry.group else { return [] }
        return entries.values.filter { $0 !== entry && !$0.gone && !$0.own && $0.group == group }
            .sorted { $0.node < $1.node }.map(\.info.identity)
    }

    /// A new node can make a `siblings = true` profile apply to the nodes already listed beside
    /// it (a keyboard's media-key node is often enumerated first): those whose profile changes
    /// are opened again under their new policy.
    private func reconsiderSiblings(of entry: NodeEntry) {
        guard let group = entry.group else { return }
        for node in entries.keys.sorted() {
            guard let other = entries[node], other !== entry, !other.gone, !other.own, other.group == group else { continue }
            let policy = configuration.policy(other.info.identity, siblings(of: other))
            guard policy.profile != other.info.profile else { continue }
            closeForReopen(other)
            other.failures = 0
            attempt(other)
        }
    }

    /// Opens (or reopens) a listed node under its policy; failures are listed as its problem.
    private func attempt(_ entry: NodeEntry) {
        entry.retryAt = nil
        entry.info.identity.udevProperties = entry.properties
        entry.info.identity.group = entry.group
        if isOwn(entry.info.identity) {
            entry.own = true
            return
        }
        if entry.properties["FOCUSD_IGNORE"] == "1" {
            return list(entry, problem: "ignored: FOCUSD_IGNORE=1 set by udev")
        }
        let earlyPolicy = configuration.policy(entry.info.identity, siblings(of: entry))
        if let reason = earlyPolicy.ignoreReason {
            entry.info.profile = earlyPolicy.profile
            return list(entry, problem: "ignored: \(reason)")
        }
        let device: EvdevDevice
        do {
            device = try EvdevDevice(opening: entry.node)
        } catch {
            return failed(entry, error)
        }
        var identity = device.identity(node: entry.node)
        identity.udevProperties = entry.properties
        identity.group = entry.group
        entry.info.identity = identity
        if isOwn(identity) {
            entry.own = true
            return
        }
        let policy = configuration.policy(identity, siblings(of: entry))
        entry.info.profile = policy.profile
        entry.info.reasons = policy.reasons
        entry.policyGrab = policy.grab
        if let reason = policy.ignoreReason { return list(entry, problem: "ignored: \(reason)") }
        entry.failures = 0
        let deviceClass = policy.deviceClass ?? configuration.classify(identity)
        entry.info.deviceClass = deviceClass
        // `other` (input.md §2) is listed with its reasons and not read; its grab is `none`.
        if policy.grab == .none {
            return list(entry, problem: deviceClass == .other
                ? "not read: class other is not a navigation device" : "not read: grab = \"none\"")
        }
        let backend: Backend
        switch chooseBackend(deviceClass, forced: policy.backend) {
        case .read(let chosen): backend = chosen
        case .unusable(let problem):
            logger.warning("device is a \(deviceClass.rawValue) and cannot be used: \(problem)", metadata: ["id": "\(entry.id)"])
            return list(entry, problem: problem)
        }
        entry.info.backend = backend
        logger.info("device is a \(deviceClass.rawValue), read with \(backend.rawValue)", metadata: ["id": "\(entry.id)", "name": "\(identity.name)"])
        if backend == .libinput, let libinput {
            do {
                try libinput.add(node: entry.node)
                entry.inLibinput = true
                return list(entry, problem: nil)
            } catch {
                return failed(entry, error)
            }
        }
        let token = nextToken
        nextToken += 1
        if let fd = device.fd {
            do {
                try Epoll.add(epoll, fd: fd.raw, token: token)
            } catch {
                return failed(entry, error)
            }
        }
        entry.evdev = device
        entry.token = token
        tokens[token] = entry.node
        list(entry, problem: nil)
        applyGrab(entry)
        // Events may have queued before the descriptor joined epoll's interest list: read them.
        deviceReady(entry.node)
    }

    /// The one place that picks a device's reader (`BackendChoice`): libinput for touch surfaces
    /// when udevd runs (its path backend needs the udev database), libevdev for everything else.
    /// Without udevd a touch surface is listed with a problem, not read (libevdev gives it nothing).
    private func chooseBackend(_ deviceClass: DeviceClass, forced: Backend?) -> BackendChoice {
        let choice = BackendChoice.decide(deviceClass, forced: forced, udevRuns: udev != nil)
        guard choice == .read(.libinput), libinput == nil else { return choice }
        do {
            let context = try LibinputContext()
            try Epoll.add(epoll, fd: context.fd, token: Self.libinputToken)
            libinput = context
            return choice
        } catch {
            logger.error("libinput unavailable", metadata: ["error": "\(error)"])
            return .unusable(problem: "libinput unavailable: \(error)")
        }
    }

    private func isOwn(_ identity: DeviceIdentity) -> Bool {
        identity.name.hasPrefix(configuration.ownDevicePrefix) || identity.udevProperties["FOCUSD_VIRTUAL"] == "1"
    }

    /// An open failed: gone nodes are forgotten, others listed with the error and retried.
    private func failed(_ entry: NodeEntry, _ error: PosixError) {
        if error.isGone && access(entry.node, F_OK) != 0 { return forget(entry.node) }
        entry.failures += 1
        entry.retryAt = schedule.nextAttempt(afterFailures: entry.failures, now: Posix.monotonicUsec())
        let problem = error.isPermissionDenied ? "permission denied: \(error)" : "cannot open: \(error)"
        // Say what to do, not only what failed (retried on the node's next change either way).
        let remedy =
            error.isPermissionDenied
            ? "give focusd read access: install udev/70-focusd.rules (group focusd, mode 0660) and run focusd in group focusd or input"
            : "retrying on the node's next change; check that it is an evdev node (udevadm info \(entry.node))"
        logger.notice(
            "device not usable yet: \(remedy)", metadata: ["node": "\(entry.node)", "problem": "\(problem)"])
        list(entry, problem: problem)
    }

    /// Reports the entry as added (first time) or changed (when what the delegate saw differs).
    private func list(_ entry: NodeEntry, problem: String?) {
        entry.info.problem = problem
        report(entry)
    }

    private func report(_ entry: NodeEntry) {
        entry.info.grabbed = entry.evdev?.isGrabbed ?? false
        guard entry.listed != entry.info else { return }
        let first = entry.listed == nil
        entry.listed = entry.info
        if first { delegate.deviceAdded(entry.info) } else { delegate.deviceChanged(entry.info) }
    }

    /// Closes a node's readers (ungrabbing first), keeping it listed.
    private func close(_ entry: NodeEntry) {
        if let device = entry.evdev {
            try? device.setGrab(false)
            if let fd = device.fd { Epoll.remove(epoll, fd: fd.raw) }
            entry.evdev = nil
        }
        if let token = entry.token { tokens[token] = nil }
        entry.token = nil
        if entry.inLibinput { libinput?.remove(node: entry.node) }
        entry.inLibinput = false
    }

    /// Closes a node that stays listed and will be reopened: the delegate first gets a resync with
    /// nothing down, so it releases what the device held.
    private func closeForReopen(_ entry: NodeEntry) {
        guard entry.isOpen else { return }
        if entry.listed != nil { delegate.resync(id: entry.id, keysDown: [], absValues: [:]) }
        close(entry)
    }

    /// Closes and unlists a node; the delegate releases what it held.
    private func forget(_ node: String) {
        guard let entry = entries.removeValue(forKey: node) else { return }
        close(entry)
        if entry.listed != nil && !entry.gone { delegate.deviceRemoved(id: entry.id) }
    }

    /// The device behind a node was unplugged (ENODEV) before discovery said so: report it
    /// removed now and keep a tombstone until the node's removal arrives.
    private func unplugged(_ entry: NodeEntry) {
        close(entry)
        entry.retryAt = nil
        if entry.listed != nil && !entry.gone { delegate.deviceRemoved(id: entry.id) }
        entry.gone = true
    }

    // MARK: reading

    private func deviceReady(_ node: String) {
        guard let entry = entries[node], let device = entry.evdev else { return }
        let readings: [EvdevReading]
        do {
            readings = try device.readAvailable()
        } catch {
            if error.isGone { return unplugged(entry) }
            closeForReopen(entry)
            return failed(entry, error)
        }
        for reading in readings {
            switch reading {
            case .frame(let events): delegate.frame(id: entry.id, events: events)
            case .resync(let keys, let abs): delegate.resync(id: entry.id, keysDown: keys, absValues: abs)
            }
        }
        if !readings.isEmpty { applyGrab(entry) }
    }

    /// Takes or drops EVIOCGRAB as wanted, deferring a grab while a key is down (EVIOCGKEY).
    private func applyGrab(_ entry: NodeEntry) {
        guard let device = entry.evdev else { return }
        let wanted = entry.wantedGrab
        guard (wanted == .exclusive) != device.isGrabbed else { return }
        // The kernel's state, not libevdev's copy: a key-up still queued for us has already reached
        // every other reader, and a key pressed since our last read has not reached us yet.
        let keys = wanted == .exclusive ? (device.fd.flatMap { KernelKeys.down(fd: $0.raw) } ?? device.keysDown()) : []
        switch GrabAction.decide(wanted: wanted, grabbed: device.isGrabbed, keysDown: keys) {
        case .grab, .ungrab:
            do {
                try device.setGrab(wanted == .exclusive)
                if entry.info.problem?.hasPrefix("grab failed") == true { entry.info.problem = nil }
            } catch {
                entry.info.problem = "grab failed: \(error)"
            }
            report(entry)
        case .wait, .nothing:
            break
        }
    }

    private func libinputReady() {
        guard let libinput else { return }
        do {
            deliver(try libinput.dispatch())
        } catch {
            logger.error("libinput dispatch failed", metadata: ["error": "\(error)"])
        }
    }

    private func deliver(_ gestures: [(node: String, gesture: Gesture)]) {
        for (node, gesture) in gestures {
            if let entry = entries[node] { delegate.gesture(id: entry.id, gesture: gesture) }
        }
    }

    // MARK: timer and commands

    private func timerFired() {
        let now = Posix.monotonicUsec()
        for node in entries.keys.sorted() {
            if let entry = entries[node], let at = entry.retryAt, at <= now { attempt(entry) }
        }
        if let libinput { deliver(libinput.expire(now: now)) }
    }

    /// Arms the timer for the earliest retry or gesture deadline; disarmed when there is none.
    private func rearmTimer() {
        let deadline = (entries.values.compactMap(\.retryAt) + [libinput?.deadline].compactMap { $0 }).min()
        guard deadline != armedDeadline else { return }
        do {
            try Epoll.arm(timer, atMonotonicUsec: deadline)
            armedDeadline = deadline
        } catch {
            logger.error("timerfd_settime failed", metadata: ["error": "\(error)"])
        }
    }

    private func perform(_ command: LoopCommand) {
        switch command {
        case .addNode(let node):
            consider(node, record: nil, as: .changed)
        case .removeNode(let node):
            forget(node)
        case .setGrab(let id, let mode):
            guard let entry = entries.values.first(where: { $0.id == id && !$0.gone }) else { return }
            entry.grabOverride = mode
            applyGrab(entry)
        case .reapplyPolicies:
            for node in entries.keys.sorted() {
                guard let entry = entries[node], !entry.own, !entry.gone else { continue }
                closeForReopen(entry)
                entry.failures = 0
                attempt(entry)
            }
        case .readPending(let id):
            if let entry = entries.values.first(where: { $0.id == id && !$0.gone }), entry.evdev != nil {
                deviceReady(entry.node)
            }
            delegate.pendingRead(id: id)
        case .shutdown:
            running = false
        }
    }

    private func publishSnapshot() {
        publish(entries.values.filter { !$0.gone }.compactMap(\.listed).sorted { $0.node < $1.node })
    }
}
