import Testing

@testable import InputMapping

@Suite("Rotary: detents, acceleration, editing")
struct RotaryTests {
    /// Turns `counts` per frame, `frames` times, `intervalMs` apart; returns the crown commands.
    static func turn(_ rig: inout Rig, code: UInt16, type: UInt16 = E.EV_REL, counts: Int32, frames: Int, intervalMs: Int64) -> [String] {
        var output: [String] = []
        for _ in 0..<frames {
            output += rig.advance(ms: intervalMs)
            output += rig.frame([(type, code, counts)])
        }
        return output
    }

    static func detents(_ commands: [String]) -> Int {
        commands.filter { $0.hasPrefix("crown rotate") }.map { Int($0.split(separator: " ")[2])! }.reduce(0, +)
    }

    @Test("PowerMate: fast turning accelerates, one detent moving several items")
    func powerMateFast() {
        var rig = Rig(TestDevices.powerMate)
        // 4 counts every 20 ms: 50 detents/s.
        let output = Self.turn(&rig, code: E.REL_DIAL, counts: 4, frames: 10, intervalMs: 20)
        #expect(output.count == 10)
        #expect(Self.detents(output) > 10)
        #expect(output.last == "crown rotate 4 200")  // capped at accelerationMax
    }

    @Test("after a pause, a fast turn accelerates from its second detent: the pause does not dilute the speed")
    func fastTurnAfterPause() {
        var rig = Rig(TestDevices.powerMate)
        _ = Self.turn(&rig, code: E.REL_DIAL, counts: 4, frames: 1, intervalMs: 20)
        _ = rig.advance(ms: 3_000)
        // 4 counts (one detent) every 20 ms: 50 detents/s.
        let output = Self.turn(&rig, code: E.REL_DIAL, counts: 4, frames: 3, intervalMs: 20)
        #expect(Self.detents(Array(output.dropFirst())) > 2)
    }

    // Slow turning, 100 counts per detent and the sign: Scenarios/surface-dial-slow-turn.scenario.
    @Test("Surface Dial: recognised as one, and fast turning accelerates")
    func surfaceDial() {
        let rig = Rig(TestDevices.surfaceDial)
        #expect(rig.mapper.rotaryKind == .surfaceDial)
        var fast = Rig(TestDevices.surfaceDial)
        let quick = Self.turn(&fast, code: E.REL_DIAL, counts: 100, frames: 10, intervalMs: 25)
        #expect(Self.detents(quick) > 10)
    }

    @Test("a hi-res wheel mouse: 120 per detent on REL_WHEEL_HI_RES, REL_WHEEL beside it ignored, wheel down is next")
    func hiResWheel() {
        var rig = Rig(TestDevices.hiResMouse)
        var output: [String] = []
        for _ in 0..<4 {
            output += rig.advance(ms: 200)
            output += rig.frame([(E.EV_REL, E.REL_WHEEL_HI_RES, -60)])
        }
        // Half-detent steps with REL_WHEEL only on whole notches, as the kernel sends them.
        #expect(output == ["crown rotate 1 400", "crown rotate 1 800"])
        #expect(rig.frame([(E.EV_REL, E.REL_WHEEL, -1), (E.EV_REL, E.REL_WHEEL_HI_RES, -120)]).count == 1)
        var fast = Rig(TestDevices.hiResMouse)
        let quick = Self.turn(&fast, code: E.REL_WHEEL_HI_RES, counts: -120, frames: 10, intervalMs: 20)
        #expect(Self.detents(quick) > 10)
    }

    @Test("an old wheel mouse: REL_WHEEL 1 per detent, wheel up is previous (negative)")
    func plainWheel() {
        var rig = Rig(TestDevices.oldMouse)
        _ = rig.advance(ms: 500)
        #expect(rig.frame([(E.EV_REL, E.REL_WHEEL, 1)]) == ["crown rotate -1 500"])
        _ = rig.advance(ms: 500)
        #expect(rig.frame([(E.EV_REL, E.REL_WHEEL, -1)]) == ["crown rotate 1 1000"])
        var fast = Rig(TestDevices.oldMouse)
        let quick = Self.turn(&fast, code: E.REL_WHEEL, counts: -1, frames: 10, intervalMs: 25)
        #expect(quick.count == 10)
        #expect(Self.detents(quick) > 10)
    }

    @Test("a GPIO rotary encoder: 1 step × its steps-per-period per detent")
    func gpioEncoder() {
        var rig = Rig(TestDevices.gpioEncoder)
        #expect(rig.mapper.rotaryKind == .gpioEncoder(axis: E.REL_X))
        _ = rig.advance(ms: 500)
        #expect(rig.frame([(E.EV_REL, E.REL_X, 1)]) == ["crown rotate 1 500"])
        var profile = Profile(name: "encoder, 4 steps per period")
        profile.rotary.countsPerDetent = 4
        var quarter = Rig(TestDevices.gpioEncoder, profile: profile)
        let output = Self.turn(&quarter, code: E.REL_X, counts: 1, frames: 8, intervalMs: 100)
        #expect(output == ["crown rotate 1 400", "crown rotate 1 800"])
        var fast = Rig(TestDevices.gpioEncoder)
        #expect(Self.detents(Self.turn(&fast, code: E.REL_X, counts: 1, frames: 10, intervalMs: 20)) > 10)
    }

