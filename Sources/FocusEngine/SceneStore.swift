// The scene flattened into slots: index-based arrays of nodes with their parent, children, derived
// flags (effectively disabled, candidate), per-subtree candidate counts and frame unions, the
// registries the engine looks things up in, and the spatial index of targets. A value type; every
// change is incremental (O(size of the change × depth)), never a rebuild.

/// Sequential order (focus.md §3), computed lazily and dropped on any change of the tree.
struct SequenceCache: Sendable {
    var order: [Int]
    /// Position of each candidate slot in `order` (-1: none).
    var position: [Int]
    /// The range each unit (section, modal node, root, scroll container, collection) occupies in `order`.
    var ranges: [Int: Range<Int>]
    /// Where each collection's items stand in `order`: one entry, `-(collection + 2)`, for all of
    /// them (index order inside, focus.md §12).
    var markerPos: [Int: Int] = [:]
}

struct SceneStore: Sendable {
    var name: String
    var layoutDirection: LayoutDirection
    var policy: SearchPolicy
    var sequentialWrap: Bool
    var persist: Bool?
    /// The scene-level fields exactly as given (for `sceneValue`).
    var given: (layoutDirection: LayoutDirection?, policy: SearchPolicy?, sequentialWrap: Bool?)
    var limits: Limits

    var slots: [Slot] = []
    /// Aggregates of the slots that have children (see ``Aggregate``); kept in step by
    /// ``setAggregate(_:_:)``, read with ``aggregate(_:)``.
    private var aggregates: [Int: Aggregate] = [:]
    var free: [Int] = []
    var idToSlot: [String: Int] = [:]
    var root = 0
    var nodeCount = 0

    var bindings = BindingRegistry()
    var a11yBindings = BindingRegistry()
    var scopes: [String: Set<Int>] = [:]
    var sceneValueNodes: Set<Int> = []
    var searchNodes: Set<Int> = []
    var defaultRegions: Set<Int> = []
    var prefersNodes: Set<Int> = []
    /// How many `next` entries point at each id.
    var nextRefs: [String: Int] = [:]
    var index: SpatialIndex
    var sequence: SequenceCache?

    /// Scroll containers (slot → offset) and collections (slot → built and materialized items),
    /// focus.md §12; see `ScrollStore.swift`.
    var scrolls: [Int: ScrollOffsetXY] = [:]
    var scrollSpecs: [Int: Scroll] = [:]
    /// Coordinate spaces, numbered as the index's grids: 0 is the scene, every other one a scroll
    /// container's content (nil: free).
    var spaces: [ScrollSpace?] = [ScrollSpace(container: -1, offset: ScrollOffsetXY(x: 0, y: 0))]
    /// Scroll container slot → the space of its content.
    var spaceOfContainer: [Int: Int] = [:]
    var collections: [Int: CollectionInfo] = [:]
    /// The slots of the materialized virtual items (`Slot.isVirtual`; collection and index are the
    /// slot's parent and `indexInParent`). Never in the spatial index.
    var virtualSlots: [Int] = []
    /// Slots of dropped virtual items kept for the next one, so that a move onto a virtual item
    /// reuses one instead of building a slot (a few at most; see `item`).
    var spareVirtualSlots: [Int] = []
    /// Ids of the form `X#digits`, by prefix `X` (reserved when `X` is a collection).
    var hashIds: [String: Int] = [:]
    /// Scroll containers sent again (same id as before): their offsets are clamped, not rejected.
    var clampIds: Set<String> = []

    // MARK: Building

