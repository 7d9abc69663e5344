// The input thread's decisions as a pure state machine: events in, actions and a deadline out.
//
// No system calls, no threads, no clocks: the loop (`LoopCore`) reads the clock, carries each
// action out through the kernel (`InputKernel`) and feeds the outcome back as the next event,
// depth first, so the core sees the result of an open before anything else happens to the node.
// Tests drive it with events and a virtual time (InputCoreTests).
import InputMapping
import Logging
import SystemCalls

/// How discovery saw a node.
enum Sighting: Equatable, Sendable {
    /// Listed at start (or when the directory appeared).
    case enumerated
    /// udev `add`, inotify IN_CREATE / IN_MOVED_TO.
    case created
    /// udev `change`, inotify IN_ATTRIB, or a node given by hand.
    case changed
}

/// A node as discovery reports it, with what can be known about it before opening it.
struct NodeSighting: Equatable, Sendable {
    var node: String
    var kind: Sighting
    /// udev's record of the node (udev discovery); nil from inotify or for a node given by hand.
    var udev: UdevFacts?
    /// Stable id (sysfs `inputN-eventM`, else the node's name).
    var id: String
    /// Name, ids and group read from sysfs, when it has the node.
    var sysfsIdentity: DeviceIdentity?
    /// Properties from udev's database when there is no record (a node given by hand).
    var databaseProperties: [String: String] = [:]
    /// The physical device (sysfs parent) when there is no record.
    var sysfsGroup: String?

    /// The part of a udev record the core decides on.
    struct UdevFacts: Equatable, Sendable {
        var properties: [String: String]
        var group: String?
    }
}

/// The state of every node the input thread knows, and what to do on each event.
final class InputCore {
    /// Something happened: discovery, the outcome of an action, the timer or a command.
    enum Event: Equatable, Sendable {
        case sighted(NodeSighting)
        /// udev `remove`, inotify IN_DELETE / IN_MOVED_FROM.
        case removed(node: String)
        /// The watched directory itself went away: every node under `prefix` goes with it.
        case directoryRemoved(prefix: String)
        /// `open` succeeded: the node's identity as the device reports it.
        case opened(node: String, identity: DeviceIdentity)
        /// `open`, `watch` or `addToLibinput` failed; `vanished`: the node no longer exists.
        /// Nothing is left open for the node.
        case openFailed(node: String, PosixError, vanished: Bool)
        /// `addToLibinput` failed because libinput itself cannot be used.
        case libinputUnavailable(node: String, reason: String)
        /// `watch` or `addToLibinput` succeeded: the node is read.
        case reading(node: String)
        case readings(node: String, [EvdevReading])
        /// A read's frames whose pass-through keys are written (after `mapReadings`): now mapped.
        case mapping(node: String, [EvdevReading])
        case readFailed(node: String, PosixError)
        /// The kernel's keys down on the node (answer to `queryKeys`).
        case keysDown(node: String, Set<UInt16>)
        case grabSet(node: String, grabbed: Bool)
        case grabFailed(node: String, PosixError)
        /// `createPassthrough` succeeded: the event node of the new uinput device (nil when
        /// the kernel did not name one).
        case passthroughCreated(node: String, eventNode: String?)
        /// `createPassthrough` failed (no /dev/uinput, no permission): the device works without.
        case passthroughFailed(node: String, PosixError)
        case gestures([NodeGesture])
        case timerFired
        /// A device mapper's timer is due (after the device's pending input was read).
        case mapperTimer(id: String)
        case command(LoopCommand)
    }

    /// A gesture libinput recognised on a node.
    struct NodeGesture: Equatable, Sendable {
        var node: String
        var gesture: Gesture
    }

