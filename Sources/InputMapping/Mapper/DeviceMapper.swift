// One device's mapping from kernel events to focus commands (input.md §3-5). Pure: the caller
// passes the monotonic time, drives timers with `tick(now:)` at `nextDeadline`, and gets
// commands back. No clock, no I/O.
//
// Timing of one held input (a key, a D-pad or hat direction, a stick direction, a chord):
//
//                         press (key in a chord)          press (key with a long-press)
//       +--------+  ------------------------------>  +-----------+
//       |  IDLE  |                                    |  CHORD    |-- all chord keys down --> HELD (chord command)
//       +--------+  <-- release: press + release ---  |  PENDING  |
//        |     ^                                      +-----------+
//        |     |                                         | window expires
//        |     |                                         v
//        |     |   release: short press + release   +-----------+
//        |     +----------------------------------- | LONGPRESS |
//        |     |                                    |  PENDING  |-- duration --> HELD (long command)
//        |     |                                    +-----------+
//        | press (plain key, stick or hat direction)
//        v     | release / releaseAll / resync: not down
//   +---------------+   delay (400 ms)   +----------------+  interval (100 ms; 50 ms once held 2 s)
//   |     HELD      | -----------------> |   REPEATING    | ----+
//   | (press sent)  |      repeat        |                | <---+ repeat
//   +---------------+                    +----------------+
//          |  kernelRepeat devices (IR/CEC remotes): no timer; each kernel repeat (value 2)
//          |  is one repeat, and a key with no event for keyUpTimeout is released (lost key-up).
//          v
//   release sent exactly once; any later repeat or key-up of that key is swallowed.
//
// Crown while editing:
//
//   +------+  motion: rotate(detents, fraction, velocity)  +---------+  motion: rotate, re-arm
//   | IDLE | --------------------------------------------> | EDITING | <----+
//   +------+ <-------------------------------------------- +---------+ -----+
//              150 ms without motion: crown release (the edit stream ended)

/// Where a held command comes from.
enum HoldSource: Hashable, Sendable {
    case key(UInt16)
    case chord(Int)
    /// The left stick, four-way: one direction at a time.
    case stick
    /// The left stick without the four-way restrictor: one direction per axis.
    case stickAxis(Int)
    /// D-pad hat axis 0 (x) or 1 (y).
    case hat(Int)
}

/// A command currently pressed.
struct Hold: Sendable {
    var command: String
    /// When the press was sent: monotonic and kernel time (repeat times derive from them).
    var pressMono: Int64
    var pressKernel: Int64
    var nextRepeat: Int64?
    /// kernelRepeat devices: the last event of this key, and the lost-key-up deadline.
    var lastMono: Int64
    var lastKernel: Int64
    var watchdog: Int64?
    /// No more repeats of any kind (after a resync).
    var repeatsStopped = false
    var sequence: Int
}

/// A key waiting to learn whether it is part of a chord or a long-press.
struct PendingKey: Sendable {
    var code: UInt16
    var pressMono: Int64
    var pressKernel: Int64
    /// The command of a short press (nil: none).
    var shortCommand: String?
    var chordDeadline: Int64?
    var longPress: LongPress?
    var longDeadline: Int64?
}

/// The edit stream of the crown while the focused node edits.
struct EditStream: Sendable {
    var lastMono: Int64
    var lastKernel: Int64
    var idleDeadline: Int64
}

/// Maps one device's input frames to commands; one instance per open device node.
///
/// Times: `now` is a monotonic clock in microseconds (the caller's); each command's
/// `eventTimeUsec` is the kernel timestamp of the event that produced it. Not thread-safe: use
/// it from the device's event loop.
public struct DeviceMapper: Sendable {
    public let identity: DeviceIdentity
    public let settings: DeviceSettings
    /// The rotary kind normalised to detents, nil without rotary input.
    public let rotaryKind: RotaryKind?
    /// Key and button codes → commands: the settings' map plus this device's quirks.
    public let commands: [UInt16: String]

