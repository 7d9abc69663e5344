// libudev: the one file that holds libudev pointers.
import CLibudev
import Glibc
import SystemCalls

/// One event node as udev describes it, copied out of libudev.
struct UdevRecord: Equatable, Sendable {
    /// `add`, `remove`, `change`, ...; nil for enumerated devices.
    var action: String?
    /// `/dev/input/eventN`.
    var node: String
    /// `/sys/devices/.../input/inputM/eventN`.
    var syspath: String
    /// udev properties after the rules ran (ID_INPUT_*, FOCUSD_IGNORE, ...).
    var properties: [String: String]
    /// Sysfs path of the physical device above the input device: sibling nodes share it.
    var group: String?
}

/// A libudev context with a monitor on the `input` subsystem.
///
/// Not Sendable: it belongs to the input loop's thread.
final class UdevMonitor {
    private let udev: OpaquePointer
    private let monitor: OpaquePointer

    /// True when udevd runs: its control socket exists. Without it there are no rules, no
    /// properties and no events from the monitor, and libinput's path backend cannot work.
    static func daemonRuns(controlPath: String = "/run/udev/control") -> Bool {
        access(controlPath, F_OK) == 0
    }

    /// Creates the context and starts receiving `input` events (those sent after rules ran).
    init() throws(PosixError) {
        let udev = try Posix.pointer("udev_new") { udev_new() }
        let monitor: OpaquePointer
        do {
            monitor = try Posix.pointer("udev_monitor_new_from_netlink") { udev_monitor_new_from_netlink(udev, "udev") }
        } catch {
            udev_unref(udev)
            throw error
        }
        self.udev = udev
        self.monitor = monitor
        _ = try Posix.negatedErrno("udev_monitor_filter_add_match_subsystem_devtype") {
            udev_monitor_filter_add_match_subsystem_devtype(monitor, "input", nil)
        }
        _ = try Posix.negatedErrno("udev_monitor_enable_receiving") { udev_monitor_enable_receiving(monitor) }
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// The monitor's netlink socket (non-blocking), for epoll.
    var fd: Int32 { udev_monitor_get_fd(monitor) }

    /// The event nodes now present that udev has processed. A node whose rules have not run yet
    /// is left out: its `add` event, with properties, follows on the monitor.
    func enumerate() throws(PosixError) -> [UdevRecord] {
        guard let enumerate = udev_enumerate_new(udev) else { throw PosixError(call: "udev_enumerate_new", errno: ENOMEM) }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, "input")
        udev_enumerate_add_match_sysname(enumerate, "event*")
        _ = try Posix.negatedErrno("udev_enumerate_scan_devices") { udev_enumerate_scan_devices(enumerate) }
        var records: [UdevRecord] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            if let path = udev_list_entry_get_name(current),
                let device = udev_device_new_from_syspath(udev, path)
            {
                if udev_device_get_is_initialized(device) != 0, let record = Self.record(device) { records.append(record) }
                udev_device_unref(device)
            }
            entry = udev_list_entry_get_next(current)
        }
        return records
    }

    /// The monitor's pending events for event nodes, until none is left.
    func receive() -> [UdevRecord] {
        var records: [UdevRecord] = []
        while let device = udev_monitor_receive_device(monitor) {
            if let record = Self.record(device) { records.append(record) }
            udev_device_unref(device)
        }
        return records
    }

    /// Properties of the node `node` now (after a `change`, or for a node found by inotify).
    func record(forNode node: String) -> UdevRecord? {
        var info = stat()
        guard stat(node, &info) == 0, (info.st_mode & S_IFMT) == S_IFCHR,
            let device = udev_device_new_from_devnum(udev, CChar(UInt8(ascii: "c")), info.st_rdev)
        else { return nil }
        defer { udev_device_unref(device) }
        return Self.record(device)
    }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    private static func record(_ device: OpaquePointer) -> UdevRecord? {
        guard let sysname = string(udev_device_get_sysname(device)), sysname.hasPrefix("event"),
            let syspath = string(udev_device_get_syspath(device))
        else { return nil }
        var properties: [String: String] = [:]
        var entry = udev_device_get_properties_list_entry(device)
        while let current = entry {
            if let name = string(udev_list_entry_get_name(current)) {
                properties[name] = string(udev_list_entry_get_value(current)) ?? ""
            }
            entry = udev_list_entry_get_next(current)
        }
        // eventN's parent is the input device inputM; its parent is the physical device.
        let inputDevice = udev_device_get_parent(device)
        let physical = inputDevice.flatMap { udev_device_get_parent($0) }
        return UdevRecord(
            action: string(udev_device_get_action(device)),
            node: string(udev_device_get_devnode(device)) ?? "/dev/input/\(sysname)",
            syspath: syspath,
            properties: properties,
            group: physical.flatMap { string(udev_device_get_syspath($0)) }
        )
    }
}

@available(*, unavailable)
extension UdevMonitor: Sendable {}
