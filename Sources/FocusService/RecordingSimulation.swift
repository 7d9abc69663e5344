import FocusConfig
import FocusEngine
import FocusWire
import InputMapping

/// Plays a recording offline through the device mapper and the engine (`focusd simulate SCENE
/// --input FILE`), on a virtual clock: the kernel timestamps of the recording. Deterministic: the
/// same recording and scene always give the same steps.
///
/// As the daemon does (`InputRouter`): one `DeviceMapper` per recorded device, with the settings a
/// profile gives (`matcher`) and the recorded class; a frame ends at its `SYN_REPORT` and is
/// mapped at that event's time; every timer (key repeat, the end of a knob's edit stream) due
/// before a frame fires first, at its own time, across all devices in time order; after the last
/// frame, timers due within one second fire (a knob's idle end) and then everything still held is
/// released. Commands act on the session by `InputRouter`'s rules (moves on press and repeat, other
/// commands on press, crown rotations, the edit stream's end on an `edit` node).
public enum RecordingSimulation {
    /// One command a device produced, and the focus after it acted.
    public struct Step: Sendable {
        /// The virtual time (the recording's clock, microseconds).
        public var timeUsec: Int64
        public var device: String
        public var command: MappedCommand
        /// What the engine did (no events when the command does not act).
        public var outcome: Outcome
        public var focused: String?
        /// The whole state after the command.
        public var state: FocusState
    }

    /// The device profiles of a configuration file, read as focusd reads it at start (`path` nil:
    /// the default file, whose absence means the built-in defaults). Throws with the file's name.
    public static func matcher(configPath path: String?) throws -> ProfileMatcher {
        ProfileMatcher(configuration: try Daemon.loadConfiguration(path))
    }

    /// A virtual time as the recording writes it (SECONDS.MICROSECONDS).
    public static func timeText(_ usec: Int64) -> String {
        String(Recording.text(of: RecordedEvent(device: "d", type: 0, code: 0, value: 0, timeUsec: usec)).split(separator: " ")[0])
    }

    /// The recording's devices, frames and timers played on `session`; `report` sees each step.
    public static func run(
        _ recording: Recording, session: inout SceneSession, matcher: ProfileMatcher = ProfileMatcher(profiles: []),
        report: (Step) -> Void
    ) {
        var mappers: [String: DeviceMapper] = [:]
        var order: [String] = []
        for d in recording.devices {
            let identity = d.identity
            var settings = matcher.settings(for: identity)
            settings.deviceClass = DeviceClass(rawValue: d.class) ?? DeviceClassifier.classify(identity)
            mappers[d.id] = DeviceMapper(identity: identity, settings: settings)
            order.append(d.id)
        }
        func context(_ s: SceneSession) -> FocusContext {
            let role = s.focusedRole
            return FocusContext(typingSuppressed: role == "search" || role == "text", editing: s.focusedIsEditable)
        }
        func deliver(_ commands: [MappedCommand], from id: String, at time: Int64) {
            for command in commands {
                let outcome = apply(command, from: id, wrap: mappers[id]?.settings.rotary.wrap, to: &session)
                report(Step(timeUsec: time, device: id, command: command, outcome: outcome, focused: session.focused(),
                            state: session.state(active: true)))
            }
        }
        /// Fires every timer due at or before `limit`, earliest first (ties: recording order).
        func fireTimers(until limit: Int64) {
            while true {
                var next: (Int64, String)?
                for id in order {
                    if let d = mappers[id]?.nextDeadline, d <= limit, next == nil || d < next!.0 { next = (d, id) }
                }
                guard let (at, id) = next else { return }
                let commands = mappers[id]!.tick(now: at)
                deliver(commands, from: id, at: at)
            }
        }
        var pending: [String: [InputEvent]] = [:]
        var last: Int64 = 0
        for e in recording.events {
            let event = InputEvent(type: e.type, code: e.code, value: e.value, timeUsec: e.timeUsec)
            last = max(last, e.timeUsec)
            guard e.type == EventCode.EV_SYN, e.code == EventCode.SYN_REPORT else {
                pending[e.device, default: []].append(event)
                continue
            }
            let frame = pending.removeValue(forKey: e.device) ?? []
            fireTimers(until: e.timeUsec)
            guard mappers[e.device] != nil else { continue }
            let commands = mappers[e.device]!.process(frame, now: e.timeUsec, context: context(session))
            deliver(commands, from: e.device, at: e.timeUsec)
        }
        fireTimers(until: last + 1_000_000)
        for id in order {
            let commands = mappers[id]!.releaseAll(timeUsec: last + 1_000_000)
            deliver(commands, from: id, at: last + 1_000_000)
        }
    }

    /// `InputRouter`'s rules for one command on the active scene.
    static func apply(_ command: MappedCommand, from id: String, wrap: Bool?, to session: inout SceneSession) -> Outcome {
        switch command.phase {
        case .release where command.command == "crown":
            guard session.focusedIsEditable else { return Outcome() }
            return session.send("crown", detents: 0, fraction: command.fraction, velocity: 0, device: id)
        case .release:
            return Outcome()
        case .rotate:
            return session.send("crown", detents: command.detents ?? 0, fraction: command.fraction,
                                velocity: command.velocity, wrap: wrap, device: id)
        case .press, .repeat:
            if let direction = Direction(rawValue: command.command) {
                return (try? session.move(direction, device: id)) ?? Outcome()
            }
            guard command.phase == .press else { return Outcome() }
            return session.send(command.command, detents: command.detents, device: id)
        }
    }
}
