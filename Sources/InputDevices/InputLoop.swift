// The input thread: one epoll loop over device nodes, discovery, a timer and a command queue.
import Glibc
import InputMapping
import Synchronization
import SystemCalls

/// Settings of an `InputLoop`; the defaults are the real system's.
public struct InputLoopConfiguration: Sendable {
    /// Where event nodes live (watched with inotify when udevd does not run).
    public var inputDirectory: String
    /// Root of sysfs, for ids, names and groups of nodes before they are opened.
    public var sysfsRoot: String
    /// Use libudev for discovery and properties: nil decides by whether udevd runs.
    public var useUdev: Bool?
    /// udevd's control socket, whose existence says that udevd runs.
    public var udevControlPath: String
    /// Back-off of timed reopen attempts for nodes that cannot be opened yet.
    public var retryDelaysUsec: [Int64]
    /// Devices whose name starts with this are focusd's own virtual devices: never listed.
    public var ownDevicePrefix: String
    /// The classifier (InputMapping's `DeviceClassifier.classify`).
    public var classify: @Sendable (DeviceIdentity) -> DeviceClass
    /// The configuration's decision per device (class, backend, grab, ignore, profile name),
    /// given the identities of the device's siblings (other listed nodes of the same physical
    /// device, same non-nil `group`), for profiles with `siblings = true`.
    public var policy: @Sendable (_ device: DeviceIdentity, _ siblings: [DeviceIdentity]) -> DevicePolicy
    /// The settings of a device whose policy carries none (`DevicePolicy.settings` nil). Every
    /// read device's `DeviceMapper` runs on the input thread with its timers, and the delegate
    /// gets each frame, resync and gesture as the commands its mapper made of it
    /// (`mapped(id:frame:commands:)`). Default: the defaults of the class `classify` gives.
    public var mapping: DeviceMappers.Settings
    /// What the mappers are told about the focused node (read on the input thread per event).
    public var focusContext: @Sendable () -> FocusContext = { FocusContext() }

    public init(
        inputDirectory: String = "/dev/input", sysfsRoot: String = "/sys", useUdev: Bool? = nil,
        udevControlPath: String = "/run/udev/control", retryDelaysUsec: [Int64] = [100_000, 500_000, 2_000_000],
        ownDevicePrefix: String = "focusd",
        classify: @escaping @Sendable (DeviceIdentity) -> DeviceClass,
        policy: @escaping @Sendable (_ device: DeviceIdentity, _ siblings: [DeviceIdentity]) -> DevicePolicy = { _, _ in .default },
        mapping: DeviceMappers.Settings? = nil
    ) {
        self.inputDirectory = inputDirectory
        self.sysfsRoot = sysfsRoot
        self.useUdev = useUdev
        self.udevControlPath = udevControlPath
        self.retryDelaysUsec = retryDelaysUsec
        self.ownDevicePrefix = ownDevicePrefix
        self.classify = classify
        self.policy = policy
        self.mapping = mapping ?? { identity, _ in DeviceSettings(deviceClass: classify(identity)) }
    }
}

/// A request from another thread, carried to the loop through the eventfd.
enum LoopCommand: Sendable, Equatable {
    case addNode(String)
    case removeNode(String)
    case setGrab(id: String, GrabMode)
    case reapplyPolicies
    case readPending(id: String)
    /// Lend or take back a device (input.md §11); `token` names the caller's completion.
    case lend(id: String, token: Int)
    case reclaim(id: String, token: Int)
    case shutdown
}

/// Reads every input device on one dedicated thread and reports to a delegate.
///
/// The thread sleeps in `epoll_wait` without a timeout until a device, discovery, the back-off
/// timer or a command needs it: an idle loop never wakes up. Every delegate call happens on that
/// thread. All methods may be called from any thread.
public final class InputLoop: Sendable {
    private let configuration: InputLoopConfiguration
    private let delegate: any InputLoopDelegate
    private let commands = Mutex<[LoopCommand]>([])
    private let snapshot = Mutex<[DeviceInfo]>([])
    private let wakeFD: Int32
    private let thread = Mutex<pthread_t?>(nil)
    private let wakeups = Atomic<Int>(0)
    /// Set up by `start`, run and torn down by the loop thread.
    private let pendingCore = Mutex<LoopCoreBox?>(nil)
    /// The completions of `lend` and `reclaim` calls not yet done, by token.
    private let completions = Mutex<(next: Int, waiting: [Int: @Sendable (DeviceInfo?) -> Void])>((0, [:]))

