// libevdev: the one file that holds libevdev pointers.
import CLibevdev
import Glibc
import InputMapping
import SystemCalls

/// One evdev node opened through libevdev (or, for tests, a libevdev device built in memory).
///
/// Not Sendable: it belongs to the input loop's thread.
final class EvdevDevice {
    private let device: OpaquePointer
    /// The node's descriptor; nil for a device built in memory.
    let fd: FileDescriptor?
    /// Frames split across reads.
    private var assembler = FrameAssembler()
    private(set) var isGrabbed = false

    private init(device: OpaquePointer, fd: FileDescriptor?) {
        self.device = device
        self.fd = fd
    }

    /// Opens `node` O_RDONLY|O_NONBLOCK|O_CLOEXEC and hands it to libevdev.
    ///
    /// - Throws: `PosixError` from `open` (EACCES before udev applied its ACL, ENOENT when the node
    ///   went away) or from `libevdev_new_from_fd` (ENOTTY: not an evdev node).
    convenience init(opening node: String) throws(PosixError) {
        let fd = try Posix.openReadOnly(node)
        var created: OpaquePointer?
        let status = try Posix.negatedErrno("libevdev_new_from_fd(\(node))") { libevdev_new_from_fd(fd.raw, &created) }
        guard status.value != nil, let created else {
            throw PosixError(call: "libevdev_new_from_fd(\(node))", errno: EAGAIN)
        }
        self.init(device: created, fd: fd)
    }

    /// A device with no node, for tests: libevdev_new plus the given capabilities.
    convenience init(inMemory name: String, capabilities: Capabilities, bus: Int = 0, vendor: Int = 0, product: Int = 0) {
        let created = libevdev_new()!
        libevdev_set_name(created, name)
        libevdev_set_id_bustype(created, Int32(bus))
        libevdev_set_id_vendor(created, Int32(vendor))
        libevdev_set_id_product(created, Int32(product))
        for key in capabilities.keys { libevdev_enable_event_code(created, UInt32(EV_KEY), UInt32(key), nil) }
        for axis in capabilities.relativeAxes { libevdev_enable_event_code(created, UInt32(EV_REL), UInt32(axis), nil) }
        for (axis, info) in capabilities.absoluteAxes {
            var absinfo = input_absinfo(
                value: info.minimum, minimum: info.minimum, maximum: info.maximum, fuzz: info.fuzz,
                flat: info.flat, resolution: info.resolution)
            libevdev_enable_event_code(created, UInt32(EV_ABS), UInt32(axis), &absinfo)
        }
        for property in capabilities.properties { libevdev_enable_property(created, UInt32(property)) }
        if capabilities.kernelRepeat { libevdev_enable_event_type(created, UInt32(EV_REP)) }
        self.init(device: created, fd: nil)
    }

    deinit {
        libevdev_free(device)
    }

    /// Name, ids, phys, uniq and capabilities; udev properties and group are the caller's.
    func identity(node: String) -> DeviceIdentity {
        DeviceIdentity(
            name: libevdev_get_name(device).map { String(cString: $0) } ?? "",
            bus: Int(libevdev_get_id_bustype(device)),
            vendor: Int(libevdev_get_id_vendor(device)),
            product: Int(libevdev_get_id_product(device)),
            version: Int(libevdev_get_id_version(device)),
            phys: libevdev_get_phys(device).map { String(cString: $0) },
            uniq: libevdev_get_uniq(device).map { String(cString: $0) },
            node: node,
            capabilities: capabilities()
        )
    }

    /// The EVIOCGBIT / EVIOCGPROP bits and absinfo, as libevdev read them.
    func capabilities() -> Capabilities {
        func codes(_ type: Int32, max: Int32) -> Set<UInt16> {
            guard libevdev_has_event_type(device, UInt32(type)) != 0 else { return [] }
            return Set((0...max).filter { libevdev_has_event_code(device, UInt32(type), UInt32($0)) != 0 }.map { UInt16($0) })
        }
        var absolute: [UInt16: AxisInfo] = [:]
        for axis in codes(EV_ABS, max: ABS_MAX) {
            guard let info = libevdev_get_abs_info(device, UInt32(axis))?.pointee else { continue }
            absolute[axis] = AxisInfo(
                minimum: info.minimum, maximum: info.maximum, fuzz: info.fuzz, flat: info.flat,
                resolution: info.resolution)
        }
        return Capabilities(
            keys: codes(EV_KEY, max: KEY_MAX),
            relativeAxes: codes(EV_REL, max: REL_MAX),
            absoluteAxes: absolute,
            properties: Set((0...INPUT_PROP_MAX).filter { libevdev_has_property(device, UInt32($0)) != 0 }.map { UInt16($0) }),
            kernelRepeat: libevdev_has_event_type(device, UInt32(EV_REP)) != 0,
            switches: codes(EV_SW, max: SW_MAX),
            misc: codes(EV_MSC, max: MSC_MAX),
            leds: codes(EV_LED, max: LED_MAX),
            forceFeedback: codes(EV_FF, max: FF_MAX),
            eventTypes: Set((0...EV_MAX).filter { libevdev_has_event_type(device, UInt32($0)) != 0 }.map { UInt16($0) })
        )
    }

    /// The keys libevdev believes are down: its EVIOCGKEY state, updated by every event read.
    func keysDown() -> Set<UInt16> {
        guard libevdev_has_event_type(device, UInt32(EV_KEY)) != 0 else { return [] }
        return Set((0...KEY_MAX).filter { libevdev_get_event_value(device, UInt32(EV_KEY), UInt32($0)) != 0 }.map { UInt16($0) })
    }

