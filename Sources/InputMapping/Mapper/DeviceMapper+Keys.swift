// Keys and buttons: the command map, typing suppression, Shift+Tab, kernel repeats of remotes,
// long-press and chords.

extension DeviceMapper {
    /// The command a key press means now, nil when unmapped.
    func command(for code: UInt16, context: FocusContext) -> String? {
        if context.typingSuppressed && DefaultCommandMap.typingKeys.contains(code) { return nil }
        guard var command = commands[code] else { return nil }
        if code == EventCode.KEY_TAB && command == "next" && !shiftDown.isEmpty { command = "previous" }
        return command
    }

    func chordIndices(containing code: UInt16) -> [Int] {
        settings.chords.indices.filter { settings.chords[$0].codes.contains(code) }
    }

    func longPress(for code: UInt16) -> LongPress? {
        settings.longPresses.first { $0.code == code }
    }

    /// One EV_KEY event (value 1 press, 0 release, 2 kernel repeat).
    mutating func key(_ code: UInt16, value: Int32, time: Int64, now: Int64, context: FocusContext) -> [MappedCommand] {
        if Self.shiftKeys.contains(code) {
            if value == 0 { shiftDown.remove(code) } else { shiftDown.insert(code) }
        }
        switch value {
        case 1: return keyDown(code, time: time, now: now, context: context)
        case 0: return keyUp(code, time: time, now: now)
        default: return keyRepeat(code, time: time, now: now)
        }
    }

    mutating func keyDown(_ code: UInt16, time: Int64, now: Int64, context: FocusContext) -> [MappedCommand] {
        var output: [MappedCommand] = []
        absorbed.remove(code)
        // A second press without a key-up (a lost key-up): end the first one.
        if holds[.key(code)] != nil { output += release(.key(code), kernel: time) }
        if pending[code] != nil { output += keyUp(code, time: time, now: now) }

        let typing = context.typingSuppressed && DefaultCommandMap.typingKeys.contains(code)
        let shortCommand = command(for: code, context: context)
        let chords = typing ? [] : chordIndices(containing: code)
        let long = typing ? nil : longPress(for: code)

        if !chords.isEmpty {
            // Complete a chord whose other keys are pending within their window.
            for index in chords {
                let others = settings.chords[index].codes.filter { $0 != code }
                if others.allSatisfy({ pending[$0]?.chordDeadline != nil }) {
                    for other in others { pending[other] = nil }
                    chordMembers[index] = Set(settings.chords[index].codes)
                    output.append(press(.chord(index), settings.chords[index].command, mono: now, kernel: time, fromKey: true))
                    return output
                }
            }
            let window = chords.map { settings.chords[$0].windowMs }.max()!
            pending[code] = PendingKey(
                code: code, pressMono: now, pressKernel: time, shortCommand: shortCommand,
                chordDeadline: now + Int64(window) * 1000, longPress: long, longDeadline: nil)
            return output
        }
        if let long {
            pending[code] = PendingKey(
                code: code, pressMono: now, pressKernel: time, shortCommand: shortCommand,
                chordDeadline: nil, longPress: long, longDeadline: now + Int64(long.durationMs) * 1000)
            return output
        }
        guard let shortCommand else { return output }
        output.append(press(.key(code), shortCommand, mono: now, kernel: time, fromKey: true))
        return output
    }

    mutating func keyUp(_ code: UInt16, time: Int64, now: Int64) -> [MappedCommand] {
        if absorbed.remove(code) != nil { return [] }
        if let waiting = pending.removeValue(forKey: code) {
            // Released before its chord window or long-press ended: a short press.
            guard let command = waiting.shortCommand else { return [] }
            return [
                MappedCommand(command: command, phase: .press, eventTimeUsec: waiting.pressKernel),
                MappedCommand(command: command, phase: .release, eventTimeUsec: time),
            ]
        }
        for (index, members) in chordMembers where members.contains(code) {
            var remaining = members
            remaining.remove(code)
            chordMembers[index] = remaining.isEmpty ? nil : remaining
            return release(.chord(index), kernel: time)
        }
        return release(.key(code), kernel: time)
    }

    mutating func keyRepeat(_ code: UInt16, time: Int64, now: Int64) -> [MappedCommand] {
        // Keyboards, pads, knobs: focusd times its own repeats; kernel repeats are ignored.
        guard kernelDrivenKeys, !absorbed.contains(code) else { return [] }
        var source = HoldSource.key(code)
        if holds[source] == nil, let chord = chordMembers.first(where: { $0.value.contains(code) })?.key {
            source = .chord(chord)
        }
        guard var hold = holds[source] else { return [] }
        hold.lastMono = now
        hold.lastKernel = time
        if hold.watchdog != nil { hold.watchdog = now + Int64(settings.repeat.keyUpTimeoutMs) * 1000 }
        holds[source] = hold
        // A chord repeats once per repeat frame, not once per key in it.
        if case .chord(let index) = source, settings.chords[index].codes.first != code { return [] }
        guard repeats(hold.command), !hold.repeatsStopped else { return [] }
        return [MappedCommand(command: hold.command, phase: .repeat, eventTimeUsec: time)]
    }

    /// A pending key's chord window ended without the chord: it is a plain key (or a long-press).
    mutating func chordWindowExpired(_ code: UInt16, deadline: Int64) -> [MappedCommand] {
        guard var waiting = pending[code] else { return [] }
        waiting.chordDeadline = nil
        if let long = waiting.longPress {
            waiting.longDeadline = waiting.pressMono + Int64(long.durationMs) * 1000
            pending[code] = waiting
            return []
        }
        pending[code] = nil
        guard let command = waiting.shortCommand else {
            absorbed.insert(code)
            return []
        }
        return [press(.key(code), command, mono: waiting.pressMono, kernel: waiting.pressKernel, fromKey: true)]
    }

    /// A key with a long-press was held long enough: its long command is pressed.
    mutating func longPressFired(_ code: UInt16, deadline: Int64) -> [MappedCommand] {
        guard let waiting = pending.removeValue(forKey: code), let long = waiting.longPress else { return [] }
        let kernel = waiting.pressKernel + (deadline - waiting.pressMono)
        return [press(.key(code), long.command, mono: deadline, kernel: kernel, fromKey: true)]
    }
}
