import Testing

@testable import InputMapping

/// Random but reproducible input (a linear congruential generator: no dependency, same sequence
/// on every run) checked against the rule "every press gets exactly one release, and nothing
/// repeats while nothing is held".
@Suite("Press/release invariant under random input")
struct PressReleaseInvariantTests {
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    /// Checks the commands: per command, presses minus releases never negative, repeats only while
    /// held; returns the balance per command.
    static func check(_ commands: [MappedCommand], balance: inout [String: Int], step: Int) {
        for command in commands where command.command != "crown" {
            switch command.phase {
            case .press: balance[command.command, default: 0] += 1
            case .release:
                balance[command.command, default: 0] -= 1
                #expect(balance[command.command, default: 0] >= 0, "step \(step): release of \(command.command) without a press")
            case .repeat:
                #expect(balance[command.command, default: 0] > 0, "step \(step): repeat of \(command.command) while not held")
            case .rotate:
                Issue.record("step \(step): rotate from a non-crown command")
            }
        }
    }

    static func run(_ identity: DeviceIdentity, profile: Profile?, keys: [UInt16], axes: [(UInt16, [Int32])], seed: UInt64) {
        var random = Generator(state: seed)
        var rig = Rig(identity, profile: profile)
        var down: Set<UInt16> = []
        var axisValues: [UInt16: Int32] = [:]
        var balance: [String: Int] = [:]
        for step in 0..<4000 {
            var commands: [MappedCommand] = []
            switch random.next(20) {
            case 0..<8:
                let code = keys[random.next(keys.count)]
                let value: Int32
                if down.contains(code) {
                    value = random.next(3) == 0 ? 0 : 2
                } else {
                    value = 1
                }
                if value == 0 { down.remove(code) } else { down.insert(code) }
                commands = rig.mapper.process(
                    [InputEvent(type: E.EV_KEY, code: code, value: value, timeUsec: rig.kernelNow)], now: rig.now, context: rig.context)
            case 8..<12 where !axes.isEmpty:
                let (code, values) = axes[random.next(axes.count)]
                let value = values[random.next(values.count)]
                axisValues[code] = value
                commands = rig.mapper.process(
                    [InputEvent(type: E.EV_ABS, code: code, value: value, timeUsec: rig.kernelNow)], now: rig.now, context: rig.context)
            case 12:
                // SYN_DROPPED: some keys change while events are lost, then resync.
                if let code = keys.randomElement(using: &random), random.next(2) == 0 {
                    if down.contains(code) { down.remove(code) } else { down.insert(code) }
                }
                if random.next(2) == 0 { commands += rig.mapper.releaseAll(timeUsec: rig.kernelNow) }
                commands += rig.mapper.resync(keysDown: down, absValues: axisValues, timeUsec: rig.kernelNow)
            case 13:
                rig.context = FocusContext(typingSuppressed: random.next(2) == 0, editing: random.next(2) == 0)
            default:
                let ms = Int64([1, 20, 60, 150, 450, 900, 2500][random.next(7)])
                let target = rig.now + ms * 1000
                while let deadline = rig.mapper.nextDeadline, deadline <= target {
                    rig.now = max(rig.now, deadline)
                    commands += rig.mapper.tick(now: rig.now)
                }
                rig.now = target
            }
            check(commands, balance: &balance, step: step)
            #expect(commands.allSatisfy { $0.eventTimeUsec <= rig.kernelNow }, "step \(step): a command from the future")
        }
        // Unplug: everything still held is released, and nothing follows.
        check(rig.mapper.releaseAll(timeUsec: rig.kernelNow), balance: &balance, step: -1)
        #expect(balance.values.allSatisfy { $0 == 0 }, "unbalanced after unplug: \(balance.filter { $0.value != 0 })")
        #expect(rig.mapper.nextDeadline == nil)
    }

    @Test("keyboard with long-press and chords", arguments: [1, 2, 3] as [UInt64])
    func keyboard(seed: UInt64) {
        var profile = Profile(name: "extras")
        profile.longPresses = [LongPress(code: E.KEY_ESC, command: "home", durationMs: 800)]
        profile.chords = [Chord(codes: [E.KEY_LEFTCTRL, E.KEY_UP], command: "channelUp")]
        Self.run(
            TestDevices.usbKeyboard, profile: profile,
            keys: [E.KEY_UP, E.KEY_DOWN, E.KEY_TAB, E.KEY_LEFTSHIFT, E.KEY_ENTER, E.KEY_ESC, E.KEY_SPACE, E.KEY_LEFTCTRL, E.KEY_A],
            axes: [], seed: seed)
    }

    @Test("IR remote with kernel repeats and lost key-ups", arguments: [4, 5] as [UInt64])
    func remote(seed: UInt64) {
        var profile = Profile(name: "remote")
        profile.longPresses = [LongPress(code: E.KEY_BACK, command: "home")]
        Self.run(
            TestDevices.irRemote, profile: profile,
            keys: [E.KEY_UP, E.KEY_LEFT, E.KEY_OK, E.KEY_BACK, E.KEY_CHANNELUP], axes: [], seed: seed)
    }

    @Test("gamepad: buttons, hat and stick", arguments: [6, 7] as [UInt64])
    func gamepad(seed: UInt64) {
        let stick: [Int32] = [-32768, -20000, -15000, -12000, 0, 12000, 15000, 17000, 32767]
        Self.run(
            TestDevices.xbox360, profile: nil,
            keys: [E.BTN_SOUTH, E.BTN_EAST, E.BTN_DPAD_UP, E.BTN_TR],
            axes: [(E.ABS_X, stick), (E.ABS_Y, stick), (E.ABS_HAT0X, [-1, 0, 1]), (E.ABS_HAT0Y, [-1, 0, 1])], seed: seed)
    }
}

extension Array {
    func randomElement(using generator: inout PressReleaseInvariantTests.Generator) -> Element? {
        isEmpty ? nil : self[generator.next(count)]
    }
}
