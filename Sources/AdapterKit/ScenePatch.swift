import FocusEngine
import Varlink

/// A change the adapter already knows because it read only what changed (the chromium page agent's
/// `patch`): applied to the adapter's copy of the scene, and turned into the `UpdateScene` patches
/// that give focusd the same tree, without comparing the whole scene (`SceneDiff`).
public struct ScenePatch: Sendable {
    /// A parent whose children changed: its children's ids, in order, and the nodes among them
    /// that are new or read again (sent whole, with their subtrees). The other ids are children
    /// it already has, kept as they are.
    public struct Children: Sendable {
        public var parent: String
        public var ids: [String]
        public var nodes: [Node]

        public init(parent: String, ids: [String], nodes: [Node]) {
            self.parent = parent
            self.ids = ids
            self.nodes = nodes
        }
    }

    public var children: [Children] = []
    /// New frames of nodes kept (nothing else of theirs changed).
    public var frames: [(id: String, frame: Rect)] = []
    /// New own fields of nodes kept (their children stay): a scroll container's box or sizes.
    public var own: [Node] = []
    /// New scroll offsets (`ScrollTo`, not patches).
    public var offsets: [ScrollOffset] = []

    public init() {}

    /// What does not fit the tree: an unknown node or parent, a kept child that is not there.
    public struct Mismatch: Error, CustomStringConvertible {
        public var description: String
    }

    /// The requests that make focusd's scene (which is `root` now) the patched one.
    public struct Requests: Sendable {
        public var upsert: [NodePatch] = []
        public var remove: [String] = []
        public var scroll: [ScrollOffset] = []
        public var isEmpty: Bool { upsert.isEmpty && remove.isEmpty && scroll.isEmpty }
    }