    /// Flattens and validates `scene` (focus.md §1).
    init(scene: Scene, limits: Limits, clampIds: Set<String> = []) throws(FocusError) {
        self.clampIds = clampIds
        name = scene.name
        layoutDirection = scene.layoutDirection ?? .leftToRight
        policy = scene.policy ?? .tvos
        sequentialWrap = scene.sequentialWrap ?? true
        persist = scene.persist
        given = (scene.layoutDirection, scene.policy, scene.sequentialWrap)
        self.limits = limits
        // Index geometry from the candidates' frames.
        var bounds = scene.root.frame ?? Rect(x: 0, y: 0, width: 0, height: 0)
        var sumW = 0.0, sumH = 0.0, n = 0
        var stack: [(Node, Int)] = [(scene.root, 1)]
        var visited = 0
        while let (node, depth) = stack.popLast() {
            visited += 1
            if visited > limits.maxNodes { throw .tooManyNodes(limit: limits.maxNodes) }
            if depth > limits.maxDepth {
                throw .invalidScene(reason: "the tree is deeper than \(limits.maxDepth) levels", node: node.id)
            }
            try Self.validateOwnFields(node)
            if let f = node.frame, !f.isEmpty {
                if n == 0 && bounds.isEmpty { bounds = f } else { bounds = bounds.union(f) }
                if node.focusable == true { sumW += f.width; sumH += f.height; n += 1 }
            }
            for c in node.children ?? [] { stack.append((c, depth + 1)) }
        }
        index = SpatialIndex(bounds: bounds, typicalWidth: n > 0 ? sumW / Double(n) : bounds.width,
                             typicalHeight: n > 0 ? sumH / Double(n) : bounds.height, expected: max(n, 1))
        slots.reserveCapacity(visited)
        idToSlot.reserveCapacity(visited)
        root = try insertSubtree(scene.root, parent: -1, at: 0)
        for (target, count) in nextRefs where count > 0 && !target.isEmpty && idToSlot[target] == nil {
            throw .invalidScene(reason: "next target '\(target)' does not exist", node: referrer(of: target))
        }
    }

    /// The checks of one node that need nothing but the node.
    static func validateOwnFields(_ node: Node) throws(FocusError) {
        if node.id.isEmpty { throw .invalidScene(reason: "a node has an empty id", node: nil) }
        if let f = node.frame {
            // Coordinates may be negative (a rail scrolled left, a root not at 0,0); sizes may not.
            for (label, v) in [("x", f.x), ("y", f.y), ("width", f.width), ("height", f.height)] {
                if !v.isFinite { throw .invalidScene(reason: "frame \(label) is not finite", node: node.id) }
            }
            for (label, v) in [("width", f.width), ("height", f.height)] where v < 0 {
                throw .invalidScene(reason: "frame \(label) is negative", node: node.id)
            }
        }
        for key in (node.next ?? [:]).keys.sorted() where Direction(rawValue: key) == nil {
            throw .invalidScene(reason: "next has key '\(key)', which is not a direction", node: node.id)
        }
        try validateScrollFields(node)
    }

    /// The first node (by slot) whose `next` names `target`, for error messages.
    func referrer(of target: String) -> String? {
        for s in slots where s.alive && s.hasNext && (s.node.next ?? [:]).values.contains(target) { return s.id }
        return nil
    }

    // MARK: Structure

    @inline(__always) func node(_ slot: Int) -> Node { slots[slot].node }
    @inline(__always) func isSection(_ slot: Int) -> Bool { slots[slot].section }
    @inline(__always) func isModal(_ slot: Int) -> Bool { slots[slot].modal }
    /// Sections and modal nodes are units of the sequential order.
    @inline(__always) func isUnit(_ slot: Int) -> Bool {
        isSection(slot) || isModal(slot) || slot == root || scrolls[slot] != nil || collections[slot] != nil
    }
    /// The slot of a node, or of a materialized virtual item, by id.
    @inline(__always) func slot(_ id: String?) -> Int? { id.flatMap { idToSlot[$0] ?? materializedSlot($0) } }
    @inline(__always) func isCandidate(_ slot: Int) -> Bool { slots[slot].alive && slots[slot].candidate }
    /// The frame of `slot` in scene coordinates (a slot keeps it in its space's: see ScrollStore.swift).
    @inline(__always) func frame(_ slot: Int) -> Rect? {
        guard let f = slots[slot].frame else { return nil }
        let k = slots[slot].space
        return k == 0 ? f : f.offset(by: spaceOrigin(k))
    }