    var holds: [HoldSource: Hold] = [:]
    var pending: [UInt16: PendingKey] = [:]
    /// Active chords: index → members still down (their releases are swallowed after the first).
    var chordMembers: [Int: Set<UInt16>] = [:]
    /// Keys known to be down whose press was never sent (or already released): swallowed.
    var absorbed: Set<UInt16> = []
    var shiftDown: Set<UInt16> = []
    var sequence = 0

    // Axes
    var stickValues: [Double] = [0, 0]
    var stickTime: Int64 = 0
    var stickChanged = false
    var stickNeedsNeutral = false
    var hatValues: [Int32] = [0, 0]
    var hatChanged: [Bool] = [false, false]
    var hatTime: Int64 = 0
    var hatNeedsNeutral = [false, false]
    var translator: GamepadTranslator?

    // Rotary
    var rotary: RotaryAccumulator?
    var rotaryCounts: Double = 0
    var rotaryTime: Int64 = 0
    var lastAbsWheel: Int32?
    var edit: EditStream?

    static let shiftKeys: Set<UInt16> = [EventCode.KEY_LEFTSHIFT, EventCode.KEY_RIGHTSHIFT]

    /// A mapper for a device with its resolved settings (see `ProfileMatcher.settings(for:)`).
    public init(identity: DeviceIdentity, settings: DeviceSettings) {
        self.identity = identity
        self.settings = settings
        commands = Self.commands(settings: settings, capabilities: identity.capabilities)
        let kind = settings.deviceClass == .touchpad ? nil : RotaryKind.detect(identity, deviceClass: settings.deviceClass)
        rotaryKind = kind
        if let kind {
            rotary = RotaryAccumulator(countsPerDetent: settings.rotary.countsPerDetent ?? kind.defaultCountsPerDetent)
        }
        if let mapping = settings.gamepadMapping {
            translator = GamepadTranslator(mapping: mapping, capabilities: identity.capabilities, stick: settings.stick)
        }
    }

    /// A mapper with the defaults of the device's class (no profile).
    public init(identity: DeviceIdentity) {
        self.init(identity: identity, settings: DeviceSettings(deviceClass: DeviceClassifier.classify(identity)))
    }

    /// xpad reports the D-pad of wireless Xbox 360 pads (and others with `dpad_to_buttons`) as
    /// BTN_TRIGGER_HAPPY1-4 (left, right, up, down) when the pad has neither BTN_DPAD_* nor a hat.
    static let dpadAsTriggerHappy: [UInt16: String] = [
        EventCode.BTN_TRIGGER_HAPPY1: "left", EventCode.BTN_TRIGGER_HAPPY2: "right",
        EventCode.BTN_TRIGGER_HAPPY3: "up", EventCode.BTN_TRIGGER_HAPPY4: "down",
    ]

    static func commands(settings: DeviceSettings, capabilities: Capabilities) -> [UInt16: String] {
        var commands = settings.commands
        let hasDpad = capabilities.keys.contains(EventCode.BTN_DPAD_UP) || capabilities.isDpadHat(EventCode.ABS_HAT0X)
        if settings.deviceClass == .gamepad && settings.gamepadMapping == nil && !hasDpad
            && dpadAsTriggerHappy.keys.allSatisfy(capabilities.keys.contains)
        {
            commands.merge(dpadAsTriggerHappy) { profile, _ in profile }
        }
        return commands
    }

    var usesStickAndHat: Bool { settings.deviceClass == .gamepad || translator != nil }

    // MARK: Frames