    /// Applies the patch to `root` and returns the requests that do the same to focusd's copy.
    /// On a mismatch `root` may be partly changed: the caller sends the whole scene again.
    public func apply(to root: inout Node) throws(Mismatch) -> Requests {
        var requests = Requests()
        var paths = Self.paths(root)
        // Frames and own fields first, in one walk (a kept node moved below carries its new
        // frame).
        var touched: [String] = []
        if !frames.isEmpty || !own.isEmpty {
            var fields = Dictionary(own.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
            var newFrames = Dictionary(frames.map { ($0.id, $0.frame) }, uniquingKeysWith: { _, last in last })
            touched = frames.map(\.id) + own.map(\.id)
            Self.walk(&root) { node in
                if let frame = newFrames.removeValue(forKey: node.id) { node.frame = frame }
                if var replacement = fields.removeValue(forKey: node.id) {
                    replacement.children = node.children
                    node = replacement
                }
            }
            if let id = newFrames.keys.first ?? fields.keys.first {
                throw Mismatch(description: "new fields for node \(id), which the scene does not have")
            }
        }
        // Children lists: new and read-again nodes placed as focusd places them (upserts are
        // applied in order, removals after them, so a sibling about to go still counts). The
        // deepest parents first: changing a list moves no shallower node, so the paths hold.
        var structure: [NodePatch] = []
        var removed: [(id: String, parent: String)] = []
        var changes: [(change: Children, path: [Int])] = []
        for change in children {
            guard let path = paths[change.parent] else { throw Mismatch(description: "children for node \(change.parent), which the scene does not have") }
            changes.append((change, path))
        }
        changes.sort { $0.path.count > $1.path.count }
        for (change, path) in changes {
            var failure: Mismatch?
            Self.modify(&root, path) { parent in
                let old = parent.children ?? []
                let oldById = Dictionary(old.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                let sent = Dictionary(change.nodes.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
                var next: [Node] = []
                next.reserveCapacity(change.ids.count)
                for id in change.ids {
                    guard let node = sent[id] ?? oldById[id] else {
                        failure = Mismatch(description: "node \(change.parent) keeps a child \(id) it does not have")
                        return
                    }
                    next.append(node)
                }
                let staying = Set(change.ids)
                var current = old.map(\.id)
                var previous = -1
                for node in next {
                    var ahead = previous + 1
                    while ahead < current.count, !staying.contains(current[ahead]) { ahead += 1 }
                    if ahead < current.count, current[ahead] == node.id {
                        // In place: sent again whole when it was read again, else kept.
                        if sent[node.id] != nil { structure.append(NodePatch(parent: change.parent, node: node)) }
                        previous = ahead
                        continue
                    }
                    if let at = current.firstIndex(of: node.id) {
                        current.remove(at: at)
                        if at <= previous { previous -= 1 }
                    }
                    previous += 1
                    current.insert(node.id, at: previous)
                    structure.append(NodePatch(parent: change.parent, index: previous, node: node))
                }
                removed += old.lazy.filter { !staying.contains($0.id) }.map { ($0.id, change.parent) }
                parent.children = next.isEmpty ? nil : next
            }
            if let failure { throw failure }
        }
        if !children.isEmpty { paths = Self.paths(root) }
        // Kept nodes with new fields, in place (focusd patches a leaf where it stands); a node
        // with children goes whole, outermost first, and carries what changed inside it.
        var covered = Set<String>()
        for patch in structure { Self.collect(patch.node, into: &covered) }
        var fields: [NodePatch] = []
        let kept = touched.compactMap { id in paths[id].map { (id, $0) } }.sorted { $0.1.count < $1.1.count }
        for (id, path) in kept where !covered.contains(id) && !path.isEmpty {
            let node = Self.node(root, path)
            fields.append(NodePatch(parent: path.count == 1 ? root.id : Self.parentId(root, path), node: node))
            if node.children != nil { Self.collect(node, into: &covered) }
        }
        // A patch inside a subtree another patch sends whole is carried by that one; so is a
        // removal there. Removed: gone from the tree (not moved elsewhere in it), topmost.
        requests.upsert = structure.filter { !covered.contains($0.parent) } + fields.filter { !covered.contains($0.parent) }
        requests.remove = removed.filter { paths[$0.id] == nil && paths[$0.parent] != nil && !covered.contains($0.parent) }.map(\.id)
        for offset in offsets {
            guard let path = paths[offset.node] else { continue }
            var changed = false
            Self.modify(&root, path) { node in
                guard node.scroll != nil, node.scroll?.offsetX != offset.offsetX || node.scroll?.offsetY != offset.offsetY else { return }
                node.scroll?.offsetX = offset.offsetX
                node.scroll?.offsetY = offset.offsetY
                changed = true
            }
            if changed { requests.scroll.append(offset) }
        }
        return requests
    }

    /// Every node's position: child indexes from the root.
    static func paths(_ root: Node) -> [String: [Int]] {
        var paths: [String: [Int]] = [:]
        func walk(_ node: Node, _ path: [Int]) {
            paths[node.id] = path
            guard let children = node.children else { return }
            for (index, child) in children.enumerated() { walk(child, path + [index]) }
        }
        walk(root, [])
        return paths
    }

    /// `body` on the node at `path`. Each level's children are taken out while they change, so
    /// the array is not copied (it is, once, while another copy of the scene shares it).
    private static func modify(_ node: inout Node, _ path: ArraySlice<Int>, _ body: (inout Node) -> Void) {
        guard let first = path.first else { return body(&node) }
        var children = node.children ?? []
        node.children = nil
        modify(&children[first], path.dropFirst(), body)
        node.children = children
    }

    /// `body` on every node, parents before their children (as `modify`, without copies).
    private static func walk(_ node: inout Node, _ body: (inout Node) -> Void) {
        body(&node)
        guard var children = node.children else { return }
        node.children = nil
        for index in children.indices { walk(&children[index], body) }
        node.children = children
    }

    private static func modify(_ node: inout Node, _ path: [Int], _ body: (inout Node) -> Void) {
        modify(&node, path[...], body)
    }

    private static func node(_ root: Node, _ path: [Int]) -> Node {
        guard let first = path.first else { return root }
        var node = root.children![first]
        for index in path.dropFirst() { node = node.children![index] }
        return node
    }

    /// The id of the parent of the node at `path` (not the root's).
    private static func parentId(_ root: Node, _ path: [Int]) -> String {
        var node = root
        for index in path.dropLast() { node = node.children![index] }
        return node.id
    }

    private static func collect(_ node: Node, into ids: inout Set<String>) {
        ids.insert(node.id)
        for child in node.children ?? [] { collect(child, into: &ids) }
    }
}

/// `UpdateScene` patches written as JSON text by hand: a reflow's ~1,000 frame patches through
/// `Codable` cost the adapter more than the page's own reading (docs/adapter-decisions.md). The
/// fields an adapter infers are written here; a node with any other field (a page's own
/// bindings, values, defaults) is written by `JSONTextEncoder`, as focusd's types say.
/// `ScenePatchTests` checks that focusd's decoding gives back every node.
enum PatchText {
    static func write(_ patches: [NodePatch], into json: inout JSONBytes) throws {
        json.byte(UInt8(ascii: "["))
        for (position, patch) in patches.enumerated() {
            if position > 0 { json.byte(UInt8(ascii: ",")) }
            json.raw(#"{"parent":"#)
            json.string(patch.parent)
            if let index = patch.index {
                json.raw(#","index":"#)
                json.int(index)
            }
            json.raw(#","node":"#)
            try write(patch.node, into: &json)
            json.byte(UInt8(ascii: "}"))
        }
        json.byte(UInt8(ascii: "]"))
    }

    static func write(_ node: Node, into json: inout JSONBytes) throws {
        guard handWritable(node) else {
            json.raw(try JSONTextEncoder().encode(node))
            return
        }
        json.raw(#"{"id":"#)
        json.string(node.id)
        if let frame = node.frame {
            json.raw(#","frame":"#)
            try write(frame, into: &json)
        }
        flag(#","focusable":"#, node.focusable, &json)
        flag(#","disabled":"#, node.disabled, &json)
        if let interactions = node.interactions {
            json.raw(#","interactions":["#)
            for (position, interaction) in interactions.enumerated() {
                if position > 0 { json.byte(UInt8(ascii: ",")) }
                json.string(interaction.rawValue)
            }
            json.byte(UInt8(ascii: "]"))
        }
        flag(#","section":"#, node.section, &json)
        if let role = node.role {
            json.raw(#","role":"#)
            json.string(role)
        }
        flag(#","remembersLastFocus":"#, node.remembersLastFocus, &json)
        flag(#","modal":"#, node.modal, &json)
        if let scroll = node.scroll {
            json.raw(#","scroll":{"axis":"#)
            json.string(scroll.axis.rawValue)
            json.raw(#","contentWidth":"#)
            try json.double(scroll.contentWidth)
            json.raw(#","contentHeight":"#)
            try json.double(scroll.contentHeight)
            try number(#","offsetX":"#, scroll.offsetX, &json)
            try number(#","offsetY":"#, scroll.offsetY, &json)
            if let policy = scroll.policy {
                json.raw(#","policy":"#)
                json.string(policy.rawValue)
            }
            try number(#","margin":"#, scroll.margin, &json)
            json.byte(UInt8(ascii: "}"))
        }
        if let children = node.children {
            json.raw(#","children":["#)
            for (position, child) in children.enumerated() {
                if position > 0 { json.byte(UInt8(ascii: ",")) }
                try write(child, into: &json)
            }
            json.byte(UInt8(ascii: "]"))
        }
        json.byte(UInt8(ascii: "}"))
    }

    /// Whether `node` has no field but those written above (its children are checked as written).
    static func handWritable(_ node: Node) -> Bool {
        node.scope == nil && node.prefersDefaultFocus == nil && node.defaultFocus == nil && node.bindings == nil
            && node.accessibilityBindings == nil && node.values == nil && node.sceneValues == nil && node.focusEffectDisabled == nil
            && node.wrap == nil && node.next == nil && node.collection == nil && node.index == nil
    }

    private static func write(_ frame: Rect, into json: inout JSONBytes) throws {
        json.raw(#"{"x":"#)
        try json.double(frame.x)
        json.raw(#","y":"#)
        try json.double(frame.y)
        json.raw(#","width":"#)
        try json.double(frame.width)
        json.raw(#","height":"#)
        try json.double(frame.height)
        json.byte(UInt8(ascii: "}"))
    }

    private static func flag(_ key: StaticString, _ value: Bool?, _ json: inout JSONBytes) {
        guard let value else { return }
        json.raw(key)
        json.bool(value)
    }

    private static func number(_ key: StaticString, _ value: Double?, _ json: inout JSONBytes) throws {
        guard let value else { return }
        json.raw(key)
        try json.double(value)
    }
}
