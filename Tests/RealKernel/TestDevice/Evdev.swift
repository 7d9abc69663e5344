// The one file that owns libevdev's pointers for focusd-testdevice: building a device description,
// creating it through uinput, writing events, and reading a node.
import CInputLinux
import CLibevdev
import Glibc

/// An error of the test device tool, printed as one line and turned into exit status 2.
struct ToolError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }

    /// An error carrying a negative libevdev return code (-errno) or the current errno.
    static func errno(_ what: String, _ code: Int32) -> ToolError {
        ToolError("\(what): \(String(cString: strerror(code < 0 ? -code : code)))")
    }
}

/// Event type and code names in both directions, through libevdev's tables.
enum EventNames {
    /// The numeric event type for a name such as `EV_KEY`, or a decimal number.
    static func type(_ name: String) throws -> UInt32 {
        if let n = UInt32(name) { return n }
        let t = libevdev_event_type_from_name(name)
        guard t >= 0 else { throw ToolError("unknown event type '\(name)'") }
        return UInt32(t)
    }

    /// The numeric code of `name` (e.g. `KEY_RIGHT`, `REL_DIAL`) for `type`, or a decimal number.
    static func code(_ name: String, type: UInt32) throws -> UInt32 {
        if let n = UInt32(name) { return n }
        let c = libevdev_event_code_from_name(type, name)
        guard c >= 0 else {
            throw ToolError("unknown code '\(name)' for \(typeName(type))")
        }
        return UInt32(c)
    }

    /// The name of an event type, or its number.
    static func typeName(_ type: UInt32) -> String {
        if let p = libevdev_event_type_get_name(type) { return String(cString: p) }
        return String(type)
    }

    /// The name of an event code, or its number.
    static func codeName(type: UInt32, code: UInt32) -> String {
        if let p = libevdev_event_code_get_name(type, code) { return String(cString: p) }
        return String(code)
    }
}

/// A virtual input device created through `/dev/uinput` from a `DeviceModel`.
///
/// Not `Sendable`: one thread owns it.
final class UinputDevice: EventSink {
    private let uinput: OpaquePointer
    /// Our /dev/uinput descriptor (libevdev does not close one it did not open).
    private let uinputFD: Int32
    /// The `/dev/input/eventN` node of the device.
    let devnode: String

    /// Creates the device described by `model`, named `name`.
    init(model: DeviceModel, name: String) throws {
        guard let dev = libevdev_new() else { throw ToolError("libevdev_new failed") }
        defer { libevdev_free(dev) }
        libevdev_set_name(dev, name)
        libevdev_set_phys(dev, model.phys)
        libevdev_set_id_bustype(dev, Int32(model.bus))
        libevdev_set_id_vendor(dev, Int32(model.vendor))
        libevdev_set_id_product(dev, Int32(model.product))
        libevdev_set_id_version(dev, Int32(model.version))
        for prop in model.properties {
            let value = libevdev_property_from_name(prop)
            guard value >= 0 else { throw ToolError("unknown property \(prop)") }
            libevdev_enable_property(dev, UInt32(value))
        }
        for cap in model.capabilities {
            let type = try EventNames.type(cap.type)
            libevdev_enable_event_type(dev, type)
            for code in cap.codes {
                let c = try EventNames.code(code, type: type)
                libevdev_enable_event_code(dev, type, c, nil)
            }
        }
        for axis in model.axes {
            let code = try EventNames.code(axis.code, type: UInt32(EV_ABS))
            var info = input_absinfo(
                value: 0, minimum: axis.min, maximum: axis.max, fuzz: axis.fuzz, flat: axis.flat,
                resolution: axis.resolution)
            libevdev_enable_event_type(dev, UInt32(EV_ABS))
            libevdev_enable_event_code(dev, UInt32(EV_ABS), code, &info)
        }
        if let rep = model.repeatDelayPeriod {
            libevdev_enable_event_type(dev, UInt32(EV_REP))
            var delay = rep.0, period = rep.1
            libevdev_enable_event_code(dev, UInt32(EV_REP), UInt32(REP_DELAY), &delay)
            libevdev_enable_event_code(dev, UInt32(EV_REP), UInt32(REP_PERIOD), &period)
        }
        // libevdev's uinput creation does not pass the phys on (UI_SET_PHYS): set it on our own
        // descriptor first, so the node has the model's phys as a real device would (focusd's
        // former ids key on it).
        let fd = open("/dev/uinput", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw ToolError.errno("cannot open /dev/uinput (is the uinput module loaded?)", -errno) }
        uinputFD = fd
        guard cinput_uinput_set_phys(fd, model.phys) == 0 else {
            close(fd)
            throw ToolError.errno("UI_SET_PHYS failed", -errno)
        }
        var out: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(dev, fd, &out)
        guard rc == 0, let out else {
            close(fd)
            throw ToolError.errno("cannot create uinput device (is the uinput module loaded?)", rc)
        }
        uinput = out
        guard let node = libevdev_uinput_get_devnode(out) else {
            libevdev_uinput_destroy(out)
            close(fd)
            throw ToolError("the uinput device has no /dev/input node")
        }
        devnode = String(cString: node)
        if let rep = model.repeatDelayPeriod {
            // uinput ignores EV_REP values at creation and gives the device the input core's
            // defaults (250/33); writing EV_REP events sets the device's own, as rc-core does.
            try write(type: UInt32(EV_REP), code: UInt32(REP_DELAY), value: rep.0)
            try write(type: UInt32(EV_REP), code: UInt32(REP_PERIOD), value: rep.1)
        }
    }

