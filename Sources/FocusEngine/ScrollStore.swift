// Scroll containers and collections (focus.md §12) in the store.
//
// Frames: every slot keeps its frame in the coordinates of its space, as the client sent it: the
// scene, or the content of the innermost scroll container above it (`Slot.space`). Each space has
// its own grid in the spatial index and its aggregates in its own coordinates (a scroll container
// stores its content's), so a scroll changes one offset: nothing below the container is moved or
// re-filed, only the aggregates of the container's ancestors are recomputed. The scene position of
// a space's content origin composes the viewports and offsets of the containers above it
// (`spaceOrigin`); searches translate their query into each grid's space and measure in scene
// coordinates.
//
// Collections: built items are children with `index`; every other index is a virtual item that
// exists only as arithmetic on the collection's `Lattice` (index → slot frame). A virtual item gets a
// slot only while something holds it (focus, or the few winners of one search), and never enters the
// spatial index: directional search asks each collection for its best virtual item directly, so no
// cost grows with `count`. The children of a collection are kept in index order and their
// `indexInParent` is their index (count + position for children without `index`), so tree order
// ("as if every item were built") is the ordinary pre-order comparison.

/// A scroll container's current offset.
struct ScrollOffsetXY: Sendable, Hashable {
    var x: Double
    var y: Double
}

/// A scroll container's content space: the container and its current offset.
struct ScrollSpace: Sendable {
    var container: Int
    var offset: ScrollOffsetXY
}

/// A collection's built and materialized items.
struct CollectionInfo: Sendable {
    /// The collection's fields (kept here so hot paths do not copy the node out of its box).
    var spec: Collection
    /// index → built child slot (holes included: a built item that is not a candidate).
    var built: [Int: Int] = [:]
    /// index → materialized virtual slot (a few at most: what focus holds).
    var materialized = SmallIntMap()
    /// What the collection adds to its `candCount` for its virtual items (0 or 1: "has any").
    var virtualCounted = 0
}

/// A map from Int to Int for a handful of entries: a linear scan, no hashing.
struct SmallIntMap: Sendable, Sequence {
    var pairs: [(key: Int, value: Int)] = []

    subscript(_ key: Int) -> Int? {
        get {
            for pair in pairs where pair.key == key { return pair.value }
            return nil
        }
        set {
            if let position = pairs.firstIndex(where: { $0.key == key }) {
                if let newValue { pairs[position].value = newValue } else { pairs.remove(at: position) }
            } else if let newValue {
                pairs.append((key, newValue))
            }
        }
    }

    var isEmpty: Bool { pairs.isEmpty }
    func makeIterator() -> IndexingIterator<[(key: Int, value: Int)]> { pairs.makeIterator() }
}

/// A materialized virtual item.
struct VirtualItem: Sendable, Equatable {
    var collection: Int
    var index: Int
}

/// The slot frames of a collection: index ↔ (physical column, row) ↔ frame, in scene coordinates.
struct Lattice: Sendable {
    var ox: Double, oy: Double
    var iw: Double, ih: Double
    var px: Double, py: Double
    var cols: Int, rows: Int
    var count: Int
    var layout: CollectionLayout
    var rtl: Bool

    init(_ spec: Collection, origin: (x: Double, y: Double), rtl: Bool) {
        ox = origin.x; oy = origin.y
        iw = spec.itemWidth; ih = spec.itemHeight
        let sp = spec.spacing ?? 0
        px = iw + sp; py = ih + sp
        count = max(0, spec.count)
        layout = spec.layout
        self.rtl = rtl && spec.layout != .column
        switch spec.layout {
        case .row: cols = count; rows = count > 0 ? 1 : 0
        case .column: cols = count > 0 ? 1 : 0; rows = count
        case .grid:
            let columnCount = max(1, spec.columns ?? 1)
            cols = columnCount; rows = (count + columnCount - 1) / columnCount
        }
    }

    /// The derived size (focus.md §12).
    static func size(_ spec: Collection) -> (width: Double, height: Double) {
        let lattice = Lattice(spec, origin: (0, 0), rtl: false)
        let sp = spec.spacing ?? 0
        return (Double(lattice.cols) * lattice.iw + Double(max(0, lattice.cols - 1)) * sp,
                Double(lattice.rows) * lattice.ih + Double(max(0, lattice.rows - 1)) * sp)
    }

    @inline(__always) func index(pc: Int, r: Int) -> Int? {
        guard pc >= 0, pc < cols, r >= 0, r < rows else { return nil }
        let col = rtl ? cols - 1 - pc : pc
        let itemIndex = switch layout {
        case .row: col
        case .column: r
        case .grid: r * cols + col
        }
        return itemIndex < count ? itemIndex : nil
    }

    @inline(__always) func cell(_ index: Int) -> (pc: Int, r: Int) {
        let (col, row) = switch layout {
        case .row: (index, 0)
        case .column: (0, index)
        case .grid: (index % cols, index / cols)
        }
        return (rtl ? cols - 1 - col : col, row)
    }

