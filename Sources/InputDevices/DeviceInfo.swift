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
    /// A node is gone (unplug, ENODEV, removal): release everything it held.
    func deviceRemoved(id: String)
    /// A listed device changed: its problem, grab, class or backend.
    func deviceChanged(_ device: DeviceInfo)
    /// The events of one frame, up to and excluding its SYN_REPORT (which is not included).
    func frame(id: String, events: [InputEvent])
    /// After SYN_DROPPED: the device's current state. Keys not in `keysDown` are up; the mapper
    /// releases what it holds and presses nothing new. Also sent with nothing down just before a
    /// listed device is closed to be reopened (policies reapplied, udev properties changed, a
    /// read error other than unplug).
    func resync(id: String, keysDown: Set<UInt16>, absValues: [UInt16: Int32])
    /// A gesture libinput recognised on a touch surface.
    func gesture(id: String, gesture: Gesture)
    /// The answer to `InputLoop.readPending(id:)`: everything the device had pending was reported
    /// before this (also sent when the device is unknown or closed).
    func pendingRead(id: String)
    /// With `InputLoopConfiguration.mapping`: one frame (nil for a gesture, a resync, a timer
    /// or a release) and the commands its device's mapper made of it.
    func mapped(id: String, frame: [InputEvent]?, commands: [MappedCommand])
}

extension InputLoopDelegate {
    /// Delegates that never ask `readPending` need not answer it.
    public func pendingRead(id: String) {}
    /// Delegates that map on the input thread get `mapped` instead.
    public func frame(id: String, events: [InputEvent]) {}
    public func resync(id: String, keysDown: Set<UInt16>, absValues: [UInt16: Int32]) {}
    public func gesture(id: String, gesture: Gesture) {}
    /// Delegates that map themselves never get it.
    public func mapped(id: String, frame: [InputEvent]?, commands: [MappedCommand]) {}
}