    /// What the loop must do, in order.
    enum Action: Equatable, Sendable {
        /// Open the node with libevdev (answer: `opened` or `openFailed`).
        case open(node: String)
        /// Add the opened node's descriptor to the wait set (answer: `reading` or `openFailed`).
        case watch(node: String)
        /// Hand the node to libinput instead (answer: `reading`, `openFailed` or `libinputUnavailable`).
        case addToLibinput(node: String)
        /// Ungrab, stop watching and close everything held for the node (no answer).
        case close(node: String)
        /// Read what the node has now (answer: `readings` or `readFailed`).
        case read(node: String)
        /// Ask the kernel which keys are down (answer: `keysDown`).
        case queryKeys(node: String)
        /// EVIOCGRAB on or off (answer: `grabSet` or `grabFailed`).
        case setGrab(node: String, Bool)
        /// Create the node's pass-through uinput device (answer: `passthroughCreated` or
        /// `passthroughFailed`).
        case createPassthrough(node: String, PassthroughSpec)
        /// Write these frames to the node's pass-through device, each followed by a SYN_REPORT,
        /// all in one write(2).
        case writePassthrough(node: String, frames: [[InputEvent]])
        /// Feed `.mapping(node, readings)` back once the actions before this one are done: a
        /// read's frames are mapped after their pass-through keys are written.
        case mapReadings(node: String, [EvdevReading])
        /// Destroy the node's pass-through device (no answer).
        case destroyPassthrough(node: String)
        case report(Report)
        /// Feed `.mapperTimer(id)` back once the actions before this one are done.
        case fireMapperTimer(id: String)
        case log(Logger.Level, String, [String: String])
        /// Leave the loop: everything is closed and reported removed.
        case stop
    }

    /// A call of the `InputLoopDelegate`.
    enum Report: Equatable, Sendable {
        case added(DeviceInfo)
        case changed(DeviceInfo)
        case removed(id: String)
        case pendingRead(id: String)
        /// A frame (nil for a gesture, resync, timer or release) and the commands its device's
        /// mapper made of it, in one report.
        case mapped(id: String, frame: [InputEvent]?, [MappedCommand])
        /// A `lend` or `reclaim` command is done (the device is ungrabbed, or taken back as at
        /// plug-in); `id` nil: no such device.
        case lendDone(token: Int, id: String?)
    }

    /// How a node is read once open.
    private enum Reader: Equatable {
        /// Opened to decide; not yet read.
        case deciding
        case evdev
        case libinput
    }

    /// One node the core knows about (listed, retried, ignored or read).
    private final class NodeEntry {
        let node: String
        /// Its sysfs id, or the former id of the same device back within ten minutes.
        var id: String
        /// What was reported to the delegate; nil until listed.
        var listed: DeviceInfo?
        var info: DeviceInfo
        var reader: Reader?
        var grabbed = false
        var failures = 0
        var retryAt: Int64?
        var policyGrab: GrabMode = .shared
        /// The profile settings of its last decision (`DevicePolicy.settings`), for its mapper.
        var settings: DeviceSettings?
        var grabOverride: GrabMode?
        var properties: [String: String] = [:]
        var group: String?
        /// focusd's own virtual device: known so it is not reopened, never listed.
        var own = false
        /// The device was unplugged (ENODEV) and reported removed; the node itself has not been
        /// removed yet. Only its removal or a new node at the same path ends this.
        var gone = false
        /// Read at least once: the key that woke a remote is looked for only at the first read.
        var everRead = false
        /// The first read's key check is pending (remotes and pads, input.md §11).
        var wakeCheck = false
        /// Keys whose press was made from EVIOCGKEY at open: their queued press is not sent again.
        var wakeHeld: Set<UInt16> = []
        /// The pass-through device's keys and what it holds, while it exists.
        var passthrough: PassthroughKeys?
        /// Keys of a pass-through device being created.
        var pendingPassthrough: Set<UInt16>?

        init(node: String, id: String) {
            self.node = node
            self.id = id
            let name = node.split(separator: "/").last.map(String.init) ?? node
            info = DeviceInfo(id: id, identity: DeviceIdentity(name: name, node: node))
        }

        var isOpen: Bool { reader != nil }
        var wantedGrab: GrabMode { info.lent ? .shared : grabOverride ?? policyGrab }
    }

    private let configuration: InputLoopConfiguration
    private let udevRuns: Bool
    private let schedule: RetrySchedule
    private var entries: [String: NodeEntry] = [:]
    private var actions: [Action] = []
    private var now: Int64 = 0
    private var wallNow: Int64 = 0
    private var context = FocusContext()
    /// Every read device's mapper: what a device does reaches the delegate as its commands.
    private let mappers: DeviceMappers
    /// New nodes whose siblings are reconsidered once the node is decided (opened and read,
    /// ignored or failed): the policy needs the identity the device reports.
    private var siblingChecks: [NodeEntry] = []
    /// A `shutdown` command was handled (or `stop` was asked): every node is closed.
    private(set) var stopped = false
    /// Counts the changes of `devices`, so the loop publishes the list only when it changed (a
    /// frame changes nothing in it). Bumped where a listed entry's record is set (`report`) and
    /// where a listed entry leaves the list (`forget`, `unplugged`); nothing else changes it:
    /// unlisted and gone entries are not in it, and it holds `listed`, not `info`.
    private(set) var listVersion = 0
    /// The event nodes of focusd's own pass-through devices, until their removal is seen: never
    /// opened, never listed (recognised by node, and by name as a fallback).
    private var ownNodes: Set<String> = []
    /// Ids of devices that left, for one that comes back (input.md §11).
    private var formerIDs = FormerIDs()
    /// Ids lent with `Lend` and not reclaimed: a lent device that leaves and comes back under
    /// its former id is still lent.
    private var lentIDs: Set<String> = []