    @inline(__always) func frame(pc: Int, r: Int) -> Rect {
        Rect(x: ox + Double(pc) * px, y: oy + Double(r) * py, width: iw, height: ih)
    }

    func frame(_ index: Int) -> Rect { let position = cell(index); return frame(pc: position.pc, r: position.r) }
}

/// Which scroll containers clip the frames a directional search measures: every one that does not
/// hold focus (focus.md §12, visibility).
struct ScrollClip {
    /// Viewports (scene coordinates) of the containers that do not hold focus.
    var closed: [Int: Rect]

    /// `frame` clipped to every closed viewport above `slot`; nil when clipped to nothing.
    @inline(__always)
    func effective(_ slots: [Slot], _ slot: Int, _ frame: Rect) -> Rect? {
        if closed.isEmpty { return frame }
        var out = frame
        var ancestor = slots[slot].parent
        while ancestor >= 0 {
            if let viewport = closed[ancestor] {
                guard let clipped = out.intersection(viewport) else { return nil }
                out = clipped
            }
            ancestor = slots[ancestor].parent
        }
        return out
    }
}

extension Rect {
    /// The overlap of both; nil when it is empty (zero width or height).
    func intersection(_ other: Rect) -> Rect? {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// ⌊x⌋ clamped to Int's range, without libm (the engine is a pure core).
@inline(__always) func floorInt(_ value: Double) -> Int {
    if !(value > -9e18) { return Int.min / 2 }
    if !(value < 9e18) { return Int.max / 2 }
    let truncated = Int(value)
    return Double(truncated) > value ? truncated - 1 : truncated
}

/// `X#123` → ("X", 123); nil for any other id.
func splitVirtualId(_ id: String) -> (prefix: Substring, index: Int?)? {
    // Most ids have no '#': a byte scan says so without the Character search's grapheme
    // breaking (4% of building a 100,000-node scene, where it runs twice a node).
    // Through the bytes in place where they are contiguous (a small or native string: always
    // here); the view's own `contains` went through its index one byte at a time.
    let hasHash = id.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: "#")) } ?? id.utf8.contains(UInt8(ascii: "#"))
    guard hasHash, let hash = id.lastIndex(of: "#") else { return nil }
    let digits = id[id.index(after: hash)...]
    guard !digits.isEmpty, digits.allSatisfy({ $0 >= "0" && $0 <= "9" }) else { return nil }
    return (id[..<hash], Int(digits))
}

extension SceneStore {
    // MARK: Validation

    /// The new fields' checks that need nothing but the node.
    static func validateScrollFields(_ node: Node) throws(FocusError) {
        if let sc = node.scroll {
            if node.collection != nil {
                throw .invalidScene(reason: "a node cannot be both a scroll container and a collection", node: node.id)
            }
            guard node.frame != nil else {
                throw .invalidScene(reason: "a scroll container needs a frame (its viewport)", node: node.id)
            }
            for (label, value) in [("contentWidth", sc.contentWidth), ("contentHeight", sc.contentHeight),
                               ("offsetX", sc.offsetX ?? 0), ("offsetY", sc.offsetY ?? 0), ("margin", sc.margin ?? 0)] {
                if !value.isFinite { throw .invalidScene(reason: "scroll \(label) is not finite", node: node.id) }
            }
            if sc.contentWidth < 0 || sc.contentHeight < 0 {
                throw .invalidScene(reason: "scroll content size is negative", node: node.id)
            }
            if (sc.margin ?? 0) < 0 { throw .invalidScene(reason: "scroll margin is negative", node: node.id) }
        }
        if let spec = node.collection {
            guard node.frame != nil else {
                throw .invalidScene(reason: "a collection needs a frame (the origin of its slots)", node: node.id)
            }
            if spec.count < 0 { throw .invalidScene(reason: "collection count \(spec.count) is negative", node: node.id) }
            if spec.count > 1_000_000_000 {
                throw .invalidScene(reason: "collection count \(spec.count) is above 1,000,000,000", node: node.id)
            }
            for (label, value) in [("itemWidth", spec.itemWidth), ("itemHeight", spec.itemHeight)] {
                if !value.isFinite || value <= 0 {
                    throw .invalidScene(reason: "collection \(label) must be a positive number", node: node.id)
                }
            }
            if let spacing = spec.spacing, !spacing.isFinite || spacing < 0 {
                throw .invalidScene(reason: "collection spacing must be zero or positive", node: node.id)
            }
            if spec.layout == .grid {
                guard let columns = spec.columns else {
                    throw .invalidScene(reason: "a grid collection needs columns", node: node.id)
                }
                if columns < 1 { throw .invalidScene(reason: "collection columns \(columns) must be at least 1", node: node.id) }
            }
        }
    }

