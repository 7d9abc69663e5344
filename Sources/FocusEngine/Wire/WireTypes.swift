// The types of `io.focusd.Focus.varlink`, as Codable values that read and write the wire JSON.
//
// Field names are the interface's, one to one. Optional fields are left out when nil on encode and
// accept both `null` and absence on decode, as Varlink allows for `?type` fields.

/// A rectangle in scene coordinates (points, origin top-left, y grows downwards).
public struct Rect: Codable, Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    /// A rectangle with zero width or height covers no point and can never be a candidate.
    public var isEmpty: Bool { !(width > 0) || !(height > 0) }
}

/// What select and the crown do on a focusable node (`focusable(_:interactions:)`).
public enum Interaction: String, Codable, Hashable, Sendable, CaseIterable {
    case activate, edit
}

/// A move: the four directions and the two sequential steps.
public enum Direction: String, Codable, Hashable, Sendable, CaseIterable {
    case up, down, left, right, next, previous

    /// True for up, down, left and right.
    public var isDirectional: Bool {
        switch self {
        case .up, .down, .left, .right: true
        case .next, .previous: false
        }
    }

    /// The move that undoes this one (left ↔ right, up ↔ down, next ↔ previous).
    public var opposite: Direction {
        switch self {
        case .up: .down
        case .down: .up
        case .left: .right
        case .right: .left
        case .next: .previous
        case .previous: .next
        }
    }
}

/// `focused(_:)` when `value` is nil, `focused(_:equals:)` otherwise.
public struct Binding: Codable, Hashable, Sendable {
    public var name: String
    public var value: String?

    public init(name: String, value: String? = nil) {
        self.name = name
        self.value = value
    }
}

/// The read value of one binding: Bool bindings fill `isTrue`, value bindings fill `value`.
public struct BindingState: Codable, Hashable, Sendable {
    public var name: String
    public var isTrue: Bool?
    public var value: String?

    public init(name: String, isTrue: Bool? = nil, value: String? = nil) {
        self.name = name
        self.isTrue = isTrue
        self.value = value
    }
}

public enum DefaultFocusPriority: String, Codable, Hashable, Sendable {
    case automatic, userInitiated
}

/// `defaultFocus(_:_:priority:)` on a region.
public struct DefaultFocus: Codable, Hashable, Sendable {
    public var binding: String
    public var value: String?
    public var priority: DefaultFocusPriority?

    public init(binding: String, value: String? = nil, priority: DefaultFocusPriority? = nil) {
        self.binding = binding
        self.value = value
        self.priority = priority
    }
}

public enum WrapAxis: String, Codable, Hashable, Sendable {
    case horizontal, vertical, both
}

public enum ScrollAxis: String, Codable, Hashable, Sendable {
    case horizontal, vertical, both
}

public enum ScrollPolicy: String, Codable, Hashable, Sendable {
    case visible, center, leading
}

/// A scroll container; the node's frame is the viewport, its descendants' frames are in content
/// coordinates (focus.md §12).
public struct Scroll: Codable, Hashable, Sendable {
    public var axis: ScrollAxis
    public var contentWidth: Double
    public var contentHeight: Double
    public var offsetX: Double?
    public var offsetY: Double?
    public var policy: ScrollPolicy?
    public var margin: Double?

    public init(
        axis: ScrollAxis, contentWidth: Double, contentHeight: Double, offsetX: Double? = nil,
        offsetY: Double? = nil, policy: ScrollPolicy? = nil, margin: Double? = nil
    ) {
        self.axis = axis
        self.contentWidth = contentWidth
        self.contentHeight = contentHeight
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.policy = policy
        self.margin = margin
    }
}

public enum CollectionLayout: String, Codable, Hashable, Sendable {
    case row, column, grid
}

/// A lazy collection: `count` slots; built items are children carrying `index` (focus.md §12).
public struct Collection: Codable, Hashable, Sendable {
    public var count: Int
    public var layout: CollectionLayout
    public var itemWidth: Double
    public var itemHeight: Double
    public var spacing: Double?
    public var columns: Int?

    public init(
        count: Int, layout: CollectionLayout, itemWidth: Double, itemHeight: Double, spacing: Double? = nil,
        columns: Int? = nil
    ) {
        self.count = count
        self.layout = layout
        self.itemWidth = itemWidth
        self.itemHeight = itemHeight
        self.spacing = spacing
        self.columns = columns
    }
}