    /// Creates a stopped loop. - Throws: `PosixError` when no eventfd can be created.
    public init(configuration: InputLoopConfiguration, delegate: any InputLoopDelegate) throws(PosixError) {
        self.configuration = configuration
        self.delegate = delegate
        wakeFD = try Epoll.eventCounter().release()
    }

    deinit {
        close(wakeFD)
    }

    /// Sets up epoll, discovery and the timer, then starts the thread, which enumerates the
    /// devices present (after subscribing to changes) and reads them.
    /// Starting a running loop does nothing.
    /// - Throws: `PosixError` when epoll, inotify, udev or the thread cannot be set up.
    public func start() throws(PosixError) {
        guard thread.withLock({ $0 == nil }) else { return }
        let kernel = try LinuxInputKernel(configuration: configuration, wakeFD: wakeFD)
        let core = LoopCore(
            configuration: configuration, kernel: kernel, delegate: delegate,
            takeCommands: { self.commands.withLock { list in defer { list.removeAll() }; return list } },
            publish: { devices in self.snapshot.withLock { $0 = devices } },
            countWakeup: { self.wakeups.add(1, ordering: .relaxed) },
            complete: { token, device in self.completions.withLock { $0.waiting.removeValue(forKey: token) }?(device) })
        pendingCore.withLock { $0 = LoopCoreBox(core) }
        var handle = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(&handle, nil, { raw in
            let loop = Unmanaged<InputLoop>.fromOpaque(raw!).takeRetainedValue()
            loop.pendingCore.withLock { $0.take() }?.core.run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<InputLoop>.fromOpaque(context).release()
            pendingCore.withLock { $0 = nil }
            throw PosixError(call: "pthread_create", errno: status)
        }
        thread.withLock { $0 = handle }
    }

    /// Ungrabs and closes every device, ends the thread and waits for it (unless called on it).
    public func stop() {
        send(.shutdown)
        guard let handle = thread.withLock({ current in defer { current = nil }; return current }) else { return }
        if pthread_equal(handle, pthread_self()) == 0 { pthread_join(handle, nil) } else { pthread_detach(handle) }
    }

    /// The devices now listed (for `ListDevices`).
    public var devices: [DeviceInfo] { snapshot.withLock { $0 } }

    /// Opens a node that discovery did not report (a path given by hand).
    public func addNode(_ node: String) { send(.addNode(node)) }

    /// Closes and forgets a node.
    public func removeNode(_ node: String) { send(.removeNode(node)) }

    /// Changes a device's grab; an exclusive grab waits until no key is down.
    public func setGrab(id: String, _ mode: GrabMode) { send(.setGrab(id: id, mode)) }

    /// A barrier: reads whatever the device `id` has pending now, reports it, then calls the
    /// delegate's `pendingRead(id:)`, which therefore comes after every frame the kernel held and
    /// every command sent before this call. (The mappers' timers read the device themselves before
    /// they act.)
    public func readPending(id: String) { send(.readPending(id: id)) }

    /// Lends the device `id` to a client (input.md §11): what it holds is released, its
    /// pass-through device goes, and it is ungrabbed and closed; then `completion` gets it (nil:
    /// no such device), on the loop's thread. It stays lent, also across a re-plug under its
    /// former id, until `reclaim`.
    public func lend(id: String, completion: @escaping @Sendable (DeviceInfo?) -> Void) {
        send(.lend(id: id, token: register(completion)))
    }

    /// Takes a lent device back: opened as at plug-in (grabbed once no key is down); then
    /// `completion` gets it (nil: not attached now; it is no longer lent either way).
    public func reclaim(id: String, completion: @escaping @Sendable (DeviceInfo?) -> Void) {
        send(.reclaim(id: id, token: register(completion)))
    }

    private func register(_ completion: @escaping @Sendable (DeviceInfo?) -> Void) -> Int {
        completions.withLock { state in
            let token = state.next
            state.next += 1
            state.waiting[token] = completion
            return token
        }
    }

    /// Asks `policy` again for every device (after a config reload): each device is closed and
    /// reopened under its new policy and reported with `deviceChanged`.
    public func reapplyPolicies() { send(.reapplyPolicies) }

    /// How often the thread has woken up from `epoll_wait` (tests: an idle loop stays at 0).
    public var wakeupCount: Int { wakeups.load(ordering: .relaxed) }

    private func send(_ command: LoopCommand) {
        commands.withLock { $0.append(command) }
        Epoll.signal(rawEventFD: wakeFD)
    }
}

/// Moves the loop's state, built on the starting thread, to the loop thread, which alone uses it.
private struct LoopCoreBox: @unchecked Sendable {
    let core: LoopCore
    init(_ core: LoopCore) { self.core = core }
}