    /// A node's id must not be a virtual item's (`COLLECTION#INDEX` of an existing collection).
    func validateReservedId(_ id: String, extra: Set<String> = []) throws(FocusError) {
        guard let (prefix, _) = splitVirtualId(id) else { return }
        let collectionId = String(prefix)
        if extra.contains(collectionId) || idToSlot[collectionId].map({ collections[$0] != nil }) == true {
            throw .invalidScene(reason: "id '\(id)' is reserved for a virtual item of collection '\(collectionId)'", node: id)
        }
    }

    /// The checks of a node that depend on where it goes: `index` (parent collection, range,
    /// uniqueness), reserved ids, a new scroll container's offset range.
    func validatePlacement(_ placed: Node, parent parentSlot: Int, taken: Set<Int> = [], extraCollections: Set<String> = [],
                           parentCollection: Collection?? = nil) throws(FocusError) {
        try validateReservedId(placed.id, extra: extraCollections)
        if placed.collection != nil, (hashIds[placed.id] ?? 0) > 0 {
            throw .invalidScene(reason: "ids of the form '\(placed.id)#INDEX' are reserved for this collection's virtual items, and one is in use", node: placed.id)
        }
        if let itemIndex = placed.index {
            let coll: Collection? = parentCollection ?? (parentSlot >= 0 ? slots[parentSlot].collection : nil)
            guard let spec = coll else {
                throw .invalidScene(reason: "index is only for a built item of a collection (its parent is not a collection)", node: placed.id)
            }
            if itemIndex < 0 || itemIndex >= spec.count {
                throw .invalidScene(reason: "index \(itemIndex) is outside the collection's range 0…\(spec.count - 1)", node: placed.id)
            }
            if taken.contains(itemIndex) || (parentCollection == nil && parentSlot >= 0 && collections[parentSlot]?.built[itemIndex] != nil) {
                throw .invalidScene(reason: "index \(itemIndex) is used by two built items of the collection", node: placed.id)
            }
        }
        if let sc = placed.scroll, let viewport = placed.frame, !clampIds.contains(placed.id) {
            // A container new to the scene must be sent within its range (§12, further details).
            let maxX = sc.axis == .vertical ? 0 : max(0, sc.contentWidth - viewport.width)
            let maxY = sc.axis == .horizontal ? 0 : max(0, sc.contentHeight - viewport.height)
            let offsetX = sc.offsetX ?? 0, offsetY = sc.offsetY ?? 0
            if offsetX < 0 || offsetX > maxX {
                throw .invalidScene(reason: "scroll offsetX \(offsetX) is outside its range 0…\(maxX)", node: placed.id)
            }
            if offsetY < 0 || offsetY > maxY {
                throw .invalidScene(reason: "scroll offsetY \(offsetY) is outside its range 0…\(maxY)", node: placed.id)
            }
        }
    }

    /// `validatePlacement` for a whole subtree about to go under `parent` (UpdateScene's dry run).
    func validatePlacements(_ top: Node, parent: Int) throws(FocusError) {
        var collectionsHere = Set<String>()
        var stack: [(Node, Collection??, Set<Int>)] = [(top, nil, [])]
        while let (placed, parentSpec, taken) = stack.popLast() {
            try validatePlacement(placed, parent: parent, taken: taken, extraCollections: collectionsHere, parentCollection: parentSpec)
            if placed.collection != nil { collectionsHere.insert(placed.id) }
            var used = Set<Int>()
            for child in placed.children ?? [] {
                stack.append((child, .some(placed.collection), used))
                if let itemIndex = child.index, !used.insert(itemIndex).inserted {
                    throw .invalidScene(reason: "index \(itemIndex) is used by two built items of the collection", node: child.id)
                }
            }
        }
    }

    // MARK: Frames

    /// The frame of `placed` going under `parentSlot`, in its space's coordinates: as given; a collection's size
    /// derived; a built item without a frame in its slot.
    func localFrame(of placed: Node, parent parentSlot: Int) -> Rect? {
        if let itemIndex = placed.index, parentSlot >= 0, let spec = slots[parentSlot].collection, placed.frame == nil, let parentFrame = slots[parentSlot].frame {
            return Lattice(spec, origin: (parentFrame.x, parentFrame.y), rtl: layoutDirection == .rightToLeft).frame(itemIndex)
        }
        guard var ownFrame = placed.frame else { return nil }
        if let spec = placed.collection {
            let size = Lattice.size(spec)
            ownFrame.width = size.width; ownFrame.height = size.height
        }
        return ownFrame
    }

    /// The space the children of `container` are in: its content's when it is a scroll container.
    func contentSpace(of container: Int) -> Int {
        slots[container].isScroll ? spaceOfContainer[container] ?? slots[container].space : slots[container].space
    }

