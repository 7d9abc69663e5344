import Testing

@testable import InputMapping

@Suite("Device classification")
struct DeviceClassifierTests {
    @Test("a USB keyboard is a keyboard, shared, read by libevdev")
    func usbKeyboard() {
        #expect(DeviceClassifier.classify(TestDevices.usbKeyboard) == .keyboard)
        let settings = ProfileMatcher(profiles: []).settings(for: TestDevices.usbKeyboard)
        #expect(settings.grab == .shared)
        #expect(settings.backend == .libevdev)
    }

    @Test("a keyboard's consumer-control node is a keyboard, not a remote, though it has remote keys")
    func consumerControl() {
        #expect(DeviceClassifier.classify(TestDevices.usbKeyboardConsumer) == .keyboard)
        var bare = TestDevices.usbKeyboardConsumer
        bare.udevProperties = [:]
        #expect(DeviceClassifier.classify(bare) == .keyboard)
    }

    @Test("an rc-core IR receiver is a remote, grabbed exclusively, its kernel repeats are the repeats")
    func irRemote() {
        #expect(DeviceClassifier.classify(TestDevices.irRemote) == .remote)
        var bare = TestDevices.irRemote
        bare.udevProperties = [:]
        #expect(DeviceClassifier.classify(bare) == .remote)
        let settings = ProfileMatcher(profiles: []).settings(for: TestDevices.irRemote)
        #expect(settings.grab == .exclusive)
        #expect(settings.kernelRepeat)
    }

    @Test("an Xbox 360 pad is a gamepad with and without udev")
    func xbox() {
        #expect(DeviceClassifier.classify(TestDevices.xbox360) == .gamepad)
        var bare = TestDevices.xbox360
        bare.udevProperties = [:]
        #expect(DeviceClassifier.classify(bare) == .gamepad)
        #expect(DeviceClassifier.classify(TestDevices.genericPad) == .gamepad)
        #expect(DeviceClassifier.defaultGrab(for: .gamepad) == .exclusive)
    }

    @Test("udev's ID_INPUT_FOCUSD_ROTARY=1 makes any node a rotary knob taken exclusively, e.g. one udev calls a mouse")
    func rotaryHintFromUdev() {
        var encoder = DeviceIdentity(
            name: "gpio-knob", bus: 0x19, capabilities: Capabilities(relativeAxes: [EventCode.REL_X]),
            udevProperties: ["ID_INPUT": "1", "ID_INPUT_MOUSE": "1"])
        let untagged = DeviceClassifier.classification(encoder)
        #expect(untagged.deviceClass == .rotary && untagged.grab == .shared)
        encoder.udevProperties["ID_INPUT_FOCUSD_ROTARY"] = "1"
        let tagged = DeviceClassifier.classification(encoder)
        #expect(tagged.deviceClass == .rotary && tagged.grab == .exclusive)
        #expect(tagged.reasons.contains { $0.contains("ID_INPUT_FOCUSD_ROTARY=1") })
    }

    @Test("a PowerMate and a Surface Dial are rotary knobs; their push button rides along")
    func knobs() {
        #expect(DeviceClassifier.classify(TestDevices.powerMate) == .rotary)
        #expect(DeviceClassifier.classify(TestDevices.surfaceDial) == .rotary)
        #expect(DeviceClassifier.classify(TestDevices.absoluteKnob) == .rotary)
        #expect(DeviceClassifier.classify(TestDevices.gpioEncoder) == .rotary)
        #expect(DeviceSettings(deviceClass: .rotary).commands[E.BTN_0] == "select")
        #expect(DeviceSettings(deviceClass: .rotary).commands[E.BTN_LEFT] == "select")
        #expect(DeviceSettings(deviceClass: .pointer).commands[E.BTN_LEFT] == nil)
    }

    @Test("a wheel mouse is a pointer whose wheel is a crown")
    func mouse() {
        #expect(DeviceClassifier.classify(TestDevices.hiResMouse) == .pointer)
        var bare = TestDevices.hiResMouse
        bare.udevProperties = [:]
        #expect(DeviceClassifier.classify(bare) == .pointer)
        #expect(RotaryKind.detect(TestDevices.hiResMouse, deviceClass: .pointer) == .hiResWheel)
        #expect(RotaryKind.detect(TestDevices.oldMouse, deviceClass: .pointer) == .wheel)
    }

