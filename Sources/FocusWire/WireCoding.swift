// The JSON form of the engine's types (`io.focusd.Focus.varlink` and the Inspect replies): their
// `Codable` conformances, here rather than in FocusEngine, so the engine holds no wire code and a
// field is added to the wire in this module only. Each conformance is what the compiler would
// synthesize: coding keys named as the fields, in declaration order; optional fields decoded with
// `decodeIfPresent` (absent and `null` both nil) and left out when nil on encode. The hand-written
// readers and writers beside them (SceneBytes, SceneDecoding, CallDecoders, WireWriters) are held
// to these by differential tests and fuzzers.

import FocusEngine

extension Interaction: Codable {}
extension Direction: Codable {}
extension DefaultFocusPriority: Codable {}
extension WrapAxis: Codable {}
extension ScrollAxis: Codable {}
extension ScrollPolicy: Codable {}
extension CollectionLayout: Codable {}
extension LayoutDirection: Codable {}
extension SearchPolicy: Codable {}
extension Track: Codable {}
extension Cause.Kind: Codable {}
extension Event.Kind: Codable {}
extension Problem.Kind: Codable {}

extension Rect: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case x, y, width, height
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let x = try container.decode(Double.self, forKey: .x)
        let y = try container.decode(Double.self, forKey: .y)
        let width = try container.decode(Double.self, forKey: .width)
        let height = try container.decode(Double.self, forKey: .height)
        self.init(x: x, y: y, width: width, height: height)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(x, forKey: .x)
        try container.encode(y, forKey: .y)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
    }
}

extension Binding: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, value
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .name)
        let value = try container.decodeIfPresent(String.self, forKey: .value)
        self.init(name: name, value: value)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(value, forKey: .value)
    }
}

extension BindingState: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, isTrue, value
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .name)
        let isTrue = try container.decodeIfPresent(Bool.self, forKey: .isTrue)
        let value = try container.decodeIfPresent(String.self, forKey: .value)
        self.init(name: name, isTrue: isTrue, value: value)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(isTrue, forKey: .isTrue)
        try container.encodeIfPresent(value, forKey: .value)
    }
}

extension DefaultFocus: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case binding, value, priority
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let binding = try container.decode(String.self, forKey: .binding)
        let value = try container.decodeIfPresent(String.self, forKey: .value)
        let priority = try container.decodeIfPresent(DefaultFocusPriority.self, forKey: .priority)
        self.init(binding: binding, value: value, priority: priority)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(binding, forKey: .binding)
        try container.encodeIfPresent(value, forKey: .value)
        try container.encodeIfPresent(priority, forKey: .priority)
    }
}

extension Scroll: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case axis, contentWidth, contentHeight, offsetX, offsetY, policy, margin
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let axis = try container.decode(ScrollAxis.self, forKey: .axis)
        let contentWidth = try container.decode(Double.self, forKey: .contentWidth)
        let contentHeight = try container.decode(Double.self, forKey: .contentHeight)
        let offsetX = try container.decodeIfPresent(Double.self, forKey: .offsetX)
        let offsetY = try container.decodeIfPresent(Double.self, forKey: .offsetY)
        let policy = try container.decodeIfPresent(ScrollPolicy.self, forKey: .policy)
        let margin = try container.decodeIfPresent(Double.self, forKey: .margin)
        self.init(
            axis: axis, contentWidth: contentWidth, contentHeight: contentHeight, offsetX: offsetX, offsetY: offsetY,
            policy: policy, margin: margin
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(axis, forKey: .axis)
        try container.encode(contentWidth, forKey: .contentWidth)
        try container.encode(contentHeight, forKey: .contentHeight)
        try container.encodeIfPresent(offsetX, forKey: .offsetX)
        try container.encodeIfPresent(offsetY, forKey: .offsetY)
        try container.encodeIfPresent(policy, forKey: .policy)
        try container.encodeIfPresent(margin, forKey: .margin)
    }
}

extension Collection: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case count, layout, itemWidth, itemHeight, spacing, columns
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let count = try container.decode(Int.self, forKey: .count)
        let layout = try container.decode(CollectionLayout.self, forKey: .layout)
        let itemWidth = try container.decode(Double.self, forKey: .itemWidth)
        let itemHeight = try container.decode(Double.self, forKey: .itemHeight)
        let spacing = try container.decodeIfPresent(Double.self, forKey: .spacing)
        let columns = try container.decodeIfPresent(Int.self, forKey: .columns)
        self.init(
            count: count, layout: layout, itemWidth: itemWidth, itemHeight: itemHeight, spacing: spacing,
            columns: columns
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(count, forKey: .count)
        try container.encode(layout, forKey: .layout)
        try container.encode(itemWidth, forKey: .itemWidth)
        try container.encode(itemHeight, forKey: .itemHeight)
        try container.encodeIfPresent(spacing, forKey: .spacing)
        try container.encodeIfPresent(columns, forKey: .columns)
    }
}