/// One scroll container's current offset.
public struct ScrollOffset: Codable, Hashable, Sendable {
    public var node: String
    public var offsetX: Double
    public var offsetY: Double

    public init(node: String, offsetX: Double, offsetY: Double) {
        self.node = node
        self.offsetX = offsetX
        self.offsetY = offsetY
    }
}

/// One node of a scene tree. Frames are in scene coordinates, not relative to the parent, except
/// inside a scroll container, whose descendants' frames are in its content coordinates (§12).
public struct Node: Codable, Hashable, Sendable {
    public var id: String
    public var frame: Rect?
    public var focusable: Bool?
    public var disabled: Bool?
    public var interactions: [Interaction]?
    public var section: Bool?
    public var scope: String?
    public var prefersDefaultFocus: String?
    public var defaultFocus: DefaultFocus?
    public var bindings: [Binding]?
    public var accessibilityBindings: [Binding]?
    public var values: [String: String]?
    public var sceneValues: [String: String]?
    public var focusEffectDisabled: Bool?
    public var role: String?
    public var remembersLastFocus: Bool?
    public var wrap: WrapAxis?
    /// Explicit targets: key is a Direction name, value a node id; "" blocks that move.
    public var next: [String: String]?
    public var modal: Bool?
    public var scroll: Scroll?
    public var collection: Collection?
    /// A built item's index in its parent collection.
    public var index: Int?
    public var children: [Node]?

    public init(
        id: String, frame: Rect? = nil, focusable: Bool? = nil, disabled: Bool? = nil,
        interactions: [Interaction]? = nil, section: Bool? = nil, scope: String? = nil,
        prefersDefaultFocus: String? = nil, defaultFocus: DefaultFocus? = nil,
        bindings: [Binding]? = nil, accessibilityBindings: [Binding]? = nil,
        values: [String: String]? = nil, sceneValues: [String: String]? = nil,
        focusEffectDisabled: Bool? = nil, role: String? = nil, remembersLastFocus: Bool? = nil,
        wrap: WrapAxis? = nil, next: [String: String]? = nil, modal: Bool? = nil,
        scroll: Scroll? = nil, collection: Collection? = nil, index: Int? = nil,
        children: [Node]? = nil
    ) {
        self.id = id
        self.frame = frame
        self.focusable = focusable
        self.disabled = disabled
        self.interactions = interactions
        self.section = section
        self.scope = scope
        self.prefersDefaultFocus = prefersDefaultFocus
        self.defaultFocus = defaultFocus
        self.bindings = bindings
        self.accessibilityBindings = accessibilityBindings
        self.values = values
        self.sceneValues = sceneValues
        self.focusEffectDisabled = focusEffectDisabled
        self.role = role
        self.remembersLastFocus = remembersLastFocus
        self.wrap = wrap
        self.next = next
        self.modal = modal
        self.scroll = scroll
        self.collection = collection
        self.index = index
        self.children = children
    }
}

public enum LayoutDirection: String, Codable, Hashable, Sendable {
    case leftToRight, rightToLeft
}

public enum SearchPolicy: String, Codable, Hashable, Sendable {
    /// In direction and in beam only (the default).
    case tvos
    /// Android FocusFinder / Compose: every candidate in direction.
    case android
}

public struct Scene: Codable, Hashable, Sendable {
    public var name: String
    public var root: Node
    public var layoutDirection: LayoutDirection?
    public var policy: SearchPolicy?
    public var sequentialWrap: Bool?
    /// Keep the scene when the connection that set it closes.
    public var persist: Bool?

    public init(
        name: String, root: Node, layoutDirection: LayoutDirection? = nil, policy: SearchPolicy? = nil,
        sequentialWrap: Bool? = nil, persist: Bool? = nil
    ) {
        self.name = name
        self.root = root
        self.layoutDirection = layoutDirection
        self.policy = policy
        self.sequentialWrap = sequentialWrap
        self.persist = persist
    }
}

/// Insert or replace `node` (with its subtree) under `parent` at `index` (default: last).
public struct NodePatch: Codable, Hashable, Sendable {
    public var parent: String
    public var index: Int?
    public var node: Node

    public init(parent: String, index: Int? = nil, node: Node) {
        self.parent = parent
        self.index = index
        self.node = node
    }
}

