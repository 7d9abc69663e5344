// Classification on descriptions of real devices nobody on this project wrote (Devices/): libinput's
// 109 test devices (scripts/convert-litest-devices) and remotes from the kernel's rc keymaps and
// Bluetooth HID, each with the class and grab judged right in a `.expected` file beside it.
import FocusWire
import Testing

@testable import InputMapping

/// One line of a `.expected` file: `source | class | grab | reason`.
struct Expectation {
    var source: String
    var deviceClass: DeviceClass
    var grab: GrabMode
    var reason: String

    /// The navigation classes: a device of these must be found, on both paths.
    var isNavigation: Bool { [.remote, .gamepad, .rotary].contains(deviceClass) }
}

enum DeviceData {
    static let directory = String(#filePath).split(separator: "/").dropLast().joined(separator: "/")
        .withSlash + "Devices/"

    /// The descriptions of `NAME.json` with the expectations of `NAME.expected`, in file order.
    static func load(_ name: String) throws -> [(identity: DeviceIdentity, source: String, expected: Expectation)] {
        let identities = try DeviceDescription.load(directory + name + ".json")
        let text = String(decoding: try readFile(directory + name + ".expected", limit: 1 << 20), as: UTF8.self)
        let expectations = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: "|", maxSplits: 3).map { $0.trimmingSpaces }
            return Expectation(
                source: fields[0], deviceClass: DeviceClass(rawValue: fields[1])!, grab: GrabMode(rawValue: fields[2])!,
                reason: fields[3])
        }
        let sources = try sourceNames(name)
        #expect(identities.count == expectations.count, "\(name): one expectation per description")
        return zip(zip(identities, sources), expectations).map { pair, expected in
            #expect(pair.1.hasSuffix(expected.source) || pair.1.contains("-\(expected.source).c"), "\(name): \(pair.1) is expected as \(expected.source)")
            return (pair.0, pair.1, expected)
        }
    }

    /// The `source` of each description (the identity does not keep it).
    static func sourceNames(_ name: String) throws -> [String] {
        let text = String(decoding: try readFile(directory + name + ".json", limit: 64 << 20), as: UTF8.self)
        return text.split(separator: "\n").compactMap { (line: Substring) -> String? in
            guard let range = line.firstRange(of: "\"source\": \"") else { return nil }
            let rest: Substring = line[range.upperBound...]
            return String(rest.prefix { $0 != "\"" })
        }
    }

    /// Both paths of one description: as given (udev's properties) and as without udevd.
    static func paths(_ identity: DeviceIdentity) -> [(label: String, settings: DeviceSettings)] {
        var bare = identity
        bare.udevProperties = [:]
        let matcher = ProfileMatcher(profiles: [])
        return [("udev", matcher.settings(for: identity)), ("no udev", matcher.settings(for: bare))]
    }
}

extension String {
    fileprivate var withSlash: String { hasPrefix("/") ? self + "/" : "/" + self + "/" }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

@Suite("Device classes on real device descriptions")
struct DeviceDataTests {
    @Test("libinput's 109 test devices are all in the class and grab judged right, with udev and without")
    func libinputDevices() throws {
        let devices = try DeviceData.load("libinput")
        #expect(devices.count == 109)
        var right = 0
        for device in devices {
            for (label, settings) in DeviceData.paths(device.identity) {
                let ok = settings.deviceClass == device.expected.deviceClass && settings.grab == device.expected.grab
                #expect(ok, "\(device.source) (\(label)): \(settings.deviceClass)/\(settings.grab), expected \(device.expected.deviceClass)/\(device.expected.grab): \(settings.reasons)")
                if ok { right += 1 }
            }
        }
        #expect(right == 2 * devices.count)
    }

    @Test("no device that is not a navigation device is grabbed exclusively, and none is missed, on either path")
    func noWrongGrabs() throws {
        for name in ["libinput", "remotes", "pads-and-knobs"] {
            for device in try DeviceData.load(name) {
                for (label, settings) in DeviceData.paths(device.identity) {
                    if !device.expected.isNavigation {
                        #expect(settings.grab != .exclusive, "\(device.source) (\(label)) grabbed: \(settings.reasons)")
                    } else {
                        #expect(settings.deviceClass == device.expected.deviceClass, "\(device.source) (\(label)) missed: \(settings.reasons)")
                    }
                }
            }
        }
    }

