// The types of `io.focusd.Focus.varlink`, as the engine's model: field names are the interface's,
// one to one, and an optional field is one the wire may leave out. Their wire form (conformances,
// fast readers and writers) lives in FocusWire; the engine holds no wire code.

/// A rectangle in scene coordinates (points, origin top-left, y grows downwards).
public struct Rect: Hashable, Sendable {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width; negative is an `InvalidScene` error (focus.md §1).
    public var width: Double
    /// Height; negative is an `InvalidScene` error (focus.md §1).
    public var height: Double

    /// A rectangle with its top-left corner at (`x`, `y`).
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The left edge (`l` in focus.md §2).
    public var minX: Double { x }
    /// The top edge (`t` in focus.md §2).
    public var minY: Double { y }
    /// The right edge (`r` in focus.md §2).
    public var maxX: Double { x + width }
    /// The bottom edge (`b` in focus.md §2).
    public var maxY: Double { y + height }
    /// The horizontal centre, `l + w/2`.
    public var midX: Double { x + width / 2 }
    /// The vertical centre, `t + h/2`.
    public var midY: Double { y + height / 2 }
    /// A rectangle with zero width or height covers no point and can never be a candidate.
    public var isEmpty: Bool { !(width > 0) || !(height > 0) }
}

/// What select and the crown do on a focusable node (`focusable(_:interactions:)`).
public enum Interaction: String, Hashable, Sendable, CaseIterable {
    case activate, edit
}

/// A move: the four directions and the two sequential steps.
public enum Direction: String, Hashable, Sendable, CaseIterable {
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
public struct Binding: Hashable, Sendable {
    /// The binding's name, shared by every node bound to it.
    public var name: String
    /// The enum case this node is bound to; nil for a Bool binding.
    public var value: String?

    /// `focused(name)` without `value`, `focused(name, equals: value)` with it.
    public init(name: String, value: String? = nil) {
        self.name = name
        self.value = value
    }
}

/// The read value of one binding: Bool bindings fill `isTrue`, value bindings fill `value`.
public struct BindingState: Hashable, Sendable {
    /// The binding's name.
    public var name: String
    /// A Bool binding's value: true while a node bound to it holds focus.
    public var isTrue: Bool?
    /// A value binding's value: the bound value of the focused node, nil while no node bound to it holds focus.
    public var value: String?

    /// A read value; fill `isTrue` for a Bool binding, `value` for a value binding.
    public init(name: String, isTrue: Bool? = nil, value: String? = nil) {
        self.name = name
        self.isTrue = isTrue
        self.value = value
    }
}

/// The priority of `defaultFocus(_:_:priority:)` (focus.md §4); `automatic` when absent.
public enum DefaultFocusPriority: String, Hashable, Sendable {
    case automatic, userInitiated
}

/// `defaultFocus(_:_:priority:)` on a region.
public struct DefaultFocus: Hashable, Sendable {
    /// The name of the binding whose bound node is preferred.
    public var binding: String
    /// The bound value that is preferred; nil for a Bool binding.
    public var value: String?
    /// `automatic` when absent, or `userInitiated`.
    public var priority: DefaultFocusPriority?