    /// The subtree aggregates of `slot` in the coordinates of its own space: stored for a node with
    /// children, else its own frame; a scroll container's are its frame and its content's, shifted
    /// by its current offset.
    @inline(__always) func aggregate(_ slot: Int) -> Aggregate {
        if slots[slot].children.isEmpty { return slots[slot].leafAggregate }
        guard let a = aggregates[slot] else { return slots[slot].leafAggregate }
        return slots[slot].isScroll ? containerAggregate(slot, content: a) : a
    }

    /// What `setAggregate` stored: for a scroll container, its content's aggregates in content
    /// coordinates (without its own frame), which no scroll changes.
    @inline(__always) func storedAggregate(_ slot: Int) -> Aggregate {
        slots[slot].isScroll ? aggregates[slot] ?? Aggregate(union: nil, reach: nil) : aggregate(slot)
    }
    @inline(__always) func candUnion(_ slot: Int) -> Rect? { aggregate(slot).union }
    @inline(__always) func reach(_ slot: Int) -> Rect? { aggregate(slot).reach }

    /// Stores `slot`'s aggregates when it has children; a leaf's are derived, so nothing is kept.
    mutating func setAggregate(_ slot: Int, _ value: Aggregate) {
        aggregates[slot] = slots[slot].children.isEmpty ? nil : value
    }

    /// True when `a` is `c` or lies inside it.
    func isInside(_ a: Int, _ c: Int) -> Bool { Self.isInside(slots, a, c) }

    /// Pre-order (tree order) comparison in O(depth).
    func precedes(_ a: Int, _ b: Int) -> Bool { Self.precedes(slots, a, b) }

    @inline(__always)
    static func isInside(_ slots: [Slot], _ a: Int, _ c: Int) -> Bool {
        var x = a
        let dc = slots[c].depth
        while slots[x].depth > dc { x = slots[x].parent }
        return x == c
    }

    static func precedes(_ slots: [Slot], _ a: Int, _ b: Int) -> Bool {
        if a == b { return false }
        var x = a, y = b
        while slots[x].depth > slots[y].depth { x = slots[x].parent; if x == y { return false } }
        while slots[y].depth > slots[x].depth { y = slots[y].parent; if x == y { return true } }
        while slots[x].parent != slots[y].parent { x = slots[x].parent; y = slots[y].parent }
        return slots[x].indexInParent < slots[y].indexInParent
    }

    /// The first of `set` in tree order.
    func firstInTreeOrder<S: Sequence>(_ set: S) -> Int? where S.Element == Int {
        var best: Int?
        for s in set where best == nil || precedes(s, best!) { best = s }
        return best
    }

    func sortedInTreeOrder<S: Sequence>(_ set: S) -> [Int] where S.Element == Int {
        // Most sets are empty or single (a scene without scroll containers or scene values): the
        // sort's closure captures this whole store, a retain of each of its buffers (callgrind:
        // a fifth of a move's state), which these need not pay.
        let slots = Array(set)
        guard slots.count > 1 else { return slots }
        return slots.sorted { precedes($0, $1) }
    }

    /// Ancestors-or-self, innermost first.
    func path(_ slot: Int) -> [Int] {
        var out: [Int] = [], x = slot
        while x >= 0 { out.append(x); x = slots[x].parent }
        return out
    }

    // MARK: Changing