extension ScrollOffset: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case node, offsetX, offsetY
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let node = try container.decode(String.self, forKey: .node)
        let offsetX = try container.decode(Double.self, forKey: .offsetX)
        let offsetY = try container.decode(Double.self, forKey: .offsetY)
        self.init(node: node, offsetX: offsetX, offsetY: offsetY)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(node, forKey: .node)
        try container.encode(offsetX, forKey: .offsetX)
        try container.encode(offsetY, forKey: .offsetY)
    }
}

/// Node's fields: the one table of them, the interface's `Node` type field for field and in its
/// order. Node's `Codable` conformance is keyed by it, and both fast readers (``SceneBytes`` from
/// the bytes, ``SceneDecoding`` from the JSON tree) switch over it exhaustively, so a field added
/// here does not compile until each of them reads it or says it leaves it to `Codable`.
/// `WireFieldTableTests` holds it to the interface file and the `Codable` conformance to it.
package enum NodeField: String, CodingKey, CaseIterable, Sendable {
    case id, frame, focusable, disabled, interactions, section, scope, prefersDefaultFocus, defaultFocus
    case bindings, accessibilityBindings, values, sceneValues, focusEffectDisabled, role, remembersLastFocus
    case wrap, next, modal, scroll, collection, index, children
}

extension Node: Codable {
    typealias CodingKeys = NodeField

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(String.self, forKey: .id)
        let frame = try container.decodeIfPresent(Rect.self, forKey: .frame)
        let focusable = try container.decodeIfPresent(Bool.self, forKey: .focusable)
        let disabled = try container.decodeIfPresent(Bool.self, forKey: .disabled)
        let interactions = try container.decodeIfPresent([Interaction].self, forKey: .interactions)
        let section = try container.decodeIfPresent(Bool.self, forKey: .section)
        let scope = try container.decodeIfPresent(String.self, forKey: .scope)
        let prefersDefaultFocus = try container.decodeIfPresent(String.self, forKey: .prefersDefaultFocus)
        let defaultFocus = try container.decodeIfPresent(DefaultFocus.self, forKey: .defaultFocus)
        let bindings = try container.decodeIfPresent([Binding].self, forKey: .bindings)
        let accessibilityBindings = try container.decodeIfPresent([Binding].self, forKey: .accessibilityBindings)
        let values = try container.decodeIfPresent([String: String].self, forKey: .values)
        let sceneValues = try container.decodeIfPresent([String: String].self, forKey: .sceneValues)
        let focusEffectDisabled = try container.decodeIfPresent(Bool.self, forKey: .focusEffectDisabled)
        let role = try container.decodeIfPresent(String.self, forKey: .role)
        let remembersLastFocus = try container.decodeIfPresent(Bool.self, forKey: .remembersLastFocus)
        let wrap = try container.decodeIfPresent(WrapAxis.self, forKey: .wrap)
        let next = try container.decodeIfPresent([String: String].self, forKey: .next)
        let modal = try container.decodeIfPresent(Bool.self, forKey: .modal)
        let scroll = try container.decodeIfPresent(Scroll.self, forKey: .scroll)
        let collection = try container.decodeIfPresent(Collection.self, forKey: .collection)
        let index = try container.decodeIfPresent(Int.self, forKey: .index)
        let children = try container.decodeIfPresent([Node].self, forKey: .children)
        self.init(
            id: id, frame: frame, focusable: focusable, disabled: disabled, interactions: interactions,
            section: section, scope: scope, prefersDefaultFocus: prefersDefaultFocus, defaultFocus: defaultFocus,
            bindings: bindings, accessibilityBindings: accessibilityBindings, values: values, sceneValues: sceneValues,
            focusEffectDisabled: focusEffectDisabled, role: role, remembersLastFocus: remembersLastFocus, wrap: wrap,
            next: next, modal: modal, scroll: scroll, collection: collection, index: index, children: children
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(frame, forKey: .frame)
        try container.encodeIfPresent(focusable, forKey: .focusable)
        try container.encodeIfPresent(disabled, forKey: .disabled)
        try container.encodeIfPresent(interactions, forKey: .interactions)
        try container.encodeIfPresent(section, forKey: .section)
        try container.encodeIfPresent(scope, forKey: .scope)
        try container.encodeIfPresent(prefersDefaultFocus, forKey: .prefersDefaultFocus)
        try container.encodeIfPresent(defaultFocus, forKey: .defaultFocus)
        try container.encodeIfPresent(bindings, forKey: .bindings)
        try container.encodeIfPresent(accessibilityBindings, forKey: .accessibilityBindings)
        try container.encodeIfPresent(values, forKey: .values)
        try container.encodeIfPresent(sceneValues, forKey: .sceneValues)
        try container.encodeIfPresent(focusEffectDisabled, forKey: .focusEffectDisabled)
        try container.encodeIfPresent(role, forKey: .role)
        try container.encodeIfPresent(remembersLastFocus, forKey: .remembersLastFocus)
        try container.encodeIfPresent(wrap, forKey: .wrap)
        try container.encodeIfPresent(next, forKey: .next)
        try container.encodeIfPresent(modal, forKey: .modal)
        try container.encodeIfPresent(scroll, forKey: .scroll)
        try container.encodeIfPresent(collection, forKey: .collection)
        try container.encodeIfPresent(index, forKey: .index)
        try container.encodeIfPresent(children, forKey: .children)
    }
}