    /// - Parameter udevRuns: discovery is udev's (libinput's path backend needs its database).
    init(configuration: InputLoopConfiguration, udevRuns: Bool) {
        self.configuration = configuration
        self.udevRuns = udevRuns
        schedule = RetrySchedule(delaysUsec: configuration.retryDelaysUsec)
        mappers = DeviceMappers(settings: configuration.mapping)
    }

    /// Handles one event at the monotonic time `now` (µs) and returns what to do, in order.
    /// `wallNow` (CLOCK_REALTIME µs, the kernel's event stamps) and the focus context are for
    /// the device mappers.
    func handle(_ event: Event, now: Int64, wallNow: Int64 = 0, context: FocusContext = FocusContext()) -> [Action] {
        self.now = now
        self.wallNow = wallNow
        self.context = context
        actions = []
        guard !stopped else { return [] }
        switch event {
        case .sighted(let sighting): consider(sighting)
        case .removed(let node): forget(node)
        case .directoryRemoved(let prefix):
            for node in entries.keys.sorted() where node.hasPrefix(prefix + "/") { forget(node) }
        case .opened(let node, let identity): if let entry = entries[node] { decide(entry, identity: identity) }
        case .openFailed(let node, let error, let vanished):
            if let entry = entries[node] {
                entry.reader = nil
                failed(entry, error, vanished: vanished)
            }
        case .libinputUnavailable(let node, let reason):
            if let entry = entries[node] {
                entry.reader = nil
                log(.error, "libinput unavailable", ["error": reason])
                list(entry, problem: "libinput unavailable: \(reason)")
            }
        case .reading(let node): if let entry = entries[node] { startedReading(entry) }
        case .readings(let node, let readings): if let entry = entries[node] { deliver(readings, of: entry) }
        case .mapping(let node, let readings): if let entry = entries[node], entry.reader == .evdev { map(readings, of: entry) }
        case .readFailed(let node, let error): if let entry = entries[node] { readFailed(entry, error) }
        case .keysDown(let node, let keys):
            if let entry = entries[node] {
                if entry.wakeCheck { pressWakeKeys(entry, keysDown: keys) }
                grabIfFree(entry, keysDown: keys)
            }
        case .grabSet(let node, let grabbed):
            if let entry = entries[node], entry.reader == .evdev {
                entry.grabbed = grabbed
                if entry.info.problem?.hasPrefix("grab failed") == true { entry.info.problem = nil }
                if !grabbed { dropPassthrough(entry) }
                // The grab is reported at once (clients see it before the pass-through device
                // exists); the pass-through device's answer reports its node.
                report(entry)
                if grabbed { startPassthrough(entry) }
            }
        case .passthroughCreated(let node, let eventNode):
            if let entry = entries[node], let keys = entry.pendingPassthrough {
                entry.pendingPassthrough = nil
                entry.passthrough = PassthroughKeys(keys: keys)
                entry.info.passthrough = eventNode
                if let eventNode { adoptOwn(eventNode) }
                log(.info, "pass-through device created", ["id": entry.id, "node": eventNode ?? "?", "keys": "\(keys.count)"])
                report(entry)
            }
        case .passthroughFailed(let node, let error):
            if let entry = entries[node], entry.pendingPassthrough != nil {
                entry.pendingPassthrough = nil
                log(.warning, "no pass-through device: the device's unmapped keys do not reach the system (focusd needs rw access to /dev/uinput)", ["id": entry.id, "error": "\(error)"])
                report(entry)
            }
        case .grabFailed(let node, let error):
            if let entry = entries[node], entry.reader == .evdev {
                entry.info.problem = "grab failed: \(error)"
                report(entry)
            }
        case .gestures(let gestures):
            for item in gestures {
                guard let entry = entries[item.node] else { continue }
                mapped(entry.id, frame: nil, mappers.gesture(entry.id, item.gesture, now: now, context: context))
            }
        case .timerFired:
            for node in entries.keys.sorted() {
                if let entry = entries[node], let at = entry.retryAt, at <= now { attempt(entry) }
            }
            // A due repeat first reads what the device holds: a key-up still in the kernel's
            // buffer (focusd was stopped or starved) ends the hold before the repeat would fire.
            for id in mappers.due(at: now) {
                if let entry = entries.values.first(where: { $0.id == id && !$0.gone }), entry.reader == .evdev {
                    actions.append(.read(node: entry.node))
                }
                actions.append(.fireMapperTimer(id: id))
            }
        case .mapperTimer(let id):
            mapped(id, frame: nil, mappers.tick(id, now: now))
        case .command(let command): perform(command)
        }
        return finishHandling()
    }

