// What the accessibility bus says about a window, and the focusd scene that follows from it
// (adapters.md §3). Pure: no bus, no I/O; the adapter fills `AccessibleTree` from the bus's
// replies and events and publishes `SceneBuilder`'s scenes (AdapterKit's link sends their diffs).
import FocusEngine

/// AT-SPI state bits (AtspiStateType), as `GetState` returns them in two 32-bit words.
public struct AtspiStates: Equatable, Sendable {
    public var bits: UInt64
    public init(bits: UInt64) { self.bits = bits }
    public init(words: [Int]) {
        var bits: UInt64 = 0
        for (i, word) in words.prefix(2).enumerated() { bits |= UInt64(UInt32(truncatingIfNeeded: word)) << (32 * UInt64(i)) }
        self.bits = bits
    }
    public func contains(_ state: Int) -> Bool { bits & (1 << UInt64(state)) != 0 }
    public mutating func set(_ state: Int, _ on: Bool) {
        if on { bits |= 1 << UInt64(state) } else { bits &= ~(1 << UInt64(state)) }
    }

    public static let active = 1, defunct = 6, enabled = 8, focusable = 11, focused = 12, modal = 16
    public static let sensitive = 24, showing = 25, visible = 30

    /// The state named in a `state-changed` event's detail, when the adapter cares about it.
    public static func named(_ name: String) -> Int? {
        switch name {
        case "active": return active
        case "defunct": return defunct
        case "enabled": return enabled
        case "focusable": return focusable
        case "focused": return focused
        case "modal": return modal
        case "sensitive": return sensitive
        case "showing": return showing
        case "visible": return visible
        default: return nil
        }
    }
}

/// AT-SPI roles (AtspiRole) the scene depends on.
public enum AtspiRole {
    public static let alert = 2, dialog = 16, fileChooser = 19, frame = 23, list = 31, menuBar = 34
    public static let pageTabList = 38, passwordText = 40, slider = 51, spinButton = 52, table = 55
    public static let text = 61, toolBar = 63, tree = 65, treeTable = 66, window = 69, entry = 79
    public static let listBox = 98

    public static let icon = 26, image = 27, progressBar = 42, pushButton = 43, radioButton = 44
    public static let scrollBar = 48, separator = 50, toggleButton = 62

    public static let scrollPane = 49, viewport = 68
    /// Containers whose children show only where scrolled into view.
    public static let scrolled: Set<Int> = [scrollPane, viewport]

    public static let sections: Set<Int> = [toolBar, menuBar, pageTabList, list, listBox, table, tree, treeTable]
    /// Roles whose accessible children are the widget's own parts, never a place focus can go:
    /// their children lists are not read. GTK 3 exposes at most a button's image under push,
    /// toggle and radio buttons; Qt 5 exposes its buttons' child widgets, which a button does not
    /// have. Not among them: check boxes (a checkable Qt group box is a check box holding its
    /// widgets), labels (a GTK 3 label's links are focusable children), spin buttons (Qt 5 may
    /// expose the line edit inside), text (a Qt line edit holds its clear button).
    public static let leaves: Set<Int> = [icon, image, progressBar, pushButton, radioButton, scrollBar, separator, slider, toggleButton]

    public static let textFields: Set<Int> = [text, entry, passwordText]
    public static let editable: Set<Int> = [spinButton, slider]
}

/// A rectangle in screen or scene coordinates.
public struct Extents: Equatable, Sendable {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// `GetExtents`'s reply, or nil when it is not a real place: GTK 3 answers INT_MIN for a
    /// widget that is not shown; a negative size is not real either.
    public init?(x: Int, y: Int, width: Int, height: Int) {
        let unreal = Int(Int32.min)
        if x == unreal || y == unreal || width == unreal || height == unreal || width < 0 || height < 0 { return nil }
        self.init(x: Double(x), y: Double(y), width: Double(width), height: Double(height))
    }

    /// This rectangle moved to `origin`'s coordinates and clipped to `bounds` (in those
    /// coordinates); nil when nothing is left.
    func relative(to origin: Extents, clippedTo bounds: Extents) -> Extents? {
        let left = max(x - origin.x, bounds.x), top = max(y - origin.y, bounds.y)
        let right = min(x - origin.x + width, bounds.x + bounds.width)
        let bottom = min(y - origin.y + height, bounds.y + bounds.height)
        guard right > left, bottom > top else { return nil }
        return Extents(x: left, y: top, width: right - left, height: bottom - top)
    }
}