    /// Where the origin of space `space` is in scene coordinates (the containers above it composed).
    func spaceOrigin(_ space: Int) -> (x: Double, y: Double) {
        if space == 0 { return (0, 0) }
        guard let sp = spaces[space], let viewport = slots[sp.container].frame else { return (0, 0) }
        let up = slots[sp.container].space
        let parentOrigin = up == 0 ? (x: 0.0, y: 0.0) : spaceOrigin(up)
        return (viewport.x + parentOrigin.x - sp.offset.x, viewport.y + parentOrigin.y - sp.offset.y)
    }

    /// What `container`'s content coordinates add to get the coordinates of its own space.
    func contentShift(_ container: Int) -> (x: Double, y: Double) {
        guard let offset = scrolls[container], let viewport = slots[container].frame else { return (0, 0) }
        return (viewport.x - offset.x, viewport.y - offset.y)
    }

    /// `container`'s aggregates in its own space: its frame and its content's (`content`), shifted.
    func containerAggregate(_ container: Int, content: Aggregate) -> Aggregate {
        let shift = contentShift(container)
        var union = slots[container].leafAggregate.union
        if let contentUnion = content.union?.offset(by: shift) { union = union.map { $0.union(contentUnion) } ?? contentUnion }
        var reach = union
        if let contentReach = content.reach?.offset(by: shift) { reach = reach.map { $0.union(contentReach) } ?? contentReach }
        return Aggregate(union: union, reach: reach)
    }

    /// `reach(slot)` in scene coordinates.
    func sceneReach(_ slot: Int) -> Rect? {
        guard let localReach = reach(slot) else { return nil }
        let space = slots[slot].space
        return space == 0 ? localReach : localReach.offset(by: spaceOrigin(space))
    }

    /// The frame a filed slot was filed with, in scene coordinates.
    func filedSceneFrame(_ slot: Int) -> Rect {
        let space = Int(index.grid[slot])
        return space == 0 ? index.frame[slot] : index.frame[slot].offset(by: spaceOrigin(space))
    }

    /// What a child of `parent` adds to its content coordinates to get scene coordinates.
    func translation(under parent: Int) -> (x: Double, y: Double) {
        parent >= 0 ? spaceOrigin(contentSpace(of: parent)) : (0, 0)
    }

    /// `collection`'s slot frames in scene coordinates.
    func lattice(_ collection: Int) -> Lattice? {
        guard let coll = collections[collection]?.spec, let collectionFrame = frame(collection) else { return nil }
        return Lattice(coll, origin: (collectionFrame.x, collectionFrame.y), rtl: layoutDirection == .rightToLeft)
    }

    // MARK: Registries

    mutating func registerScroll(_ slot: Int, subtree: Node) {
        let treeNode = subtree  // the node the slot was made from (see `register`)
        if let (prefix, _) = splitVirtualId(treeNode.id) { hashIds[String(prefix), default: 0] += 1 }
        if let sc = treeNode.scroll, let viewport = slots[slot].frame {
            var offset = ScrollOffsetXY(x: sc.offsetX ?? 0, y: sc.offsetY ?? 0)
            clamp(&offset, sc, viewport)
            scrolls[slot] = offset
            scrollSpecs[slot] = sc
            // The content's own grid, shaped by the focusable nodes the container holds.
            var sumW = 0.0, sumH = 0.0, count = 0
            subtree.walkDescendantsLastFirst { descendant, _ in
                if descendant.focusable == true, let df = descendant.frame, !df.isEmpty { sumW += df.width; sumH += df.height; count += 1 }
            }
            let space = index.addGrid(bounds: Rect(x: 0, y: 0, width: max(sc.contentWidth, viewport.width), height: max(sc.contentHeight, viewport.height)),
                                  typicalWidth: count > 0 ? sumW / Double(count) : viewport.width,
                                  typicalHeight: count > 0 ? sumH / Double(count) : viewport.height, expected: max(count, 1))
            while spaces.count <= space { spaces.append(nil) }
            spaces[space] = ScrollSpace(container: slot, offset: offset)
            spaceOfContainer[slot] = space
            slots[slot].isScroll = true
        }
        if let spec = treeNode.collection { collections[slot] = CollectionInfo(spec: spec) }
    }

    mutating func unregisterScroll(_ slot: Int) {
        if let (prefix, _) = splitVirtualId(slots[slot].id) {
            let collectionId = String(prefix)
            hashIds[collectionId, default: 1] -= 1
            if hashIds[collectionId] == 0 { hashIds[collectionId] = nil }
        }
        scrolls[slot] = nil
        scrollSpecs[slot] = nil
        if let space = spaceOfContainer.removeValue(forKey: slot) {
            // Unfiles whatever of the content is still filed (the content is released after it).
            index.removeGrid(space)
            spaces[space] = nil
        }
        slots[slot].isScroll = false
        collections[slot] = nil
    }

