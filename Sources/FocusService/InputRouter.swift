import FocusEngine
import InputDevices
import InputMapping
import NIOCore

/// The input path on the daemon's event loop: one `DeviceMapper` per device, its timers, and the
/// commands it produces, applied to the active scene and published to `io.focusd.Input` monitors.
///
/// The device thread (`InputLoop`) hands each frame over with one hop (`InputLoopBridge`); from
/// there to the engine nothing waits on a client: monitors only queue.
///
/// Which commands act on the engine (press and repeat phases; releases end holds only):
/// - up, down, left, right, next, previous: a move (`Cause.device` carries the device id);
/// - crown (`rotate`): `Send("crown", detents:)` with the fraction and velocity, wrapping when
///   the device's profile says so;
/// - anything else on press: `Send(command)`; repeats of non-directional commands are ignored
///   (a held OK must not activate ten times);
/// - a crown `release` (an edit stream went idle) on an `edit` node: an `edit` event with 0
///   detents and velocity 0.
final class InputRouter {
    struct Device {
        var info: DeviceInfo
        var mapper: DeviceMapper
        var timer: Scheduled<Void>?
        /// A timer fired and `readPending` was asked: the tick runs on its answer.
        var awaitingPendingRead = false
    }

    let eventLoop: any EventLoop
    let hub: SceneHub
    private(set) var devices: [String: Device] = [:]
    /// Everything the loop lists (including ignored or unopenable devices), by id.
    private(set) var listed: [String: DeviceInfo] = [:]
    private var matcher: ProfileMatcher
    /// Receives every device change and command (`io.focusd.Input.Monitor`).
    var observers: [UInt64: (InputNotice) -> Void] = [:]
    /// Receives every frame read from a device, before it is mapped (`io.focusd.Inspect.Record`).
    var frameObservers: [UInt64: (String, [InputEvent]) -> Void] = [:]
    private var nextObserver: UInt64 = 1
    /// Asks the input thread to read what a device has pending and answer with `pendingRead`
    /// (`InputLoop.readPending`). When set, timed output (repeats, the end of an edit stream)
    /// waits for that answer: a repeat timer that fired late, e.g. after focusd was stopped while
    /// the key went up, must not outrun the key-up still in the kernel's buffer. Nil (tests):
    /// timers act at once.
    var readPending: ((String) -> Void)?

    init(eventLoop: any EventLoop, hub: SceneHub, matcher: ProfileMatcher) {
        self.eventLoop = eventLoop
        self.hub = hub
        self.matcher = matcher
    }

    /// What an `io.focusd.Input.Monitor` stream is told.
    enum InputNotice {
        case added(DeviceInfo)
        case removed(String)
        case command(String, MappedCommand)
    }

    func addObserver(_ observer: @escaping (InputNotice) -> Void) -> UInt64 {
        let id = nextObserver
        nextObserver += 1
        observers[id] = observer
        return id
    }

    func removeObserver(_ id: UInt64) {
        observers[id] = nil
        frameObservers[id] = nil
    }

    /// Adds a frame observer; `removeObserver` removes it.
    func addFrameObserver(_ observer: @escaping (String, [InputEvent]) -> Void) -> UInt64 {
        let id = nextObserver
        nextObserver += 1
        frameObservers[id] = observer
        return id
    }

    /// All listed devices, sorted by id.
    var deviceList: [DeviceInfo] {
        listed.values.sorted { $0.id < $1.id }
    }

    /// A new configuration: every device is released and gets a mapper with its new settings.
    func reconfigure(_ matcher: ProfileMatcher) {
        self.matcher = matcher
        for id in devices.keys.sorted() {
            release(id)
            if let info = devices[id]?.info {
                devices[id] = Device(info: info, mapper: makeMapper(info), timer: nil)
            }
        }
    }

    // MARK: From the input loop

    func deviceAdded(_ info: DeviceInfo) {
        listed[info.id] = info
        publish(.added(info))
        guard info.problem == nil else { return }
        devices[info.id] = Device(info: info, mapper: makeMapper(info), timer: nil)
        remapSiblings(of: info)
    }