    /// Inserts `node` and its subtree under `parent` at child index `at`; returns the new slot.
    /// Registers everything and updates the ancestors' aggregates and the index.
    @discardableResult
    mutating func insertSubtree(_ top: Node, parent: Int, at position: Int) throws(FocusError) -> Int {
        let parentDepth = parent >= 0 ? slots[parent].depth : 0
        let parentDisabled = parent >= 0 ? slots[parent].disabled : false
        var created: [Int] = []
        // Pre-order creation.
        var stack: [(Node, Int, Int)] = [(top, parent, position)]  // node, parent slot, child index
        while let (n, p, pos) = stack.popLast() {
            let depth = p >= 0 ? slots[p].depth + 1 : 1
            if depth > limits.maxDepth {
                throw .invalidScene(reason: "the tree is deeper than \(limits.maxDepth) levels", node: n.id)
            }
            if idToSlot[n.id] != nil { throw .invalidScene(reason: "duplicate id '\(n.id)'", node: n.id) }
            nodeCount += 1
            if nodeCount > limits.maxNodes { throw .tooManyNodes(limit: limits.maxNodes) }
            try Self.validateOwnFields(n)
            try validatePlacement(n, parent: p)
            var own = n
            own.children = nil
            let sceneFrame = localFrame(of: n, parent: p)
            let disabled = (p >= 0 ? slots[p].disabled : parentDisabled) || n.disabled == true
            let candidate = n.focusable == true && !disabled && !(sceneFrame?.isEmpty ?? true)
            var s = Slot(id: n.id, node: own, frame: sceneFrame, parent: p, depth: depth, disabled: disabled,
                         candidate: candidate, hadChildren: n.children != nil)
            s.space = p >= 0 ? contentSpace(of: p) : 0
            let slot: Int
            if let f = free.popLast() { slot = f; slots[f] = s } else { slot = slots.count; slots.append(s) }
            idToSlot[n.id] = slot
            if p >= 0 {
                if collections[p] != nil {
                    insertItem(slot, into: p)
                } else {
                    let k = min(max(pos, 0), slots[p].children.count)
                    slots[p].children.insert(slot, at: k)
                    for i in k..<slots[p].children.count { slots[slots[p].children[i]].indexInParent = i }
                }
            }
            created.append(slot)
            try register(slot, subtree: n)
            let kids = n.children ?? []
            for (i, c) in kids.enumerated().reversed() { stack.append((c, slot, i)) }
        }
        _ = parentDepth
        // Aggregates bottom-up within the new subtree.
        for slot in created.reversed() {
            var count = (slots[slot].candidate ? 1 : 0) + virtualCount(slot)
            for c in slots[slot].children { count += slots[c].candCount }
            slots[slot].candCount = count
            if collections[slot] != nil { collections[slot]!.virtualCounted = virtualCount(slot) }
            recomputeAggregate(slot)
            refreshTarget(slot)
        }
        // Ancestors grow.
        var added = slots[created[0]].candCount
        // In the space of the subtree's top; shifted into the parent's at each scroll container.
        var addedUnion = candUnion(created[0])
        var addedReach = reach(created[0])
        var a = parent
        while a >= 0 {
            if collections[a] != nil {
                // A built item takes an index's place: the collection's virtual count may drop.
                let before = collections[a]!.virtualCounted
                let now = virtualCount(a)
                collections[a]!.virtualCounted = now
                added += now - before
            }
            slots[a].candCount += added
            var grown = storedAggregate(a)
            if let u = addedUnion { grown.union = grown.union.map { $0.union(u) } ?? u }
            if let u = addedReach { grown.reach = grown.reach.map { $0.union(u) } ?? u }
            setAggregate(a, grown)
            if isSection(a) { refreshTarget(a) }
            if slots[a].isScroll {
                let t = contentShift(a)
                addedUnion = addedUnion?.offset(by: t)
                addedReach = addedReach?.offset(by: t)
            }
            a = slots[a].parent
        }
        sequence = nil
        return created[0]
    }

    /// Checks, without changing anything, that `top` and its subtree can go under `parent`: ids,
    /// fields, depth, node count and binding kinds (so that `insertSubtree` cannot fail after it).
    func validateInsert(_ top: Node, parent: Int) throws(FocusError) {
        var seen = Set<String>()
        var local = (BindingRegistry(), BindingRegistry())
        var count = nodeCount
        var stack: [(Node, Int)] = [(top, slots[parent].depth + 1)]
        while let (n, depth) = stack.popLast() {
            if depth > limits.maxDepth {
                throw .invalidScene(reason: "the tree is deeper than \(limits.maxDepth) levels", node: n.id)
            }
            try Self.validateOwnFields(n)
            try validateReservedId(n.id)
            if idToSlot[n.id] != nil || !seen.insert(n.id).inserted {
                throw .invalidScene(reason: "duplicate id '\(n.id)'", node: n.id)
            }
            count += 1
            if count > limits.maxNodes { throw .tooManyNodes(limit: limits.maxNodes) }
            for (reg, list, label) in [(bindings, n.bindings, "binding"), (a11yBindings, n.accessibilityBindings, "accessibility binding")] {
                for b in list ?? [] {
                    if label == "binding" { _ = local.0.add([b], slot: 0) } else { _ = local.1.add([b], slot: 0) }
                    let l = label == "binding" ? local.0 : local.1
                    let bools = (reg.boolCount[b.name] ?? 0) + (l.boolCount[b.name] ?? 0)
                    let values = (reg.valueCount[b.name] ?? 0) + (l.valueCount[b.name] ?? 0)
                    if bools > 0 && values > 0 {
                        throw .invalidScene(reason: "\(label) '\(b.name)' is used both as a Bool and as a value binding", node: n.id)
                    }
                }
            }
            for c in n.children ?? [] { stack.append((c, depth + 1)) }
        }
    }

