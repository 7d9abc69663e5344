import Glibc
import InputMapping
import Synchronization
import Testing
import SystemCalls

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

/// Wakes the threads waiting in `eventually` whenever a delegate call or a policy call was
/// recorded, so a test waits on the real condition, never for a fixed time.
final class Changes: @unchecked Sendable {
    static let shared = Changes()
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var generation = 0

    private init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(cond, &attributes)
    }

    func notify() {
        pthread_mutex_lock(mutex)
        generation += 1
        pthread_cond_broadcast(cond)
        pthread_mutex_unlock(mutex)
    }

    /// Waits until `condition` holds, rechecking after every recorded change; false at the deadline.
    func wait(timeoutMs: Int, _ condition: () -> Bool) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let total = Int(deadline.tv_nsec) + (timeoutMs % 1000) * 1_000_000
        deadline.tv_sec += timeoutMs / 1000 + total / 1_000_000_000
        deadline.tv_nsec = total % 1_000_000_000
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            let seen = generation
            pthread_mutex_unlock(mutex)
            let holds = condition()
            pthread_mutex_lock(mutex)
            if holds { return true }
            while generation == seen {
                if pthread_cond_timedwait(cond, mutex, &deadline) == ETIMEDOUT {
                    pthread_mutex_unlock(mutex)
                    defer { pthread_mutex_lock(mutex) }
                    return condition()
                }
            }
        }
    }
}

/// Waits until `condition` (over what a `Recorder` or `PolicyCounter` saw) holds, or the deadline.
func eventually(timeoutMs: Int = 10_000, _ condition: () -> Bool) async -> Bool {
    Changes.shared.wait(timeoutMs: timeoutMs, condition)
}

/// Records every delegate call of an input loop, in order.
final class Recorder: InputLoopDelegate {
    enum Call: Equatable, Sendable {
        case added(DeviceInfo)
        case removed(String)
        case changed(DeviceInfo)
        case pendingRead(String)
        case mapped(String, [InputEvent]?, [MappedCommand])
    }

    let calls = Mutex<[Call]>([])
    var all: [Call] { calls.withLock { $0 } }

    private func record(_ call: Call) {
        calls.withLock { $0.append(call) }
        Changes.shared.notify()
    }

    var added: [DeviceInfo] {
        all.compactMap { if case .added(let d) = $0 { d } else { nil } }
    }
    /// The devices added at `device`'s node under its name: another suite's device that was made
    /// and destroyed at the same node before it (reported as ignored) is not it.
    func added(_ device: Uinput) -> [DeviceInfo] {
        added.filter { $0.node == device.node && $0.name == device.name }
    }
    var removed: [String] {
        all.compactMap { if case .removed(let id) = $0 { id } else { nil } }
    }
    /// The `mapped` reports, in words.
    var mapped: [Mapped] {
        all.compactMap(Mapped.init)
    }
    /// The frames the loop read from the device `id`, in order, each as it was mapped.
    func frames(of id: String) -> [[InputEvent]] {
        mapped.filter { $0.id == id }.compactMap(\.frame)
    }

    func deviceAdded(_ device: DeviceInfo) { record(.added(device)) }
    func deviceRemoved(id: String) { record(.removed(id)) }
    func deviceChanged(_ device: DeviceInfo) { record(.changed(device)) }
    func pendingRead(id: String) { record(.pendingRead(id)) }
    func mapped(id: String, frame: [InputEvent]?, commands: [MappedCommand]) { record(.mapped(id, frame, commands)) }
}

/// One `mapped` report in words: its device, its frame (nil: a release, a resync, a timer or a
/// gesture) and its commands as "up press", "select release".
struct Mapped: Equatable, CustomStringConvertible {
    var id: String
    var frame: [InputEvent]?
    var commands: [String]

    init(_ id: String, frame: [InputEvent]?, _ commands: [String]) {
        self.id = id
        self.frame = frame
        self.commands = commands
    }

    init?(_ call: Recorder.Call) {
        guard case .mapped(let id, let frame, let commands) = call else { return nil }
        self.init(id, frame: frame, commands.map { "\($0.command) \($0.phase.rawValue)" })
    }

    var description: String { "\(id) \(frame.map { "frame \($0.map { "\($0.code)=\($0.value)" })" } ?? "no frame"): \(commands)" }
}

/// Counts calls of the policy closure (each open attempt asks it once before opening).
final class PolicyCounter: Sendable {
    let count = Mutex<[String: Int]>([:])
    let ignore: Set<String>

    init(ignore: Set<String> = []) { self.ignore = ignore }

    func policy(_ identity: DeviceIdentity) -> DevicePolicy {
        count.withLock { $0[identity.node, default: 0] += 1 }
        Changes.shared.notify()
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