    func clamp(_ offset: inout ScrollOffsetXY, _ sc: Scroll, _ viewport: Rect) {
        let maxX = sc.axis == .vertical ? 0 : max(0, sc.contentWidth - viewport.width)
        let maxY = sc.axis == .horizontal ? 0 : max(0, sc.contentHeight - viewport.height)
        offset.x = min(max(offset.x, 0), maxX)
        offset.y = min(max(offset.y, 0), maxY)
    }

    /// Files child `slot` of `collection` in index order (see the file comment).
    mutating func insertItem(_ slot: Int, into collection: Int) {
        let count = collections[collection]?.spec.count ?? 0
        if let itemIndex = node(slot).index {
            collections[collection]!.built[itemIndex] = slot
            // The client built an index that was virtual: the built node takes over (focus.md §12).
            if let virtualSlot = collections[collection]!.materialized[itemIndex] { dropVirtual(virtualSlot) }
        }
        var kids = slots[collection].children
        kids.append(slot)
        // Children without an index keep their order after the items.
        var plainOrder = 0
        var keyed: [(key: Int, slot: Int)] = []
        for child in kids {
            if let itemIndex = node(child).index { keyed.append((itemIndex, child)) } else { keyed.append((count + plainOrder, child)); plainOrder += 1 }
        }
        keyed.sort { $0.key < $1.key }
        slots[collection].children = keyed.map(\.slot)
        for (key, child) in keyed { slots[child].indexInParent = key }
    }

    mutating func removeItem(_ slot: Int, from collection: Int) {
        if let itemIndex = node(slot).index, collections[collection]?.built[itemIndex] == slot { collections[collection]!.built[itemIndex] = nil }
        if let position = slots[collection].children.firstIndex(of: slot) { slots[collection].children.remove(at: position) }
        let count = collections[collection]?.spec.count ?? 0
        var plainOrder = 0
        for child in slots[collection].children where node(child).index == nil { slots[child].indexInParent = count + plainOrder; plainOrder += 1 }
    }

    /// 1 when collection `slot` has a virtual item that is a candidate, else 0.
    func virtualCount(_ slot: Int) -> Int {
        guard let info = collections[slot], !slots[slot].disabled else { return 0 }
        return info.spec.count > info.built.count ? 1 : 0
    }

    // MARK: Virtual items

    /// The slot of item `itemIndex` of `collection`: the built node, or a materialized virtual item; nil
    /// when `itemIndex` is out of range or is not a candidate (a hole, a disabled collection). A virtual
    /// item's frame is arithmetic on the collection's lattice; its slot is a spare one reused when
    /// there is one (only its id, frame and index change).
    mutating func item(_ collection: Int, _ itemIndex: Int) -> Int? {
        // One lookup of the collection (hashing is most of what a move onto a virtual item costs).
        let (known, coll): (Int??, Collection?) = {
            guard let info = collections[collection], itemIndex >= 0, itemIndex < info.spec.count else { return (.some(nil), nil) }
            if !info.built.isEmpty, let built = info.built[itemIndex] { return (.some(isCandidate(built) ? built : nil), nil) }
            if let virtualSlot = info.materialized[itemIndex] { return (.some(virtualSlot), nil) }
            return (nil, info.spec)
        }()
        if let known { return known }
        guard !slots[collection].disabled, let coll, let collectionFrame = slots[collection].frame else { return nil }
        var id = slots[collection].id
        id.append("#")
        id.append(String(itemIndex))
        let itemFrame = Lattice(coll, origin: (collectionFrame.x, collectionFrame.y), rtl: layoutDirection == .rightToLeft).frame(itemIndex)
        let slot: Int
        if let spare = spareVirtualSlots.popLast() {
            slot = spare
            slots[slot].id = id
            slots[slot].setFrame(itemFrame)
            slots[slot].parent = collection
            slots[slot].depth = slots[collection].depth + 1
            slots[slot].alive = true
            slots[slot].candidate = true
        } else {
            var newSlot = Slot(id: id, node: Node(id: id, frame: itemFrame, focusable: true), parent: collection, depth: slots[collection].depth + 1,
                         disabled: false, candidate: true, hadChildren: false)
            newSlot.isVirtual = true
            if let reused = free.popLast() { slot = reused; slots[reused] = newSlot } else { slot = slots.count; slots.append(newSlot) }
        }
        slots[slot].indexInParent = itemIndex
        slots[slot].space = slots[collection].space
        // Not in `idToSlot`: lookups by id fall back to `materializedSlot`.
        virtualSlots.append(slot)
        collections[collection]!.materialized[itemIndex] = slot
        return slot
    }

    /// The collection and index of a materialized virtual item (nil for any other slot).
    @inline(__always) func virtualItem(_ slot: Int) -> VirtualItem? {
        slots[slot].isVirtual && slots[slot].alive ? VirtualItem(collection: slots[slot].parent, index: slots[slot].indexInParent) : nil
    }