public enum Track: String, Codable, Hashable, Sendable {
    case main, accessibility
}

public struct Cause: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, Hashable, Sendable {
        case directional, sequential, crown, programmatic, binding, defaultFocus, reset, removed, search,
            materialized, virtualized
    }

    public var kind: Kind
    public var direction: Direction?
    /// Device id from io.focusd.Input, when a device caused it.
    public var device: String?

    public init(kind: Kind, direction: Direction? = nil, device: String? = nil) {
        self.kind = kind
        self.direction = direction
        self.device = device
    }
}

public struct FocusState: Codable, Hashable, Sendable {
    public var scene: String
    public var active: Bool
    public var focused: String?
    /// The focused node, then its ancestors up to the root.
    public var path: [String]
    /// The read value of every binding of the scene, in tree order of first appearance.
    public var bindings: [BindingState]
    public var focusedValues: [String: String]
    public var sceneValues: [String: String]
    public var focusEffectEnabled: Bool
    public var accessibilityFocused: String?
    public var accessibilityBindings: [BindingState]
    /// The offset of every scroll container of the scene, in tree order.
    public var scroll: [ScrollOffset]
    /// Bumped once by every call or device command that changes anything in this state.
    public var revision: Int

    public init(
        scene: String, active: Bool, focused: String?, path: [String], bindings: [BindingState],
        focusedValues: [String: String], sceneValues: [String: String], focusEffectEnabled: Bool,
        accessibilityFocused: String?, accessibilityBindings: [BindingState], scroll: [ScrollOffset] = [],
        revision: Int
    ) {
        self.scene = scene
        self.active = active
        self.focused = focused
        self.path = path
        self.bindings = bindings
        self.focusedValues = focusedValues
        self.sceneValues = sceneValues
        self.focusEffectEnabled = focusEffectEnabled
        self.accessibilityFocused = accessibilityFocused
        self.accessibilityBindings = accessibilityBindings
        self.scroll = scroll
        self.revision = revision
    }
}

public struct Event: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, Hashable, Sendable {
        case focus, blocked, activate, edit, command, bindings, values, scene, scroll, materialize
    }

    public var kind: Kind
    public var scene: String
    /// The revision after the change (blocked, activate, edit, command: the current one).
    public var revision: Int
    /// focus: from/to; blocked: from; activate/edit: to is the target.
    public var from: String?
    public var to: String?
    public var cause: Cause?
    public var track: Track?
    /// edit: crown rotation since the last edit event.
    public var detents: Int?
    public var fraction: Double?
    public var velocity: Double?
    /// command: back, home, menu, playPause, search, channelUp, channelDown, info, ...
    public var command: String?
    public var device: String?
    /// bindings: the bindings whose read value changed.
    public var bindings: [BindingState]?
    /// values: the new focusedValues.
    public var values: [String: String]?
    /// scroll: the container and its new offset; materialize: the collection and the index to build.
    public var node: String?
    public var offsetX: Double?
    public var offsetY: Double?
    public var index: Int?

    public init(
        kind: Kind, scene: String, revision: Int, from: String? = nil, to: String? = nil,
        cause: Cause? = nil, track: Track? = nil, detents: Int? = nil, fraction: Double? = nil,
        velocity: Double? = nil, command: String? = nil, device: String? = nil,
        bindings: [BindingState]? = nil, values: [String: String]? = nil, node: String? = nil,
        offsetX: Double? = nil, offsetY: Double? = nil, index: Int? = nil
    ) {
        self.kind = kind
        self.scene = scene
        self.revision = revision
        self.from = from
        self.to = to
        self.cause = cause
        self.track = track
        self.detents = detents
        self.fraction = fraction
        self.velocity = velocity
        self.command = command
        self.device = device
        self.bindings = bindings
        self.values = values
        self.node = node
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.index = index
    }
}

public struct Problem: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, Hashable, Sendable {
        case unreachable, asymmetric, deadEnd, ambiguousBinding, emptyFrame, overlap, offscreen
    }

    public var kind: Kind
    public var node: String
    public var other: String?
    public var direction: Direction?
    public var message: String

    public init(kind: Kind, node: String, other: String? = nil, direction: Direction? = nil, message: String) {
        self.kind = kind
        self.node = node
        self.other = other
        self.direction = direction
        self.message = message
    }
}