    @Test("ABS_WHEEL: range / 24 per detent, wrapping across the ends the short way")
    func absoluteWheel() {
        var rig = Rig(TestDevices.absoluteKnob)
        // 96 positions → 4 per detent.
        _ = rig.frame([(E.EV_ABS, E.ABS_WHEEL, 90)])
        var output: [String] = []
        for value: Int32 in [92, 94, 0, 2, 4] {
            output += rig.advance(ms: 200)
            output += rig.frame([(E.EV_ABS, E.ABS_WHEEL, value)])
        }
        // 90→92→94 is one detent, 94→0 wraps forward by 2, →2 completes the second.
        #expect(output == ["crown rotate 1 400", "crown rotate 1 800"])
        var fast = Rig(TestDevices.absoluteKnob)
        _ = fast.frame([(E.EV_ABS, E.ABS_WHEEL, 0)])
        var quick: [String] = []
        for step: Int32 in 1...12 {
            quick += fast.advance(ms: 20)
            quick += fast.frame([(E.EV_ABS, E.ABS_WHEEL, (step * 4) % 96)])
        }
        #expect(Self.detents(quick) > 12)
    }

    @Test("a change of direction drops the remainder")
    func directionChange() {
        var rig = Rig(TestDevices.powerMate)
        _ = rig.advance(ms: 500)
        #expect(rig.frame([(E.EV_REL, E.REL_DIAL, 3)]).isEmpty)
        _ = rig.advance(ms: 500)
        // Without dropping, -4 would leave -1 and give no detent; with the drop it is one detent back.
        #expect(rig.frame([(E.EV_REL, E.REL_DIAL, -4)]) == ["crown rotate -1 1000"])
        _ = rig.advance(ms: 500)
        #expect(rig.frame([(E.EV_REL, E.REL_DIAL, 3)]).isEmpty)
        _ = rig.advance(ms: 500)
        #expect(rig.frame([(E.EV_REL, E.REL_DIAL, 1)]) == ["crown rotate 1 2000"])
    }

    @Test("reverse flips the direction")
    func reverse() {
        var profile = Profile(name: "mirrored")
        profile.rotary.reverse = true
        var rig = Rig(TestDevices.powerMate, profile: profile)
        _ = rig.advance(ms: 500)
        #expect(rig.frame([(E.EV_REL, E.REL_DIAL, 4)]) == ["crown rotate -1 500"])
    }

    @Test("acceleration 0 turns it off")
    func noAcceleration() {
        var profile = Profile(name: "linear")
        profile.rotary.accelerationThreshold = 0
        var rig = Rig(TestDevices.powerMate, profile: profile)
        #expect(Self.detents(Self.turn(&rig, code: E.REL_DIAL, counts: 4, frames: 10, intervalMs: 20)) == 10)
    }

    @Test("editing: rotation carries detents, the remainder as fraction and velocity; 150 ms idle ends the stream")
    func editStream() {
        var rig = Rig(TestDevices.powerMate)
        rig.context = FocusContext(editing: true)
        _ = rig.advance(ms: 1000)
        let first = rig.mapper.process(
            [InputEvent(type: E.EV_REL, code: E.REL_DIAL, value: 6, timeUsec: rig.kernelNow)], now: rig.now, context: rig.context)
        #expect(first.count == 1)
        #expect(first[0].phase == .rotate && first[0].detents == 1 && first[0].fraction == 0.5)
        #expect((first[0].velocity ?? 0) > 0)
        _ = rig.advance(ms: 100)
        let second = rig.mapper.process(
            [InputEvent(type: E.EV_REL, code: E.REL_DIAL, value: 1, timeUsec: rig.kernelNow)], now: rig.now, context: rig.context)
        #expect(second.map(\.detents) == [0])
        #expect(second.map(\.fraction) == [0.75])
        #expect(rig.advance(ms: 149).isEmpty)
        #expect(rig.advance(ms: 1) == ["crown release 0 1250"])
        #expect(rig.mapper.nextDeadline == nil)
    }

    @Test("editing is not accelerated: the detents are the raw ones, velocity tells the speed")
    func editNotAccelerated() {
        var rig = Rig(TestDevices.powerMate)
        rig.context = FocusContext(editing: true)
        #expect(Self.detents(Self.turn(&rig, code: E.REL_DIAL, counts: 4, frames: 10, intervalMs: 20)) == 10)
    }

    @Test("the rotary push button selects")
    func pushButton() {
        var rig = Rig(TestDevices.powerMate)
        #expect(Rig.names(rig.key(E.BTN_0, 1) + rig.key(E.BTN_0, 0)) == ["select press", "select release"])
    }

    @Test("releaseAll ends an edit stream with a release")
    func releaseEndsEdit() {
        var rig = Rig(TestDevices.powerMate)
        rig.context = FocusContext(editing: true)
        _ = rig.frame([(E.EV_REL, E.REL_DIAL, 4)])
        #expect(Rig.describe(rig.mapper.releaseAll(timeUsec: rig.kernelNow)) == ["crown release 0 0"])
        #expect(rig.advance(ms: 500).isEmpty)
    }
}
