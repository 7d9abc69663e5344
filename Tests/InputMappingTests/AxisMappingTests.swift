import FocusConfig
import Testing

@testable import InputMapping

// The default buttons, the hat and D-pad buttons, stick hysteresis, the four-way restrictor and the
// stick's repeat are shown as text in Scenarios/gamepad-*.scenario (ScenarioTests.swift).
@Suite("Gamepads: buttons, D-pad, stick, SDL mappings")
struct AxisMappingTests {
    @Test("the kernel's flat widens the dead zone the thresholds are measured beyond")
    func flat() {
        var pad = TestDevices.xbox360
        pad.capabilities.absoluteAxes[E.ABS_Y] = AxisInfo(minimum: -32768, maximum: 32767, flat: 8000)
        var rig = Rig(pad)
        // 50 % of (32767.5 - 8000) beyond 8000 → about 20384.
        #expect(rig.frame([(E.EV_ABS, E.ABS_Y, 19_000)]).isEmpty)
        #expect(rig.frame([(E.EV_ABS, E.ABS_Y, 21_000)]) == ["down press 0"])
    }

    @Test("without the restrictor both axes fire on a diagonal")
    func eightWay() {
        var profile = Profile(name: "diagonals")
        profile.stick.fourWay = false
        var rig = Rig(TestDevices.xbox360, profile: profile)
        #expect(Set(rig.frame([(E.EV_ABS, E.ABS_X, 30_000), (E.EV_ABS, E.ABS_Y, -30_000)])) == ["right press 0", "up press 0"])
    }

    @Test("resync after SYN_DROPPED: a stick back at the centre is released, a stick pushed meanwhile presses nothing")
    func stickResync() {
        var rig = Rig(TestDevices.xbox360)
        _ = rig.frame([(E.EV_ABS, E.ABS_X, 32767)])
        let released = Rig.describe(rig.mapper.resync(keysDown: [], absValues: [E.ABS_X: 0, E.ABS_Y: 32767], timeUsec: rig.kernelNow))
        #expect(released == ["right release 0"])
        #expect(rig.frame([(E.EV_ABS, E.ABS_Y, 32000)]).isEmpty)  // still out: no phantom press
        #expect(rig.frame([(E.EV_ABS, E.ABS_Y, 0)]).isEmpty)
        #expect(rig.frame([(E.EV_ABS, E.ABS_Y, 32000)]) == ["down press 0"])
    }

    @Test("resync: the hat released during the drop is released, nothing repeats after it")
    func hatResync() {
        var rig = Rig(TestDevices.xbox360)
        _ = rig.frame([(E.EV_ABS, E.ABS_HAT0X, -1)])
        let released = Rig.describe(rig.mapper.resync(keysDown: [], absValues: [E.ABS_HAT0X: 0, E.ABS_HAT0Y: 0], timeUsec: rig.kernelNow))
        #expect(released == ["left release 0"])
        #expect(rig.advance(ms: 2000).isEmpty)
    }

    static let genericMapping =
        "03000000790000000600000010010000,Generic USB Joystick,a:b2,b:b1,x:b3,y:b0,back:b8,start:b9,"
        + "leftshoulder:b4,rightshoulder:b5,dpup:h0.1,dpdown:h0.4,dpleft:h0.8,dpright:h0.2,leftx:a0,lefty:a1,platform:Linux,"