    /// The collection and index of an item slot (built with `index`, or virtual).
    func itemOf(_ slot: Int) -> VirtualItem? {
        if let item = virtualItem(slot) { return item }
        let parent = slots[slot].parent
        guard parent >= 0, collections[parent] != nil, let itemIndex = node(slot).index else { return nil }
        return VirtualItem(collection: parent, index: itemIndex)
    }

    /// The slot of a materialized virtual item by its id (they are not in `idToSlot`).
    func materializedSlot(_ id: String) -> Int? {
        guard !virtualSlots.isEmpty, let (collection, itemIndex) = parseVirtual(id), let itemIndex else { return nil }
        return collections[collection]?.materialized[itemIndex]
    }

    /// A virtual id (`COLLECTION#INDEX`) → its collection and index, when the collection exists.
    func parseVirtual(_ id: String) -> (collection: Int, index: Int?)? {
        guard let (prefix, itemIndex) = splitVirtualId(id), let collection = idToSlot[String(prefix)], collections[collection] != nil else { return nil }
        return (collection, itemIndex)
    }

    mutating func dropVirtual(_ slot: Int) {
        guard let item = virtualItem(slot), let position = virtualSlots.firstIndex(of: slot) else { return }
        virtualSlots.swapAt(position, virtualSlots.count - 1)
        virtualSlots.removeLast()
        collections[item.collection]?.materialized[item.index] = nil
        slots[slot].alive = false
        slots[slot].candidate = false
        if spareVirtualSlots.count < 4 { spareVirtualSlots.append(slot) } else { free.append(slot) }
    }

    /// Drops the materialized items of collection `slot` (it is being removed).
    mutating func dropVirtuals(of slot: Int) {
        guard let info = collections[slot] else { return }
        for (_, virtualSlot) in info.materialized { dropVirtual(virtualSlot) }
    }

    /// Drops every materialized virtual item but `keep`.
    mutating func collectVirtuals(keep: Int?, _ keep2: Int?) {
        // Most calls (twice a move) find only the focused items: nothing to copy or drop.
        if virtualSlots.allSatisfy({ $0 == keep || $0 == keep2 }) { return }
        for slot in virtualSlots where slot != keep && slot != keep2 { dropVirtual(slot) }
    }

    /// The first (forward) or last candidate index of `collection` after/before `from` (nil: from
    /// the start/end); holes are skipped.
    func nextCandidateIndex(_ collection: Int, after from: Int?, forward: Bool) -> Int? {
        guard let info = collections[collection], info.spec.count > 0 else { return nil }
        let virtualOK = !slots[collection].disabled
        let count = info.spec.count
        var itemIndex = from.map { forward ? $0 + 1 : $0 - 1 } ?? (forward ? 0 : count - 1)
        while itemIndex >= 0 && itemIndex < count {
            if let built = info.built[itemIndex] {
                if isCandidate(built) { return itemIndex }
            } else if virtualOK {
                return itemIndex
            }
            itemIndex += forward ? 1 : -1
        }
        return nil
    }

    // MARK: Scrolling

    /// Sets `container`'s offset (clamped). Its content keeps its coordinates and its place in
    /// the index; only the aggregates of its ancestors follow. Returns whether it changed.
    @discardableResult
    mutating func setOffset(_ container: Int, x: Double, y: Double) -> Bool {
        guard let old = scrolls[container], let sc = scrollSpecs[container], let vf = slots[container].frame else { return false }
        var offset = ScrollOffsetXY(x: x, y: y)
        clamp(&offset, sc, vf)
        if offset == old { return false }
        scrolls[container] = offset
        if let space = spaceOfContainer[container] { spaces[space]?.offset = offset }
        if isSection(container) { refreshTarget(container) }
        var ancestor = slots[container].parent
        while ancestor >= 0 {
            recomputeAggregate(ancestor)
            if isSection(ancestor) { refreshTarget(ancestor) }
            ancestor = slots[ancestor].parent
        }
        return true
    }

    /// The stored aggregates of a slot with children (nil for a leaf).
    func aggregates(_ slot: Int) -> Aggregate? { slots[slot].children.isEmpty ? nil : aggregate(slot) }

    /// Computes `slot`'s stored aggregates from its own frame and its children's (a scroll
    /// container's from its children's alone, in content coordinates); `keepReach` keeps the
    /// stored reach (after removals, where a larger one only costs search time).
    mutating func recomputeAggregate(_ slot: Int, keepReach: Bool = false) {
        guard !slots[slot].children.isEmpty else { setAggregate(slot, slots[slot].leafAggregate); return }
        let own = slots[slot].isScroll ? nil : slots[slot].frame.flatMap { $0.isEmpty ? nil : $0 }
        var union = own
        for child in slots[slot].children {
            if let childUnion = candUnion(child) { union = union.map { $0.union(childUnion) } ?? childUnion }
        }
        var reach = union
        if isSection(slot), let ownFrame = own { reach = reach.map { $0.union(ownFrame) } ?? ownFrame }
        for child in slots[slot].children { if let childReach = self.reach(child) { reach = reach.map { $0.union(childReach) } ?? childReach } }
        if keepReach { reach = storedAggregate(slot).reach }
        setAggregate(slot, Aggregate(union: union, reach: reach))
    }