    /// Maps one frame: the events up to and excluding its SYN_REPORT.
    /// - Parameters:
    ///   - frame: events of one frame, in kernel order (a trailing SYN_REPORT is allowed).
    ///   - now: monotonic time in µs when the frame was read.
    ///   - context: what the focused node wants (typing suppression, editing).
    public mutating func process(_ frame: [InputEvent], now: Int64, context: FocusContext) -> [MappedCommand] {
        var output = tick(now: now)
        for event in frame {
            switch event.type {
            case EventCode.EV_SYN:
                if event.code == EventCode.SYN_DROPPED {
                    // The caller should resync; never keep anything held across a drop.
                    output += releaseAll(timeUsec: event.timeUsec)
                    return output
                }
            case EventCode.EV_KEY:
                if var translator {
                    let signals = translator.translate(event)
                    self.translator = translator
                    for signal in signals { output += apply(signal, event: event, now: now, context: context) }
                } else {
                    // A frame's commands are usually one key's: take its array rather than copy it.
                    let commands = key(event.code, value: event.value, time: event.timeUsec, now: now, context: context)
                    if output.isEmpty { output = commands } else { output += commands }
                }
            case EventCode.EV_ABS:
                output += absolute(event, now: now, context: context)
            case EventCode.EV_REL:
                if let kind = rotaryKind, kind.source == (EventCode.EV_REL, event.code) {
                    rotaryCounts += Double(event.value) * kind.sign
                    rotaryTime = event.timeUsec
                }
            default:
                continue
            }
        }
        output += endOfFrame(now: now, context: context)
        return output
    }

    /// Maps a touchpad gesture recognised by libinput: a swipe moves by its dominant axis, a tap
    /// selects. Both are an instant press and release.
    public mutating func process(gesture: Gesture, now: Int64, context: FocusContext) -> [MappedCommand] {
        var output = tick(now: now)
        let command: String
        let time: Int64
        switch gesture {
        case .swipe(let dx, let dy, let timeUsec):
            guard dx != 0 || dy != 0, dx.isFinite, dy.isFinite else { return output }
            command = abs(dx) >= abs(dy) ? (dx > 0 ? "right" : "left") : (dy > 0 ? "down" : "up")
            time = timeUsec
        case .tap(let timeUsec):
            command = "select"
            time = timeUsec
        }
        output.append(MappedCommand(command: command, phase: .press, eventTimeUsec: time))
        output.append(MappedCommand(command: command, phase: .release, eventTimeUsec: time))
        return output
    }

    mutating func apply(_ signal: GamepadSignal, event: InputEvent, now: Int64, context: FocusContext) -> [MappedCommand] {
        switch signal {
        case .key(let code, let value):
            return key(code, value: value, time: event.timeUsec, now: now, context: context)
        case .stick(let axis, let value):
            stickValues[axis] = value
            stickTime = event.timeUsec
            stickChanged = true
            return []
        }
    }

    mutating func absolute(_ event: InputEvent, now: Int64, context: FocusContext) -> [MappedCommand] {
        if let kind = rotaryKind, case .absoluteWheel(let info) = kind, event.code == EventCode.ABS_WHEEL {
            if let last = lastAbsWheel {
                let span = Int64(info.maximum) - Int64(info.minimum) + 1
                var delta = Int64(event.value) - Int64(last)
                // A ring wraps: the short way round is the real motion.
                if span > 1 && abs(delta) > span / 2 { delta -= delta > 0 ? span : -span }
                rotaryCounts += Double(delta)
                rotaryTime = event.timeUsec
            }
            lastAbsWheel = event.value
            return []
        }
        if var translator {
            let signals = translator.translate(event)
            self.translator = translator
            var output: [MappedCommand] = []
            for signal in signals { output += apply(signal, event: event, now: now, context: context) }
            return output
        }
        guard usesStickAndHat else { return [] }
        switch event.code {
        case EventCode.ABS_X, EventCode.ABS_Y:
            guard let info = identity.capabilities.absoluteAxes[event.code] else { return [] }
            stickValues[event.code == EventCode.ABS_X ? 0 : 1] = normalizedAxis(event.value, info)
            stickTime = event.timeUsec
            stickChanged = true
        case EventCode.ABS_HAT0X, EventCode.ABS_HAT0Y:
            // A hat whose range is not a D-pad's (a Wii Balance Board's weight sensors) moves nothing.
            guard identity.capabilities.isDpadHat(EventCode.ABS_HAT0X) else { break }
            let axis = event.code == EventCode.ABS_HAT0X ? 0 : 1
            hatValues[axis] = event.value.signum()
            hatChanged[axis] = true
            hatTime = event.timeUsec
        default:
            break
        }
        return []
    }

