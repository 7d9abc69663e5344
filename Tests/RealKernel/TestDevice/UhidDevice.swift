// A HID-level device created through /dev/uhid: the kernel's HID core parses a real report
// descriptor and its driver (hid-generic here) creates the input device.
import CLibevdev
import Glibc

/// The Surface Dial's input report, reduced to what hid-input maps: one button (BTN_0, since the
/// application collection is a System Multi-Axis Controller) and a 15-bit relative Dial
/// (REL_DIAL), in report 1.
///
/// hid-input only connects a device with at least one collection whose usage is in its list of
/// input applications (`IS_INPUT_APPLICATION`), which does not include the System Multi-Axis
/// Controller: like the real Dial, the descriptor has a second top-level collection (Consumer
/// Control, report 2) whose only usage is unassigned, so it adds no capability.
enum SurfaceDialReport {
    static let reportID: UInt8 = 1

    static let descriptor: [UInt8] = [
        0x05, 0x01,        // Usage Page (Generic Desktop)
        0x09, 0x0E,        // Usage (System Multi-Axis Controller)
        0xA1, 0x01,        // Collection (Application)
        0x85, 0x01,        //   Report ID (1)
        0x05, 0x0D,        //   Usage Page (Digitizer)
        0x09, 0x21,        //   Usage (Puck)
        0xA1, 0x00,        //   Collection (Physical)
        0x05, 0x09,        //     Usage Page (Button)
        0x09, 0x01,        //     Usage (Button 1)
        0x15, 0x00,        //     Logical Minimum (0)
        0x25, 0x01,        //     Logical Maximum (1)
        0x75, 0x01,        //     Report Size (1)
        0x95, 0x01,        //     Report Count (1)
        0x81, 0x02,        //     Input (Data, Variable, Absolute)
        0x05, 0x01,        //     Usage Page (Generic Desktop)
        0x09, 0x37,        //     Usage (Dial)
        0x16, 0x01, 0xC0,  //     Logical Minimum (-16383)
        0x26, 0xFF, 0x3F,  //     Logical Maximum (16383)
        0x75, 0x0F,        //     Report Size (15)
        0x95, 0x01,        //     Report Count (1)
        0x81, 0x06,        //     Input (Data, Variable, Relative)
        0xC0,              //   End Collection
        0xC0,              // End Collection
        0x05, 0x0C,        // Usage Page (Consumer)
        0x09, 0x01,        // Usage (Consumer Control)
        0xA1, 0x01,        // Collection (Application)
        0x85, 0x02,        //   Report ID (2)
        0x09, 0x00,        //   Usage (Unassigned)
        0x15, 0x00,        //   Logical Minimum (0)
        0x25, 0x01,        //   Logical Maximum (1)
        0x75, 0x08,        //   Report Size (8)
        0x95, 0x01,        //   Report Count (1)
        0x81, 0x02,        //   Input (Data, Variable, Absolute)
        0xC0,              // End Collection
    ]

    /// The 3-byte report for a button state and a dial delta (clamped to the logical range).
    static func report(button: Bool, dial: Int32) -> [UInt8] {
        let d = UInt16(bitPattern: Int16(max(-16383, min(16383, dial)))) & 0x7FFF
        let bits = (d << 1) | (button ? 1 : 0)
        return [reportID, UInt8(bits & 0xFF), UInt8(bits >> 8)]
    }
}

/// A device on `/dev/uhid`. `write` collects evdev-style events and `SYN_REPORT` sends them as
/// one HID input report, so scripts are the same for the uinput and the uhid Surface Dial.
final class UhidDevice: EventSink {
    private let fd: Int32
    let devnode: String
    private var button = false
    private var dial: Int32 = 0

    // struct uhid_event offsets (linux/uhid.h): type u32, then the request.
    private static let eventSize = 4376
    private static let create2: UInt32 = 11
    private static let input2: UInt32 = 12
    private static let destroyType: UInt32 = 1