    /// What every event ends with: reconsider the siblings of nodes just decided; the actions.
    private func finishHandling() -> [Action] {
        let decided = siblingChecks.filter { $0.reader != .deciding }
        siblingChecks.removeAll { $0.reader != .deciding }
        for entry in decided where entries[entry.node] === entry { reconsiderSiblings(of: entry) }
        return actions
    }

    /// The earliest timed reopen attempt or mapper timer (monotonic µs), nil when there is none.
    /// (Asked after every wake-up: no allocation.)
    var deadline: Int64? {
        var earliest = mappers.nextDeadline
        for entry in entries.values { earliest = earlier(earliest, entry.retryAt) }
        return earliest
    }

    /// The devices listed now, by node (for `ListDevices`).
    var devices: [DeviceInfo] {
        entries.values.filter { !$0.gone }.compactMap(\.listed).sorted { $0.node < $1.node }
    }

    /// The listed device with this id now, if any.
    private func listedEntry(_ id: String) -> NodeEntry? {
        entries.values.first { $0.id == id && !$0.gone && !$0.own && $0.listed != nil }
    }

    /// The device listed under `id` now.
    func device(id: String) -> DeviceInfo? { listedEntry(id)?.listed }

    /// Whether `node` is known (listed, ignored, retried or own).
    func knows(_ node: String) -> Bool { entries[node] != nil }

    // MARK: discovery