    mutating func endOfFrame(now: Int64, context: FocusContext) -> [MappedCommand] {
        var output: [MappedCommand] = []
        for axis in 0..<2 where hatChanged[axis] {
            hatChanged[axis] = false
            output += updateHat(axis, now: now)
        }
        if stickChanged {
            stickChanged = false
            output += updateStick(now: now)
        }
        if rotaryCounts != 0 {
            output += rotate(rotaryCounts, time: rotaryTime, now: now, context: context)
            rotaryCounts = 0
        }
        return output
    }

    // MARK: Holds

    /// Kernel repeat events drive this device's key repeats: a `kernelRepeat` profile (remotes)
    /// on a device that has EV_REP. Without EV_REP no repeat events come, so focusd times them.
    var kernelDrivenKeys: Bool { settings.kernelRepeat && identity.capabilities.kernelRepeat }

    func repeats(_ command: String) -> Bool {
        settings.repeat.enabled && settings.repeat.commands.contains(command)
    }

    /// Presses a command from a source and arms its timers.
    mutating func press(_ source: HoldSource, _ command: String, mono: Int64, kernel: Int64, fromKey: Bool) -> MappedCommand {
        sequence += 1
        var hold = Hold(
            command: command, pressMono: mono, pressKernel: kernel, nextRepeat: nil, lastMono: mono,
            lastKernel: kernel, watchdog: nil, sequence: sequence)
        let kernelDriven = fromKey && kernelDrivenKeys
        if repeats(command) && !kernelDriven {
            hold.nextRepeat = mono + Int64(settings.repeat.delayMs) * 1000
        }
        if kernelDriven {
            hold.watchdog = mono + Int64(settings.repeat.keyUpTimeoutMs) * 1000
        }
        holds[source] = hold
        return MappedCommand(command: command, phase: .press, eventTimeUsec: kernel)
    }

    /// Releases a held source (nothing when not held).
    mutating func release(_ source: HoldSource, kernel: Int64) -> [MappedCommand] {
        guard let hold = holds.removeValue(forKey: source) else { return [] }
        return [MappedCommand(command: hold.command, phase: .release, eventTimeUsec: kernel)]
    }

    // MARK: Release and resync

    /// Releases everything held, ends an edit stream and forgets pending keys; for unplug,
    /// SYN_DROPPED, config reload, ungrab and shutdown. Keys that were down stay swallowed until
    /// pressed again, so no repeat or release follows.
    public mutating func releaseAll(timeUsec: Int64) -> [MappedCommand] {
        var output: [MappedCommand] = []
        for (source, hold) in holds.sorted(by: { $0.value.sequence < $1.value.sequence }) {
            output.append(MappedCommand(command: hold.command, phase: .release, eventTimeUsec: timeUsec))
            if case .key(let code) = source { absorbed.insert(code) }
        }
        holds.removeAll()
        absorbed.formUnion(pending.keys)
        pending.removeAll()
        for members in chordMembers.values { absorbed.formUnion(members) }
        chordMembers.removeAll()
        if edit != nil {
            output.append(crownRelease(time: timeUsec))
            edit = nil
        }
        stickNeedsNeutral = stickValues.contains { $0 != 0 }
        hatNeedsNeutral = hatValues.map { $0 != 0 }
        translator?.reset()
        rotary?.reset()
        rotaryCounts = 0
        return output
    }

