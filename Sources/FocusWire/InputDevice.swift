/// `Device` of io.focusd.Input, as the daemon sends it and focusctl reads it.
public struct InputDevice: Codable, Hashable, Sendable {
    public var id: String
    public var name: String
    public var node: String
    public var `class`: String
    public var bus: Int
    public var vendor: Int
    public var product: Int
    public var version: Int
    public var phys: String?
    public var uniq: String?
    public var backend: String
    public var grabbed: Bool
    public var profile: String?
    public var problem: String?
    /// The facts that decided the class and the grab, in words (input.md §2 and §9).
    public var reasons: [String]?
    /// Lent to a client with `Lend` (input.md §11); absent when not.
    public var lent: Bool?
    /// The event node of its pass-through device, when it has one (input.md §11).
    public var passthrough: String?

    public init(
        id: String, name: String, node: String, class: String, bus: Int, vendor: Int, product: Int, version: Int,
        phys: String?, uniq: String?, backend: String, grabbed: Bool, profile: String?, problem: String?,
        reasons: [String]? = nil, lent: Bool? = nil, passthrough: String? = nil
    ) {
        self.id = id
        self.name = name
        self.node = node
        self.class = `class`
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.phys = phys
        self.uniq = uniq
        self.backend = backend
        self.grabbed = grabbed
        self.profile = profile
        self.problem = problem
        self.reasons = reasons
        self.lent = lent
        self.passthrough = passthrough
    }
}