    /// A new node can make a `siblings = true` profile apply to the devices already there beside
    /// it: those whose profile changes are released and get a mapper with their new settings.
    private func remapSiblings(of info: DeviceInfo) {
        guard let group = info.identity.group else { return }
        for id in devices.keys.sorted() where id != info.id {
            guard let other = devices[id]?.info, other.identity.group == group else { continue }
            let profile = matcher.profile(for: other.identity, siblings: siblings(of: other))?.name
            guard profile != devices[id]?.mapper.settings.profileName else { continue }
            release(id)
            devices[id]?.mapper = makeMapper(other)
        }
    }

    /// The identities of the other listed nodes of `info`'s physical device (same group).
    private func siblings(of info: DeviceInfo) -> [DeviceIdentity] {
        guard let group = info.identity.group else { return [] }
        return listed.values.filter { $0.id != info.id && $0.identity.group == group }
            .sorted { $0.id < $1.id }.map(\.identity)
    }

    func deviceChanged(_ info: DeviceInfo) {
        listed[info.id] = info
        if info.problem != nil {
            release(info.id)
            devices[info.id] = nil
        } else if var device = devices[info.id] {
            device.info = info
            devices[info.id] = device
        } else {
            devices[info.id] = Device(info: info, mapper: makeMapper(info), timer: nil)
        }
        publish(.added(info))
    }

    func deviceRemoved(_ id: String) {
        release(id)
        devices[id] = nil
        listed[id] = nil
        publish(.removed(id))
    }

    func frame(_ id: String, _ events: [InputEvent]) {
        guard var device = devices[id] else { return }
        for observer in frameObservers.values { observer(id, events) }
        let commands = device.mapper.process(events, now: happened(events), context: context())
        devices[id] = device
        deliver(commands, from: id)
    }

    func gesture(_ id: String, _ gesture: Gesture) {
        guard var device = devices[id] else { return }
        let commands = device.mapper.process(gesture: gesture, now: now(), context: context())
        devices[id] = device
        deliver(commands, from: id)
    }

    /// After SYN_DROPPED (or before a reopen): everything held is released (input.md §6), then
    /// the mapper learns what is still down so those keys are swallowed, not pressed again.
    func resync(_ id: String, keysDown: Set<UInt16>, absValues: [UInt16: Int32]) {
        guard var device = devices[id] else { return }
        let now = Self.wallClockUsec()
        device.timer?.cancel()
        device.timer = nil
        let commands = device.mapper.releaseAll(timeUsec: now)
            + device.mapper.resync(keysDown: keysDown, absValues: absValues, timeUsec: now)
        devices[id] = device
        deliver(commands, from: id)
    }

    /// Releases everything every device holds (shutdown, reload).
    func releaseAll() {
        for id in devices.keys.sorted() { release(id) }
    }

    // MARK: Internals

    private func makeMapper(_ info: DeviceInfo) -> DeviceMapper {
        var settings = matcher.settings(for: info.identity, siblings: siblings(of: info))
        settings.deviceClass = info.deviceClass
        if settings.rotary.countsPerDetent == nil,
            let hint = info.identity.udevProperties["FOCUSD_COUNTS_PER_DETENT"].flatMap(Double.init), hint > 0
        {
            settings.rotary.countsPerDetent = hint
        }
        return DeviceMapper(identity: info.identity, settings: settings)
    }

    private func release(_ id: String) {
        guard var device = devices[id] else { return }
        device.timer?.cancel()
        device.timer = nil
        let commands = device.mapper.releaseAll(timeUsec: Self.wallClockUsec())
        devices[id] = device
        deliver(commands, from: id)
    }

    private func context() -> FocusContext {
        guard let session = hub.activeSession else { return FocusContext() }
        let role = session.focusedRole
        return FocusContext(typingSuppressed: role == "search" || role == "text", editing: session.focusedIsEditable)
    }