    /// Brings the mapper in line with the device after SYN_DROPPED: releases what is no longer
    /// down, never presses what went down meanwhile (no phantom presses), and stops every repeat.
    /// To release everything as input.md §6 asks, call `releaseAll(timeUsec:)` first.
    /// - Parameters:
    ///   - keysDown: the keys down now (EVIOCGKEY / libevdev's state).
    ///   - absValues: current absolute axis values (EVIOCGABS).
    ///   - timeUsec: kernel time for the releases (the SYN_DROPPED's or the resync's).
    public mutating func resync(keysDown: Set<UInt16>, absValues: [UInt16: Int32], timeUsec: Int64) -> [MappedCommand] {
        var output: [MappedCommand] = []
        if translator != nil {
            // Raw SDL sources do not map one to one: release everything, swallow what is down.
            output = releaseAll(timeUsec: timeUsec)
            absorbed = keysDown
            stickNeedsNeutral = true
            hatNeedsNeutral = [true, true]
            return output
        }
        shiftDown = keysDown.intersection(Self.shiftKeys)
        for (code, _) in pending {
            if keysDown.contains(code) { absorbed.insert(code) }
        }
        pending.removeAll()
        for (source, hold) in holds.sorted(by: { $0.value.sequence < $1.value.sequence }) {
            let stillDown: Bool
            switch source {
            case .key(let code): stillDown = keysDown.contains(code)
            case .chord(let index):
                stillDown = settings.chords[index].codes.allSatisfy(keysDown.contains)
            case .stick, .stickAxis, .hat: continue
            }
            if stillDown {
                holds[source]?.repeatsStopped = true
                holds[source]?.nextRepeat = nil
            } else {
                output.append(MappedCommand(command: hold.command, phase: .release, eventTimeUsec: timeUsec))
                holds[source] = nil
                if case .chord(let index) = source {
                    absorbed.formUnion(chordMembers[index, default: []].intersection(keysDown))
                    chordMembers[index] = nil
                }
            }
        }
        for (index, members) in chordMembers where holds[.chord(index)] == nil {
            chordMembers[index] = members.intersection(keysDown)
            if chordMembers[index]!.isEmpty { chordMembers[index] = nil }
        }
        absorbed = absorbed.intersection(keysDown)
        for code in keysDown where holds[.key(code)] == nil && !chordMembers.values.contains(where: { $0.contains(code) }) {
            absorbed.insert(code)
        }
        absorbed.subtract(Self.shiftKeys)

        if usesStickAndHat && identity.capabilities.isDpadHat(EventCode.ABS_HAT0X) {
            for (axis, code) in [(0, EventCode.ABS_HAT0X), (1, EventCode.ABS_HAT0Y)] {
                guard let value = absValues[code] else { continue }
                hatValues[axis] = value.signum()
                if let hold = holds[.hat(axis)] {
                    if hatCommand(axis, hatValues[axis]) != hold.command {
                        output += release(.hat(axis), kernel: timeUsec)
                        hatNeedsNeutral[axis] = hatValues[axis] != 0
                    } else {
                        holds[.hat(axis)]?.repeatsStopped = true
                        holds[.hat(axis)]?.nextRepeat = nil
                    }
                } else {
                    hatNeedsNeutral[axis] = hatValues[axis] != 0
                }
            }
            for (axis, code) in [(0, EventCode.ABS_X), (1, EventCode.ABS_Y)] {
                if let value = absValues[code], let info = identity.capabilities.absoluteAxes[code] {
                    stickValues[axis] = normalizedAxis(value, info)
                }
            }
            output += resyncStick(timeUsec: timeUsec)
        }
        if let value = absValues[EventCode.ABS_WHEEL] { lastAbsWheel = value }
        rotary?.reset()
        rotaryCounts = 0
        return output
    }

    // MARK: Timers

    /// The earliest monotonic time (µs) at which `tick(now:)` has something to do.
    /// (Asked after every frame: no allocation.)
    public var nextDeadline: Int64? {
        var earliest: Int64?
        for hold in holds.values {
            earliest = earlier(earlier(earliest, hold.nextRepeat), hold.watchdog)
        }
        for key in pending.values {
            earliest = earlier(earlier(earliest, key.chordDeadline), key.longDeadline)
        }
        return earlier(earliest, edit?.idleDeadline)
    }

    enum Timer {
        case `repeat`(HoldSource), watchdog(HoldSource), chord(UInt16), long(UInt16), editIdle
    }