/// Where a surface a toolkit draws on lies, from its window's origin (screen coordinates).
public struct PlacementOffset: Equatable, Sendable {
    public var x: Double, y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// One accessible as last read from the bus.
public struct Accessible: Equatable, Sendable {
    public var path: String
    public var parent: String?
    public var children: [String] = []
    public var role: Int = 0
    public var states = AtspiStates(bits: 0)
    /// Screen extents; nil until read or when not real.
    public var extents: Extents?
    /// Whether the children were read (hidden subtrees are read when they are shown).
    public var childrenRead = false
    /// Whether `states` holds an answer of `GetState` yet.
    public var statesRead = false
    /// Whether `role` holds an answer of `GetRole` yet (or the call failed: role 0).
    public var roleRead = false
    /// Whether the extents were asked for, and the children list (the reads made once the role and
    /// state say the scene needs them).
    public var extentsAsked = false
    public var childrenAsked = false
    /// The rectangle of its last `bounds-changed` event: GTK 3 sends the widget's allocation, in
    /// the coordinates of the surface (GDK window) it is drawn on, not the screen's.
    public var placement: Extents?
    /// Where that surface lies from the window's origin, learned when extents read after the
    /// event answered with the placement's size: screen extents = placement + offset + window origin.
    public var placementOffset: PlacementOffset?
    /// The offset its extents were predicted with at a first placement, until a read answers.
    public var predictedOffset: PlacementOffset?
    /// Its children were found on different surfaces (a prediction was wrong): none is predicted.
    /// On a window: its own size was predicted wrong, and is read from now on.
    public var placementsDiffer = false
    /// A window's extents' size beyond its placement's (a frame's decorations), learned as the
    /// offset is; and whether its extents now hold a size predicted from it.
    public var sizeBeyondPlacement: PlacementOffset?
    public var sizePredicted = false
    /// SHOWING set at a predicted first placement, until a read of its state answers.
    public var showingPredicted = false

    public init(path: String, parent: String?) {
        self.path = path
        self.parent = parent
    }
}

/// The accessibles of one application, by object path.
public struct AccessibleTree: Sendable {
    public var nodes: [String: Accessible] = [:]
    /// The toolkit reports SHOWING (GTK, Qt); where it never does, VISIBLE stands for it.
    public var reportsShowing = false

    public init() {}

    public subscript(path: String) -> Accessible? {
        get { nodes[path] }
        set { nodes[path] = newValue }
    }

    /// Removes `path` and its descendants.
    public mutating func remove(_ path: String) {
        guard let node = nodes.removeValue(forKey: path) else { return }
        for child in node.children where nodes[child]?.parent == path { remove(child) }
    }

    /// The top-level window holding `path` (its ancestor whose parent is the application root).
    public func window(of path: String, root: String) -> String? {
        var current = path
        var steps = 0
        while let node = nodes[current], steps < 1000 {
            if node.parent == root { return current }
            guard let parent = node.parent else { return nil }
            current = parent
            steps += 1
        }
        return nil
    }

    /// One accessible as `org.a11y.atspi.Cache.GetItems` lists it (at-spi2-atk answers it while
    /// a client is registered for `object:children-changed`, as the adapter is).
    public struct CacheItem: Equatable, Sendable {
        public var path: String, parent: String, index: Int, childCount: Int, role: Int, states: AtspiStates
        public init(path: String, parent: String, index: Int, childCount: Int, role: Int, states: AtspiStates) {
            self.path = path
            self.parent = parent
            self.index = index
            self.childCount = childCount
            self.role = role
            self.states = states
        }
    }