    /// Current values of the absolute axes.
    func absValues() -> [UInt16: Int32] {
        var values: [UInt16: Int32] = [:]
        for axis in 0...ABS_MAX where libevdev_has_event_code(device, UInt32(EV_ABS), UInt32(axis)) != 0 {
            values[UInt16(axis)] = libevdev_get_event_value(device, UInt32(EV_ABS), UInt32(axis))
        }
        return values
    }

    /// Sets a key's state in libevdev's copy (tests of devices built in memory).
    func setKeyState(_ code: UInt16, down: Bool) {
        libevdev_set_event_value(device, UInt32(EV_KEY), UInt32(code), down ? 1 : 0)
    }

    /// Reads everything the node has now, until it would block.
    ///
    /// Frames are returned per SYN_REPORT; a SYN_DROPPED discards the partial frame, drains
    /// libevdev's sync events and returns one `.resync` with the state after it.
    /// - Throws: `PosixError` (ENODEV when the device was unplugged).
    func readAvailable() throws(PosixError) -> [EvdevReading] {
        try assembler.read(next: next(sync:), state: { (keysDown(), absValues()) })
    }

    /// One libevdev_next_event in normal or sync mode; nil on -EAGAIN.
    private func next(sync: Bool) throws(PosixError) -> NextEvent? {
        var event = input_event()
        let flag = sync ? LIBEVDEV_READ_FLAG_SYNC : LIBEVDEV_READ_FLAG_NORMAL
        guard let status = try Posix.negatedErrno("libevdev_next_event", { libevdev_next_event(device, flag.rawValue, &event) }).value
        else { return nil }
        if !sync && status == LIBEVDEV_READ_STATUS_SYNC.rawValue { return .dropped }
        return .event(InputEvent(
            type: event.type, code: event.code, value: event.value,
            timeUsec: Int64(event.time.tv_sec) * 1_000_000 + Int64(event.time.tv_usec)))
    }

    /// EVIOCGRAB on (exclusive) or off.
    func setGrab(_ grab: Bool) throws(PosixError) {
        guard grab != isGrabbed else { return }
        _ = try Posix.negatedErrno("libevdev_grab(\(grab ? "grab" : "ungrab"))") {
            libevdev_grab(device, grab ? LIBEVDEV_GRAB : LIBEVDEV_UNGRAB)
        }
        isGrabbed = grab
    }
}

@available(*, unavailable)
extension EvdevDevice: Sendable {}

/// A uinput device focusd creates (a pass-through device, input.md §11): the only holder of
/// libevdev's uinput pointers. Destroyed (UI_DEV_DESTROY) when released.
///
/// Not Sendable: it belongs to the input loop's thread.
final class UinputDevice {
    private let device: OpaquePointer
    private let fd: FileDescriptor
    /// `/dev/input/eventN` of the new device (libevdev finds it from UI_GET_SYSNAME), if any.
    let eventNode: String?

    /// Opens /dev/uinput and creates a device with the spec's name, ids and keys (EV_KEY only:
    /// no EV_REP, so the kernel adds no repeats of its own).
    init(_ spec: PassthroughSpec, uinputPath: String = "/dev/uinput") throws(PosixError) {
        let template = libevdev_new()!
        defer { libevdev_free(template) }
        libevdev_set_name(template, spec.name)
        libevdev_set_id_bustype(template, Int32(PassthroughSpec.busVirtual))
        libevdev_set_id_vendor(template, Int32(spec.vendor))
        libevdev_set_id_product(template, Int32(spec.product))
        libevdev_set_id_version(template, Int32(spec.version))
        for key in spec.keys.sorted() { libevdev_enable_event_code(template, UInt32(EV_KEY), UInt32(key), nil) }
        let handle = try Posix.openReadWrite(uinputPath)
        var created: OpaquePointer?
        let status = try Posix.negatedErrno("libevdev_uinput_create_from_device(\(uinputPath))") {
            libevdev_uinput_create_from_device(template, handle.raw, &created)
        }
        fd = handle
        guard status.value != nil, let created else {
            throw PosixError(call: "libevdev_uinput_create_from_device(\(uinputPath))", errno: EAGAIN)
        }
        device = created
        eventNode = libevdev_uinput_get_devnode(created).map { String(cString: $0) }
    }

    deinit {
        libevdev_uinput_destroy(device)
    }

    /// Writes the frames, each followed by a SYN_REPORT, in one write(2) (libevdev's
    /// `libevdev_uinput_write_event` makes one per event). The times are left zero: the kernel
    /// stamps each frame as it reaches its SYN_REPORT, and wakes the readers there.
    func write(_ frames: [[InputEvent]]) throws(PosixError) {
        let size = MemoryLayout<input_event>.size
        var bytes: [UInt8] = []
        bytes.reserveCapacity(frames.reduce(0) { $0 + ($1.count + 1) * size })
        func append(_ type: UInt16, _ code: UInt16, _ value: Int32) {
            var event = input_event()
            event.type = type
            event.code = code
            event.value = value
            withUnsafeBytes(of: &event) { bytes.append(contentsOf: $0) }
        }
        for frame in frames {
            for event in frame { append(event.type, event.code, event.value) }
            append(UInt16(EV_SYN), UInt16(SYN_REPORT), 0)
        }
        try Posix.writeAll(fd.raw, bytes)
    }
}

@available(*, unavailable)
extension UinputDevice: Sendable {}
