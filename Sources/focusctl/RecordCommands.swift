import ArgumentParser
import CLibevdev
import FocusWire
import SystemCalls
import Varlink

import Glibc

/// `focusctl record FILE [--device ID]… [--duration S]`: the kernel events of chosen devices as
/// focusd reads them, in the recording format (io.focusd.Inspect.Record).
struct RecordCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record the kernel events of input devices as focusd reads them, to a text file.",
        discussion: """
            Writes each device's description (name, ids, bus, phys, uniq, class, keys, axes with \
            their ranges, properties) and every event with its kernel timestamp, one per line, in \
            the format docs/bench-tools.md documents ("Recording format"). Without --device, every device \
            focusd reads, including those plugged in while recording. Stops after --duration \
            seconds, or when interrupted (the file is written line by line and stays valid). \
            Touch surfaces read through libinput are not recorded.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The file to write (replaced if it exists).")
    var file: String

    @Option(name: .customLong("device"), help: "A device id (focusctl devices) to record; repeat for several.")
    var devices: [String] = []

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    func validate() throws {
        if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number of seconds.") }
    }

    func execute(_ output: Output) throws {
        let client = try global.connect(timeout: nil)
        defer { client.close() }
        let parameters: JSONValue = devices.isEmpty ? [:] : ["devices": .array(devices.map { .string($0) })]
        let replies = try client.callMore(InspectMethod.record.qualified, parameters)
        guard let first = try replies.next(timeout: .seconds(30)) else { return }
        let listed = try first.member("devices", as: [RecordedDevice].self)
        // errno through the seam (SystemCalls): open(2) for fopen's "w", then a stdio stream on it.
        let descriptor: Int32
        do {
            descriptor = try Posix.required("open") { open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666) }
        } catch {
            throw CommandFailure.input("\(file): cannot write: \(error.message)")
        }
        guard let out = fdopen(descriptor, "w") else {
            close(descriptor)
            throw CommandFailure.input("\(file): cannot write")
        }
        defer { fclose(out) }
        func write(_ lines: [String]) throws {
            for line in lines { fputs(line + "\n", out) }
            do {
                try Posix.required("fflush") { fflush(out) }
            } catch {
                throw CommandFailure.input("\(file): write failed: \(error.message)")
            }
        }
        try write([Recording.header] + listed.flatMap(Recording.text(of:)) + ["events"])
        if listed.isEmpty && !devices.isEmpty { return }
        var frames = 0
        let start = monotonicSeconds()
        while true {
            var timeout: Duration?
            if let duration {
                let left = duration - (monotonicSeconds() - start)
                guard left > 0 else { break }
                timeout = .milliseconds(Int64(left * 1000) + 1)
            }
            let reply: JSONValue
            do {
                guard let next = try replies.next(timeout: timeout) else { break }
                reply = next
            } catch VarlinkClientError.timedOut {
                break
            }
            if let added = reply["added"], added != .null {
                try write(Recording.text(of: try added.decode(RecordedDevice.self)))
            } else if let removed = reply["removed"]?.stringValue {
                try write(["# \(timeText(nowUsec())) removed \(removed)"])
            } else if let device = reply["device"]?.stringValue {
                struct Raw: Decodable { var type: UInt16; var code: UInt16; var value: Int32; var timeUsec: Int64 }
                let events = try reply.member("events", as: [Raw].self)
                try write(events.map {
                    Recording.text(of: RecordedEvent(device: device, type: $0.type, code: $0.code, value: $0.value, timeUsec: $0.timeUsec))
                })
                frames += 1
            }
        }
        if !output.isJSON { output.line("recorded \(frames) frames of \(listed.count) devices to \(file)") }
    }

    func monotonicSeconds() -> Double {
        Double(Posix.monotonicNanoseconds()) / 1e9
    }

    func nowUsec() -> Int64 {
        Posix.realtimeUsec()
    }

    func timeText(_ usec: Int64) -> String {
        String(Recording.text(of: RecordedEvent(device: "d", type: 0, code: 0, value: 0, timeUsec: usec)).split(separator: " ")[0])
    }
}

/// `focusctl replay FILE [--speed X]`: recreates the recorded devices with uinput and plays their
/// events with the recorded timing.
struct ReplayCommand: ClientCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Create the recorded devices with uinput and play their events with the recorded timing.",
        discussion: """
            Each device gets the recorded name, ids, bus, phys, keys, axes (with ranges), \
            properties and kernel repeat (uinput cannot set uniq). focusctl waits until focusd \
            lists every device (--no-wait: does not ask focusd), then writes each frame at its \
            recorded time from the first event, divided by --speed. Key repeats the kernel made \
            are not written again: the device's own kernel repeat makes them. The devices are \
            removed at the end. Needs write access to /dev/uinput. A device whose name starts \
            with "focusd" would be taken for focusd's own virtual devices, which it never reads: \
            replay refuses such a recording.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A recording (focusctl record).")
    var file: String

    @Option(help: "Play faster (2 = twice as fast) or slower (0.5).")
    var speed: Double = 1

    @Flag(help: "Do not wait for focusd to list the devices before playing.")
    var noWait = false

    func validate() throws {
        if !(speed > 0) || !speed.isFinite { throw ValidationError("--speed must be a positive number.") }
    }

    func execute(_ output: Output) throws {
        let text: String
        do { text = String(decoding: try readFile(file, limit: 256 << 20), as: UTF8.self) } catch {
            throw CommandFailure.input("\(file): \(error)")
        }
        let recording: Recording
        do { recording = try Recording(parsing: text) } catch { throw CommandFailure.input("\(file): \(error)") }
        if let own = recording.devices.first(where: { $0.name.hasPrefix("focusd") }) {
            throw CommandFailure.input(
                "\(file): device \(own.id) is named \"\(own.name)\": focusd takes names starting with \"focusd\" for its own virtual devices and never reads them")
        }
        // Watch focusd's device list before creating anything, so no `added` is missed.
        var monitor: (VarlinkClient, VarlinkReplySequence)?
        if !noWait {
            let client = try global.connect(timeout: nil)
            monitor = (client, try client.callMore(InputMethod.monitor.qualified))
            _ = try monitor!.1.next(timeout: .seconds(30))
        }
        defer { monitor?.0.close() }
        var created: [String: UinputReplayDevice] = [:]
        defer { for d in created.values { d.destroy() } }
        for d in recording.devices {
            let extra = recording.events.filter { $0.device == d.id }
            created[d.id] = try UinputReplayDevice(d, eventsUsed: extra)
        }
        if let (_, replies) = monitor {
            var waiting = Set(created.values.map(\.node))
            let deadline = Self.monotonicNanoseconds() + 10_000_000_000
            while !waiting.isEmpty {
                let now = Self.monotonicNanoseconds()
                guard now < deadline else {
                    throw CommandFailure.input("focusd did not list \(waiting.sorted().joined(separator: ", ")) within 10 s")
                }
                guard let reply = try replies.next(timeout: .nanoseconds(Int64(deadline - now))) else { break }
                if let added = reply["added"], let node = added["node"]?.stringValue { waiting.remove(node) }
            }
        }
        var frames = 0
        let startEvent = recording.events.first?.timeUsec ?? 0
        let start = Self.monotonicNanoseconds()
        var pending: [String: [RecordedEvent]] = [:]
        for e in recording.events {
            guard e.type == 0 && e.code == 0 else {
                pending[e.device, default: []].append(e)
                continue
            }
            let at = start + UInt64(max(0, Double(e.timeUsec - startEvent) * 1000 / speed))
            Posix.sleep(untilMonotonicNanoseconds: at)
            guard let device = created[e.device] else { continue }
            for x in pending.removeValue(forKey: e.device) ?? [] {
                if x.type == 1 && x.value == 2 && device.kernelRepeat { continue }
                try device.write(type: x.type, code: x.code, value: x.value)
            }
            try device.write(type: 0, code: 0, value: 0)
            frames += 1
        }
        if !output.isJSON { output.line("replayed \(frames) frames of \(created.count) devices") }
    }

    static func monotonicNanoseconds() -> UInt64 {
        Posix.monotonicNanoseconds()
    }
}

