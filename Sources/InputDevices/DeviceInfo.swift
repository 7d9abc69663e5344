// What the input loop reports about one device node: the fields of io.focusd.Input's `Device`.
import InputMapping

/// One attached device node as the service lists it (`io.focusd.Input` `Device`).
public struct DeviceInfo: Hashable, Sendable {
    /// Stable while the node stays attached, kept across reopen (see `DeviceID`).
    public var id: String
    /// Everything read from the node (name, ids, phys, uniq, capabilities, udev properties, group).
    public var identity: DeviceIdentity
    public var deviceClass: DeviceClass
    public var backend: Backend
    /// EVIOCGRAB is held (exclusive access).
    public var grabbed: Bool
    /// Name of the config profile that matched; set by the service, nil from the loop.
    public var profile: String?
    /// Why the device is attached but unused (permission denied, ignored, not an input device...).
    public var problem: String?
    /// The facts that decided the class and the grab, in words (input.md §2 and §9).
    public var reasons: [String] = []
    /// Lent to a client with `Lend` (input.md §11): neither grabbed nor mapped meanwhile.
    public var lent = false
    /// The event node of its pass-through device, while it has one (input.md §11).
    public var passthrough: String?
    /// Its profile's crown `wrap`, decided with its policy (`DevicePolicy.settings`); not on
    /// the wire: the service's crown events carry it.
    public var crownWraps = false

    public var name: String { identity.name }
    public var node: String { identity.node }
    public var bus: Int { identity.bus }
    public var vendor: Int { identity.vendor }
    public var product: Int { identity.product }
    public var version: Int { identity.version }
    public var phys: String? { identity.phys }
    public var uniq: String? { identity.uniq }

    public init(
        id: String, identity: DeviceIdentity, deviceClass: DeviceClass = .other, backend: Backend = .libevdev,
        grabbed: Bool = false, profile: String? = nil, problem: String? = nil
    ) {
        self.id = id
        self.identity = identity
        self.deviceClass = deviceClass
        self.backend = backend
        self.grabbed = grabbed
        self.profile = profile
        self.problem = problem
    }
}

/// What the service decides for one device, from its configuration (`policy(identity)`).
public struct DevicePolicy: Hashable, Sendable {
    /// Replaces the classifier's class.
    public var deviceClass: DeviceClass?
    /// Replaces the default backend (libinput for touchpads when udevd runs, libevdev otherwise).
    public var backend: Backend?
    /// `InputMapping.GrabMode`: `none` lists the device, once opened and classified, with a
    /// problem and does not read it (class `other`, input.md §2).
    public var grab: GrabMode
    /// Listed with this reason as its problem and never read (closed if it was opened to decide).
    public var ignoreReason: String?
    /// Name of the profile that matched, copied into `DeviceInfo.profile`.
    public var profile: String?
    /// The facts that decided class and grab, copied into `DeviceInfo.reasons`.
    public var reasons: [String] = []
    /// The profile settings this policy was decided from: the device's mapper runs with them,
    /// so a device is decided once per open (and again per reload). Nil: the mapper asks
    /// `InputLoopConfiguration.mapping`.
    public var settings: DeviceSettings?

    public init(
        deviceClass: DeviceClass? = nil, backend: Backend? = nil, grab: GrabMode = .shared,
        ignoreReason: String? = nil, profile: String? = nil
    ) {
        self.deviceClass = deviceClass
        self.backend = backend
        self.grab = grab
        self.ignoreReason = ignoreReason
        self.profile = profile
    }

    /// Read everything, grab nothing, keep the classifier's class.
    public static let `default` = DevicePolicy()
}

/// Receives what the input loop sees. Every method is called on the loop's own thread, one at a
/// time, in order; implementations hop to their own executor and must not block.
public protocol InputLoopDelegate: AnyObject, Sendable {
    /// A node appeared (also for ignored or not-yet-openable nodes, which carry a `problem`).
    func deviceAdded(_ device: DeviceInfo)
    /// A node is gone (unplug, ENODEV, removal); what it held was released just before (`mapped`).
    func deviceRemoved(id: String)
    /// A listed device changed: its problem, grab, class or backend.
    func deviceChanged(_ device: DeviceInfo)
    /// The answer to `InputLoop.readPending(id:)`: everything the device had pending was reported
    /// before this (also sent when the device is unknown or closed).
    func pendingRead(id: String)
    /// What a device did, mapped on the input thread by its `DeviceMapper`: one frame (up to and
    /// excluding its SYN_REPORT; reported even when it made no command) and the commands made of it, or with `frame` nil the commands
    /// of a gesture, a timer (repeat, long-press, edit idle) or a release. A release comes
    /// after SYN_DROPPED (what the device held, before the keys still down are swallowed), and
    /// before a device is removed, closed to be reopened (policies reapplied, udev properties
    /// changed, a read error other than unplug), lent, or fails its grab.
    func mapped(id: String, frame: [InputEvent]?, commands: [MappedCommand])
}

extension InputLoopDelegate {
    /// Delegates that never ask `readPending` need not answer it.
    public func pendingRead(id: String) {}
}