extension Scene: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, root, layoutDirection, policy, sequentialWrap, persist
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .name)
        let root = try container.decode(Node.self, forKey: .root)
        let layoutDirection = try container.decodeIfPresent(LayoutDirection.self, forKey: .layoutDirection)
        let policy = try container.decodeIfPresent(SearchPolicy.self, forKey: .policy)
        let sequentialWrap = try container.decodeIfPresent(Bool.self, forKey: .sequentialWrap)
        let persist = try container.decodeIfPresent(Bool.self, forKey: .persist)
        self.init(
            name: name, root: root, layoutDirection: layoutDirection, policy: policy, sequentialWrap: sequentialWrap,
            persist: persist
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(root, forKey: .root)
        try container.encodeIfPresent(layoutDirection, forKey: .layoutDirection)
        try container.encodeIfPresent(policy, forKey: .policy)
        try container.encodeIfPresent(sequentialWrap, forKey: .sequentialWrap)
        try container.encodeIfPresent(persist, forKey: .persist)
    }
}

extension NodePatch: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case parent, index, node
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let parent = try container.decode(String.self, forKey: .parent)
        let index = try container.decodeIfPresent(Int.self, forKey: .index)
        let node = try container.decode(Node.self, forKey: .node)
        self.init(parent: parent, index: index, node: node)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(parent, forKey: .parent)
        try container.encodeIfPresent(index, forKey: .index)
        try container.encode(node, forKey: .node)
    }
}

extension Cause: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, direction, device
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(Kind.self, forKey: .kind)
        let direction = try container.decodeIfPresent(Direction.self, forKey: .direction)
        let device = try container.decodeIfPresent(String.self, forKey: .device)
        self.init(kind: kind, direction: direction, device: device)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(direction, forKey: .direction)
        try container.encodeIfPresent(device, forKey: .device)
    }
}

extension FocusState: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case scene, active, focused, path, bindings, focusedValues, sceneValues, focusEffectEnabled
        case accessibilityFocused, accessibilityBindings, scroll, revision
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let scene = try container.decode(String.self, forKey: .scene)
        let active = try container.decode(Bool.self, forKey: .active)
        let focused = try container.decodeIfPresent(String.self, forKey: .focused)
        let path = try container.decode([String].self, forKey: .path)
        let bindings = try container.decode([BindingState].self, forKey: .bindings)
        let focusedValues = try container.decode([String: String].self, forKey: .focusedValues)
        let sceneValues = try container.decode([String: String].self, forKey: .sceneValues)
        let focusEffectEnabled = try container.decode(Bool.self, forKey: .focusEffectEnabled)
        let accessibilityFocused = try container.decodeIfPresent(String.self, forKey: .accessibilityFocused)
        let accessibilityBindings = try container.decode([BindingState].self, forKey: .accessibilityBindings)
        let scroll = try container.decode([ScrollOffset].self, forKey: .scroll)
        let revision = try container.decode(Int.self, forKey: .revision)
        self.init(
            scene: scene, active: active, focused: focused, path: path, bindings: bindings,
            focusedValues: focusedValues, sceneValues: sceneValues, focusEffectEnabled: focusEffectEnabled,
            accessibilityFocused: accessibilityFocused, accessibilityBindings: accessibilityBindings, scroll: scroll,
            revision: revision
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scene, forKey: .scene)
        try container.encode(active, forKey: .active)
        try container.encodeIfPresent(focused, forKey: .focused)
        try container.encode(path, forKey: .path)
        try container.encode(bindings, forKey: .bindings)
        try container.encode(focusedValues, forKey: .focusedValues)
        try container.encode(sceneValues, forKey: .sceneValues)
        try container.encode(focusEffectEnabled, forKey: .focusEffectEnabled)
        try container.encodeIfPresent(accessibilityFocused, forKey: .accessibilityFocused)
        try container.encode(accessibilityBindings, forKey: .accessibilityBindings)
        try container.encode(scroll, forKey: .scroll)
        try container.encode(revision, forKey: .revision)
    }
}