    func write(type: UInt32, code: UInt32, value: Int32) throws {
        let rc = libevdev_uinput_write_event(uinput, type, code, value)
        guard rc == 0 else { throw ToolError.errno("cannot write event", rc) }
    }

    /// Destroys the kernel device; the node disappears.
    private var destroyed = false

    func destroy() {
        guard !destroyed else { return }
        destroyed = true
        libevdev_uinput_destroy(uinput)
        close(uinputFD)
    }
}

/// One event as read from a node, with the kernel's timestamp.
struct ReadEvent {
    var type: UInt32
    var code: UInt32
    var value: Int32
    var seconds: Int
    var microseconds: Int
}

/// A libevdev reader on one `/dev/input/eventN` node (waits in poll, monotonic timestamps).
///
/// The fd is non-blocking: after SYN_DROPPED libevdev drains the kernel buffer until EAGAIN,
/// which on a blocking fd would wait for (and then discard) the next events.
final class EvdevReader {
    private let dev: OpaquePointer
    private let fd: Int32

    init(path: String, grab: Bool) throws {
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw ToolError.errno("cannot open \(path)", errno) }
        var out: OpaquePointer?
        let rc = libevdev_new_from_fd(fd, &out)
        guard rc == 0, let out else {
            close(fd)
            throw ToolError.errno("libevdev cannot read \(path)", rc)
        }
        dev = out
        // Monotonic kernel timestamps, comparable with clock_gettime(CLOCK_MONOTONIC) here and in
        // other processes: this is what makes a latency figure meaningful.
        _ = libevdev_set_clock_id(dev, CLOCK_MONOTONIC)
        if grab {
            let g = libevdev_grab(dev, LIBEVDEV_GRAB)
            guard g == 0 else { throw ToolError.errno("cannot grab \(path)", g) }
        }
    }

    deinit {
        libevdev_free(dev)
        close(fd)
    }

    /// The device's name as the kernel reports it.
    var name: String { String(cString: libevdev_get_name(dev)) }

    /// Outcome of one blocking read.
    enum Next {
        case event(ReadEvent)
        /// SYN_DROPPED: the kernel's buffer overflowed; `resync` holds libevdev's synthesized
        /// state delta (ending with its SYN_REPORT).
        case dropped(ReadEvent, resync: [ReadEvent])
        case gone
    }

    /// Blocks until the next event.
    func next() throws -> Next {
        var ev = input_event()
        while true {
            let rc = libevdev_next_event(dev, LIBEVDEV_READ_FLAG_NORMAL.rawValue, &ev)
            if rc == -EAGAIN || rc == -EINTR {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&p, 1, -1)
                continue
            }
            if rc == -ENODEV { return .gone }
            if rc < 0 { throw ToolError.errno("read failed", rc) }
            let event = Self.convert(ev)
            if rc == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) {
                var resync: [ReadEvent] = []
                while true {
                    let s = libevdev_next_event(dev, LIBEVDEV_READ_FLAG_SYNC.rawValue, &ev)
                    if s == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) { resync.append(Self.convert(ev)); continue }
                    break
                }
                return .dropped(event, resync: resync)
            }
            return .event(event)
        }
    }

    private static func convert(_ ev: input_event) -> ReadEvent {
        ReadEvent(
            type: UInt32(ev.type), code: UInt32(ev.code), value: ev.value,
            seconds: Int(ev.time.tv_sec), microseconds: Int(ev.time.tv_usec))
    }
}
