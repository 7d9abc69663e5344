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
    /// Parents whose aggregates `replaceLeaf` left stale until `refreshStaleAggregates`.
    var staleAggregates: Set<Int> = []

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
        var sumW = 0.0, sumH = 0.0, focusableCount = 0
        var visited = 0
        func visit(_ node: Node, depth: Int) throws(FocusError) {
            visited += 1
            if visited > limits.maxNodes { throw .tooManyNodes(limit: limits.maxNodes) }
            if depth > limits.maxDepth {
                throw .invalidScene(reason: "the tree is deeper than \(limits.maxDepth) levels", node: node.id)
            }
            try Self.validateOwnFields(node)
            if let nodeFrame = node.frame, !nodeFrame.isEmpty {
                if focusableCount == 0 && bounds.isEmpty { bounds = nodeFrame } else { bounds = bounds.union(nodeFrame) }
                if node.focusable == true { sumW += nodeFrame.width; sumH += nodeFrame.height; focusableCount += 1 }
            }
        }
        try visit(scene.root, depth: 1)
        try scene.root.walkDescendantsLastFirst { (node, below) throws(FocusError) in try visit(node, depth: 1 + below) }
        index = SpatialIndex(bounds: bounds, typicalWidth: focusableCount > 0 ? sumW / Double(focusableCount) : bounds.width,
                             typicalHeight: focusableCount > 0 ? sumH / Double(focusableCount) : bounds.height, expected: max(focusableCount, 1))
        slots.reserveCapacity(visited)
        idToSlot.reserveCapacity(visited)
        root = try insertSubtree(scene.root, parent: -1, at: 0, validated: true)
        for (target, count) in nextRefs where count > 0 && !target.isEmpty && idToSlot[target] == nil {
            throw .invalidScene(reason: "next target '\(target)' does not exist", node: referrer(of: target))
        }
    }

    /// The checks of one node that need nothing but the node.
    static func validateOwnFields(_ node: Node) throws(FocusError) {
        if node.id.isEmpty { throw .invalidScene(reason: "a node has an empty id", node: nil) }
        if let nodeFrame = node.frame {
            // Coordinates may be negative (a rail scrolled left, a root not at 0,0); sizes may not.
            // Checked field by field in this order (an array of labelled values here was two
            // allocations a node in every SetScene).
            func finite(_ value: Double, _ label: String) throws(FocusError) {
                if !value.isFinite { throw .invalidScene(reason: "frame \(label) is not finite", node: node.id) }
            }
            try finite(nodeFrame.x, "x")
            try finite(nodeFrame.y, "y")
            try finite(nodeFrame.width, "width")
            try finite(nodeFrame.height, "height")
            if nodeFrame.width < 0 { throw .invalidScene(reason: "frame width is negative", node: node.id) }
            if nodeFrame.height < 0 { throw .invalidScene(reason: "frame height is negative", node: node.id) }
        }
        if let next = node.next {
            for key in next.keys.sorted() where Direction(rawValue: key) == nil {
                throw .invalidScene(reason: "next has key '\(key)', which is not a direction", node: node.id)
            }
        }
        try validateScrollFields(node)
    }

    /// The first node (by slot) whose `next` names `target`, for error messages.
    func referrer(of target: String) -> String? {
        for slot in slots where slot.alive && slot.hasNext && (slot.node.next ?? [:]).values.contains(target) { return slot.id }
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
        guard let localFrame = slots[slot].frame else { return nil }
        let space = slots[slot].space
        return space == 0 ? localFrame : localFrame.offset(by: spaceOrigin(space))
    }

    /// The subtree aggregates of `slot` in the coordinates of its own space: stored for a node with
    /// children, else its own frame; a scroll container's are its frame and its content's, shifted
    /// by its current offset.
    @inline(__always) func aggregate(_ slot: Int) -> Aggregate {
        if slots[slot].children.isEmpty { return slots[slot].leafAggregate }
        guard let stored = aggregates[slot] else { return slots[slot].leafAggregate }
        return slots[slot].isScroll ? containerAggregate(slot, content: stored) : stored
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

    /// True when `slot` is `container` or lies inside it.
    func isInside(_ slot: Int, _ container: Int) -> Bool { Self.isInside(slots, slot, container) }

    /// Pre-order (tree order) comparison in O(depth).
    func precedes(_ lhs: Int, _ rhs: Int) -> Bool { Self.precedes(slots, lhs, rhs) }

    @inline(__always)
    static func isInside(_ slots: [Slot], _ slot: Int, _ container: Int) -> Bool {
        var ancestor = slot
        let containerDepth = slots[container].depth
        while slots[ancestor].depth > containerDepth { ancestor = slots[ancestor].parent }
        return ancestor == container
    }

    static func precedes(_ slots: [Slot], _ lhs: Int, _ rhs: Int) -> Bool {
        if lhs == rhs { return false }
        var lhsAncestor = lhs, rhsAncestor = rhs
        while slots[lhsAncestor].depth > slots[rhsAncestor].depth { lhsAncestor = slots[lhsAncestor].parent; if lhsAncestor == rhsAncestor { return false } }
        while slots[rhsAncestor].depth > slots[lhsAncestor].depth { rhsAncestor = slots[rhsAncestor].parent; if lhsAncestor == rhsAncestor { return true } }
        while slots[lhsAncestor].parent != slots[rhsAncestor].parent { lhsAncestor = slots[lhsAncestor].parent; rhsAncestor = slots[rhsAncestor].parent }
        return slots[lhsAncestor].indexInParent < slots[rhsAncestor].indexInParent
    }

    /// The first of `set` in tree order.
    func firstInTreeOrder<S: Sequence>(_ set: S) -> Int? where S.Element == Int {
        var best: Int?
        for slot in set where best == nil || precedes(slot, best!) { best = slot }
        return best
    }

    /// Recounts the virtual items of `collection` after a built item came or went (a built item
    /// takes an index's place) and returns how much the count changed.
    mutating func recountVirtual(_ collection: Int) -> Int {
        let before = collections[collection]!.virtualCounted
        let now = virtualCount(collection)
        collections[collection]!.virtualCounted = now
        return now - before
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

    /// The ids of ``path(_:)``'s nodes, in one array allocated at its size (the depth): every
    /// reply's state carries the focused path, and building the slots' array and mapping it
    /// made two arrays, the second grown as it went (0.8k instructions a `Move`).
    func pathIDs(_ slot: Int) -> [String] {
        var out: [String] = []
        out.reserveCapacity(slots[slot].depth)
        var x = slot
        while x >= 0 {
            out.append(slots[x].id)
            x = slots[x].parent
        }
        return out
    }

    // MARK: Changing

    /// Inserts `node` and its subtree under `parent` at child index `at`; returns the new slot.
    /// Registers everything and updates the ancestors' aggregates and the index.
    @discardableResult
    ///
    /// `validated`: every node of the subtree has passed ``validateOwnFields(_:)`` already (the
    /// scene's first walk in `init` checks them all before the build), so it is not done again.
    mutating func insertSubtree(_ top: Node, parent: Int, at position: Int, validated: Bool = false) throws(FocusError) -> Int {
        var created: [Int] = []
        // Pre-order creation, each list of children walked in place: the stack holds the lists
        // being walked, not their nodes (a page's root of 5,000 children pushed as values was
        // 2 MB of copies and page faults in every SetScene).
        let first = try createSlot(top, parent: parent, at: position, validated: validated, created: &created)
        var lists: [(kids: [Node], next: Int, slot: Int)] = []
        if let kids = top.children, !kids.isEmpty { lists.append((kids, 0, first)) }
        while let last = lists.indices.last {
            let position = lists[last].next
            guard position < lists[last].kids.count else {
                lists.removeLast()
                continue
            }
            lists[last].next = position + 1
            let slot = try createSlot(lists[last].kids[position], parent: lists[last].slot, at: position, validated: validated,
                                      created: &created)
            if let kids = lists[last].kids[position].children, !kids.isEmpty { lists.append((kids, 0, slot)) }
        }
        // Aggregates bottom-up within the new subtree.
        for slot in created.reversed() {
            var count = (slots[slot].candidate ? 1 : 0) + virtualCount(slot)
            for child in slots[slot].children { count += slots[child].candCount }
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
        var ancestor = parent
        while ancestor >= 0 {
            if collections[ancestor] != nil {
                // A built item takes an index's place: the collection's virtual count may drop.
                added += recountVirtual(ancestor)
            }
            slots[ancestor].candCount += added
            var grown = storedAggregate(ancestor)
            if let grownBy = addedUnion { grown.union = grown.union.map { $0.union(grownBy) } ?? grownBy }
            if let grownBy = addedReach { grown.reach = grown.reach.map { $0.union(grownBy) } ?? grownBy }
            setAggregate(ancestor, grown)
            if isSection(ancestor) { refreshTarget(ancestor) }
            if slots[ancestor].isScroll {
                let shift = contentShift(ancestor)
                addedUnion = addedUnion?.offset(by: shift)
                addedReach = addedReach?.offset(by: shift)
            }
            ancestor = slots[ancestor].parent
        }
        sequence = nil
        return created[0]
    }

    /// One node of ``insertSubtree(_:parent:at:)``, without its children: checked, given a slot
    /// under `parentSlot` at child index `pos`, and registered; its slot is appended to `created`.
    private mutating func createSlot(_ node: Node, parent parentSlot: Int, at pos: Int, validated: Bool,
                                     created: inout [Int]) throws(FocusError) -> Int {
        let depth = parentSlot >= 0 ? slots[parentSlot].depth + 1 : 1
        if depth > limits.maxDepth {
            throw .invalidScene(reason: "the tree is deeper than \(limits.maxDepth) levels", node: node.id)
        }
        if idToSlot[node.id] != nil { throw .invalidScene(reason: "duplicate id '\(node.id)'", node: node.id) }
        nodeCount += 1
        if nodeCount > limits.maxNodes { throw .tooManyNodes(limit: limits.maxNodes) }
        if !validated { try Self.validateOwnFields(node) }
        try validatePlacement(node, parent: parentSlot)
        let sceneFrame = localFrame(of: node, parent: parentSlot)
        let disabled = (parentSlot >= 0 ? slots[parentSlot].disabled : false) || node.disabled == true
        let candidate = node.focusable == true && !disabled && !(sceneFrame?.isEmpty ?? true)
        var newSlot = Slot(id: node.id, node: node, frame: sceneFrame, parent: parentSlot, depth: depth, disabled: disabled,
                     candidate: candidate, hadChildren: node.children != nil)
        newSlot.space = parentSlot >= 0 ? contentSpace(of: parentSlot) : 0
        let slot: Int
        if let reused = free.popLast() { slot = reused; slots[reused] = newSlot } else { slot = slots.count; slots.append(newSlot) }
        idToSlot[node.id] = slot
        if parentSlot >= 0 {
            if collections[parentSlot] != nil {
                insertItem(slot, into: parentSlot)
            } else {
                let insertAt = min(max(pos, 0), slots[parentSlot].children.count)
                slots[parentSlot].children.insert(slot, at: insertAt)
                for position in insertAt..<slots[parentSlot].children.count { slots[slots[parentSlot].children[position]].indexInParent = position }
            }
        }
        created.append(slot)
        try register(slot, subtree: node)
        return slot
    }

    /// Checks, without changing anything, that `top` and its subtree can go under `parent`: ids,
    /// fields, depth, node count and binding kinds (so that `insertSubtree` cannot fail after it).
    func validateInsert(_ top: Node, parent: Int) throws(FocusError) {
        var seen = Set<String>()
        var local = (BindingRegistry(), BindingRegistry())
        var count = nodeCount
        var stack: [(Node, Int)] = [(top, slots[parent].depth + 1)]
        while let (node, depth) = stack.popLast() {
            if depth > limits.maxDepth {
                throw .invalidScene(reason: "the tree is deeper than \(limits.maxDepth) levels", node: node.id)
            }
            try Self.validateOwnFields(node)
            try validateReservedId(node.id)
            if idToSlot[node.id] != nil || !seen.insert(node.id).inserted {
                throw .invalidScene(reason: "duplicate id '\(node.id)'", node: node.id)
            }
            count += 1
            if count > limits.maxNodes { throw .tooManyNodes(limit: limits.maxNodes) }
            for (reg, list, label) in [(bindings, node.bindings, "binding"), (a11yBindings, node.accessibilityBindings, "accessibility binding")] {
                for binding in list ?? [] {
                    if label == "binding" { _ = local.0.add([binding], slot: 0) } else { _ = local.1.add([binding], slot: 0) }
                    let pending = label == "binding" ? local.0 : local.1
                    let bools = (reg.boolCount[binding.name] ?? 0) + (pending.boolCount[binding.name] ?? 0)
                    let values = (reg.valueCount[binding.name] ?? 0) + (pending.valueCount[binding.name] ?? 0)
                    if bools > 0 && values > 0 {
                        throw .invalidScene(reason: "\(label) '\(binding.name)' is used both as a Bool and as a value binding", node: node.id)
                    }
                }
            }
            for child in node.children ?? [] { stack.append((child, depth + 1)) }
        }
    }

    /// Files the node's fields in the registries; throws on a Bool/value binding clash.
    /// `subtree` is the node the slot was made from: its fields read here are the slot's own
    /// (`node(slot)` would build a copy of them, twice a node while a scene is built).
    private mutating func register(_ slot: Int, subtree: Node) throws(FocusError) {
        let treeNode = subtree
        if let name = bindings.add(treeNode.bindings, slot: slot) {
            throw .invalidScene(reason: "binding '\(name)' is used both as a Bool and as a value binding", node: treeNode.id)
        }
        if let name = a11yBindings.add(treeNode.accessibilityBindings, slot: slot) {
            throw .invalidScene(reason: "accessibility binding '\(name)' is used both as a Bool and as a value binding", node: treeNode.id)
        }
        for binding in treeNode.bindings ?? [] {
            if let cur = bindings.first[binding.name], cur != slot, !precedes(slot, cur) { continue }
            bindings.first[binding.name] = slot
        }
        for binding in treeNode.accessibilityBindings ?? [] {
            if let cur = a11yBindings.first[binding.name], cur != slot, !precedes(slot, cur) { continue }
            a11yBindings.first[binding.name] = slot
        }
        if let scopeName = treeNode.scope { scopes[scopeName, default: []].insert(slot) }
        if treeNode.sceneValues?.isEmpty == false { sceneValueNodes.insert(slot) }
        if treeNode.role == "search" { searchNodes.insert(slot) }
        if treeNode.defaultFocus != nil { defaultRegions.insert(slot) }
        if treeNode.prefersDefaultFocus != nil { prefersNodes.insert(slot) }
        for target in (treeNode.next ?? [:]).values where !target.isEmpty { nextRefs[target, default: 0] += 1 }
        registerScroll(slot, subtree: subtree)
    }

    private mutating func unregister(_ slot: Int) {
        let treeNode = node(slot)
        bindings.remove(treeNode.bindings, slot: slot)
        a11yBindings.remove(treeNode.accessibilityBindings, slot: slot)
        if let scopeName = treeNode.scope { scopes[scopeName]?.remove(slot); if scopes[scopeName]?.isEmpty == true { scopes[scopeName] = nil } }
        sceneValueNodes.remove(slot)
        searchNodes.remove(slot)
        defaultRegions.remove(slot)
        prefersNodes.remove(slot)
        for target in (treeNode.next ?? [:]).values where !target.isEmpty {
            nextRefs[target, default: 1] -= 1
            if nextRefs[target] == 0 { nextRefs[target] = nil }
        }
        unregisterScroll(slot)
    }

    /// Whether `node` can take the place of the leaf `slot` field for field (`replaceLeaf`): both
    /// without children, under the same parent, not a collection's item, no scroll container or
    /// collection on either side, and the same bindings (so no registry can clash). A reflow's
    /// patches are of this kind: every later candidate's frame moved.
    func canReplaceLeaf(_ slot: Int, with node: Node, parent: Int) -> Bool {
        let record = slots[slot]
        guard record.parent == parent, record.children.isEmpty, !record.hadChildren, node.children == nil, !record.isScroll,
            !record.isVirtual, collections[parent] == nil, node.scroll == nil, node.collection == nil, node.index == nil
        else { return false }
        guard let box = record.box else { return node.bindings == nil && node.accessibilityBindings == nil }
        let old = box.node
        return old.scroll == nil && old.collection == nil && old.index == nil && old.bindings == node.bindings
            && old.accessibilityBindings == node.accessibilityBindings
    }

    /// Gives the leaf `slot` the fields of `node` where it stands (see `canReplaceLeaf`) and
    /// returns its old fields. Its own target and the candidate counts above it are updated at
    /// once; its ancestors' aggregates are left for `refreshStaleAggregates`, once for a whole
    /// update (each alone would read all the parent's children: a reflow of 1,000 siblings cost
    /// focusd a million unions, and taking each out and putting it back shifted them all).
    @discardableResult
    mutating func replaceLeaf(_ slot: Int, with node: Node) throws(FocusError) -> Node {
        try Self.validateOwnFields(node)
        let record = slots[slot]
        let parent = record.parent
        try validatePlacement(node, parent: parent)
        let old = record.node
        unregister(slot)
        let localFrame = localFrame(of: node, parent: parent)
        let disabled = (parent >= 0 && slots[parent].disabled) || node.disabled == true
        let candidate = node.focusable == true && !disabled && !(localFrame?.isEmpty ?? true)
        var replaced = Slot(id: node.id, node: node, frame: localFrame, parent: parent, depth: record.depth, disabled: disabled,
                            candidate: candidate, hadChildren: false)
        replaced.space = record.space
        replaced.indexInParent = record.indexInParent
        replaced.candCount = candidate ? 1 : 0
        slots[slot] = replaced
        // Same bindings as before (`canReplaceLeaf`): registering cannot clash.
        try register(slot, subtree: node)
        let gained = replaced.candCount - record.candCount
        var ancestor = parent
        while gained != 0, ancestor >= 0 {
            slots[ancestor].candCount += gained
            ancestor = slots[ancestor].parent
        }
        refreshTarget(slot)
        if parent >= 0 { staleAggregates.insert(parent) }
        sequence = nil
        return old
    }

    /// Recomputes the aggregates of the parents `replaceLeaf` left stale and of their ancestors,
    /// each once, deepest first, and the targets of the sections among them.
    mutating func refreshStaleAggregates() {
        guard !staleAggregates.isEmpty else { return }
        var ancestors = Set<Int>()
        for parent in staleAggregates {
            var ancestor = parent
            while ancestor >= 0, slots[ancestor].alive, ancestors.insert(ancestor).inserted { ancestor = slots[ancestor].parent }
        }
        staleAggregates.removeAll()
        for ancestor in ancestors.sorted(by: { slots[$0].depth > slots[$1].depth }) {
            recomputeAggregate(ancestor)
            if isSection(ancestor) { refreshTarget(ancestor) }
        }
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
            var ancestor = parent
            while ancestor >= 0 {
                if collections[ancestor] != nil {
                    // An item gone may leave a virtual one in its place (focus.md §12).
                    lost -= recountVirtual(ancestor)
                }
                slots[ancestor].candCount -= lost
                ancestor = slots[ancestor].parent
            }
        }
        // Compact each parent once; then every ancestor's union, deepest first.
        var ancestors = Set<Int>()
        for parent in parents {
            let kept = slots[parent].children.filter { slots[$0].alive }
            slots[parent].children = kept
            // A collection's children are numbered by `removeItem` (index order, plain ones after).
            if collections[parent] == nil {
                for (position, child) in slots[parent].children.enumerated() { slots[child].indexInParent = position }
            }
            if slots[parent].children.isEmpty { aggregates[parent] = nil }
            var ancestor = parent
            while ancestor >= 0, ancestors.insert(ancestor).inserted { ancestor = slots[ancestor].parent }
        }
        for ancestor in ancestors.sorted(by: { slots[$0].depth > slots[$1].depth }) {
            recomputeAggregate(ancestor, keepReach: true)
            if isSection(ancestor) { refreshTarget(ancestor) }
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
        for position in 0..<before { positions[position] = position }
        for (insertIndex, insert) in inserts.enumerated() {
            let size = before + insertIndex
            positions[before + insertIndex] = min(insert.position ?? size, size)
        }
        // Backwards, each insert takes the (position+1)-th place still free (a Fenwick tree).
        guard total > 0 else { return }
        var tree = [Int](repeating: 0, count: total + 1)
        for treeIndex in 1...total {
            tree[treeIndex] += 1
            let up = treeIndex + (treeIndex & -treeIndex)
            if up <= total { tree[up] += tree[treeIndex] }
        }
        var top = 1
        while top * 2 <= total { top *= 2 }
        var order = [Int](repeating: -1, count: total)
        for entry in stride(from: total - 1, through: 0, by: -1) {
            var rank = positions[entry] + 1, at = 0, step = top
            while step > 0 {
                if at + step <= total && tree[at + step] < rank {
                    at += step
                    rank -= tree[at]
                }
                step /= 2
            }
            // `at + 1` is the place (1-based).
            order[at] = entry < before ? kids[entry] : inserts[entry - before].slot
            var treeIndex = at + 1
            while treeIndex <= total {
                tree[treeIndex] -= 1
                treeIndex += treeIndex & -treeIndex
            }
        }
        slots[parent].children = order
        for (position, child) in order.enumerated() { slots[child].indexInParent = position }
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
        while let slot = stack.popLast() {
            stack.append(contentsOf: slots[slot].children)
            dropVirtuals(of: slot)
            for binding in node(slot).bindings ?? [] where bindings.first[binding.name] == slot { staleFirst.0.insert(binding.name) }
            for binding in node(slot).accessibilityBindings ?? [] where a11yBindings.first[binding.name] == slot { staleFirst.1.insert(binding.name) }
            unregister(slot)
            index.set(slot, nil)
            idToSlot[slots[slot].id] = nil
            removed.append(slots[slot].id)
            slots[slot].alive = false
            slots[slot].candidate = false
            slots[slot].children = []
            aggregates[slot] = nil
            slots[slot].box = nil
            free.append(slot)
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
                let removedAt = slots[top].indexInParent
                slots[parent].children.remove(at: removedAt)
                for position in removedAt..<slots[parent].children.count { slots[slots[parent].children[position]].indexInParent = position }
            }
            if slots[parent].children.isEmpty { aggregates[parent] = nil }
        }
        var ancestor = parent
        var unionMayShrink = lostUnion != nil
        while ancestor >= 0 {
            if collections[ancestor] != nil {
                let before = collections[ancestor]!.virtualCounted
                let now = virtualCount(ancestor)
                collections[ancestor]!.virtualCounted = now
                lost -= now - before
            }
            slots[ancestor].candCount -= lost
            if unionMayShrink, let old = storedAggregate(ancestor).union, let lostRect = lostUnion {
                if lostRect.minX > old.minX && lostRect.minY > old.minY && lostRect.maxX < old.maxX && lostRect.maxY < old.maxY {
                    unionMayShrink = false
                } else {
                    recomputeAggregate(ancestor, keepReach: true)
                }
            }
            if isSection(ancestor) { refreshTarget(ancestor) }
            if slots[ancestor].isScroll { lostUnion = lostUnion?.offset(by: contentShift(ancestor)) }
            ancestor = slots[ancestor].parent
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
        guard let localFrame = localTargetFrame(slot) else { return nil }
        let space = slots[slot].space
        return space == 0 ? localFrame : localFrame.offset(by: spaceOrigin(space))
    }

    /// `targetFrame` in the coordinates of the slot's space (what the index files).
    func localTargetFrame(_ slot: Int) -> Rect? {
        let record = slots[slot]
        guard record.alive, !record.disabled else { return nil }
        if record.candidate { return record.frame }
        guard isSection(slot), record.candCount > 0 else { return nil }
        if let ownFrame = record.frame, !ownFrame.isEmpty { return ownFrame }
        guard let union = candUnion(slot), !union.isEmpty else { return nil }
        return union
    }

    mutating func refreshTarget(_ slot: Int) {
        index.set(slot, localTargetFrame(slot), grid: slots[slot].space)
    }

    // MARK: Rebuilding the tree

    /// The tree as a `Node`, rebuilt from the slots.
    func buildNode(_ slot: Int) -> Node {
        var rebuilt = node(slot)
        let kids = slots[slot].children
        rebuilt.children = kids.isEmpty ? (slots[slot].hadChildren ? [] : nil) : kids.map { buildNode($0) }
        return rebuilt
    }

    var sceneValue: Scene {
        Scene(name: name, root: buildNode(root), layoutDirection: given.layoutDirection, policy: given.policy,
              sequentialWrap: given.sequentialWrap, persist: persist)
    }
}

extension Node {
    /// Calls `body` with every node below this one and its depth below it (1 for a child), depth
    /// first, each list of children from its last: the order of a stack of nodes popped from its
    /// end, so the first error a walk names is the one it named before. The lists are walked in
    /// place (the stack holds lists and positions): a stack of the nodes themselves copied each
    /// node, and a web page's root of 5,000 children made 2 MB of copies and fresh pages in every
    /// SetScene, once per walk.
    func walkDescendantsLastFirst<E: Error>(_ body: (Node, Int) throws(E) -> Void) throws(E) {
        var lists: [(kids: [Node], next: Int)] = []
        if let kids = children, !kids.isEmpty { lists.append((kids, kids.count - 1)) }
        while let last = lists.indices.last {
            let position = lists[last].next
            guard position >= 0 else {
                lists.removeLast()
                continue
            }
            lists[last].next = position - 1
            try body(lists[last].kids[position], last + 1)
            if let kids = lists[last].kids[position].children, !kids.isEmpty { lists.append((kids, kids.count - 1)) }
        }
    }
}