    /// `defaultFocus(binding, value, priority:)`.
    public init(binding: String, value: String? = nil, priority: DefaultFocusPriority? = nil) {
        self.binding = binding
        self.value = value
        self.priority = priority
    }
}

/// The axes on which directional moves inside a section wrap (`wrap`, beyond SwiftUI).
public enum WrapAxis: String, Hashable, Sendable {
    case horizontal, vertical, both
}

/// The axes on which a scroll container scrolls (focus.md §12).
public enum ScrollAxis: String, Hashable, Sendable {
    case horizontal, vertical, both
}

/// How a scroll container shows the newly focused item: `visible` (the default), `center` or `leading` (focus.md §12).
public enum ScrollPolicy: String, Hashable, Sendable {
    case visible, center, leading
}

/// A scroll container; the node's frame is the viewport, its descendants' frames are in content
/// coordinates (focus.md §12).
public struct Scroll: Hashable, Sendable {
    /// The axes it scrolls on.
    public var axis: ScrollAxis
    /// The width of its content, in content coordinates.
    public var contentWidth: Double
    /// The height of its content, in content coordinates.
    public var contentHeight: Double
    /// The current horizontal offset (default 0), within `0 … max(0, content − viewport)`.
    public var offsetX: Double?
    /// The current vertical offset (default 0), within `0 … max(0, content − viewport)`.
    public var offsetY: Double?
    /// How focus scrolls it: `visible` when absent.
    public var policy: ScrollPolicy?
    /// How much the focused item's frame is grown when it is scrolled into view (default 0).
    public var margin: Double?

    /// A scroll container's fields as the wire carries them.
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

/// How a lazy collection places its items: in a row, a column or a grid (focus.md §12).
public enum CollectionLayout: String, Hashable, Sendable {
    case row, column, grid
}

/// A lazy collection: `count` slots; built items are children carrying `index` (focus.md §12).
public struct Collection: Hashable, Sendable {
    /// The number of slots, built or not.
    public var count: Int
    /// Row, column or grid.
    public var layout: CollectionLayout
    /// The width of every slot.
    public var itemWidth: Double
    /// The height of every slot.
    public var itemHeight: Double
    /// The gap between slots (default 0).
    public var spacing: Double?
    /// A grid's number of items per row (focus.md §12).
    public var columns: Int?

    /// A lazy collection's fields as the wire carries them.
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
public struct ScrollOffset: Hashable, Sendable {
    /// The scroll container's id.
    public var node: String
    /// Its horizontal offset.
    public var offsetX: Double
    /// Its vertical offset.
    public var offsetY: Double

    /// The offset of container `node`.
    public init(node: String, offsetX: Double, offsetY: Double) {
        self.node = node
        self.offsetX = offsetX
        self.offsetY = offsetY
    }
}

/// One node of a scene tree. Frames are in scene coordinates, not relative to the parent, except
/// inside a scroll container, whose descendants' frames are in its content coordinates (§12).
public struct Node: Hashable, Sendable {
    /// Unique in the scene; duplicates are an `InvalidScene` error (focus.md §1).
    public var id: String
    /// Without a frame (or with zero width or height) a node is never a candidate; a section without one covers the union of its descendants' frames.
    public var frame: Rect?
    /// `focusable(_:)`; default false.
    public var focusable: Bool?
    /// Skipped by every search and by default focus; disables the whole subtree.
    public var disabled: Bool?
    /// `focusable(_:interactions:)`; absent means `activate` only.
    public var interactions: [Interaction]?
    /// `focusSection()`.
    public var section: Bool?
    /// `focusScope(_:)`: this node declares the namespace of this name.
    public var scope: String?
    /// `prefersDefaultFocus(_:in:)`: the name of the scope in which this node prefers default focus.
    public var prefersDefaultFocus: String?
    /// `defaultFocus(_:_:priority:)` on a region.
    public var defaultFocus: DefaultFocus?
    /// `focused(_:)` and `focused(_:equals:)` (focus.md §5).
    public var bindings: [Binding]?
    /// `accessibilityFocused(_:)` / `accessibilityFocused(_:equals:)`, for the accessibility track (focus.md §8).
    public var accessibilityBindings: [Binding]?
    /// `focusedValue(_:_:)`: key → string; a client that needs structure encodes it as JSON text.
    public var values: [String: String]?
    /// `focusedSceneValue(_:_:)`: key → string.
    public var sceneValues: [String: String]?
    /// `focusEffectDisabled(_:)` (focus.md §6).
    public var focusEffectDisabled: Bool?
    /// Free text; `search` marks the field the Search command focuses, `text` other text fields (focus.md §7).
    public var role: String?
    /// A section re-entered by a directional move restores its last focused descendant (beyond SwiftUI).
    public var remembersLastFocus: Bool?
    /// Directional moves inside this section wrap on these axes (beyond SwiftUI).
    public var wrap: WrapAxis?
    /// Explicit targets: key is a Direction name, value a node id; "" blocks that move.
    public var next: [String: String]?
    /// While focus is inside this node, directional and sequential moves cannot leave it (beyond SwiftUI).
    public var modal: Bool?
    /// Makes this node a scroll container; its frame is the viewport (focus.md §12).
    public var scroll: Scroll?
    /// Makes this node a lazy collection (focus.md §12).
    public var collection: Collection?
    /// A built item's index in its parent collection.
    public var index: Int?
    /// The child nodes, in tree order.
    public var children: [Node]?