    /// Fills the tree under `root` from a cache listing: every listed accessible with its role
    /// and state, children in their index order. An accessible whose listed children are fewer
    /// than its child count (the toolkit had not made them yet) keeps `childrenRead` false, so its
    /// children list is read as in a walk. Returns the accessibles loaded (the root excluded).
    @discardableResult
    public mutating func load(_ items: [CacheItem], root: String) -> [String] {
        var children: [String: [(Int, String)]] = [:]
        var counts: [String: Int] = [:]
        var loaded: [String] = []
        for item in items {
            counts[item.path] = item.childCount
            guard item.path != root else { continue }
            var node = Accessible(path: item.path, parent: item.parent)
            node.role = item.role
            node.roleRead = true
            node.states = item.states
            node.statesRead = true
            learn(item.states)
            nodes[item.path] = node
            children[item.parent, default: []].append((item.index, item.path))
            loaded.append(item.path)
        }
        for (parent, listed) in children where nodes[parent] != nil {
            let ordered = listed.sorted { $0.0 < $1.0 }.map(\.1)
            nodes[parent]?.children = ordered
            if let count = counts[parent], count == ordered.count {
                nodes[parent]?.childrenRead = true
                nodes[parent]?.childrenAsked = true
            }
        }
        for path in loaded where counts[path] == 0 {
            nodes[path]?.childrenRead = true
            nodes[path]?.childrenAsked = true
        }
        return loaded
    }

    /// `Cache.AddAccessible`: an accessible known under the parent the item names, whose state is
    /// not read yet, takes the item's role and state until its reads answer. GTK 3 may lay a
    /// widget out before it answers the reads sent at its `children-changed`, and then answers
    /// them only after painting that frame; the announcement came before the layout. Returns
    /// whether it was used.
    @discardableResult
    public mutating func announce(_ item: CacheItem) -> Bool {
        guard let node = nodes[item.path], node.parent == item.parent, !node.statesRead else { return false }
        if !node.roleRead {
            nodes[item.path]?.role = item.role
            nodes[item.path]?.roleRead = true
        }
        nodes[item.path]?.states = item.states
        nodes[item.path]?.statesRead = true
        learn(item.states)
        return true
    }

    /// `path` was just learned (a `children-changed`, a children list, a cache listing): what the
    /// application said of it before (`EarlyNotices`) is used as if it had come now: its
    /// announcement (where it names the parent the path was learned under) and its last
    /// placement (a rectangle that was not real leaves none). Returns what was used; a placement
    /// used is re-read as a `bounds-changed` is.
    public mutating func adopt(_ kept: EarlyNotices.Entry, at path: String) -> (announced: Bool, placed: Bool) {
        guard nodes[path] != nil else { return (false, false) }
        let announced = kept.item.map { $0.path == path && announce($0) } ?? false
        if kept.placed { nodes[path]?.placement = kept.placement }
        return (announced, kept.placed)
    }

    /// The screen extents of `path` at its first placement, before any read is answered: its
    /// `bounds-changed` rectangle moved by the offset its siblings were found at (they are drawn
    /// on one surface: every sibling whose offset is known has the same, and none was ever found
    /// elsewhere). Nil where that is not known; a read of the extents then says.
    public func predictedExtents(of path: String, window: String) -> (extents: Extents, offset: PlacementOffset)? {
        guard let node = nodes[path], let placed = node.placement, let parent = node.parent.flatMap({ nodes[$0] }),
              !parent.placementsDiffer, let origin = nodes[window]?.extents else { return nil }
        var offset: PlacementOffset?
        for sibling in parent.children where sibling != path {
            guard let known = nodes[sibling]?.placementOffset else { continue }
            if offset == nil { offset = known } else if offset != known { return nil }
        }
        guard let offset else { return nil }
        let extents = Extents(x: placed.x + offset.x + origin.x, y: placed.y + offset.y + origin.y, width: placed.width, height: placed.height)
        return (extents, offset)
    }

