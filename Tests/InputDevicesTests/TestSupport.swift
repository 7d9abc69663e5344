import Glibc
import InputMapping
import Synchronization
import Testing

@testable import InputDevices

/// A fresh directory under /tmp, removed with its contents by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/focusd-devices-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Creates (or truncates) a regular file.
    @discardableResult
    func touch(_ name: String, contents: String = "") -> String {
        let p = file(name)
        let fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        precondition(fd >= 0, "cannot create \(p)")
        _ = contents.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        return p
    }

    func mkdir(_ name: String) {
        _ = Glibc.mkdir(file(name), 0o755)
    }

    func symlink(_ target: String, at name: String) {
        _ = Glibc.symlink(target, file(name))
    }

    func remove() {
        _ = system("rm -rf '\(path)'")
    }
}

/// Waits (briefly) until `condition` holds; returns whether it did.
func eventually(timeoutMs: Int = 2000, _ condition: () -> Bool) async -> Bool {
    for _ in 0..<(timeoutMs / 5) {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

/// Records every delegate call of an input loop, in order.
final class Recorder: InputLoopDelegate {
    enum Call: Equatable, Sendable {
        case added(DeviceInfo)
        case removed(String)
        case changed(DeviceInfo)
        case frame(String, [InputEvent])
        case resync(String, Set<UInt16>, [UInt16: Int32])
        case gesture(String, Gesture)
        case pendingRead(String)
    }

    let calls = Mutex<[Call]>([])
    var all: [Call] { calls.withLock { $0 } }

    var added: [DeviceInfo] {
        all.compactMap { if case .added(let d) = $0 { d } else { nil } }
    }
    var removed: [String] {
        all.compactMap { if case .removed(let id) = $0 { id } else { nil } }
    }

    func deviceAdded(_ device: DeviceInfo) { calls.withLock { $0.append(.added(device)) } }
    func deviceRemoved(id: String) { calls.withLock { $0.append(.removed(id)) } }
    func deviceChanged(_ device: DeviceInfo) { calls.withLock { $0.append(.changed(device)) } }
    func frame(id: String, events: [InputEvent]) { calls.withLock { $0.append(.frame(id, events)) } }
    func resync(id: String, keysDown: Set<UInt16>, absValues: [UInt16: Int32]) {
        calls.withLock { $0.append(.resync(id, keysDown, absValues)) }
    }
    func gesture(id: String, gesture: Gesture) { calls.withLock { $0.append(.gesture(id, gesture)) } }
    func pendingRead(id: String) { calls.withLock { $0.append(.pendingRead(id)) } }
}

/// Counts calls of the policy closure (each open attempt asks it once before opening).
final class PolicyCounter: Sendable {
    let count = Mutex<[String: Int]>([:])
    let ignore: Set<String>

    init(ignore: Set<String> = []) { self.ignore = ignore }

    func policy(_ identity: DeviceIdentity) -> DevicePolicy {
        count.withLock { $0[identity.node, default: 0] += 1 }
        let name = identity.node.split(separator: "/").last.map(String.init) ?? ""
        return ignore.contains(name) ? DevicePolicy(ignoreReason: "by test config", profile: "quiet") : .default
    }

    func calls(_ node: String) -> Int { count.withLock { $0[node, default: 0] } }
}

/// An inotify-driven loop over `directory` with no sysfs and fast retries.
func makeLoop(
    directory: String, recorder: Recorder, sysfsRoot: String = "/nonexistent-sysfs",
    retryDelaysUsec: [Int64] = [10_000, 20_000], policy: PolicyCounter = PolicyCounter()
) throws -> InputLoop {
    try InputLoop(
        configuration: InputLoopConfiguration(
            inputDirectory: directory, sysfsRoot: sysfsRoot, useUdev: false, retryDelaysUsec: retryDelaysUsec,
            classify: { _ in .other }, policy: { identity, _ in policy.policy(identity) }),
        delegate: recorder)
}