    /// A node with every field the wire carries; absent fields take their contract defaults.
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

/// The scene's reading direction: it decides the leading edge in sequential order and scrolling (focus.md §3, §12).
public enum LayoutDirection: String, Hashable, Sendable {
    case leftToRight, rightToLeft
}

/// How directional search picks among candidates, chosen per scene (focus.md §2).
public enum SearchPolicy: String, Hashable, Sendable {
    /// In direction and in beam only (the default).
    case tvos
    /// Android FocusFinder / Compose: every candidate in direction.
    case android
}

/// A scene: a named tree of nodes that `SetScene` installs (focus.md §1).
public struct Scene: Hashable, Sendable {
    /// The scene's name; calls address the scene by it.
    public var name: String
    /// The root of the tree.
    public var root: Node
    /// `leftToRight` when absent.
    public var layoutDirection: LayoutDirection?
    /// The directional search policy; `tvos` when absent.
    public var policy: SearchPolicy?
    /// Whether next/previous wrap past the ends (default true, focus.md §3).
    public var sequentialWrap: Bool?
    /// Keep the scene when the connection that set it closes.
    public var persist: Bool?

    /// A scene with the wire's fields; absent fields take their contract defaults.
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
public struct NodePatch: Hashable, Sendable {
    /// The id of the node to insert under.
    public var parent: String
    /// The position among the parent's children; last when absent.
    public var index: Int?
    /// The node to insert or replace, with its subtree.
    public var node: Node

    /// A patch inserting or replacing `node` under `parent`.
    public init(parent: String, index: Int? = nil, node: Node) {
        self.parent = parent
        self.index = index
        self.node = node
    }
}

/// Which focus a call reads or moves: the main one or the accessibility one (focus.md §8).
public enum Track: String, Hashable, Sendable {
    case main, accessibility
}

/// Why focus moved, carried by `focus` events (focus.md §11).
public struct Cause: Hashable, Sendable {
    /// What moved focus: a move, the crown, a call, a binding write, default focus, a reset, a removal, the Search command, or a collection item built or unbuilt.
    public enum Kind: String, Hashable, Sendable {
        case directional, sequential, crown, programmatic, binding, defaultFocus, reset, removed, search,
            materialized, virtualized
    }

    /// What moved focus.
    public var kind: Kind
    /// The direction of a directional or sequential move.
    public var direction: Direction?
    /// Device id from io.focusd.Input, when a device caused it.
    public var device: String?

