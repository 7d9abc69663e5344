// One node of the flattened tree (`Slot`), its boxed fields and its subtree aggregates.

/// A node's own fields (children stripped), shared between copies of the store.
final class NodeBox: Sendable {
    let node: Node
    init(_ node: Node) { self.node = node }
    /// The box of `node` without its children (copied only here: a plain leaf is never boxed).
    init(strippingChildren node: Node) {
        var own = node
        own.children = nil
        self.node = own
    }
}

/// Subtree aggregates of a node with children; a leaf's are derived from its frame, so the 10,000
/// leaves of a grid store none (64 bytes a node less than keeping them in every slot).
struct Aggregate: Sendable, Equatable {
    /// The union of the non-empty frames in the subtree (own included): a frameless section's frame.
    var union: Rect?
    /// A rectangle holding every target frame of the subtree (candidates, sections' own frames);
    /// may be larger than needed after removals, which only costs search time.
    var reach: Rect?
}

/// One node of the flattened tree, packed (about 90 bytes): 32-bit indices, the optional frame
/// as a rectangle plus a bit, flags in one word, and the node's own fields kept in a `NodeBox`
/// only when it has any beyond `id`, `frame` and `focusable` (a plain leaf costs no allocation).
struct Slot: Sendable {
    var id: String
    /// The node's own fields (children stripped), or nil when `id`, `frame` and `focusable` are all.
    var box: NodeBox?
    var children: [Int]
    private var parent32: Int32
    private var indexInParent32: Int32
    private var depth32: Int32
    private var candCount32: Int32
    private var space32: Int32
    private var frameRect: Rect
    private var bits: UInt32

    init(id: String, node: __shared Node, frame sceneFrame: Rect? = nil, parent: Int, depth: Int, disabled: Bool, candidate: Bool,
         hadChildren: Bool) {
        self.id = id
        // A frame other than the one given (content coordinates, a collection's derived size, a
        // built item's slot) keeps the given node in the box, so the scene round-trips.
        let frame = sceneFrame ?? node.frame
        let plain = frame == node.frame && node.scroll == nil && node.collection == nil && node.index == nil
            && node.disabled == nil && node.interactions == nil && node.section == nil && node.scope == nil
            && node.prefersDefaultFocus == nil && node.defaultFocus == nil && node.bindings == nil
            && node.accessibilityBindings == nil && node.values == nil && node.sceneValues == nil
            && node.focusEffectDisabled == nil && node.role == nil && node.remembersLastFocus == nil
            && node.wrap == nil && node.next == nil && node.modal == nil
        box = plain ? nil : NodeBox(strippingChildren: node)
        children = []
        parent32 = Int32(parent)
        indexInParent32 = 0
        depth32 = Int32(depth)
        candCount32 = 0
        space32 = 0
        let zero = Rect(x: 0, y: 0, width: 0, height: 0)
        frameRect = frame ?? zero
        bits = 0
        alive = true
        self.disabled = disabled
        self.candidate = candidate
        self.hadChildren = hadChildren
        if frame != nil { set(Self.hasFrameBit, true) }
        if let focusable = node.focusable { set(Self.focusableGivenBit, true); set(Self.focusableBit, focusable) }
        section = node.section == true
        modal = node.modal == true
        userDefault = node.defaultFocus?.priority == .userInitiated
        hasNext = node.next?.isEmpty == false
        remembers = node.remembersLastFocus == true
        wraps = node.wrap != nil
        hasValues = node.values != nil
    }

    /// The node's `collection` field, read in its box without copying the node.
    var collection: Collection? { box?.node.collection }

    /// The node's own fields (children stripped).
    var node: Node {
        if let box { return box.node }
        return Node(id: id, frame: frame, focusable: bit(Self.focusableGivenBit) ? bit(Self.focusableBit) : nil)
    }