/// One recorded device recreated through uinput (libevdev).
final class UinputReplayDevice {
    private var uinput: OpaquePointer?
    let node: String
    let kernelRepeat: Bool

    init(_ d: RecordedDevice, eventsUsed: [RecordedEvent]) throws {
        guard let dev = libevdev_new() else { throw CommandFailure.input("libevdev_new failed") }
        defer { libevdev_free(dev) }
        libevdev_set_name(dev, d.name)
        if let phys = d.phys { libevdev_set_phys(dev, phys) }
        if let uniq = d.uniq { libevdev_set_uniq(dev, uniq) }
        libevdev_set_id_bustype(dev, Int32(d.bus))
        libevdev_set_id_vendor(dev, Int32(d.vendor))
        libevdev_set_id_product(dev, Int32(d.product))
        libevdev_set_id_version(dev, Int32(d.version))
        for p in d.properties { libevdev_enable_property(dev, UInt32(p)) }
        for k in d.keys { libevdev_enable_event_code(dev, UInt32(EV_KEY), UInt32(k), nil) }
        for r in d.relativeAxes { libevdev_enable_event_code(dev, UInt32(EV_REL), UInt32(r), nil) }
        for a in d.absoluteAxes {
            var info = input_absinfo(value: 0, minimum: Int32(clamping: a.minimum), maximum: Int32(clamping: a.maximum),
                                     fuzz: Int32(clamping: a.fuzz), flat: Int32(clamping: a.flat), resolution: Int32(clamping: a.resolution))
            libevdev_enable_event_code(dev, UInt32(EV_ABS), UInt32(a.code), &info)
        }
        // Codes the recording uses that the description does not list (MSC_SCAN, LEDs, switches).
        for e in eventsUsed where e.type != 0 && e.type != UInt16(EV_ABS) && e.type != UInt16(EV_REP) {
            if libevdev_has_event_code(dev, UInt32(e.type), UInt32(e.code)) == 0 {
                libevdev_enable_event_code(dev, UInt32(e.type), UInt32(e.code), nil)
            }
        }
        kernelRepeat = d.kernelRepeat
        if d.kernelRepeat {
            var delay: Int32 = 250, period: Int32 = 33
            libevdev_enable_event_type(dev, UInt32(EV_REP))
            libevdev_enable_event_code(dev, UInt32(EV_REP), UInt32(REP_DELAY), &delay)
            libevdev_enable_event_code(dev, UInt32(EV_REP), UInt32(REP_PERIOD), &period)
        }
        var out: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(dev, LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue, &out)
        guard rc == 0, let out else {
            throw CommandFailure.input("cannot create a uinput device for \(d.id) (\(String(cString: strerror(-rc)))); is /dev/uinput there and writable?")
        }
        uinput = out
        guard let devnode = libevdev_uinput_get_devnode(out) else {
            libevdev_uinput_destroy(out)
            uinput = nil
            throw CommandFailure.input("the uinput device for \(d.id) has no /dev/input node")
        }
        node = String(cString: devnode)
    }

    func write(type: UInt16, code: UInt16, value: Int32) throws {
        guard let uinput else { return }
        let rc = libevdev_uinput_write_event(uinput, UInt32(type), UInt32(code), value)
        guard rc == 0 else { throw CommandFailure.input("writing to \(node) failed: \(String(cString: strerror(-rc)))") }
    }

    func destroy() {
        if let uinput { libevdev_uinput_destroy(uinput) }
        uinput = nil
    }
}
