import FocusEngine
import InputDevices
import InputMapping
import NIOCore
import Synchronization

/// The input path on the daemon's event loop: the commands each device's mapper produced on the
/// input thread (`InputLoopConfiguration.mapping`), applied to the active scene and published to
/// `io.focusd.Input` monitors.
///
/// The input thread maps each frame and runs the mappers' timers (repeat, long-press, the end of
/// an edit stream) itself, and hands a frame with its commands over in one hop
/// (`InputLoopBridge.mapped`); from there to the engine nothing waits on a client: monitors
/// only queue. It reads what the focused node is from `focusContext`, which this keeps current.
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
    let eventLoop: any EventLoop
    let hub: SceneHub
    /// Everything the loop lists (including ignored or unopenable devices), by id.
    private(set) var listed: [String: DeviceInfo] = [:]
    /// Whether each listed device's crown wraps (its profile's `wrap`), by id.
    private var wraps: [String: Bool] = [:]
    private var matcher: ProfileMatcher
    /// Receives every device change and command (`io.focusd.Input.Monitor`).
    var observers: [UInt64: (InputNotice) -> Void] = [:]
    /// Receives every frame read from a device, before it is mapped (`io.focusd.Inspect.Record`).
    var frameObservers: [UInt64: (String, [InputEvent]) -> Void] = [:]
    private var nextObserver: UInt64 = 1
    /// What the focused node is, for the mappers on the input thread: kept current from the
    /// hub's events (any scene change, client focus call or device move).
    let focusContext = SharedFocusContext()

    init(eventLoop: any EventLoop, hub: SceneHub, matcher: ProfileMatcher) {
        self.eventLoop = eventLoop
        self.hub = hub
        self.matcher = matcher
        _ = try? hub.addMonitor(scene: nil) { [weak self] _ in self?.noteFocus() }
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

    /// A new configuration (the input thread releases and remaps every device itself).
    func reconfigure(_ matcher: ProfileMatcher) {
        self.matcher = matcher
        for info in listed.values { noteWrap(info) }
    }

    // MARK: From the input loop

    func deviceAdded(_ info: DeviceInfo) {
        listed[info.id] = info
        noteWrap(info)
        publish(.added(info))
    }

    func deviceChanged(_ info: DeviceInfo) {
        listed[info.id] = info
        noteWrap(info)
        publish(.added(info))
    }

    func deviceRemoved(_ id: String) {
        listed[id] = nil
        wraps[id] = nil
        publish(.removed(id))
    }

    /// A frame read from device `id` (nil for a gesture, resync, timer or release) and the
    /// commands its mapper made of it on the input thread.
    func mapped(_ id: String, frame: [InputEvent]?, commands: [MappedCommand]) {
        if let frame, listed[id] != nil {
            for observer in frameObservers.values { observer(id, frame) }
        }
        for command in commands {
            publish(.command(id, command))
            apply(command, from: id)
        }
    }

    /// The identities of the other listed nodes of `info`'s physical device (same group).
    private func siblings(of info: DeviceInfo) -> [DeviceIdentity] {
        guard let group = info.identity.group else { return [] }
        return listed.values.filter { $0.id != info.id && $0.identity.group == group }
            .sorted { $0.id < $1.id }.map(\.identity)
    }

    private func noteWrap(_ info: DeviceInfo) {
        wraps[info.id] = matcher.settings(for: info.identity, siblings: siblings(of: info)).rotary.wrap
    }

    // MARK: Internals

    /// Publishes the focused node's context for the input thread.
    private func noteFocus() {
        let now = context()
        focusContext.value.withLock { if $0 != now { $0 = now } }
    }

    private func context() -> FocusContext {
        hub.withActiveSession { session in
            let role = session.focusedRole
            return FocusContext(typingSuppressed: role == "search" || role == "text", editing: session.focusedIsEditable)
        } ?? FocusContext()
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
            let wrap = wraps[id]
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
        // The events are all a device's command publishes: no state is built for a reply.
        _ = try? hub.apply(nil, action)
    }

    private func publish(_ notice: InputNotice) {
        for observer in observers.values { observer(notice) }
    }
}

/// The focused node's context, written on the event loop and read on the input thread.
final class SharedFocusContext: Sendable {
    let value = Mutex(FocusContext())
}