    @Test("a touchpad is a touchpad read by libinput, with or without udev")
    func touchpad() {
        #expect(DeviceClassifier.classify(TestDevices.touchpad) == .touchpad)
        var bare = TestDevices.touchpad
        bare.udevProperties = [:]
        #expect(DeviceClassifier.classify(bare) == .touchpad)
        #expect(DeviceClassifier.backend(for: .touchpad) == .libinput)
    }

    @Test("a touchscreen (INPUT_PROP_DIRECT) is not a touchpad")
    func touchscreen() {
        var screen = TestDevices.touchpad
        screen.udevProperties = ["ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1"]
        screen.capabilities.properties = [E.INPUT_PROP_DIRECT]
        #expect(DeviceClassifier.classify(screen) == .other)
        screen.udevProperties = [:]
        #expect(DeviceClassifier.classify(screen) != .touchpad)
    }

    @Test("a laptop keyboard is a keyboard and its hotkeys node is other")
    func laptop() {
        #expect(DeviceClassifier.classify(TestDevices.laptopKeyboard) == .keyboard)
        #expect(DeviceClassifier.classify(TestDevices.laptopHotkeys) == .other)
    }

    @Test("a pen tablet's ABS_WHEEL does not make it a knob")
    func tablet() {
        let tablet = DeviceIdentity(
            name: "Wacom Intuos Pen", capabilities: Capabilities(
                keys: [E.BTN_TOOL_PEN, E.BTN_STYLUS, E.BTN_TOUCH],
                absoluteAxes: [E.ABS_X: AxisInfo(minimum: 0, maximum: 15200), E.ABS_Y: AxisInfo(minimum: 0, maximum: 9500),
                    E.ABS_WHEEL: AxisInfo(minimum: 0, maximum: 1023), E.ABS_PRESSURE: AxisInfo(minimum: 0, maximum: 2047)]))
        #expect(DeviceClassifier.classify(tablet) != .rotary)
    }

    @Test("FOCUSD_IGNORE=1 from udev marks the device ignored")
    func ignoredByUdev() {
        var remote = TestDevices.irRemote
        remote.udevProperties["FOCUSD_IGNORE"] = "1"
        let settings = ProfileMatcher(profiles: []).settings(for: remote)
        #expect(settings.ignored)
        #expect(settings.ignoreReason?.contains("FOCUSD_IGNORE") == true)
        #expect(!ProfileMatcher(profiles: []).settings(for: TestDevices.irRemote).ignored)
    }

    @Test("a device with no keys or axes is other")
    func empty() {
        #expect(DeviceClassifier.classify(DeviceIdentity(name: "Power Button", capabilities: Capabilities(keys: [E.KEY_POWER]))) == .other)
        #expect(DeviceClassifier.classify(DeviceIdentity(name: "nothing")) == .other)
    }
}

@Suite("Event code names")
struct EventCodeTests {
    @Test("names resolve to the kernel's codes and back, aliases included")
    func names() {
        #expect(EventCode.named("KEY_ENTER") == .init(type: E.EV_KEY, code: 28))
        #expect(EventCode.named("BTN_SOUTH") == .init(type: E.EV_KEY, code: 0x130))
        #expect(EventCode.named("BTN_A") == .init(type: E.EV_KEY, code: 0x130))
        #expect(EventCode.named("REL_DIAL") == .init(type: E.EV_REL, code: 7))
        #expect(EventCode.named("ABS_HAT0X") == .init(type: E.EV_ABS, code: 0x10))
        #expect(EventCode.named("INPUT_PROP_POINTER") == .init(type: EventCode.PROPERTY, code: 0))
        #expect(EventCode.named("KEY_OK") == .init(type: E.EV_KEY, code: 0x160))
        #expect(EventCode.named("KEY_NOPE") == nil)
        #expect(EventCode.name(type: E.EV_KEY, code: 0x130) == "BTN_SOUTH")
        #expect(EventCode.name(type: E.EV_KEY, code: 0x100) == "BTN_0")
        #expect(EventCode.name(type: E.EV_REL, code: E.REL_WHEEL_HI_RES) == "REL_WHEEL_HI_RES")
        #expect(E.SYN_DROPPED == 3 && E.EV_KEY == 1 && E.EV_REL == 2 && E.EV_ABS == 3)
    }
}