    /// Files the node's fields in the registries; throws on a Bool/value binding clash.
    private mutating func register(_ slot: Int, subtree: Node) throws(FocusError) {
        let n = node(slot)
        if let name = bindings.add(n.bindings, slot: slot) {
            throw .invalidScene(reason: "binding '\(name)' is used both as a Bool and as a value binding", node: n.id)
        }
        if let name = a11yBindings.add(n.accessibilityBindings, slot: slot) {
            throw .invalidScene(reason: "accessibility binding '\(name)' is used both as a Bool and as a value binding", node: n.id)
        }
        for b in n.bindings ?? [] {
            if let cur = bindings.first[b.name], cur != slot, !precedes(slot, cur) { continue }
            bindings.first[b.name] = slot
        }
        for b in n.accessibilityBindings ?? [] {
            if let cur = a11yBindings.first[b.name], cur != slot, !precedes(slot, cur) { continue }
            a11yBindings.first[b.name] = slot
        }
        if let s = n.scope { scopes[s, default: []].insert(slot) }
        if n.sceneValues?.isEmpty == false { sceneValueNodes.insert(slot) }
        if n.role == "search" { searchNodes.insert(slot) }
        if n.defaultFocus != nil { defaultRegions.insert(slot) }
        if n.prefersDefaultFocus != nil { prefersNodes.insert(slot) }
        for t in (n.next ?? [:]).values where !t.isEmpty { nextRefs[t, default: 0] += 1 }
        registerScroll(slot, subtree: subtree)
    }

    private mutating func unregister(_ slot: Int) {
        let n = node(slot)
        bindings.remove(n.bindings, slot: slot)
        a11yBindings.remove(n.accessibilityBindings, slot: slot)
        if let s = n.scope { scopes[s]?.remove(slot); if scopes[s]?.isEmpty == true { scopes[s] = nil } }
        sceneValueNodes.remove(slot)
        searchNodes.remove(slot)
        defaultRegions.remove(slot)
        prefersNodes.remove(slot)
        for t in (n.next ?? [:]).values where !t.isEmpty {
            nextRefs[t, default: 1] -= 1
            if nextRefs[t] == 0 { nextRefs[t] = nil }
        }
        unregisterScroll(slot)
    }

    /// Removes the subtrees of `tops` (none inside another) as one batch, in time linear in what
    /// goes plus the children of their parents: each parent's children are compacted and
    /// renumbered once, ancestors' unions recomputed once, first binding holders found once.
    /// (One by one, each removal shifted and renumbered all later siblings: removing 50,000 of
    /// 99,000 siblings took 16–24 s.) Returns the ids removed.
    @discardableResult
    mutating func removeSubtrees(_ tops: [Int]) -> [String] {
        var removed: [String] = []
        var parents = Set<Int>()
        var staleFirst: (Set<String>, Set<String>) = ([], [])
        for top in tops {
            let parent = slots[top].parent
            var lost = slots[top].candCount
            // A collection's item: unfiled by index while its fields are still there.
            if parent >= 0, collections[parent] != nil { removeItem(top, from: parent) }
            releaseSubtree(top, removed: &removed, staleFirst: &staleFirst)
            parents.insert(parent)
            var a = parent
            while a >= 0 {
                if collections[a] != nil {
                    // An item gone may leave a virtual one in its place (focus.md §12).
                    let before = collections[a]!.virtualCounted
                    let now = virtualCount(a)
                    collections[a]!.virtualCounted = now
                    lost -= now - before
                }
                slots[a].candCount -= lost
                a = slots[a].parent
            }
        }
        // Compact each parent once; then every ancestor's union, deepest first.
        var ancestors = Set<Int>()
        for parent in parents {
            let kept = slots[parent].children.filter { slots[$0].alive }
            slots[parent].children = kept
            // A collection's children are numbered by `removeItem` (index order, plain ones after).
            if collections[parent] == nil {
                for (i, c) in slots[parent].children.enumerated() { slots[c].indexInParent = i }
            }
            if slots[parent].children.isEmpty { aggregates[parent] = nil }
            var a = parent
            while a >= 0, ancestors.insert(a).inserted { a = slots[a].parent }
        }
        for a in ancestors.sorted(by: { slots[$0].depth > slots[$1].depth }) {
            recomputeAggregate(a, keepReach: true)
            if isSection(a) { refreshTarget(a) }
        }
        for name in staleFirst.0 { bindings.first[name] = bindings.nodes[name].flatMap { firstInTreeOrder($0) } }
        for name in staleFirst.1 { a11yBindings.first[name] = a11yBindings.nodes[name].flatMap { firstInTreeOrder($0) } }
        sequence = nil
        return removed
    }