    /// Scrolls every container holding `target`, innermost first, to show it (focus.md §12); returns
    /// the containers whose offset changed, with their new offsets.
    mutating func scrollToShow(_ target: Int) -> [(Int, ScrollOffsetXY)] {
        if scrolls.isEmpty { return [] }
        var changed: [(Int, ScrollOffsetXY)] = []
        var ancestor = slots[target].parent
        while ancestor >= 0 {
            if slots[ancestor].isScroll, let old = scrolls[ancestor], let sc = scrollSpecs[ancestor], let viewport = frame(ancestor), let targetFrame = frame(target) {
                let margin = sc.margin ?? 0
                let policy = sc.policy ?? .visible
                var offsetX = old.x, offsetY = old.y
                if sc.axis != .vertical {
                    offsetX = Self.offsetToShow(lo: targetFrame.minX - margin, hi: targetFrame.maxX + margin, vlo: viewport.minX, vhi: viewport.maxX, offset: old.x,
                                          policy: policy, leadingIsHigh: layoutDirection == .rightToLeft)
                }
                if sc.axis != .horizontal {
                    offsetY = Self.offsetToShow(lo: targetFrame.minY - margin, hi: targetFrame.maxY + margin, vlo: viewport.minY, vhi: viewport.maxY, offset: old.y,
                                          policy: policy, leadingIsHigh: false)
                }
                if setOffset(ancestor, x: offsetX, y: offsetY) { changed.append((ancestor, scrolls[ancestor]!)) }
            }
            ancestor = slots[ancestor].parent
        }
        return changed
    }

    /// The offset on one axis that shows [lo, hi] in [vlo, vhi] under `policy` (before clamping).
    static func offsetToShow(lo: Double, hi: Double, vlo: Double, vhi: Double, offset: Double,
                             policy: ScrollPolicy, leadingIsHigh: Bool) -> Double {
        // Content moves by -(new offset - offset): the frame's new lo is lo - (new - offset).
        let leading = leadingIsHigh ? offset + (hi - vhi) : offset + (lo - vlo)
        switch policy {
        case .leading: return leading
        case .center: return offset + ((lo + hi) / 2 - (vlo + vhi) / 2)
        case .visible:
            if hi - lo > vhi - vlo { return leading }
            if lo < vlo { return offset + (lo - vlo) }
            if hi > vhi { return offset + (hi - vhi) }
            return offset
        }
    }

    /// The clipping in force for a search made while `focused` holds focus.
    func scrollClip(focused: Int?) -> ScrollClip? {
        if scrolls.isEmpty { return nil }
        var open = 0
        if let focusedSlot = focused {
            var ancestor = slots[focusedSlot].parent
            while ancestor >= 0 { if slots[ancestor].isScroll { open += 1 }; ancestor = slots[ancestor].parent }
        }
        if open == scrolls.count { return nil }
        var closed: [Int: Rect] = [:]
        for (container, _) in scrolls { if let viewport = frame(container) { closed[container] = viewport } }
        if let focusedSlot = focused {
            var ancestor = focusedSlot
            while ancestor >= 0 { closed[ancestor] = nil; ancestor = slots[ancestor].parent }
        }
        return ScrollClip(closed: closed)
    }

    // MARK: Directional search over virtual items