extension Event: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, scene, revision, from, to, cause, track, detents, fraction, velocity, command, device, bindings
        case values, node, offsetX, offsetY, index
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(Kind.self, forKey: .kind)
        let scene = try container.decode(String.self, forKey: .scene)
        let revision = try container.decode(Int.self, forKey: .revision)
        let from = try container.decodeIfPresent(String.self, forKey: .from)
        let to = try container.decodeIfPresent(String.self, forKey: .to)
        let cause = try container.decodeIfPresent(Cause.self, forKey: .cause)
        let track = try container.decodeIfPresent(Track.self, forKey: .track)
        let detents = try container.decodeIfPresent(Int.self, forKey: .detents)
        let fraction = try container.decodeIfPresent(Double.self, forKey: .fraction)
        let velocity = try container.decodeIfPresent(Double.self, forKey: .velocity)
        let command = try container.decodeIfPresent(String.self, forKey: .command)
        let device = try container.decodeIfPresent(String.self, forKey: .device)
        let bindings = try container.decodeIfPresent([BindingState].self, forKey: .bindings)
        let values = try container.decodeIfPresent([String: String].self, forKey: .values)
        let node = try container.decodeIfPresent(String.self, forKey: .node)
        let offsetX = try container.decodeIfPresent(Double.self, forKey: .offsetX)
        let offsetY = try container.decodeIfPresent(Double.self, forKey: .offsetY)
        let index = try container.decodeIfPresent(Int.self, forKey: .index)
        self.init(
            kind: kind, scene: scene, revision: revision, from: from, to: to, cause: cause, track: track,
            detents: detents, fraction: fraction, velocity: velocity, command: command, device: device,
            bindings: bindings, values: values, node: node, offsetX: offsetX, offsetY: offsetY, index: index
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(scene, forKey: .scene)
        try container.encode(revision, forKey: .revision)
        try container.encodeIfPresent(from, forKey: .from)
        try container.encodeIfPresent(to, forKey: .to)
        try container.encodeIfPresent(cause, forKey: .cause)
        try container.encodeIfPresent(track, forKey: .track)
        try container.encodeIfPresent(detents, forKey: .detents)
        try container.encodeIfPresent(fraction, forKey: .fraction)
        try container.encodeIfPresent(velocity, forKey: .velocity)
        try container.encodeIfPresent(command, forKey: .command)
        try container.encodeIfPresent(device, forKey: .device)
        try container.encodeIfPresent(bindings, forKey: .bindings)
        try container.encodeIfPresent(values, forKey: .values)
        try container.encodeIfPresent(node, forKey: .node)
        try container.encodeIfPresent(offsetX, forKey: .offsetX)
        try container.encodeIfPresent(offsetY, forKey: .offsetY)
        try container.encodeIfPresent(index, forKey: .index)
    }
}

extension Problem: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, node, other, direction, message
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(Kind.self, forKey: .kind)
        let node = try container.decode(String.self, forKey: .node)
        let other = try container.decodeIfPresent(String.self, forKey: .other)
        let direction = try container.decodeIfPresent(Direction.self, forKey: .direction)
        let message = try container.decode(String.self, forKey: .message)
        self.init(kind: kind, node: node, other: other, direction: direction, message: message)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(node, forKey: .node)
        try container.encodeIfPresent(other, forKey: .other)
        try container.encodeIfPresent(direction, forKey: .direction)
        try container.encode(message, forKey: .message)
    }
}

extension PathPlan: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case commands, through, reachable, nearest, visited
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let commands = try container.decode([String].self, forKey: .commands)
        let through = try container.decode([String].self, forKey: .through)
        let reachable = try container.decode(Bool.self, forKey: .reachable)
        let nearest = try container.decodeIfPresent(String.self, forKey: .nearest)
        let visited = try container.decode(Int.self, forKey: .visited)
        self.init(commands: commands, through: through, reachable: reachable, nearest: nearest, visited: visited)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(commands, forKey: .commands)
        try container.encode(through, forKey: .through)
        try container.encode(reachable, forKey: .reachable)
        try container.encodeIfPresent(nearest, forKey: .nearest)
        try container.encode(visited, forKey: .visited)
    }
}