    @Test("the kernel's MCE IR receiver and HDMI-CEC adapter and a Bluetooth TV remote are remotes; an air mouse's nodes are shared")
    func remotes() throws {
        let devices = try DeviceData.load("remotes")
        for device in try devices + DeviceData.load("pads-and-knobs") {
            for (label, settings) in DeviceData.paths(device.identity) {
                #expect(settings.deviceClass == device.expected.deviceClass && settings.grab == device.expected.grab,
                        "\(device.source) (\(label)): \(settings.deviceClass)/\(settings.grab): \(settings.reasons)")
            }
        }
        let cec = try #require(devices.first { $0.identity.bus == Int(EventCode.BUS_CEC) })
        #expect(DeviceClassifier.classification(cec.identity).deviceClass == .remote)
    }

    @Test("without udevd, focusd derives the ID_INPUT_* classes of udev's input_id rules")
    func derivedProperties() {
        func classes(_ caps: Capabilities, bus: Int = 3) -> Set<String> {
            Set(UdevInputID.properties(caps, bus: bus).keys.filter { $0 != "ID_INPUT" })
        }
        let xy = [E.ABS_X: AxisInfo(minimum: 0, maximum: 32767), E.ABS_Y: AxisInfo(minimum: 0, maximum: 32767)]
        // VMware's and QEMU's absolute mouse: absolute X/Y with mouse buttons.
        #expect(classes(Capabilities(keys: [E.BTN_LEFT], relativeAxes: [E.REL_WHEEL], absoluteAxes: xy)) == ["ID_INPUT_MOUSE"])
        // One stray joystick button among laptop hotkeys is not a joystick; two gamepad buttons are.
        #expect(classes(Capabilities(keys: [E.KEY_MUTE, E.BTN_THUMB])) == ["ID_INPUT_KEY"])
        #expect(classes(Capabilities(keys: [E.BTN_SOUTH, E.BTN_EAST])) == ["ID_INPUT_JOYSTICK"])
        // Four keyboard keys undo a joystick guess.
        #expect(!classes(Capabilities(keys: [E.BTN_SOUTH, E.BTN_EAST, E.KEY_LEFTCTRL, E.KEY_CAPSLOCK, E.KEY_NUMLOCK, E.KEY_INSERT]))
            .contains("ID_INPUT_JOYSTICK"))
        // A pad: BTN_0 with a stylus button but no pen tool, and a wheel.
        #expect(classes(Capabilities(keys: [E.BTN_0, E.BTN_STYLUS], relativeAxes: [E.REL_WHEEL])) == ["ID_INPUT_TABLET", "ID_INPUT_TABLET_PAD"])
        // No keys and 3D absolute axes: an accelerometer.
        #expect(classes(Capabilities(absoluteAxes: xy.merging([E.ABS_Z: AxisInfo(minimum: 0, maximum: 1)]) { a, _ in a })) == ["ID_INPUT_ACCELEROMETER"])
        // There is no such thing as an i2c mouse.
        #expect(classes(Capabilities(keys: [E.BTN_LEFT], relativeAxes: [E.REL_X, E.REL_Y]), bus: Int(E.BUS_I2C)) == ["ID_INPUT_MOUSE", "ID_INPUT_POINTINGSTICK"])
        // A node with only a scroll wheel is a key device to udev; switches are switches.
        #expect(classes(Capabilities(relativeAxes: [E.REL_WHEEL])) == ["ID_INPUT_KEY"])
        #expect(classes(Capabilities(switches: [E.SW_LID])) == ["ID_INPUT_SWITCH"])
        // ESC, digits and Q to D make a keyboard.
        #expect(classes(Capabilities(keys: Set((1...31).map { UInt16($0) }))) == ["ID_INPUT_KEY", "ID_INPUT_KEYBOARD"])
    }

    @Test("tablet pads, VM pointers, laptop hotkeys with switches and tablet express keys are never grabbed")
    func issueDevices() throws {
        let devices = try DeviceData.load("libinput")
        let named = [
            "qemu-usb-tablet", "vmware-virtual-usb-mouse", "xen-virtual-pointer", "wacom-intuos5-pen", "waltop-tablet",
            "huion-q620m-dial", "tablet-doubledial", "tablet-rel-dial", "hp-wmi-hotkeys", "thinkpad-extrabuttons",
            "anker-mouse-kbd", "sony-vaio-keys", "wacom-cintiq-24hdt-pad", "wacom-ekr", "wacom-mobilestudio-pro-pad",
        ]
        for stem in named {
            let device = try #require(devices.first { $0.source.hasSuffix("litest-device-\(stem).c") }, "\(stem)")
            for (label, settings) in DeviceData.paths(device.identity) {
                #expect(settings.grab != .exclusive, "\(stem) (\(label)): \(settings.reasons)")
                #expect(![.remote, .gamepad].contains(settings.deviceClass), "\(stem) (\(label)): \(settings.deviceClass)")
            }
        }
        for stem in ["apple-appletouch", "bcm5974", "magic-trackpad", "synaptics-st"] {
            let device = try #require(devices.first { $0.source.hasSuffix("litest-device-\(stem).c") })
            #expect(DeviceData.paths(device.identity).allSatisfy { $0.settings.deviceClass == .touchpad }, "\(stem)")
        }
    }

    @Test("udevd 252's ID_INPUT_JOYSTICK for one stray joystick button is not taken: laptop hotkeys stay shared keys")
    func udev252Joystick() throws {
        let devices = try DeviceData.load("libinput")
        var vaio = try #require(devices.first { $0.source.hasSuffix("sony-vaio-keys.c") }).identity
        vaio.udevProperties = ["ID_INPUT": "1", "ID_INPUT_KEY": "1", "ID_INPUT_JOYSTICK": "1"]
        let classification = DeviceClassifier.classification(vaio)
        #expect(classification.deviceClass == .keyboard && classification.grab == .shared)
        #expect(classification.reasons.contains("udev's ID_INPUT_JOYSTICK not taken: only 1 joystick button or axis: not a joystick"))
        let pad = try #require(try DeviceData.load("pads-and-knobs").first).identity
        #expect(DeviceClassifier.classification(pad).deviceClass == .gamepad)
    }

    @Test("reasons say which facts decided, in words")
    func reasons() throws {
        let devices = try DeviceData.load("libinput")
        let hotkeys = try #require(devices.first { $0.source.hasSuffix("hp-wmi-hotkeys.c") })
        var bare = hotkeys.identity
        bare.udevProperties = [:]
        let reasons = DeviceClassifier.classification(bare).reasons
        #expect(reasons.first == "no udevd; udev's input_id rules give ID_INPUT_KEY, ID_INPUT_SWITCH")
        #expect(reasons.contains { $0.contains("SW_TABLET_MODE, SW_DOCK") && $0.contains("logind") })
    }
}

