// Applies an SDL gamepad mapping: raw buttons, hats and axes of a pad become the kernel's
// gamepad layout (BTN_SOUTH, BTN_DPAD_*, the left stick) before the mapper sees them.

/// A signal in the kernel gamepad layout, produced from raw events.
enum GamepadSignal: Equatable {
    case key(code: UInt16, value: Int32)
    /// Left stick axis 0 (x) or 1 (y), normalised to -1...1 beyond the axis's `flat`.
    case stick(axis: Int, value: Double)
}

/// Normalises an absolute axis value to -1...1, zero inside the kernel's `flat` dead zone.
func normalizedAxis(_ value: Int32, _ info: AxisInfo) -> Double {
    let minimum = Double(info.minimum)
    let maximum = Double(info.maximum)
    let center = (minimum + maximum) / 2
    let half = (maximum - minimum) / 2
    guard half > 0 else { return 0 }
    let flat = min(Double(max(0, info.flat)), half - 1)
    let offset = Double(value) - center
    let magnitude = max(0, abs(offset) - flat) / max(1, half - flat)
    return offset < 0 ? -min(1, magnitude) : min(1, magnitude)
}

/// Translates one device's raw events through its SDL mapping.
struct GamepadTranslator: Sendable {
    struct AxisBinding: Sendable {
        var half: GamepadMapping.Half?
        var inverted: Bool
        var target: GamepadMapping.Target
    }

    let axisInfo: [UInt16: AxisInfo]
    var buttons: [UInt16: [GamepadMapping.Target]] = [:]
    /// Raw ABS_HATnX → (direction bit, target).
    var hats: [UInt16: [(mask: Int, target: GamepadMapping.Target)]] = [:]
    var axes: [UInt16: [AxisBinding]] = [:]
    var hatValues: [UInt16: (x: Int32, y: Int32)] = [:]
    /// Target buttons driven by hats or axes, currently down.
    var derivedDown: Set<UInt16> = []
    let pressThreshold: Double
    let releaseThreshold: Double

    init(mapping: GamepadMapping, capabilities: Capabilities, stick: StickSettings) {
        axisInfo = capabilities.absoluteAxes
        pressThreshold = stick.pressPercent / 100
        releaseThreshold = stick.releasePercent / 100
        let layout = SDLJoystickLayout(capabilities)
        for binding in mapping.bindings {
            switch binding.source {
            case .button(let index) where index < layout.buttons.count:
                buttons[layout.buttons[index], default: []].append(binding.target)
            // SDL numbers every hat; one whose range is not a D-pad's (a Wii Balance Board's
            // weight sensors) drives nothing here.
            case .hat(let index, let mask) where index < layout.hats.count:
                guard capabilities.isDpadHat(layout.hats[index]) else { continue }
                hats[layout.hats[index], default: []].append((mask, binding.target))
            case .axis(let index, let half, let inverted) where index < layout.axes.count:
                axes[layout.axes[index], default: []].append(AxisBinding(half: half, inverted: inverted, target: binding.target))
            default:
                continue  // the device lacks that source: SDL ignores such a binding too
            }
        }
    }

    /// The raw key codes the mapping uses (for resync).
    var rawButtons: Set<UInt16> { Set(buttons.keys) }

    mutating func translate(_ event: InputEvent) -> [GamepadSignal] {
        switch event.type {
        case EventCode.EV_KEY:
            guard let targets = buttons[event.code] else { return [] }
            return targets.compactMap { target in
                switch target {
                case .button(let code): return .key(code: code, value: event.value)
                case .axis(let code, let half):
                    guard let axis = Self.stickAxis(code) else { return nil }
                    let pressed: Double = event.value == 0 ? 0 : (half == .negative ? -1 : 1)
                    return .stick(axis: axis, value: pressed)
                }
            }
        case EventCode.EV_ABS:
            if event.code >= EventCode.ABS_HAT0X && event.code <= EventCode.ABS_HAT3Y {
                let base = event.code - (event.code - EventCode.ABS_HAT0X) % 2
                guard let bindings = hats[base] else { return [] }
                var value = hatValues[base] ?? (0, 0)
                if event.code == base { value.x = event.value } else { value.y = event.value }
                hatValues[base] = value
                var signals: [GamepadSignal] = []
                // A stick bound to hat halves (`+leftx:h0.2,-leftx:h0.8`): the sum of its halves.
                var sticks: [Int: Double] = [:]
                // SDL's hat bits; a binding's mask may hold several (`h0.3`): it is held while any
                // of them is, as SDL binds it.
                let bits = (value.y < 0 ? 1 : 0) | (value.x > 0 ? 2 : 0) | (value.y > 0 ? 4 : 0) | (value.x < 0 ? 8 : 0)
                for (mask, target) in bindings {
                    let down = bits & mask != 0
                    switch target {
                    case .button(let code):
                        signals += setDerived(code, down)
                    case .axis(let code, let half):
                        guard let axis = Self.stickAxis(code) else { continue }
                        sticks[axis, default: 0] += down ? (half == .negative ? -1 : 1) : 0
                    }
                }
                for (axis, stick) in sticks.sorted(by: { $0.key < $1.key }) {
                    signals.append(.stick(axis: axis, value: max(-1, min(1, stick))))
                }
                return signals
            }
            guard let bindings = axes[event.code], let info = axisInfo[event.code] else { return [] }
            let raw = normalizedAxis(event.value, info)
            var signals: [GamepadSignal] = []
            for binding in bindings {
                let n = binding.inverted ? -raw : raw
                let input: Double = switch binding.half {
                case .positive: max(0, n)
                case .negative: max(0, -n)
                case nil: n
                }
                switch binding.target {
                case .button(let code):
                    let down = derivedDown.contains(code) ? input >= releaseThreshold : input > pressThreshold
                    signals += setDerived(code, down)
                case .axis(let code, let targetHalf):
                    guard let axis = Self.stickAxis(code) else { continue }
                    let value: Double = switch (binding.half, targetHalf) {
                    case (nil, nil): input
                    case (_?, nil): input * 2 - 1
                    case (nil, .positive?): (input + 1) / 2
                    case (nil, .negative?): -(input + 1) / 2
                    case (_?, .positive?): input
                    case (_?, .negative?): -input
                    }
                    signals.append(.stick(axis: axis, value: value))
                }
            }
            return signals
        default:
            return []
        }
    }

    mutating func setDerived(_ code: UInt16, _ down: Bool) -> [GamepadSignal] {
        if down && !derivedDown.contains(code) {
            derivedDown.insert(code)
            return [.key(code: code, value: 1)]
        }
        if !down && derivedDown.contains(code) {
            derivedDown.remove(code)
            return [.key(code: code, value: 0)]
        }
        return []
    }

    /// Forgets derived state (after releaseAll / resync).
    mutating func reset() {
        derivedDown.removeAll()
        hatValues.removeAll()
    }

    static func stickAxis(_ code: UInt16) -> Int? {
        switch code {
        case EventCode.ABS_X: 0
        case EventCode.ABS_Y: 1
        default: nil
        }
    }
}