    /// A cause of `kind`, with the move's direction and the device when they apply.
    public init(kind: Kind, direction: Direction? = nil, device: String? = nil) {
        self.kind = kind
        self.direction = direction
        self.device = device
    }
}

/// A scene's focus state as calls return it and `Monitor` streams it (focus.md §5, §6, §11).
public struct FocusState: Hashable, Sendable {
    /// The scene's name.
    public var scene: String
    /// Whether this is the active scene, the one device commands go to (focus.md §9).
    public var active: Bool
    /// The id of the focused node; nil when nothing is focused.
    public var focused: String?
    /// The focused node, then its ancestors up to the root.
    public var path: [String]
    /// The read value of every binding of the scene, in tree order of first appearance.
    public var bindings: [BindingState]
    /// For each key, the value published by the focused node or its nearest ancestor that publishes it (focus.md §6).
    public var focusedValues: [String: String]
    /// The `sceneValues` of every node of the scene, regardless of focus; first in tree order wins (focus.md §6).
    public var sceneValues: [String: String]
    /// False when the focused node or an ancestor disables the focus effect (focus.md §6).
    public var focusEffectEnabled: Bool
    /// The id of the node holding accessibility focus (focus.md §8).
    public var accessibilityFocused: String?
    /// The read value of every accessibility binding of the scene.
    public var accessibilityBindings: [BindingState]
    /// The offset of every scroll container of the scene, in tree order.
    public var scroll: [ScrollOffset]
    /// Bumped once by every call or device command that changes anything in this state.
    public var revision: Int

    /// A state with every field the wire carries.
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

/// One change of a scene, streamed to its monitors; every event of a call is queued before the call's reply is sent (focus.md §11).
public struct Event: Hashable, Sendable {
    /// What happened: focus moved, a move was blocked, a node was activated or edited, a command was published, bindings, values, the scene, a scroll offset changed, or a collection item must be built.
    public enum Kind: String, Hashable, Sendable {
        case focus, blocked, activate, edit, command, bindings, values, scene, scroll, materialize
    }

    /// What happened.
    public var kind: Kind
    /// The scene's name.
    public var scene: String
    /// The revision after the change (blocked, activate, edit, command: the current one).
    public var revision: Int
    /// focus: from/to; blocked: from; activate/edit: to is the target.
    public var from: String?
    /// focus: the newly focused node; activate/edit: the target.
    public var to: String?
    /// focus: why focus moved.
    public var cause: Cause?
    /// The track (main or accessibility) the event is about.
    public var track: Track?
    /// edit: crown rotation since the last edit event.
    public var detents: Int?
    /// edit: the fractional remainder of the rotation, in detents (input.md §5).
    public var fraction: Double?
    /// edit: the rotation speed, in detents per second.
    public var velocity: Double?
    /// command: back, home, menu, playPause, search, channelUp, channelDown, info, ...
    public var command: String?
    /// The device id from io.focusd.Input that sent the command, when a device did.
    public var device: String?
    /// bindings: the bindings whose read value changed.
    public var bindings: [BindingState]?
    /// values: the new focusedValues.
    public var values: [String: String]?
    /// scroll: the container and its new offset; materialize: the collection and the index to build.
    public var node: String?
    /// scroll: the container's new horizontal offset.
    public var offsetX: Double?
    /// scroll: the container's new vertical offset.
    public var offsetY: Double?
    /// materialize: the index of the item to build.
    public var index: Int?

    /// An event with the wire's fields; fields that do not apply to `kind` stay nil.
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

/// One finding of `Lint` (focus.md §10).
public struct Problem: Hashable, Sendable {
    /// The rule a problem breaks (focus.md §10).
    public enum Kind: String, Hashable, Sendable {
        case unreachable, asymmetric, deadEnd, ambiguousBinding, emptyFrame, overlap, offscreen
    }

    /// The rule broken.
    public var kind: Kind
    /// The node the problem is about.
    public var node: String
    /// The other node involved: the default focus (unreachable), the node reached (asymmetric), the
    /// node sharing the binding (ambiguousBinding), the node overlapped (overlap), the root (offscreen).
    public var other: String?
    /// The direction of the move concerned, where one is.
    public var direction: Direction?
    /// The problem in words, for a person.
    public var message: String

    /// A finding of `kind` about `node`.
    public init(kind: Kind, node: String, other: String? = nil, direction: Direction? = nil, message: String) {
        self.kind = kind
        self.node = node
        self.other = other
        self.direction = direction
        self.message = message
    }
}
