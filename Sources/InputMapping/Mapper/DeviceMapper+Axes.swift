// The gamepad's hat (D-pad) and left stick: thresholds with hysteresis, the four-way restrictor,
// held directions repeating like keys.

extension DeviceMapper {
    func hatCommand(_ axis: Int, _ value: Int32) -> String? {
        switch (axis, value) {
        case (0, -1): "left"
        case (0, 1): "right"
        case (1, -1): "up"
        case (1, 1): "down"
        default: nil
        }
    }

    mutating func updateHat(_ axis: Int, now: Int64) -> [MappedCommand] {
        let wanted = hatCommand(axis, hatValues[axis])
        if hatNeedsNeutral[axis] {
            guard wanted == nil else { return [] }
            hatNeedsNeutral[axis] = false
        }
        if holds[.hat(axis)]?.command == wanted { return [] }
        var output = release(.hat(axis), kernel: hatTime)
        if let wanted { output.append(press(.hat(axis), wanted, mono: now, kernel: hatTime, fromKey: false)) }
        return output
    }

    static func stickCommand(axis: Int, positive: Bool) -> String {
        axis == 0 ? (positive ? "right" : "left") : (positive ? "down" : "up")
    }

    /// The axis and sign a stick command stands for.
    static func stickDirection(_ command: String) -> (axis: Int, sign: Double) {
        switch command {
        case "left": (0, -1)
        case "right": (0, 1)
        case "up": (1, -1)
        default: (1, 1)
        }
    }

    /// How far the other axis must lead before a held four-way direction switches to it, so a
    /// stick resting on the diagonal does not chatter between two directions.
    static let diagonalMargin = 0.15

    var pressThreshold: Double { settings.stick.pressPercent / 100 }
    var releaseThreshold: Double { settings.stick.releasePercent / 100 }

    mutating func updateStick(now: Int64) -> [MappedCommand] {
        let x = stickValues[0]
        let y = stickValues[1]
        if stickNeedsNeutral {
            guard abs(x) < releaseThreshold && abs(y) < releaseThreshold else { return [] }
            stickNeedsNeutral = false
        }
        var output: [MappedCommand] = []
        guard settings.stick.fourWay else {
            for axis in 0..<2 {
                let value = stickValues[axis]
                let held = holds[.stickAxis(axis)]
                if let held {
                    let (_, sign) = Self.stickDirection(held.command)
                    if value * sign >= releaseThreshold { continue }
                    output += release(.stickAxis(axis), kernel: stickTime)
                }
                if abs(value) > pressThreshold {
                    output.append(press(.stickAxis(axis), Self.stickCommand(axis: axis, positive: value > 0), mono: now, kernel: stickTime, fromKey: false))
                }
            }
            return output
        }
        if let held = holds[.stick] {
            let (axis, sign) = Self.stickDirection(held.command)
            let along = stickValues[axis] * sign
            let across = abs(stickValues[1 - axis])
            if along >= releaseThreshold && !(across > pressThreshold && across > along + Self.diagonalMargin) {
                return []  // still held; the other axis has not clearly taken over
            }
            output += release(.stick, kernel: stickTime)
        }
        // Four-way restrictor: only the dominant axis may fire.
        let axis = abs(x) >= abs(y) ? 0 : 1
        let value = stickValues[axis]
        if abs(value) > pressThreshold {
            output.append(press(.stick, Self.stickCommand(axis: axis, positive: value > 0), mono: now, kernel: stickTime, fromKey: false))
        }
        return output
    }

    /// After SYN_DROPPED: release a stick direction no longer deflected, stop its repeats, and
    /// press nothing new until the stick returns to the centre.
    mutating func resyncStick(timeUsec: Int64) -> [MappedCommand] {
        var output: [MappedCommand] = []
        for source in [HoldSource.stick, .stickAxis(0), .stickAxis(1)] {
            guard let held = holds[source] else { continue }
            let (axis, sign) = Self.stickDirection(held.command)
            if stickValues[axis] * sign >= releaseThreshold {
                holds[source]?.repeatsStopped = true
                holds[source]?.nextRepeat = nil
            } else {
                output += release(source, kernel: timeUsec)
            }
        }
        let anyHeld = holds[.stick] != nil || holds[.stickAxis(0)] != nil || holds[.stickAxis(1)] != nil
        if !anyHeld && stickValues.contains(where: { abs($0) > releaseThreshold }) { stickNeedsNeutral = true }
        return output
    }
}