    /// Puts `parent`'s children in the order a sequence of inserts would have given them, when
    /// the inserted slots were appended instead: `inserts` are those slots, in the order they
    /// were inserted, each with the index it asked for (nil: last). The children before them
    /// keep their relative order. O((children + inserts) log) for any mix of indices, where
    /// inserting one by one shifted and renumbered the later siblings each time (99,000
    /// upserts at index 0 took 7.3 s).
    mutating func reorderChildren(_ parent: Int, inserts: [(slot: Int, position: Int?)]) {
        let kids = slots[parent].children
        let total = kids.count
        let before = total - inserts.count
        // Every child as an insert: the old ones first, at the end, in order.
        var positions = [Int](repeating: 0, count: total)
        for i in 0..<before { positions[i] = i }
        for (j, insert) in inserts.enumerated() {
            let size = before + j
            positions[before + j] = min(insert.position ?? size, size)
        }
        // Backwards, each insert takes the (position+1)-th place still free (a Fenwick tree).
        guard total > 0 else { return }
        var tree = [Int](repeating: 0, count: total + 1)
        for i in 1...total {
            tree[i] += 1
            let up = i + (i & -i)
            if up <= total { tree[up] += tree[i] }
        }
        var top = 1
        while top * 2 <= total { top *= 2 }
        var order = [Int](repeating: -1, count: total)
        for k in stride(from: total - 1, through: 0, by: -1) {
            var rank = positions[k] + 1, at = 0, step = top
            while step > 0 {
                if at + step <= total && tree[at + step] < rank {
                    at += step
                    rank -= tree[at]
                }
                step /= 2
            }
            // `at + 1` is the place (1-based).
            order[at] = k < before ? kids[k] : inserts[k - before].slot
            var i = at + 1
            while i <= total {
                tree[i] -= 1
                i += i & -i
            }
        }
        slots[parent].children = order
        for (i, c) in order.enumerated() { slots[c].indexInParent = i }
        sequence = nil
    }

    /// Finds the first holders of `names` again (after a reorder changed the tree order).
    mutating func refreshFirstHolders(_ names: Set<String>, accessibility: Set<String>) {
        for name in names { bindings.first[name] = bindings.nodes[name].flatMap { firstInTreeOrder($0) } }
        for name in accessibility { a11yBindings.first[name] = a11yBindings.nodes[name].flatMap { firstInTreeOrder($0) } }
    }

    /// Unregisters and frees `top` and its subtree, leaving it in its parent's children.
    private mutating func releaseSubtree(_ top: Int, removed: inout [String], staleFirst: inout (Set<String>, Set<String>)) {
        var stack = [top]
        while let s = stack.popLast() {
            stack.append(contentsOf: slots[s].children)
            dropVirtuals(of: s)
            for b in node(s).bindings ?? [] where bindings.first[b.name] == s { staleFirst.0.insert(b.name) }
            for b in node(s).accessibilityBindings ?? [] where a11yBindings.first[b.name] == s { staleFirst.1.insert(b.name) }
            unregister(s)
            index.set(s, nil)
            idToSlot[slots[s].id] = nil
            removed.append(slots[s].id)
            slots[s].alive = false
            slots[s].candidate = false
            slots[s].children = []
            aggregates[s] = nil
            slots[s].box = nil
            free.append(s)
            nodeCount -= 1
        }
    }