    /// After `path`'s extents were read: learns its placement offset (where the extents have its
    /// last placement's size) and settles a prediction. Returns the offset predicted and the one
    /// found when they differ, or the placement's size was not the extents' (the parent's
    /// children are then never predicted again).
    /// `windowKnown`: the window's origin is the one the read was answered with (no read of it,
    /// nor an event that asks for one, is outstanding); otherwise nothing is learned or judged.
    @discardableResult
    public mutating func learnPlacement(
        of path: String, window: String, windowKnown: Bool = true
    ) -> (predicted: PlacementOffset, found: PlacementOffset)? {
        guard var node = nodes[path] else { return nil }
        let predicted = node.predictedOffset
        node.predictedOffset = nil
        var wrong: (PlacementOffset, PlacementOffset)?
        if !windowKnown {
            node.placementOffset = nil
        } else if let placed = node.placement, let extents = node.extents, let origin = nodes[window]?.extents {
            let found = PlacementOffset(x: extents.x - placed.x - origin.x, y: extents.y - placed.y - origin.y)
            // A placement of another size than the extents is not where the widget is drawn.
            let sameSize = placed.width == extents.width && placed.height == extents.height
            node.placementOffset = sameSize ? found : nil
            if let predicted, predicted != found || !sameSize { wrong = (predicted, found) }
        }
        nodes[path] = node
        if wrong != nil, let parent = node.parent { nodes[parent]?.placementsDiffer = true }
        return wrong
    }

    /// Whether an accessible placed for the first time (its extents predicted) now shows, though
    /// its state read says not: GTK 3 reports SHOWING only for a widget mapped, on screen and
    /// under shown parents, so a widget added while its window is shown is VISIBLE but not
    /// SHOWING until its first allocation, and sends no event when that comes. It shows where
    /// it is VISIBLE, placed, and its parent shows; not inside a scroll pane or a viewport (GTK 3
    /// then also asks whether it is scrolled into view: the read says).
    public func showsOnPlacement(_ path: String) -> Bool {
        guard reportsShowing, let node = nodes[path], node.states.contains(AtspiStates.visible),
              !node.states.contains(AtspiStates.showing), node.extents != nil,
              let parent = node.parent.flatMap({ nodes[$0] }), isShown(parent) else { return false }
        var ancestor = node.parent
        while let next = ancestor.flatMap({ nodes[$0] }) {
            if AtspiRole.scrolled.contains(next.role) { return false }
            ancestor = next.parent
        }
        return true
    }

    /// A window's extents once its `bounds-changed` gave it a new size (GTK 3 grows a window to
    /// fit a widget added to it): the same origin (a placement of a window says none), the
    /// placement's size and the decorations learned from an earlier read. Nil where not learned
    /// or unchanged.
    public func predictedWindowExtents(of window: String) -> Extents? {
        guard let node = nodes[window], !node.placementsDiffer, let known = node.extents, let placed = node.placement,
              let beyond = node.sizeBeyondPlacement else { return nil }
        let predicted = Extents(x: known.x, y: known.y, width: placed.width + beyond.x, height: placed.height + beyond.y)
        return predicted == known ? nil : predicted
    }

    /// After a window's extents were read: learns its size beyond its placement and settles a
    /// predicted size. Returns true when the prediction was wrong (its size is read from now on).
    @discardableResult
    public mutating func learnWindowPlacement(of window: String, predicted: Extents?) -> Bool {
        guard var node = nodes[window] else { return false }
        let wasPredicted = node.sizePredicted
        node.sizePredicted = false
        var wrong = false
        if let placed = node.placement, let extents = node.extents {
            node.sizeBeyondPlacement = PlacementOffset(x: extents.width - placed.width, y: extents.height - placed.height)
            if wasPredicted, let predicted, predicted.width != extents.width || predicted.height != extents.height {
                wrong = true
                node.placementsDiffer = true
            }
        }
        nodes[window] = node
        return wrong
    }

    /// Whether a state set read may mean shown: its children are worth reading (SHOWING or
    /// VISIBLE: the toolkit may not report SHOWING at all).
    public static func mayShow(_ states: AtspiStates) -> Bool {
        states.contains(AtspiStates.showing) || states.contains(AtspiStates.visible)
    }

    /// What the scene needs of an accessible whose role and state are known, beyond them: its
    /// extents (a window, a section, or focusable: a possible candidate) and its children list
    /// (anything that may hold more than its own parts). Nothing while it is not shown.
    public static func needs(_ node: Accessible, isWindow: Bool) -> (extents: Bool, children: Bool) {
        guard mayShow(node.states) else { return (false, false) }
        let extents = isWindow || AtspiRole.sections.contains(node.role) || node.states.contains(AtspiStates.focusable)
        return (extents, !AtspiRole.leaves.contains(node.role))
    }

    public func isShown(_ node: Accessible) -> Bool {
        node.states.contains(reportsShowing ? AtspiStates.showing : AtspiStates.visible)
    }