    init(model: DeviceModel, name: String, descriptor: [UInt8]) throws {
        fd = open("/dev/uhid", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw ToolError.errno("cannot open /dev/uhid (is the uhid module loaded?)", errno) }
        var ev = [UInt8](repeating: 0, count: Self.eventSize)
        Self.put32(&ev, 0, Self.create2)
        Self.putString(&ev, 4, name, max: 127)
        Self.putString(&ev, 132, model.phys, max: 63)
        Self.putString(&ev, 196, "test-focusd-\(getpid())", max: 63)
        Self.put16(&ev, 260, UInt16(descriptor.count))
        Self.put16(&ev, 262, model.bus)
        Self.put32(&ev, 264, UInt32(model.vendor))
        Self.put32(&ev, 268, UInt32(model.product))
        Self.put32(&ev, 272, UInt32(model.version))
        ev.replaceSubrange(280..<(280 + descriptor.count), with: descriptor)
        try Self.send(fd, ev)
        // The HID driver creates the input device asynchronously: find its node by name.
        var found: String?
        for _ in 0..<400 {
            if let node = Sysfs.eventNode(named: name) { found = node; break }
            usleep(10_000)
        }
        guard let found else {
            close(fd)
            throw ToolError("no /dev/input node appeared for the uhid device '\(name)' within 4 s (is hid-generic loaded?)")
        }
        devnode = found
    }

    func write(type: UInt32, code: UInt32, value: Int32) throws {
        switch (Int32(type), Int32(code)) {
        case (EV_KEY, BTN_0): button = value != 0
        case (EV_REL, REL_DIAL): dial += value
        case (EV_SYN, SYN_REPORT):
            let report = SurfaceDialReport.report(button: button, dial: dial)
            dial = 0
            var ev = [UInt8](repeating: 0, count: Self.eventSize)
            Self.put32(&ev, 0, Self.input2)
            Self.put16(&ev, 4, UInt16(report.count))
            ev.replaceSubrange(6..<(6 + report.count), with: report)
            try Self.send(fd, ev)
        default:
            throw ToolError("the HID Surface Dial only has BTN_0 and REL_DIAL (got \(EventNames.typeName(type)) \(EventNames.codeName(type: type, code: code)))")
        }
    }

    func destroy() {
        var ev = [UInt8](repeating: 0, count: Self.eventSize)
        Self.put32(&ev, 0, Self.destroyType)
        try? Self.send(fd, ev)
        close(fd)
    }

    private static func send(_ fd: Int32, _ bytes: [UInt8]) throws {
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard n == bytes.count else { throw ToolError.errno("write to /dev/uhid failed", errno) }
    }

    private static func put16(_ b: inout [UInt8], _ at: Int, _ v: UInt16) {
        b[at] = UInt8(v & 0xFF); b[at + 1] = UInt8(v >> 8)
    }

    private static func put32(_ b: inout [UInt8], _ at: Int, _ v: UInt32) {
        for i in 0..<4 { b[at + i] = UInt8((v >> (8 * UInt32(i))) & 0xFF) }
    }

    private static func putString(_ b: inout [UInt8], _ at: Int, _ s: String, max: Int) {
        for (i, c) in s.utf8.prefix(max).enumerated() { b[at + i] = c }
    }
}

/// Lookups in /sys/class/input.
enum Sysfs {
    /// The `/dev/input/eventN` whose device is named `name` (or `name` and a suffix), if any.
    static func eventNode(named name: String) -> String? {
        guard let dir = opendir("/sys/class/input") else { return nil }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            guard entryName.hasPrefix("event") else { continue }
            // hid-input appends the application's name ("... System Multi Axis").
            if let found = readLine(path: "/sys/class/input/\(entryName)/device/name"),
                found == name || found.hasPrefix(name + " ")
            {
                return "/dev/input/\(entryName)"
            }
        }
        return nil
    }

    /// The first line of a small text file.
    static func readLine(path: String) -> String? {
        guard let f = fopen(path, "r") else { return nil }
        defer { fclose(f) }
        var buffer = [CChar](repeating: 0, count: 512)
        guard fgets(&buffer, Int32(buffer.count), f) != nil else { return nil }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        var s = String(decoding: bytes, as: UTF8.self)
        while s.hasSuffix("\n") { s.removeLast() }
        return s
    }
}
