import FocusEngine
import FocusWire
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
/// A frame runs in two steps, each flushed on its own by the bridge: `act` (recorders, then the
/// engine and its Focus monitors), then `publish` (Input monitors). The focus event a UI waits for
/// is on its way before the command a test bench reads is encoded; each monitor still sees its
/// own messages in order, and no contract orders messages on different connections.
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
    /// Whether each listed device's crown wraps (its profile's `wrap`, decided on the input
    /// thread with the device's policy), by id.
    private var wraps: [String: Bool] = [:]
    /// Receives every device change and command (`io.focusd.Input.Monitor`).
    var observers: [UInt64: (InputNotice) -> Void] = [:]
    /// Receives every frame read from a device, before it is mapped (`io.focusd.Inspect.Record`).
    var frameObservers: [UInt64: (String, [InputEvent]) -> Void] = [:]
    private var nextObserver: UInt64 = 1
    /// Counts the notices handed to `observers`: the same number for every observer of one
    /// notice, so an interface can encode it once for all its streams (one integer to compare).
    private(set) var noticeToken: UInt64 = 0
    /// What the focused node is, for the mappers on the input thread: kept current from the
    /// hub's events (any scene change, client focus call or device move).
    let focusContext = SharedFocusContext()
    /// Whether an `io.focusd.Input` monitor or a recorder is attached, for the input thread: a
    /// frame whose commands cannot act on focus is handed over only then (`InputLoopBridge`).
    let listening = SharedListening()

    init(eventLoop: any EventLoop, hub: SceneHub) {
        self.eventLoop = eventLoop
        self.hub = hub
        let watch = FocusWatch(hub: hub, focusContext: focusContext)
        _ = try? hub.addMonitor(scene: nil) { message, _ in watch.focusMayHaveChanged(message) }
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
        noteListening()
        return id
    }

    func removeObserver(_ id: UInt64) {
        observers[id] = nil
        frameObservers[id] = nil
        noteListening()
    }

    /// Adds a frame observer; `removeObserver` removes it.
    func addFrameObserver(_ observer: @escaping (String, [InputEvent]) -> Void) -> UInt64 {
        let id = nextObserver
        nextObserver += 1
        frameObservers[id] = observer
        noteListening()
        return id
    }

    private func noteListening() {
        listening.value.store(!observers.isEmpty || !frameObservers.isEmpty, ordering: .releasing)
    }

    /// All listed devices, sorted by id.
    var deviceList: [DeviceInfo] {
        listed.values.sorted { $0.id < $1.id }
    }

    // MARK: From the input loop

    func deviceAdded(_ info: DeviceInfo) {
        listed[info.id] = info
        wraps[info.id] = info.crownWraps
        publish(.added(info))
    }

    func deviceChanged(_ info: DeviceInfo) {
        listed[info.id] = info
        wraps[info.id] = info.crownWraps
        publish(.added(info))
    }

    func deviceRemoved(_ id: String) {
        listed[id] = nil
        wraps[id] = nil
        publish(.removed(id))
    }

    /// A frame read from device `id` (nil for a gesture, resync, timer or release) and the
    /// commands its mapper made of it on the input thread: `act`, then `publish`.
    func mapped(_ id: String, frame: [InputEvent]?, commands: [MappedCommand]) {
        act(id, frame: frame, commands: commands)
        publish(id, commands: commands)
    }

    /// What focus waits for: recorders see the frame, then the commands act on the active scene
    /// (its Focus monitors get the events).
    func act(_ id: String, frame: [InputEvent]?, commands: [MappedCommand]) {
        // The id is looked up only when something records (Inspect.Record, rare).
        if let frame, !frameObservers.isEmpty, listed[id] != nil {
            for observer in frameObservers.values { observer(id, frame) }
        }
        for command in commands { apply(command, from: id) }
    }

    /// The commands to `io.focusd.Input` monitors, in order.
    func publish(_ id: String, commands: [MappedCommand]) {
        guard !observers.isEmpty else { return }
        for command in commands { publish(.command(id, command)) }
    }

    // MARK: Internals

    /// Keeps ``focusContext`` current from the hub's events, as the hub's monitor of every
    /// scene. Held by that monitor's closure alone, with no reference back to the router (which
    /// holds the hub: `[weak self]` cost each event a checked load and a release); it holds the
    /// hub `unowned(unsafe)`, as the closure runs only inside the hub's own calls.
    private final class FocusWatch {
        unowned(unsafe) let hub: SceneHub
        let focusContext: SharedFocusContext
        /// The scene and revision the focus context was last read at. The events of one change
        /// share its revision (a move's `focus`, `bindings` and `values`) and arrive once it is
        /// done, so one read serves them all: 3,300 instructions per event otherwise (callgrind,
        /// LoopBench). A `scene` event (a scene set, updated, removed or activated) and a state
        /// always read again. Unchecked: only read and assigned whole, on the loop.
        @exclusivity(unchecked) private var contextRead: (scene: String, revision: Int)?

        init(hub: SceneHub, focusContext: SharedFocusContext) {
            self.hub = hub
            self.focusContext = focusContext
        }

        func focusMayHaveChanged(_ message: MonitorMessage) {
            if case .event(let event) = message, event.kind != .scene {
                if let read = contextRead, read.revision == event.revision, read.scene == event.scene { return }
                contextRead = (event.scene, event.revision)
            } else {
                contextRead = nil
            }
            let now = context()
            focusContext.value.withLock { if $0 != now { $0 = now } }
        }

        /// The focused node's context in the active scene.
        private func context() -> FocusContext {
            hub.withActiveSession { session in
                let role = session.focusedRole
                return FocusContext(typingSuppressed: role == "search" || role == "text", editing: session.focusedIsEditable)
            } ?? FocusContext()
        }
    }

    /// Applies one command to the active scene, as the type's discussion says which do.
    private func apply(_ command: MappedCommand, from id: String) {
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
        // Checked after the phase: a release (half of all frames) does not get this far.
        guard hub.activeName != nil else { return }
        // The active scene exists (checked above) and main-track moves throw nothing else, so
        // there is no error here for a device to report.
        // The events are all a device's command publishes: no state is built for a reply.
        _ = try? hub.apply(nil, action)
    }

    private func publish(_ notice: InputNotice) {
        noticeToken &+= 1
        for observer in observers.values { observer(notice) }
    }
}

/// The focused node's context, written on the event loop and read on the input thread.
final class SharedFocusContext: Sendable {
    let value = Mutex(FocusContext())
}

/// Whether anything on the event loop listens to device frames or commands besides the engine,
/// written on the loop and read on the input thread.
final class SharedListening: Sendable {
    let value = Atomic<Bool>(false)
}