    /// Publishes and applies `commands`, then re-arms the device's timer.
    private func deliver(_ commands: [MappedCommand], from id: String) {
        for command in commands {
            publish(.command(id, command))
            apply(command, from: id)
        }
        schedule(id)
    }

    /// Applies one command to the active scene, as the type's discussion says which do.
    private func apply(_ command: MappedCommand, from id: String) {
        guard hub.activeName != nil else { return }
        let action: (inout SceneSession) throws(FocusError) -> Outcome
        switch command.phase {
        case .release where command.command == "crown":
            // The end of an edit stream (150 ms without motion): an `edit` event with no
            // detents and no velocity tells the client the knob went idle.
            guard hub.activeSession?.focusedIsEditable == true else { return }
            action = { $0.send("crown", detents: 0, fraction: command.fraction, velocity: 0, device: id) }
        case .release:
            return
        case .rotate:
            let wrap = devices[id]?.mapper.settings.rotary.wrap
            action = {
                $0.send(
                    "crown", detents: command.detents ?? 0, fraction: command.fraction, velocity: command.velocity,
                    wrap: wrap, device: id)
            }
        case .press, .repeat:
            if let direction = Direction(rawValue: command.command) {
                action = { session throws(FocusError) in try session.move(direction, device: id) }
            } else if command.phase == .press {
                action = { $0.send(command.command, detents: command.detents, device: id) }
            } else {
                return  // a held OK must not activate again and again
            }
        }
        // The active scene exists (checked above) and main-track moves throw nothing else, so
        // there is no error here for a device to report.
        _ = try? hub.withSession(nil, action)
    }

    private func schedule(_ id: String) {
        guard var device = devices[id] else { return }
        device.timer?.cancel()
        device.timer = nil
        if let deadline = device.mapper.nextDeadline {
            let at = NIODeadline.uptimeNanoseconds(UInt64(max(0, deadline)) * 1000)
            device.timer = eventLoop.assumeIsolated().scheduleTask(deadline: at) { [weak self] in self?.tick(id) }
        }
        devices[id] = device
    }

    private func tick(_ id: String) {
        guard var device = devices[id] else { return }
        device.timer?.cancel()
        device.timer = nil
        if let readPending, !device.awaitingPendingRead {
            device.awaitingPendingRead = true
            devices[id] = device
            readPending(id)
            return
        }
        device.awaitingPendingRead = false
        let commands = device.mapper.tick(now: now())
        devices[id] = device
        deliver(commands, from: id)
    }

    /// The input thread read everything the device had pending (frames before this were
    /// delivered): the timer that asked may act now, on the state after those frames.
    func pendingRead(_ id: String) {
        guard devices[id]?.awaitingPendingRead == true else { return }
        tick(id)
    }

    private func publish(_ notice: InputNotice) {
        for observer in observers.values { observer(notice) }
    }

    /// The mapper's clock: the event loop's monotonic time in microseconds, the clock its timers
    /// run on (virtual on a test loop).
    func now() -> Int64 {
        Int64(eventLoop.now.uptimeNanoseconds / 1000)
    }

    /// The most a frame's kernel timestamp may lag behind to count as its age (a larger lag is a
    /// clock step or a synthetic time, and the frame counts as happening now).
    static let maxFrameAgeUsec: Int64 = 60_000_000

    /// When a frame happened on the mapper's clock: now, minus the age of its kernel timestamp
    /// (CLOCK_REALTIME). The mapper fires the timers due before a frame first; with the read time
    /// a key-up read late (focusd stopped or starved while the key went up) would come after a
    /// repeat that was due only after the key was already up.
    func happened(_ events: [InputEvent]) -> Int64 {
        let now = now()
        guard let stamp = events.last?.timeUsec else { return now }
        let age = Self.wallClockUsec() - stamp
        guard age > 0, age <= Self.maxFrameAgeUsec else { return now }
        return now - age
    }

    /// Wall-clock microseconds, for commands that no kernel event stamped (releases on unplug).
    static func wallClockUsec() -> Int64 {
        WallClock.nowUsec()
    }
}