    /// Removes `top` and its subtree; returns the ids removed.
    @discardableResult
    mutating func removeSubtree(_ top: Int) -> [String] {
        let parent = slots[top].parent
        var lost = slots[top].candCount
        var lostUnion = candUnion(top)
        var removed: [String] = []
        var staleFirst: (Set<String>, Set<String>) = ([], [])
        // A collection's item: unfiled by index while its fields are still there.
        if parent >= 0, collections[parent] != nil { removeItem(top, from: parent) }
        releaseSubtree(top, removed: &removed, staleFirst: &staleFirst)
        if parent >= 0 {
            if collections[parent] == nil {
                let k = slots[top].indexInParent
                slots[parent].children.remove(at: k)
                for i in k..<slots[parent].children.count { slots[slots[parent].children[i]].indexInParent = i }
            }
            if slots[parent].children.isEmpty { aggregates[parent] = nil }
        }
        var a = parent
        var unionMayShrink = lostUnion != nil
        while a >= 0 {
            if collections[a] != nil {
                let before = collections[a]!.virtualCounted
                let now = virtualCount(a)
                collections[a]!.virtualCounted = now
                lost -= now - before
            }
            slots[a].candCount -= lost
            if unionMayShrink, let old = storedAggregate(a).union, let u = lostUnion {
                if u.minX > old.minX && u.minY > old.minY && u.maxX < old.maxX && u.maxY < old.maxY {
                    unionMayShrink = false
                } else {
                    recomputeAggregate(a, keepReach: true)
                }
            }
            if isSection(a) { refreshTarget(a) }
            if slots[a].isScroll { lostUnion = lostUnion?.offset(by: contentShift(a)) }
            a = slots[a].parent
        }
        // The first holders removed: the next ones, once the subtree is gone.
        for name in staleFirst.0 { bindings.first[name] = bindings.nodes[name].flatMap { firstInTreeOrder($0) } }
        for name in staleFirst.1 { a11yBindings.first[name] = a11yBindings.nodes[name].flatMap { firstInTreeOrder($0) } }
        sequence = nil
        return removed
    }

    /// The frame a slot competes with in directional search, or nil when it is no target: a
    /// candidate's frame; a section's own frame, or the union of its descendants' frames when it has
    /// none (focus.md §1), when it is not disabled and holds a candidate. In scene coordinates.
    func targetFrame(_ slot: Int) -> Rect? {
        guard let f = localTargetFrame(slot) else { return nil }
        let k = slots[slot].space
        return k == 0 ? f : f.offset(by: spaceOrigin(k))
    }

    /// `targetFrame` in the coordinates of the slot's space (what the index files).
    func localTargetFrame(_ slot: Int) -> Rect? {
        let s = slots[slot]
        guard s.alive, !s.disabled else { return nil }
        if s.candidate { return s.frame }
        guard isSection(slot), s.candCount > 0 else { return nil }
        if let f = s.frame, !f.isEmpty { return f }
        guard let u = candUnion(slot), !u.isEmpty else { return nil }
        return u
    }

    mutating func refreshTarget(_ slot: Int) {
        index.set(slot, localTargetFrame(slot), grid: slots[slot].space)
    }

    // MARK: Rebuilding the tree

    /// The tree as a `Node`, rebuilt from the slots.
    func buildNode(_ slot: Int) -> Node {
        var n = node(slot)
        let kids = slots[slot].children
        n.children = kids.isEmpty ? (slots[slot].hadChildren ? [] : nil) : kids.map { buildNode($0) }
        return n
    }

    var sceneValue: Scene {
        Scene(name: name, root: buildNode(root), layoutDirection: given.layoutDirection, policy: given.policy,
              sequentialWrap: given.sequentialWrap, persist: persist)
    }
}