    @Test("an SDL mapping string parses: buttons, hats, axes, halves and inversion")
    func sdlParse() throws {
        let mapping = try GamepadMapping.parse(Self.genericMapping)
        #expect(mapping.name == "Generic USB Joystick")
        #expect(mapping.bindings.count == 14)
        #expect(mapping.bindings.contains(.init(target: .button(E.BTN_SOUTH), source: .button(2))))
        #expect(mapping.bindings.contains(.init(target: .button(E.BTN_DPAD_LEFT), source: .hat(0, mask: 8))))
        #expect(mapping.bindings.contains(.init(target: .axis(E.ABS_Y, half: nil), source: .axis(1, half: nil, inverted: false))))
        #expect(mapping.vendorProduct?.vendor == 0x0079 && mapping.vendorProduct?.product == 0x0006)
        let halves = try GamepadMapping.parse("03000000000000000000000000000000,x,a:+a2,dpup:-a1~,-leftx:a3")
        #expect(halves.bindings == [
            .init(target: .button(E.BTN_SOUTH), source: .axis(2, half: .positive, inverted: false)),
            .init(target: .button(E.BTN_DPAD_UP), source: .axis(1, half: .negative, inverted: true)),
            .init(target: .axis(E.ABS_X, half: .negative), source: .axis(3, half: nil, inverted: false)),
        ])
    }

    @Test("bad SDL mapping strings are rejected with the field at fault")
    func sdlErrors() {
        let cases: [(String, String)] = [
            ("xyz,name,a:b0", "GUID"),
            ("03000000790000000600000010010000,name,dpup:h0.16", "hat source"),
            ("03000000790000000600000010010000", "GUID,name"),
        ]
        for (text, fragment) in cases {
            #expect(throws: ConfigError.self) { try GamepadMapping.parse(text) }
            do {
                _ = try GamepadMapping.parse(text)
            } catch {
                #expect(error.message.contains(fragment), "\(error.message)")
            }
        }
    }

    @Test("SDL numbering follows SDL's Linux backend: BTN_JOYSTICK and up first, hats not counted as axes")
    func sdlLayout() {
        let layout = SDLJoystickLayout(TestDevices.genericPad.capabilities)
        #expect(layout.buttons.first == E.BTN_TRIGGER)
        #expect(layout.buttons[2] == E.BTN_THUMB2)
        #expect(layout.axes == [E.ABS_X, E.ABS_Y, E.ABS_Z, E.ABS_RZ])
        #expect(layout.hats == [E.ABS_HAT0X])
        var mixed = Capabilities(keys: [E.BTN_0, E.BTN_SOUTH, E.KEY_A])
        mixed.absoluteAxes = [E.ABS_HAT1X: AxisInfo(minimum: -1, maximum: 1)]
        let second = SDLJoystickLayout(mixed)
        #expect(second.buttons == [E.BTN_SOUTH, E.KEY_A, E.BTN_0])
        #expect(second.hats == [E.ABS_HAT1X])
    }

    @Test("a pad with an SDL mapping: its raw buttons, hat and axes become select, back, directions")
    func sdlApplied() throws {
        var profile = Profile(name: "generic")
        profile.gamepadMapping = try GamepadMapping.parse(Self.genericMapping)
        var rig = Rig(TestDevices.genericPad, profile: profile)
        // b2 = the third button in SDL order = BTN_THUMB2 → a → select.
        #expect(Rig.names(rig.key(E.BTN_THUMB2, 1) + rig.key(E.BTN_THUMB2, 0)) == ["select press", "select release"])
        #expect(Rig.names(rig.key(E.BTN_THUMB, 1) + rig.key(E.BTN_THUMB, 0)) == ["back press", "back release"])
        // b0 = BTN_TRIGGER → y: not a command; the raw code's own meaning is gone.
        #expect(rig.key(E.BTN_TRIGGER, 1).isEmpty)
        // h0.8 = hat 0 left.
        #expect(Rig.names(rig.frame([(E.EV_ABS, E.ABS_HAT0X, -1)])) == ["left press"])
        #expect(Rig.names(rig.frame([(E.EV_ABS, E.ABS_HAT0X, 0)])) == ["left release"])
        // a1 = ABS_Y (0...255, flat 15) → lefty.
        #expect(Rig.names(rig.frame([(E.EV_ABS, E.ABS_Y, 255)])) == ["down press"])
        #expect(Rig.names(rig.frame([(E.EV_ABS, E.ABS_Y, 128)])) == ["down release"])
    }

    @Test("an SDL axis half bound to a button presses past the threshold, with hysteresis")
    func sdlAxisButton() throws {
        var profile = Profile(name: "trigger as A")
        profile.gamepadMapping = try GamepadMapping.parse("03000000790000000600000010010000,pad,a:+a2,dpup:-a1")
        var rig = Rig(TestDevices.genericPad, profile: profile)
        #expect(rig.frame([(E.EV_ABS, E.ABS_Z, 150)]).isEmpty)
        #expect(Rig.names(rig.frame([(E.EV_ABS, E.ABS_Z, 250)])) == ["select press"])
        #expect(rig.frame([(E.EV_ABS, E.ABS_Z, 180)]).isEmpty)
        #expect(Rig.names(rig.frame([(E.EV_ABS, E.ABS_Z, 130)])) == ["select release"])
        #expect(Rig.names(rig.frame([(E.EV_ABS, E.ABS_Y, 0)])) == ["up press"])
    }

    @Test("touchpad gestures: a swipe moves along its dominant axis, a tap selects")
    func gestures() {
        var rig = Rig(TestDevices.touchpad)
        func run(_ gesture: Gesture) -> [String] {
            Rig.describe(rig.mapper.process(gesture: gesture, now: rig.now, context: rig.context))
        }
        #expect(run(.swipe(dx: 30, dy: -5, timeUsec: Rig.epoch + 7000)) == ["right press 7", "right release 7"])
        #expect(run(.swipe(dx: -3, dy: -40, timeUsec: Rig.epoch)) == ["up press 0", "up release 0"])
        #expect(run(.swipe(dx: -20, dy: 19, timeUsec: Rig.epoch)) == ["left press 0", "left release 0"])
        #expect(run(.swipe(dx: 2, dy: 50, timeUsec: Rig.epoch)) == ["down press 0", "down release 0"])
        #expect(run(.tap(timeUsec: Rig.epoch)) == ["select press 0", "select release 0"])
        #expect(run(.swipe(dx: 0, dy: 0, timeUsec: Rig.epoch)).isEmpty)
    }
}