@Suite("Device description files")
struct DeviceDescriptionTests {
    func error(_ text: String) -> DeviceDescriptionError? {
        do {
            _ = try DeviceDescription.parse(text, file: "bad.json")
            return nil
        } catch {
            return error
        }
    }

    @Test("a malformed description is an error naming the file, the description's index and the field")
    func malformed() {
        let good = #"{"name": "ok", "events": {"EV_KEY": ["KEY_UP"]}}"#
        let unknownCode = error("[\(good), {\"name\": \"x\", \"events\": {\"EV_KEY\": [\"KEY_UP\", \"KEY_NOPE\"]}}]")
        #expect(unknownCode?.description == "bad.json: description 1: field events.EV_KEY[1]: unknown code name KEY_NOPE")
        let wrongType = error(#"{"name": "x", "bus": "usb", "events": {}}"#)
        #expect(wrongType?.description == "bad.json: description 0: field bus: expected a number from 0 to 65535")
        let noName = error("[\(good), \(good), {\"events\": {}}]")
        #expect(noName?.description == "bad.json: description 2: field name: missing")
        let crossType = error(#"{"name": "x", "events": {"EV_REL": ["KEY_UP"]}}"#)
        #expect(crossType?.description == "bad.json: description 0: field events.EV_REL[0]: KEY_UP is not a code of this event type")
        let badAbs = error(#"{"name": "x", "events": {"EV_ABS": {"ABS_X": {"min": 0}}}}"#)
        #expect(badAbs?.description == "bad.json: description 0: field events.EV_ABS.ABS_X.max: missing")
        #expect(error("[1]")?.description == "bad.json: description 0: expected an object")
        #expect(error(good) == nil)
    }

    @Test("a description carries every event type, properties, absinfo and the udev properties")
    func everyField() throws {
        let text = #"""
            {"name": "n", "bus": 5, "vendor": 4660, "product": 22136, "version": 1, "phys": "p", "uniq": "u",
             "properties": ["INPUT_PROP_POINTER", 3],
             "events": {"EV_KEY": ["KEY_UP", 164], "EV_REL": ["REL_DIAL"], "EV_SW": ["SW_LID"], "EV_MSC": ["MSC_SCAN"],
                        "EV_LED": ["LED_CAPSL"], "EV_FF": ["FF_RUMBLE"], "EV_REP": true,
                        "EV_ABS": {"ABS_X": {"min": -5, "max": 5, "fuzz": 1, "flat": 2, "resolution": 3}, "41": {"min": 0, "max": 255}}},
             "udev": {"ID_INPUT": "1"}}
            """#
        let identity = try #require(try DeviceDescription.parse(text, file: "f").first)
        let caps = identity.capabilities
        #expect(identity.name == "n" && identity.bus == 5 && identity.vendor == 4660 && identity.phys == "p" && identity.uniq == "u")
        #expect(caps.keys == [E.KEY_UP, 164] && caps.relativeAxes == [E.REL_DIAL] && caps.switches == [E.SW_LID])
        #expect(caps.misc == [E.MSC_SCAN] && caps.leds == [E.LED_CAPSL] && caps.forceFeedback == [E.FF_RUMBLE] && caps.kernelRepeat)
        #expect(caps.properties == [E.INPUT_PROP_POINTER, E.INPUT_PROP_SEMI_MT])
        #expect(caps.absoluteAxes[E.ABS_X] == AxisInfo(minimum: -5, maximum: 5, fuzz: 1, flat: 2, resolution: 3))
        #expect(caps.absoluteAxes[41]?.maximum == 255)
        #expect(caps.eventTypes == [E.EV_SYN, E.EV_KEY, E.EV_REL, E.EV_ABS, E.EV_MSC, E.EV_SW, E.EV_LED, E.EV_REP, E.EV_FF])
        #expect(identity.udevProperties == ["ID_INPUT": "1"])
    }
}

@Suite("Hat axes that are no D-pad")
struct AnalogHatTests {
    static func board() throws -> DeviceIdentity {
        try #require(try DeviceData.load("pads-and-knobs").first { $0.source.contains("Balance Board") }).identity
    }

    @Test("a Wii Balance Board (hid-wiimote: weight sensors on ABS_HAT0X-HAT1Y, 0...65535) is shared, and the reasons say why")
    func balanceBoardIsShared() throws {
        for (label, settings) in DeviceData.paths(try Self.board()) {
            #expect(settings.deviceClass == .gamepad && settings.grab == .shared, "\(label): \(settings.reasons)")
            #expect(
                settings.reasons.contains {
                    $0.contains("ABS_HAT0X 0...65535, ABS_HAT0Y 0...65535, ABS_HAT1X 0...65535, ABS_HAT1Y 0...65535") && $0.contains("not a D-pad")
                }, "\(label): \(settings.reasons)")
        }
    }

    @Test("stepping on a Balance Board moves nothing; its button still selects")
    func balanceBoardWeightsMoveNothing() throws {
        var rig = Rig(try Self.board())
        for weights: [Int32] in [[30_000, 20_000, 0, 65_535], [0, 0, 0, 0], [65_535, 65_535, 65_535, 65_535], [1, 1, 1, 1]] {
            let events = zip([E.ABS_HAT0X, E.ABS_HAT0Y, E.ABS_HAT1X, E.ABS_HAT1Y], weights).map { (E.EV_ABS, $0, $1) }
            #expect(rig.frame(events).isEmpty)
            #expect(rig.advance(ms: 1000).isEmpty)
        }
        #expect(rig.key(E.BTN_A, 1) == ["select press 4000"])
        let resynced = rig.mapper.resync(keysDown: [], absValues: [E.ABS_HAT0X: 40_000, E.ABS_HAT0Y: 1], timeUsec: rig.kernelNow)
        #expect(Rig.describe(resynced) == ["select release 4000"])
    }

    @Test("an SDL line binding the D-pad to hat 0 drives nothing from a hat whose range is not -1...1, and still does from a -1...1 hat")
    func sdlHatNeedsDpadRange() throws {
        let board = try Self.board()
        var settings = DeviceSettings(deviceClass: .gamepad)
        settings.gamepadMapping = try GamepadMapping.parse("050000007e0500000603000000000000,board,a:b0,dpup:h0.1,dpright:h0.2,dpdown:h0.4,dpleft:h0.8,")
        var rig = Rig(board, settings: settings)
        #expect(rig.frame([(E.EV_ABS, E.ABS_HAT0X, 65_535), (E.EV_ABS, E.ABS_HAT0Y, 65_535)]).isEmpty)
        var dpad = board
        dpad.capabilities.absoluteAxes[E.ABS_HAT0X] = AxisInfo(minimum: -1, maximum: 1)
        dpad.capabilities.absoluteAxes[E.ABS_HAT0Y] = AxisInfo(minimum: -1, maximum: 1)
        var real = Rig(dpad, settings: settings)
        #expect(real.frame([(E.EV_ABS, E.ABS_HAT0X, 1)]) == ["right press 0"])
    }

    @Test("a D-pad hat is -1...1 on each axis it has; any other range, or a pair mixing them, is not")
    func dpadRangeRule() {
        func caps(_ axes: [UInt16: AxisInfo]) -> Capabilities { Capabilities(absoluteAxes: axes) }
        let dpad = AxisInfo(minimum: -1, maximum: 1)
        #expect(caps([E.ABS_HAT0X: dpad, E.ABS_HAT0Y: dpad]).isDpadHat(E.ABS_HAT0X))
        #expect(caps([E.ABS_HAT0Y: dpad]).isDpadHat(E.ABS_HAT0X))
        #expect(!caps([:]).isDpadHat(E.ABS_HAT0X))
        #expect(!caps([E.ABS_HAT0X: dpad, E.ABS_HAT0Y: AxisInfo(minimum: 0, maximum: 255)]).isDpadHat(E.ABS_HAT0X))
        #expect(!caps([E.ABS_HAT1X: AxisInfo(minimum: -127, maximum: 127)]).isDpadHat(E.ABS_HAT1X))
        #expect(caps([E.ABS_HAT0X: dpad, E.ABS_HAT2Y: AxisInfo(minimum: 0, maximum: 1023)]).nonDpadHatAxes == [E.ABS_HAT2Y])
    }
}

@Suite("Every name of linux/input-event-codes.h")
struct HeaderNameTests {
    @Test("a real keyboard description naming ABS_MAX (libinput's Razer BlackWidow 2013, axis 63) reads and classifies as with the number")
    func absMaxInRealDescription() throws {
        let path = DeviceData.directory + "libinput.json"
        let text = String(decoding: try readFile(path, limit: 64 << 20), as: UTF8.self)
        let line = try #require(text.split(separator: "\n").first { $0.contains("keyboard-razer-blackwidow.c") })
        let original = String(line.drop { $0 != "{" }).trimmingCharacters(in: ",")
        #expect(original.contains("\"63\": {"))
        let named = original.replacing("\"63\": {", with: "\"ABS_MAX\": {")
        let withNumber = try #require(try DeviceDescription.parse(original, file: "razer.json").first)
        let withName = try #require(try DeviceDescription.parse(named, file: "razer.json").first)
        #expect(withName.capabilities.absoluteAxes[E.ABS_MAX] != nil)
        #expect(withName == withNumber)
        #expect(DeviceClassifier.classification(withName) == DeviceClassifier.classification(withNumber))
        #expect(EventCode.name(type: E.EV_ABS, code: 0x3f) == "ABS_MAX")
    }

    @Test("every *_MAX names its type's largest code; a *_CNT is known and out of range, with a specific error")
    func rangeNames() {
        #expect(EventCode.named("KEY_MAX") == .init(type: E.EV_KEY, code: 0x2ff))
        #expect(EventCode.named("SW_MAX") == .init(type: E.EV_SW, code: E.SW_MACHINE_COVER))
        #expect(EventCode.name(type: E.EV_SW, code: E.SW_MACHINE_COVER) == "SW_MACHINE_COVER")
        #expect(EventCode.named("SW_RADIO") == .init(type: E.EV_SW, code: E.SW_RFKILL_ALL))
        #expect(EventCode.named("REP_PERIOD") == .init(type: E.EV_REP, code: 1))
        func error(_ json: String) -> String? {
            do {
                _ = try DeviceDescription.parse(json, file: "d.json")
                return nil
            } catch {
                return error.description
            }
        }
        #expect(error(#"{"name": "x", "events": {"EV_MSC": ["MSC_MAX"], "EV_LED": ["LED_MAX"], "EV_SW": ["SW_MAX"], "EV_KEY": ["KEY_MAX"]}}"#) == nil)
        #expect(error(#"{"name": "x", "events": {"EV_ABS": {"ABS_CNT": {"min": 0, "max": 1}}}}"#)
            == "d.json: description 0: field events.EV_ABS.ABS_CNT: ABS_CNT is 64, the number of axes, out of range 0...63")
        #expect(error(#"{"name": "x", "events": {"EV_KEY": ["KEY_CNT"]}}"#)
            == "d.json: description 0: field events.EV_KEY[0]: KEY_CNT is 768, the number of codes, out of range 0...767")
    }
}