    /// adapters.md §3: FOCUSABLE, ENABLED and SENSITIVE where both are reported (either where one
    /// is), shown, and real extents.
    public func isCandidateByState(_ node: Accessible) -> Bool {
        let s = node.states
        guard s.contains(AtspiStates.focusable), !s.contains(AtspiStates.defunct), isShown(node) else { return false }
        if reportsEnabled && !s.contains(AtspiStates.enabled) { return false }
        if reportsSensitive && !s.contains(AtspiStates.sensitive) { return false }
        return true
    }

    /// Whether the toolkit reports ENABLED / SENSITIVE at all (some report only one of them).
    public var reportsEnabled = false
    public var reportsSensitive = false

    /// Learns which of SHOWING, ENABLED and SENSITIVE the toolkit reports from a state set read.
    public mutating func learn(_ states: AtspiStates) {
        if states.contains(AtspiStates.showing) { reportsShowing = true }
        if states.contains(AtspiStates.enabled) { reportsEnabled = true }
        if states.contains(AtspiStates.sensitive) { reportsSensitive = true }
    }

    /// The accessible of the last `focused` event (cleared by its own `focused` off). Qt 5 leaves
    /// FOCUSED set on a tab widget's current tab while focus is elsewhere, so "the first FOCUSED
    /// accessible" is not the application's focus where an event says better.
    public var lastFocused: String?

    /// The application's focused accessible in `scene`, if any: the last one a `focused` event
    /// named while it still has FOCUSED, else the first FOCUSED one in scene order.
    public func focusedCandidate(in scene: SceneNode) -> String? {
        if let last = lastFocused, last != scene.id, nodes[last]?.states.contains(AtspiStates.focused) == true,
           scene.find(last) != nil {
            return last
        }
        return scene.ids().first { nodes[$0]?.states.contains(AtspiStates.focused) == true && $0 != scene.id }
    }
}

/// What an application said about accessibles before the adapter knew them. GTK 3 may lay a
/// widget out (its `bounds-changed`) and at-spi2-atk announce it (`Cache.AddAccessible`, with
/// its role and state) before the `children-changed` that names it; those events would be lost
/// and the widget's frame wait for a read GTK answers only after painting. They are kept per
/// application until the path is learned (then used as if they had come after it), the object
/// is removed, or the application goes. At most `limit` paths are kept, the oldest dropped: an
/// application sending events for paths that never come costs no more than that.
public struct EarlyNotices: Sendable {
    public struct Entry: Equatable, Sendable {
        /// Whether a `bounds-changed` came, and its rectangle (nil: not real, GTK 3's INT_MIN).
        public var placed = false
        public var placement: Extents?
        /// The last `Cache.AddAccessible` item, its states as later `state-changed` events left them.
        public var item: AccessibleTree.CacheItem?
        fileprivate var stamp: UInt64 = 0
    }

    public let limit: Int
    private var entries: [String: Entry] = [:]
    /// Paths in the order their entries were last touched; a pair whose stamp is no longer its
    /// entry's is stale (touched again, taken or forgotten) and skipped.
    private var order: [(path: String, stamp: UInt64)] = []
    private var head = 0
    private var clock: UInt64 = 0

    public init(limit: Int = 256) {
        self.limit = max(1, limit)
    }

    public var count: Int { entries.count }
    public subscript(path: String) -> Entry? { entries[path] }

    /// A `bounds-changed` of `path`: its rectangle, nil where it is not real.
    public mutating func placed(_ path: String, _ placement: Extents?) {
        touch(path) {
            $0.placed = true
            $0.placement = placement
        }
    }

    /// A `Cache.AddAccessible` of an accessible not known yet.
    public mutating func announced(_ item: AccessibleTree.CacheItem) {
        touch(item.path) { $0.item = item }
    }

    /// A `state-changed` of `path`: kept only on an announced item (the states it is used with).
    public mutating func stateChanged(_ path: String, state: Int, on: Bool) {
        guard entries[path]?.item != nil else { return }
        entries[path]?.item?.states.set(state, on)
    }

    /// The path is known now: what was kept of it, handed over once.
    public mutating func take(_ path: String) -> Entry? {
        entries.removeValue(forKey: path)
    }

