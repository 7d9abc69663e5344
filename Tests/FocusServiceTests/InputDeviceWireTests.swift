import FocusWire
import InputDevices
import InputMapping
import Testing
import Varlink

@testable import FocusService

@Suite("io.focusd.Input Device on the wire")
struct InputDeviceWireTests {
    /// The field names of `type Device (...)` in io.focusd.Input, read from the interface text.
    static var contractFields: [String] {
        let text = EmbeddedResources.inputInterface
        guard let start = text.range(of: "type Device (")?.upperBound,
            let end = text[start...].range(of: "\n)")?.lowerBound
        else { return [] }
        return text[start..<end].split(separator: "\n").compactMap { line in
            let trimmed = line.drop { $0 == " " }
            guard !trimmed.hasPrefix("#"), let colon = trimmed.firstIndex(of: ":") else { return nil }
            return String(trimmed[..<colon])
        }
    }

    @Test("a device the daemon lists carries exactly the Device fields of the contract, and focusctl reads it back whole")
    func fieldsMatchTheContract() throws {
        let identity = DeviceIdentity(
            name: "Griffin PowerMate", bus: 3, vendor: 0x077d, product: 0x0410, node: "/dev/input/event4",
            capabilities: Capabilities(keys: [EventCode.BTN_0], relativeAxes: [EventCode.REL_DIAL]))
        var info = DeviceInfo(id: "usb-077d-0410-1", identity: identity, deviceClass: .rotary, grabbed: true, profile: "knob")
        info.identity.phys = "usb-0000:00:14.0-1/input0"
        info.identity.uniq = "A1"
        info.problem = "ignored by config"
        info.reasons = ["REL_DIAL and one button: a knob"]
        info.lent = true
        info.passthrough = "/dev/input/event9"
        let device = InputDevice(info)
        let wire = try JSONValue.parse(JSONTextEncoder().encode(device))
        #expect(Self.contractFields.count == 17)
        #expect(Set(wire.objectValue?.keys ?? [:].keys) == Set(Self.contractFields))
        #expect(wire["class"] == "rotary")
        #expect(wire["backend"] == "libevdev")
        #expect(wire["lent"] == true)
        #expect(wire["passthrough"] == "/dev/input/event9")
        #expect(try wire.decode(InputDevice.self) == device)
    }

    @Test("a device not lent and without a pass-through device leaves both optional fields out")
    func lentAndPassthroughAbsentWhenNot() throws {
        let info = DeviceInfo(id: "a", identity: DeviceIdentity(name: "pad", node: "/dev/input/event1"), deviceClass: .gamepad)
        let wire = try JSONValue.parse(JSONTextEncoder().encode(InputDevice(info)))
        #expect(wire["lent"] == nil && wire["passthrough"] == nil)
    }
}