    /// The earliest timer due at `now`.
    func dueTimer(_ now: Int64) -> (Int64, Timer)? {
        var best: (Int64, Timer)?
        func consider(_ time: Int64?, _ timer: Timer) {
            guard let time, time <= now else { return }
            if best == nil || time < best!.0 { best = (time, timer) }
        }
        for (source, hold) in holds.sorted(by: { $0.value.sequence < $1.value.sequence }) {
            consider(hold.nextRepeat, .repeat(source))
            consider(hold.watchdog, .watchdog(source))
        }
        for key in pending.values.sorted(by: { $0.pressMono < $1.pressMono }) {
            consider(key.chordDeadline, .chord(key.code))
            consider(key.longDeadline, .long(key.code))
        }
        consider(edit?.idleDeadline, .editIdle)
        return best
    }

    /// Fires every timer due at `now` (monotonic µs), in deadline order: repeats, long-presses,
    /// chord windows, lost key-ups, the end of an edit stream. A late tick sends one repeat per
    /// held command, never a burst.
    public mutating func tick(now: Int64) -> [MappedCommand] {
        // Every frame ticks first: when nothing is due (`nextDeadline` covers the same timers as
        // `dueTimer`), skip sorting the holds and pending keys.
        guard let earliest = nextDeadline, earliest <= now else { return [] }
        var output: [MappedCommand] = []
        while let (deadline, timer) = dueTimer(now) {
            switch timer {
            case .repeat(let source):
                guard var hold = holds[source] else { continue }
                let elapsed = deadline - hold.pressMono
                output.append(MappedCommand(command: hold.command, phase: .repeat, eventTimeUsec: hold.pressKernel + elapsed))
                let fast = elapsed >= Int64(settings.repeat.fastAfterMs) * 1000
                let interval = Int64(fast ? settings.repeat.fastIntervalMs : settings.repeat.intervalMs) * 1000
                var next = deadline + interval
                if next <= now { next = now + interval }
                hold.nextRepeat = next
                holds[source] = hold
            case .watchdog(let source):
                guard let hold = holds[source] else { continue }
                output += release(source, kernel: hold.lastKernel + (deadline - hold.lastMono))
                if case .key(let code) = source { absorbed.insert(code) }
            case .chord(let code):
                output += chordWindowExpired(code, deadline: deadline)
            case .long(let code):
                output += longPressFired(code, deadline: deadline)
            case .editIdle:
                guard let stream = edit else { continue }
                output.append(crownRelease(time: stream.lastKernel + (deadline - stream.lastMono)))
                edit = nil
            }
        }
        return output
    }
}

/// The earlier of two optional times (nil: none). The input thread's next deadline is looked for
/// after every frame and wake-up (`DeviceMapper.nextDeadline`, the input loop's timers) without
/// building an array.
package func earlier(_ a: Int64?, _ b: Int64?) -> Int64? {
    guard let a else { return b }
    guard let b else { return a }
    return min(a, b)
}

extension DeviceMapper {
    /// The key and button codes this mapping uses: mapped to a command, part of a chord or a
    /// long-press, a Shift that turns Tab into `previous`, or a raw button of the pad's SDL
    /// mapping. None of them is ever passed through (input.md §11).
    public var usedKeys: Set<UInt16> {
        var used = Set(commands.keys)
        for chord in settings.chords { used.formUnion(chord.codes) }
        for longPress in settings.longPresses { used.insert(longPress.code) }
        if commands[EventCode.KEY_TAB] != nil { used.formUnion(Self.shiftKeys) }
        if let translator { used.formUnion(translator.rawButtons) }
        return used
    }

    /// The keys the device's pass-through device carries (input.md §11): the device's keys its
    /// mapping does not use, narrowed by the profile's `passthrough`; empty: no pass-through.
    public var passthroughKeys: Set<UInt16> {
        let free = identity.capabilities.keys.subtracting(usedKeys)
        switch settings.passthrough {
        case .unmapped: return free
        case .none: return []
        case .keys(let chosen): return free.intersection(chosen)
        }
    }
}