extension ExplainedCandidate: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, section, frame, inDirection, inBeam, fullyBeyond, major, majorFar, minor, score
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(String.self, forKey: .id)
        let section = try container.decode(Bool.self, forKey: .section)
        let frame = try container.decode(Rect.self, forKey: .frame)
        let inDirection = try container.decode(Bool.self, forKey: .inDirection)
        let inBeam = try container.decode(Bool.self, forKey: .inBeam)
        let fullyBeyond = try container.decode(Bool.self, forKey: .fullyBeyond)
        let major = try container.decode(Double.self, forKey: .major)
        let majorFar = try container.decode(Double.self, forKey: .majorFar)
        let minor = try container.decode(Double.self, forKey: .minor)
        let score = try container.decode(Double.self, forKey: .score)
        self.init(
            id: id, section: section, frame: frame, inDirection: inDirection, inBeam: inBeam, fullyBeyond: fullyBeyond,
            major: major, majorFar: majorFar, minor: minor, score: score
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(section, forKey: .section)
        try container.encode(frame, forKey: .frame)
        try container.encode(inDirection, forKey: .inDirection)
        try container.encode(inBeam, forKey: .inBeam)
        try container.encode(fullyBeyond, forKey: .fullyBeyond)
        try container.encode(major, forKey: .major)
        try container.encode(majorFar, forKey: .majorFar)
        try container.encode(minor, forKey: .minor)
        try container.encode(score, forKey: .score)
    }
}

extension SearchedContainer: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, kind, wrapped, source, candidates, omitted, notConsidered, winner, rule
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(String.self, forKey: .id)
        let kind = try container.decode(String.self, forKey: .kind)
        let wrapped = try container.decode(Bool.self, forKey: .wrapped)
        let source = try container.decode(Rect.self, forKey: .source)
        let candidates = try container.decode([ExplainedCandidate].self, forKey: .candidates)
        let omitted = try container.decode(Int.self, forKey: .omitted)
        let notConsidered = try container.decode(Int.self, forKey: .notConsidered)
        let winner = try container.decodeIfPresent(String.self, forKey: .winner)
        let rule = try container.decode(String.self, forKey: .rule)
        self.init(
            id: id, kind: kind, wrapped: wrapped, source: source, candidates: candidates, omitted: omitted,
            notConsidered: notConsidered, winner: winner, rule: rule
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(wrapped, forKey: .wrapped)
        try container.encode(source, forKey: .source)
        try container.encode(candidates, forKey: .candidates)
        try container.encode(omitted, forKey: .omitted)
        try container.encode(notConsidered, forKey: .notConsidered)
        try container.encodeIfPresent(winner, forKey: .winner)
        try container.encode(rule, forKey: .rule)
    }
}

extension MoveExplanation: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case direction, from, source, policy, override, containers, winner, result, decidedBy, reason
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let direction = try container.decode(Direction.self, forKey: .direction)
        let from = try container.decodeIfPresent(String.self, forKey: .from)
        let source = try container.decodeIfPresent(Rect.self, forKey: .source)
        let policy = try container.decode(SearchPolicy.self, forKey: .policy)
        let override = try container.decodeIfPresent(String.self, forKey: .override)
        let containers = try container.decode([SearchedContainer].self, forKey: .containers)
        let winner = try container.decodeIfPresent(String.self, forKey: .winner)
        let result = try container.decodeIfPresent(String.self, forKey: .result)
        let decidedBy = try container.decode(String.self, forKey: .decidedBy)
        let reason = try container.decodeIfPresent(String.self, forKey: .reason)
        self.init(
            direction: direction, from: from, source: source, policy: policy, override: override,
            containers: containers, winner: winner, result: result, decidedBy: decidedBy, reason: reason
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(direction, forKey: .direction)
        try container.encodeIfPresent(from, forKey: .from)
        try container.encodeIfPresent(source, forKey: .source)
        try container.encode(policy, forKey: .policy)
        try container.encodeIfPresent(override, forKey: .override)
        try container.encode(containers, forKey: .containers)
        try container.encodeIfPresent(winner, forKey: .winner)
        try container.encodeIfPresent(result, forKey: .result)
        try container.encode(decidedBy, forKey: .decidedBy)
        try container.encodeIfPresent(reason, forKey: .reason)
    }
}