    /// The object is gone (removed from its parent, defunct): nothing kept of it is used.
    public mutating func forget(_ path: String) {
        entries.removeValue(forKey: path)
    }

    private mutating func touch(_ path: String, _ change: (inout Entry) -> Void) {
        var entry = entries[path] ?? Entry()
        change(&entry)
        clock += 1
        entry.stamp = clock
        entries[path] = entry
        order.append((path, clock))
        while entries.count > limit, head < order.count {
            let oldest = order[head]
            head += 1
            if entries[oldest.path]?.stamp == oldest.stamp { entries.removeValue(forKey: oldest.path) }
        }
        // Stale pairs are dropped now and then, so `order` stays within a few times `limit`.
        if head >= limit || order.count > 4 * limit {
            order = order[head...].filter { entries[$0.path]?.stamp == $0.stamp }
            head = 0
        }
    }
}

/// A node of a scene as the adapter sends it (focus.md §1, the fields an adapter sets).
public struct SceneNode: Equatable, Sendable {
    public var id: String
    public var frame: Extents?
    public var focusable = false
    public var section = false
    public var role: String?
    public var editable = false
    public var modal = false
    public var children: [SceneNode] = []

    public init(id: String, frame: Extents?) {
        self.id = id
        self.frame = frame
    }

    /// Every id in tree order.
    public func ids() -> [String] {
        var out: [String] = []
        func walk(_ n: SceneNode) {
            out.append(n.id)
            n.children.forEach(walk)
        }
        walk(self)
        return out
    }

    public func find(_ id: String) -> SceneNode? {
        if self.id == id { return self }
        for child in children { if let found = child.find(id) { return found } }
        return nil
    }
}

public enum SceneBuilder {
    /// The scene of top-level window `window`: its root framed (0, 0, width, height); candidates
    /// and sections framed by their screen extents minus the window's, clipped to the window;
    /// every other accessible left out (its kept descendants attach to the nearest kept ancestor).
    /// Nil while the window's own extents are not known or not real.
    public static func scene(of window: String, in tree: AccessibleTree) -> SceneNode? {
        guard let node = tree[window], let origin = node.extents else { return nil }
        let bounds = Extents(x: 0, y: 0, width: origin.width, height: origin.height)
        var root = SceneNode(id: window, frame: bounds)
        root.modal = node.states.contains(AtspiStates.modal)
        root.children = kept(under: node, tree: tree, origin: origin, bounds: bounds, depth: 0)
        return root
    }

    private static func kept(under node: Accessible, tree: AccessibleTree, origin: Extents, bounds: Extents, depth: Int) -> [SceneNode] {
        guard depth < 90 else { return [] }  // focus.md §1 limits a scene to 100 levels
        var out: [SceneNode] = []
        for path in node.children {
            guard let child = tree[path], child.parent == node.path, tree.isShown(child) else { continue }
            let frame = child.extents?.relative(to: origin, clippedTo: bounds)
            let inner = kept(under: child, tree: tree, origin: origin, bounds: bounds, depth: depth + 1)
            if AtspiRole.sections.contains(child.role) {
                var section = SceneNode(id: path, frame: frame)
                section.section = true
                section.focusable = frame != nil && tree.isCandidateByState(child)
                section.children = inner
                if section.focusable || !inner.isEmpty { out.append(section) }
            } else if let frame, tree.isCandidateByState(child) {
                var candidate = SceneNode(id: path, frame: frame)
                candidate.focusable = true
                if AtspiRole.textFields.contains(child.role) { candidate.role = "text" }
                candidate.editable = AtspiRole.editable.contains(child.role)
                candidate.children = inner
                out.append(candidate)
            } else {
                out.append(contentsOf: inner)
            }
        }
        return out
    }
}

// MARK: the wire form (FocusEngine's types, as the focusd client sends them)

extension SceneNode {
    /// This node as `SetScene` / `UpdateScene` carry it.
    public func wire() -> Node {
        Node(
            id: id,
            frame: frame.map { Rect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) },
            focusable: focusable ? true : nil,
            interactions: editable ? [.activate, .edit] : nil,
            section: section ? true : nil,
            role: role,
            modal: modal ? true : nil,
            children: children.isEmpty ? nil : children.map { $0.wire() })
    }
}