    /// A node was seen: list and open it if new, try again if it is waiting for a retry,
    /// otherwise nothing (the same node enumerated and reported is listed once).
    private func consider(_ sighting: NodeSighting) {
        let node = sighting.node
        if let entry = entries[node] {
            if entry.gone {
                // An unplugged device's node: only a new node at this path revives it.
                guard sighting.kind == .created else { return }
                entries[node] = nil
            } else {
                // New udev properties (rules ran after we enumerated, a rule now sets
                // FOCUSD_IGNORE or ID_INPUT_*) mean deciding again.
                let changed = sighting.udev.map { $0.properties != entry.properties } ?? false
                if let record = sighting.udev {
                    entry.properties = record.properties
                    entry.group = record.group ?? entry.group
                }
                guard !entry.own else { return }
                if changed {
                    closeForReopen(entry)
                    attempt(entry)
                } else if sighting.kind == .changed && !entry.isOpen {
                    attempt(entry)
                }
                return
            }
        }
        let entry = NodeEntry(node: node, id: sighting.id)
        entry.properties = sighting.udev?.properties ?? sighting.databaseProperties
        entry.group = sighting.udev?.group ?? sighting.sysfsGroup
        if ownNodes.contains(node) {
            // One of focusd's pass-through devices: known, never opened, never listed.
            entry.own = true
            entries[node] = entry
            return
        }
        if let known = sighting.sysfsIdentity {
            entry.info.identity = known
            takeFormerID(entry, known)
        }
        entry.info.identity.udevProperties = entry.properties
        entry.info.identity.group = entry.group
        entries[node] = entry
        attempt(entry)
        siblingChecks.append(entry)
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

    // MARK: opening

    /// Opens (or reopens) a listed node under its policy; failures are listed as its problem.
    private func attempt(_ entry: NodeEntry) {
        entry.retryAt = nil
        // A lent device stays closed until it is reclaimed (input.md §11).
        guard !entry.info.lent else { return }
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
        entry.reader = .deciding
        actions.append(.open(node: entry.node))
    }

    /// The node is open: decide, from its own identity, whether and how to read it.
    private func decide(_ entry: NodeEntry, identity reported: DeviceIdentity) {
        guard entry.reader == .deciding else { return }
        var identity = reported
        identity.udevProperties = entry.properties
        identity.group = entry.group
        entry.info.identity = identity
        // Without sysfs the device's own answer is the first chance to know it came back.
        if entry.listed == nil {
            takeFormerID(entry, identity)
            if entry.info.lent {
                // Back while lent: listed, left closed until it is reclaimed.
                closeDeciding(entry)
                return list(entry, problem: nil)
            }
        }
        if isOwn(identity) {
            entry.own = true
            return closeDeciding(entry)
        }
        let policy = configuration.policy(identity, siblings(of: entry))
        entry.info.profile = policy.profile
        entry.info.reasons = policy.reasons
        entry.policyGrab = policy.grab
        entry.settings = policy.settings
        entry.info.crownWraps = policy.settings?.rotary.wrap ?? false
        if let reason = policy.ignoreReason {
            closeDeciding(entry)
            return list(entry, problem: "ignored: \(reason)")
        }
        entry.failures = 0
        let deviceClass = policy.deviceClass ?? configuration.classify(identity)
        entry.info.deviceClass = deviceClass
        // `other` (input.md §2) is listed with its reasons and not read; its grab is `none`.
        if policy.grab == .none {
            closeDeciding(entry)
            return list(entry, problem: deviceClass == .other
                ? "not read: class other is not a navigation device" : "not read: grab = \"none\"")
        }
        switch BackendChoice.decide(deviceClass, forced: policy.backend, udevRuns: udevRuns) {
        case .unusable(let problem):
            closeDeciding(entry)
            log(.warning, "device is a \(deviceClass.rawValue) and cannot be used: \(problem)", ["id": entry.id])
            list(entry, problem: problem)
        case .read(let backend):
            entry.info.backend = backend
            log(.info, "device is a \(deviceClass.rawValue), read with \(backend.rawValue)", ["id": entry.id, "name": identity.name])
            if backend == .libinput {
                closeDeciding(entry)
                entry.reader = .deciding
                actions.append(.addToLibinput(node: entry.node))
            } else {
                actions.append(.watch(node: entry.node))
            }
        }
    }

    /// Closes a node opened only to decide.
    private func closeDeciding(_ entry: NodeEntry) {
        entry.reader = nil
        actions.append(.close(node: entry.node))
    }

    /// `watch` or `addToLibinput` succeeded: list the device, grab it if wanted, and read what
    /// queued before the descriptor joined the wait set.
    private func startedReading(_ entry: NodeEntry) {
        guard entry.reader == .deciding else { return }
        entry.reader = entry.info.backend == .libinput ? .libinput : .evdev
        list(entry, problem: nil)
        guard entry.reader == .evdev else { return }
        // The key that woke a remote (input.md §11): a Bluetooth remote reconnects on a press
        // that arrives before anyone has the new node open. EVIOCGKEY is asked before the first
        // read; the answer presses the mapped keys down and decides the grab.
        let wakes = entry.info.deviceClass == .remote || entry.info.deviceClass == .gamepad
        if !entry.everRead && wakes {
            entry.wakeCheck = true
            actions.append(.queryKeys(node: entry.node))
        } else {
            applyGrab(entry)
        }
        entry.everRead = true
        actions.append(.read(node: entry.node))
    }

    /// The mapped keys down when a remote or pad is first read are a press of each (their
    /// commands fire at once); the grab then waits for their release (input.md §6, §11).
    private func pressWakeKeys(_ entry: NodeEntry, keysDown: Set<UInt16>) {
        entry.wakeCheck = false
        guard entry.reader == .evdev else { return }
        let woke = keysDown.intersection(mappers.mappedKeys(of: entry.id)).sorted()
        guard !woke.isEmpty else { return }
        entry.wakeHeld = Set(woke)
        log(.info, "a key was down when the device was opened: pressed now", ["id": entry.id, "keys": woke.map { "\($0)" }.joined(separator: ",")])
        mapFrame(entry.id, woke.map { InputEvent(type: EventCode.EV_KEY, code: $0, value: 1, timeUsec: wallNow) })
    }

    /// A new entry that is a device back within ten minutes takes its former id, unless a
    /// present device has that id.
    private func takeFormerID(_ entry: NodeEntry, _ identity: DeviceIdentity) {
        guard let former = formerIDs.claim(identity, at: now), former != entry.id,
            !entries.values.contains(where: { $0 !== entry && $0.id == former && !$0.gone })
        else { return }
        log(.info, "device back within ten minutes: it keeps its former id", ["id": former, "node": entry.node])
        entry.id = former
        entry.info.id = former
        if lentIDs.contains(former) { entry.info.lent = true }
    }

    /// A node the kernel made for one of focusd's pass-through devices: never opened or listed.
    private func adoptOwn(_ node: String) {
        ownNodes.insert(node)
        guard let entry = entries[node], !entry.own else { return }
        close(entry)
        entry.own = true
        if entry.listed != nil && !entry.gone {
            listVersion &+= 1
            emit(.removed(id: entry.id))
        }
        entry.listed = nil
    }

    // MARK: pass-through

    /// Creates the grabbed device's pass-through device when its mapping leaves keys unused
    /// (its answer reports the device with the node).
    private func startPassthrough(_ entry: NodeEntry) {
        guard entry.passthrough == nil, entry.pendingPassthrough == nil else { return }
        let keys = mappers.passthroughKeys(of: entry.id)
        guard !keys.isEmpty else { return }
        entry.pendingPassthrough = keys
        actions.append(.createPassthrough(node: entry.node, PassthroughSpec(source: entry.info.identity, keys: keys)))
    }

    /// Releases what the pass-through device holds on it, then destroys it (a reader never sees
    /// the kernel's own key-up at destruction).
    private func dropPassthrough(_ entry: NodeEntry) {
        entry.pendingPassthrough = nil
        guard var passthrough = entry.passthrough else { return }
        let releases = passthrough.releaseAll(timeUsec: wallNow)
        if !releases.isEmpty { actions.append(.writePassthrough(node: entry.node, frames: [releases])) }
        actions.append(.destroyPassthrough(node: entry.node))
        entry.passthrough = nil
        entry.info.passthrough = nil
    }

    /// The pass-through frames of a read, in its order: each frame's passed keys, and at a
    /// resync (SYN_DROPPED) the release of everything the device holds (it stays).
    private func passThrough(_ readings: [EvdevReading], of entry: NodeEntry) -> [[InputEvent]] {
        guard var passthrough = entry.passthrough else { return [] }
        var frames: [[InputEvent]] = []
        for reading in readings {
            let passed: [InputEvent]
            switch reading {
            case .frame(let events): passed = passthrough.pass(events)
            case .resync: passed = passthrough.releaseAll(timeUsec: wallNow)
            }
            if !passed.isEmpty { frames.append(passed) }
        }
        entry.passthrough = passthrough
        return frames
    }

    private func isOwn(_ identity: DeviceIdentity) -> Bool {
        identity.name.hasPrefix(configuration.ownDevicePrefix) || identity.udevProperties["FOCUSD_VIRTUAL"] == "1"
    }

    /// An open failed: gone nodes are forgotten, others listed with the error and retried.
    private func failed(_ entry: NodeEntry, _ error: PosixError, vanished: Bool) {
        if error.isGone && vanished { return forget(entry.node) }
        entry.failures += 1
        entry.retryAt = schedule.nextAttempt(afterFailures: entry.failures, now: now)
        let problem = error.isPermissionDenied ? "permission denied: \(error)" : "cannot open: \(error)"
        // Say what to do, not only what failed (retried on the node's next change either way).
        let remedy =
            error.isPermissionDenied
            ? "give focusd read access: install udev/70-focusd.rules (group focusd, mode 0660) and run focusd in group focusd or input"
            : "retrying on the node's next change; check that it is an evdev node (udevadm info \(entry.node))"
        log(.notice, "device not usable yet: \(remedy)", ["node": entry.node, "problem": problem])
        list(entry, problem: problem)
    }

    // MARK: reporting and closing

    /// Reports to the delegate through the mappers: what a removed, failed or reopened device
    /// held is released before it goes. `settings`: the decision of a device added or changed,
    /// for its mapper.
    private func emit(_ report: Report, settings: DeviceSettings? = nil) {
        switch report {
        case .added(let info):
            actions.append(.report(report))
            for output in mappers.added(info, settings: settings, wallNow: wallNow) { mapped(output.id, frame: nil, output.commands) }
        case .changed(let info):
            for output in mappers.changed(info, settings: settings, wallNow: wallNow) { mapped(output.id, frame: nil, output.commands) }
            actions.append(.report(report))
        case .removed(let id):
            for output in mappers.removed(id, wallNow: wallNow) { mapped(output.id, frame: nil, output.commands) }
            actions.append(.report(report))
        case .pendingRead, .mapped, .lendDone:
            actions.append(.report(report))
        }
    }

    /// A frame and the commands its device's mapper made of it, in one report (none when the
    /// device has no mapper).
    private func mapFrame(_ id: String, _ events: [InputEvent]) {
        guard let commands = mappers.frame(id, events, now: now, wallNow: wallNow, context: context) else { return }
        actions.append(.report(.mapped(id: id, frame: events, commands)))
    }

    /// The device's state after SYN_DROPPED, or nothing down before it is closed to be reopened:
    /// its mapper releases what it held, and keys still down are swallowed, not pressed again.
    private func resync(_ id: String, keysDown: Set<UInt16>, absValues: [UInt16: Int32]) {
        mapped(id, frame: nil, mappers.resync(id, keysDown: keysDown, absValues: absValues, wallNow: wallNow))
    }

    private func mapped(_ id: String, frame: [InputEvent]?, _ commands: [MappedCommand]) {
        guard frame != nil || !commands.isEmpty else { return }
        actions.append(.report(.mapped(id: id, frame: frame, commands)))
    }

    private func log(_ level: Logger.Level, _ message: String, _ metadata: [String: String] = [:]) {
        actions.append(.log(level, message, metadata))
    }

    /// Reports the entry as added (first time) or changed (when what the delegate saw differs).
    private func list(_ entry: NodeEntry, problem: String?) {
        entry.info.problem = problem
        report(entry)
    }

    private func report(_ entry: NodeEntry) {
        entry.info.grabbed = entry.reader == .evdev && entry.grabbed
        guard entry.listed != entry.info else {
            // The same record after a reopen (a reload that changed no listed field): its
            // mapper still takes the settings of the new decision.
            for output in mappers.decided(entry.info.id, settings: entry.settings, wallNow: wallNow) {
                mapped(output.id, frame: nil, output.commands)
            }
            return
        }
        let first = entry.listed == nil
        entry.listed = entry.info
        listVersion &+= 1
        emit(first ? .added(entry.info) : .changed(entry.info), settings: entry.settings)
    }

    /// Closes a node's readers (the loop ungrabs first), keeping it listed.
    private func close(_ entry: NodeEntry) {
        dropPassthrough(entry)
        guard entry.isOpen else { return }
        entry.reader = nil
        entry.grabbed = false
        actions.append(.close(node: entry.node))
    }

    /// Closes a node that stays listed and will be reopened: what the device held is released
    /// first (a resync with nothing down).
    private func closeForReopen(_ entry: NodeEntry) {
        guard entry.isOpen else { return }
        if entry.listed != nil { resync(entry.id, keysDown: [], absValues: [:]) }
        close(entry)
    }

    /// Closes and unlists a node; the delegate releases what it held.
    private func forget(_ node: String) {
        ownNodes.remove(node)
        guard let entry = entries.removeValue(forKey: node) else { return }
        close(entry)
        if entry.listed != nil && !entry.gone {
            departed(entry)
            listVersion &+= 1
            emit(.removed(id: entry.id))
        }
    }

    /// A listed device left: its id is kept ten minutes for its return.
    private func departed(_ entry: NodeEntry) {
        formerIDs.left(entry.info.identity, id: entry.id, at: now)
    }

    /// The device behind a node was unplugged (ENODEV) before discovery said so: report it
    /// removed now and keep a tombstone until the node's removal arrives.
    private func unplugged(_ entry: NodeEntry) {
        close(entry)
        entry.retryAt = nil
        if entry.listed != nil && !entry.gone {
            departed(entry)
            listVersion &+= 1
            emit(.removed(id: entry.id))
        }
        entry.gone = true
    }

    // MARK: reading and grabbing

    /// A read's frames. Their pass-through keys go first: every pass-through frame of the read
    /// in one write, before any frame is mapped (`mapReadings` feeds them back), so a reader of
    /// the pass-through device waits for no mapping, logging or hand-off to the event loop
    /// (input.md §11). A read that passes nothing is mapped at once.
    private func deliver(_ readings: [EvdevReading], of entry: NodeEntry) {
        guard entry.reader == .evdev else { return }
        let kept = entry.wakeHeld.isEmpty ? readings : withoutWakePresses(readings, of: entry)
        let frames = passThrough(kept, of: entry)
        if frames.isEmpty {
            map(kept, of: entry)
        } else {
            actions.append(.writePassthrough(node: entry.node, frames: frames))
            actions.append(.mapReadings(node: entry.node, kept))
        }
        if !readings.isEmpty { applyGrab(entry) }
    }

    /// Maps a read's frames and resyncs, in order.
    private func map(_ readings: [EvdevReading], of entry: NodeEntry) {
        for reading in readings {
            switch reading {
            case .frame(let events): mapFrame(entry.id, events)
            case .resync(let keys, let abs): resync(entry.id, keysDown: keys, absValues: abs)
            }
        }
    }

    /// A queued press of a key already pressed from EVIOCGKEY (it went down between the open and
    /// the key check) is not sent again; its release ends the wake hold, as a resync does. A
    /// frame left empty is dropped.
    private func withoutWakePresses(_ readings: [EvdevReading], of entry: NodeEntry) -> [EvdevReading] {
        readings.compactMap { reading in
            switch reading {
            case .frame(let events):
                let kept = events.filter { event in
                    guard event.type == EventCode.EV_KEY, entry.wakeHeld.contains(event.code) else { return true }
                    if event.value == 0 { entry.wakeHeld.remove(event.code) }
                    return event.value != 1
                }
                return kept.isEmpty ? nil : .frame(kept)
            case .resync:
                entry.wakeHeld = []
                return reading
            }
        }
    }

    private func readFailed(_ entry: NodeEntry, _ error: PosixError) {
        guard entry.reader == .evdev else { return }
        if error.isGone { return unplugged(entry) }
        closeForReopen(entry)
        failed(entry, error, vanished: false)
    }

    /// Takes or drops EVIOCGRAB as wanted. Taking it waits until no key is down, which the
    /// kernel is asked (`queryKeys`): a key-up still queued for us has already reached every
    /// other reader, and a key pressed since our last read has not reached us yet.
    private func applyGrab(_ entry: NodeEntry) {
        guard entry.reader == .evdev else { return }
        let wanted = entry.wantedGrab
        guard (wanted == .exclusive) != entry.grabbed else { return }
        if wanted == .exclusive {
            actions.append(.queryKeys(node: entry.node))
        } else {
            grabIfFree(entry, keysDown: [])
        }
    }

    private func grabIfFree(_ entry: NodeEntry, keysDown: Set<UInt16>) {
        guard entry.reader == .evdev else { return }
        let wanted = entry.wantedGrab
        switch GrabAction.decide(wanted: wanted, grabbed: entry.grabbed, keysDown: keysDown) {
        case .grab, .ungrab: actions.append(.setGrab(node: entry.node, wanted == .exclusive))
        case .wait, .nothing: break
        }
    }

    // MARK: commands

    private func perform(_ command: LoopCommand) {
        switch command {
        case .addNode:
            // The loop turns a node given by hand into a `.sighted` event with what it can know.
            break
        case .removeNode(let node):
            forget(node)
        case .setGrab(let id, let mode):
            guard let entry = entries.values.first(where: { $0.id == id && !$0.gone }) else { return }
            entry.grabOverride = mode
            applyGrab(entry)
        case .reapplyPolicies:
            for output in mappers.reconfigure(wallNow: wallNow) { mapped(output.id, frame: nil, output.commands) }
            for node in entries.keys.sorted() {
                guard let entry = entries[node], !entry.own, !entry.gone else { continue }
                closeForReopen(entry)
                entry.failures = 0
                attempt(entry)
            }
        case .readPending(let id):
            if let entry = entries.values.first(where: { $0.id == id && !$0.gone }), entry.reader == .evdev {
                actions.append(.read(node: entry.node))
            }
            emit(.pendingRead(id: id))
        case .lend(let id, let token):
            guard let entry = listedEntry(id) else { return actions.append(.report(.lendDone(token: token, id: nil))) }
            lentIDs.insert(id)
            if !entry.info.lent {
                // Released (a resync with nothing down), pass-through released and destroyed,
                // ungrabbed and closed before the answer: the caller's EVIOCGRAB then succeeds.
                entry.info.lent = true
                entry.wakeHeld = []
                closeForReopen(entry)
                entry.retryAt = nil
                log(.info, "device lent", ["id": id])
                report(entry)
            }
            actions.append(.report(.lendDone(token: token, id: id)))
        case .reclaim(let id, let token):
            lentIDs.remove(id)
            guard let entry = listedEntry(id) else { return actions.append(.report(.lendDone(token: token, id: nil))) }
            if entry.info.lent {
                entry.info.lent = false
                entry.failures = 0
                log(.info, "device reclaimed", ["id": id])
                report(entry)
                // Opened again as at plug-in: grabbed once no key is down.
                attempt(entry)
            }
            actions.append(.report(.lendDone(token: token, id: id)))
        case .shutdown:
            for node in entries.keys.sorted() { forget(node) }
            stopped = true
            actions.append(.stop)
        }
    }
}
