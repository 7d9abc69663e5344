// What sysfs says about an event node without opening it: ids, name, group, a stable id.
import Glibc
import InputMapping
import SystemCalls

/// Reads `/sys/class/input/eventN` (the root is configurable for tests).
struct Sysfs {
    var root: String = "/sys"

    private func classPath(_ eventName: String) -> String { "\(root)/class/input/\(eventName)" }

    /// The node's id: `inputM-eventN` from its sysfs device path (inputM is new on every plug, so
    /// the id never names two devices), or `eventN` without sysfs. Stable while the node exists.
    func deviceID(eventName: String) -> String {
        guard let resolved = Self.realpath("\(classPath(eventName))/device"),
            let input = resolved.split(separator: "/").last, input.hasPrefix("input")
        else { return eventName }
        return "\(input)-\(eventName)"
    }

    /// Name, ids, phys, uniq and group as far as sysfs has them (capabilities stay empty: they
    /// come from the opened node). Nil when sysfs does not know the node.
    func identity(eventName: String, node: String) -> DeviceIdentity? {
        let device = "\(classPath(eventName))/device"
        guard let name = Self.read("\(device)/name") else { return nil }
        func hex(_ file: String) -> Int { Self.read("\(device)/id/\(file)").flatMap { Int($0, radix: 16) } ?? 0 }
        return DeviceIdentity(
            name: name, bus: hex("bustype"), vendor: hex("vendor"), product: hex("product"), version: hex("version"),
            phys: Self.read("\(device)/phys").flatMap { $0.isEmpty ? nil : $0 },
            uniq: Self.read("\(device)/uniq").flatMap { $0.isEmpty ? nil : $0 },
            node: node, group: group(eventName: eventName))
    }

    /// Sysfs path of the physical device above the input device (shared by sibling nodes).
    func group(eventName: String) -> String? {
        Self.realpath("\(classPath(eventName))/device/device")
    }

    private static func realpath(_ path: String) -> String? {
        guard let resolved = Glibc.realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// A small text file's content without its trailing newline.
    static func read(_ path: String) -> String? {
        guard let fd = try? Posix.openReadOnly(path) else { return nil }
        var bytes = [UInt8](repeating: 0, count: 4096)
        guard let count = (try? bytes.withUnsafeMutableBytes { try Posix.read(fd, into: $0) })?.value else { return nil }
        var text = String(decoding: bytes.prefix(count), as: UTF8.self)
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