    /// The best in-beam and out-of-beam virtual items of `collection` for a move from `source`
    /// (ties: the lower index), skipping built indices and `exclude`.
    func latticeBest(_ collection: Int, source: Rect, direction: Direction, wantBeam: Bool, wantOut: Bool,
                     exclude: Int?, clip: ScrollClip?) -> (beam: (Int, Measure)?, out: (Int, Measure)?) {
        guard let info = collections[collection], !slots[collection].disabled, info.spec.count > info.built.count, let collectionFrame = frame(collection) else { return (nil, nil) }
        let lattice = Lattice(info.spec, origin: (collectionFrame.x, collectionFrame.y), rtl: layoutDirection == .rightToLeft)
        let canonSource = CanonRect(source, direction)
        var beam: (Int, Measure)?, out: (Int, Measure)?
        var clipRect: Rect?
        if let clip {
            // The collection's items are clipped like a child of it.
            var clipped = Rect(x: -.infinity, y: -.infinity, width: .infinity, height: .infinity)
            var ancestor = collection
            var any = false
            while ancestor >= 0 {
                if let viewport = clip.closed[ancestor] {
                    if any { guard let narrowed = clipped.intersection(viewport) else { return (nil, nil) }; clipped = narrowed } else { clipped = viewport; any = true }
                }
                ancestor = slots[ancestor].parent
            }
            if any { clipRect = clipped }
        }
        let anyBuilt = !info.built.isEmpty
        func consider(_ itemIndex: Int, _ slotFrame: Rect) {
            if itemIndex == exclude || (anyBuilt && info.built[itemIndex] != nil) { return }
            var frame = slotFrame
            if let cr = clipRect { guard let visible = frame.intersection(cr) else { return }; frame = visible }
            let measure = Measure(s: canonSource, d: CanonRect(frame, direction))
            guard measure.inDirection else { return }
            if measure.inBeam {
                guard wantBeam else { return }
                if let best = beam, !(measure.score < best.1.score || (measure.score == best.1.score && itemIndex < best.0)) { return }
                beam = (itemIndex, measure)
            } else {
                guard wantOut else { return }
                if let best = out, !(measure.score < best.1.score || (measure.score == best.1.score && itemIndex < best.0)) { return }
                out = (itemIndex, measure)
            }
        }
        func range(_ lo: Double, _ hi: Double, _ origin: Double, _ pitch: Double, _ count: Int) -> ClosedRange<Int>? {
            let first = max(0, floorInt((lo - origin) / pitch))
            let last = min(count - 1, floorInt((hi - origin) / pitch))
            return first <= last ? first...last : nil
        }
        if let cr = clipRect {
            // Only what the viewports show competes: a handful of slots.
            guard let xs = range(cr.minX, cr.maxX, lattice.ox, lattice.px, lattice.cols), let ys = range(cr.minY, cr.maxY, lattice.oy, lattice.py, lattice.rows),
                  xs.count * ys.count <= 1 << 16 else { return (nil, nil) }
            for row in ys { for pc in xs { if let itemIndex = lattice.index(pc: pc, r: row) { consider(itemIndex, lattice.frame(pc: pc, r: row)) } } }
            return (beam, out)
        }
        // Lines across the move, nearest first; in each, slots outward from the source's centre.
        let horizontal = direction.isHorizontal
        let positive = direction == .right || direction == .down
        let nLines = horizontal ? lattice.cols : lattice.rows, nCross = horizontal ? lattice.rows : lattice.cols
        let mOrigin = horizontal ? lattice.ox : lattice.oy, mPitch = horizontal ? lattice.px : lattice.py, mSize = horizontal ? lattice.iw : lattice.ih
        let cOrigin = horizontal ? lattice.oy : lattice.ox, cPitch = horizontal ? lattice.py : lattice.px, cSize = horizontal ? lattice.ih : lattice.iw
        let sLo = horizontal ? source.minX : source.minY, sHi = horizontal ? source.maxX : source.maxY
        let cLo = horizontal ? source.minY : source.minX, cHi = horizontal ? source.maxY : source.maxX
        let sc = (cLo + cHi) / 2
        // Nothing of the lattice in the beam: no in-beam item anywhere.
        let beamPossible = wantBeam && !(cHi <= cOrigin || cLo >= cOrigin + Double(nCross) * cPitch)
        if !beamPossible && !wantOut { return (nil, nil) }
        var line = floorInt(((positive ? sLo : sHi) - mOrigin) / mPitch)
        line = min(max(line, 0), nLines - 1)
        let k0 = min(max(floorInt((sc - cOrigin) / cPitch), 0), nCross - 1)
        // An out-of-beam item scoring above the best in-beam one never wins (see `Winner`).
        func bound() -> Double {
            let beamBound = beamPossible ? (beam?.1.score ?? .infinity) : 0
            let outBound = wantOut ? min(out?.1.score ?? .infinity, beam?.1.score ?? .infinity) : 0
            return max(beamBound, outBound)
        }
        var guardLines = 0
        while line >= 0 && line < nLines {
            let near = mOrigin + Double(line) * mPitch
            let major = positive ? max(0, near - sHi) : max(0, sLo - (near + mSize))
            if 13 * major * major > bound() { break }
            for step in [-1, 1] {
                var cross = step < 0 ? k0 : k0 + 1
                while cross >= 0 && cross < nCross {
                    let clo = cOrigin + Double(cross) * cPitch
                    let minor = abs(clo + cSize / 2 - sc)
                    if 13 * major * major + minor * minor > bound() { break }
                    let inBeamBand = clo + cSize > cLo && clo < cHi
                    if !inBeamBand && !wantOut { break }
                    let (pc, row) = horizontal ? (line, cross) : (cross, line)
                    if let itemIndex = lattice.index(pc: pc, r: row) { consider(itemIndex, lattice.frame(pc: pc, r: row)) }
                    cross += step
                }
            }
            line += positive ? 1 : -1
            guardLines += 1
            if guardLines > info.built.count + 4 && beam == nil && out == nil { break }
        }
        return (beam, out)
    }
}