    var parent: Int {
        @inline(__always) get { Int(parent32) }
        set { parent32 = Int32(newValue) }
    }
    var indexInParent: Int {
        @inline(__always) get { Int(indexInParent32) }
        set { indexInParent32 = Int32(newValue) }
    }
    var depth: Int {
        @inline(__always) get { Int(depth32) }
        set { depth32 = Int32(newValue) }
    }
    var candCount: Int {
        @inline(__always) get { Int(candCount32) }
        set { candCount32 = Int32(newValue) }
    }
    /// The coordinate space `frame` is in: 0 for the scene, else the content space of the innermost
    /// scroll container above the node (see `ScrollStore.swift`).
    var space: Int {
        @inline(__always) get { Int(space32) }
        set { space32 = Int32(newValue) }
    }
    /// The node's frame in its space's coordinates (as given, except a collection's derived size
    /// and a built item's slot: see focus.md §12); `SceneStore.frame(_:)` gives scene coordinates.
    var frame: Rect? {
        @inline(__always) get { bit(Self.hasFrameBit) ? frameRect : nil }
    }
    /// Sets the frame (in its space's coordinates) of a slot that has one (a reused virtual item's).
    mutating func setFrame(_ r: Rect) { frameRect = r }
    /// The aggregates of a node without children: its own frame when not empty.
    var leafAggregate: Aggregate {
        let own = frame.flatMap { $0.isEmpty ? nil : $0 }
        return Aggregate(union: own, reach: own)
    }

    private static let aliveBit: UInt32 = 1 << 0, disabledBit: UInt32 = 1 << 1, candidateBit: UInt32 = 1 << 2
    private static let hadChildrenBit: UInt32 = 1 << 3, sectionBit: UInt32 = 1 << 4, modalBit: UInt32 = 1 << 5
    private static let userDefaultBit: UInt32 = 1 << 6, hasNextBit: UInt32 = 1 << 7, remembersBit: UInt32 = 1 << 8
    private static let wrapsBit: UInt32 = 1 << 9, hasValuesBit: UInt32 = 1 << 10, hasFrameBit: UInt32 = 1 << 11
    private static let scrollBit: UInt32 = 1 << 12, virtualBit: UInt32 = 1 << 13
    private static let focusableGivenBit: UInt32 = 1 << 14, focusableBit: UInt32 = 1 << 15

    @inline(__always) private func bit(_ mask: UInt32) -> Bool { bits & mask != 0 }
    @inline(__always) private mutating func set(_ mask: UInt32, _ on: Bool) { if on { bits |= mask } else { bits &= ~mask } }

    var alive: Bool { @inline(__always) get { bit(Self.aliveBit) } set { set(Self.aliveBit, newValue) } }
    var disabled: Bool { @inline(__always) get { bit(Self.disabledBit) } set { set(Self.disabledBit, newValue) } }
    var candidate: Bool { @inline(__always) get { bit(Self.candidateBit) } set { set(Self.candidateBit, newValue) } }
    /// The node was given with a `children` array (kept so `scene` round-trips `[]`).
    var hadChildren: Bool { @inline(__always) get { bit(Self.hadChildrenBit) } set { set(Self.hadChildrenBit, newValue) } }
    /// Hot flags, copied out of the node so searches do not touch the boxed fields.
    var section: Bool { @inline(__always) get { bit(Self.sectionBit) } set { set(Self.sectionBit, newValue) } }
    var modal: Bool { @inline(__always) get { bit(Self.modalBit) } set { set(Self.modalBit, newValue) } }
    var userDefault: Bool { @inline(__always) get { bit(Self.userDefaultBit) } set { set(Self.userDefaultBit, newValue) } }
    var hasNext: Bool { @inline(__always) get { bit(Self.hasNextBit) } set { set(Self.hasNextBit, newValue) } }
    var remembers: Bool { @inline(__always) get { bit(Self.remembersBit) } set { set(Self.remembersBit, newValue) } }
    var wraps: Bool { @inline(__always) get { bit(Self.wrapsBit) } set { set(Self.wrapsBit, newValue) } }
    var hasValues: Bool { @inline(__always) get { bit(Self.hasValuesBit) } set { set(Self.hasValuesBit, newValue) } }
    /// A scroll container: its children are in its content space, its stored aggregate is its content's.
    var isScroll: Bool { @inline(__always) get { bit(Self.scrollBit) } set { set(Self.scrollBit, newValue) } }
    /// A materialized virtual item (parent: its collection, `indexInParent`: its index).
    var isVirtual: Bool { @inline(__always) get { bit(Self.virtualBit) } set { set(Self.virtualBit, newValue) } }
}
