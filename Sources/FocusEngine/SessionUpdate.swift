// `UpdateScene` on a session: patches applied in place with an undo log (see `update`).

extension SceneSession {
    /// `UpdateScene`: upsert subtrees, then remove ids. On error nothing changes.
    ///
    /// A patch whose node id exists replaces that node (and its subtree); without `index` it keeps
    /// its place when `parent` is its current parent, else it goes last. An `index` past the last
    /// child means last; a negative one is `.invalidParameter("upsert")`. Unknown parents and
    /// removed ids are `.noSuchNode`; the root can only be replaced by `replace(with:)`.
    public mutating func update(upsert: [NodePatch], remove: [String]) throws(FocusError) -> Outcome {
        // Applied in place (no copy of the scene) with an undo log, so a failing patch restores
        // exactly the tree as it was; a single-node update costs O(size of the change × depth).
        // An insert logs whether its parent had `children` at all, since undoing a later removal
        // of that parent brings it back with the inserted child, and only this restores
        // `children` absent rather than `[]`.
        enum Undo {
            case inserted(String, parent: String, parentHadChildren: Bool)
            case removed(Node, parent: String, index: Int)
            case replacedLeaf(Node)
        }
        let before = snapshot()
        store.clampIds = scrollIds()
        defer { store.clampIds = [] }
        var log: [Undo] = []
        // New nodes go last in their parent at once; where one asked for an earlier index, the
        // parent's children are put in the right order once, before anything reads the order
        // (`flushOrder`): inserting at an index shifts every later sibling, so many inserts among
        // many siblings would cost their product.
        var pendingOrder: [Int: [(slot: Int, position: Int?)]] = [:]
        var reorderedNames: (Set<String>, Set<String>) = ([], [])
        func flushOrder() {
            guard !pendingOrder.isEmpty else { return }
            for (parent, inserts) in pendingOrder { store.reorderChildren(parent, inserts: inserts) }
            pendingOrder.removeAll()
            store.refreshFirstHolders(reorderedNames.0, accessibility: reorderedNames.1)
            reorderedNames = ([], [])
        }
        do throws(FocusError) {
            var check: [String] = []
            func removeLogged(_ slot: Int) {
                let parentSlot = store.slots[slot].parent
                log.append(.removed(store.buildNode(slot), parent: store.slots[parentSlot].id, index: store.slots[slot].indexInParent))
                check += store.removeSubtree(slot)
            }
            for patch in upsert {
                if let index = patch.index, index < 0 { throw .invalidParameter(parameter: "upsert") }
                guard var parent = store.idToSlot[patch.parent] else { throw .noSuchNode(id: patch.parent) }
                var position = patch.index
                if store.idToSlot[patch.node.id] == nil {
                    // A new node: appended now, put in its place by flushOrder.
                    let count = store.slots[parent].children.count
                    try store.validateInsert(patch.node, parent: parent)
                    try store.validatePlacements(patch.node, parent: parent)
                    let parentHadChildren = store.slots[parent].hadChildren
                    let slot = try store.insertSubtree(patch.node, parent: parent, at: count)
                    log.append(.inserted(patch.node.id, parent: patch.parent, parentHadChildren: parentHadChildren))
                    // A collection keeps its children in `index` order whatever the position.
                    if store.collections[parent] == nil, pendingOrder[parent] != nil || (position ?? count) < count {
                        pendingOrder[parent, default: []].append((slot, position))
                        var stack = [patch.node]
                        while let node = stack.popLast() {
                            for binding in node.bindings ?? [] { reorderedNames.0.insert(binding.name) }
                            for binding in node.accessibilityBindings ?? [] { reorderedNames.1.insert(binding.name) }
                            stack += node.children ?? []
                        }
                    }
                    var stack = [patch.node]
                    while let node = stack.popLast() {
                        check += (node.next ?? [:]).values.filter { !$0.isEmpty }
                        stack += node.children ?? []
                    }
                    continue
                }
                flushOrder()
                if let existing = store.idToSlot[patch.node.id] {
                    if existing == store.root {
                        throw .invalidScene(reason: "the root cannot be replaced by an update; set the scene instead", node: patch.node.id)
                    }
                    if store.isInside(parent, existing) {
                        throw .invalidScene(reason: "parent '\(patch.parent)' lies inside the node it would receive", node: patch.node.id)
                    }
                    if position == nil, store.slots[existing].parent == parent { position = store.slots[existing].indexInParent }
                    if position == store.slots[existing].indexInParent, store.canReplaceLeaf(existing, with: patch.node, parent: parent) {
                        // A leaf changed where it stands (a reflow moved it): its fields only.
                        log.append(.replacedLeaf(try store.replaceLeaf(existing, with: patch.node)))
                        check += (patch.node.next ?? [:]).values.filter { !$0.isEmpty }
                        continue
                    }
                    removeLogged(existing)
                    parent = store.idToSlot[patch.parent]!
                }
                try store.validateInsert(patch.node, parent: parent)
                try store.validatePlacements(patch.node, parent: parent)
                let parentHadChildren = store.slots[parent].hadChildren
                try store.insertSubtree(patch.node, parent: parent, at: position ?? store.slots[parent].children.count)
                log.append(.inserted(patch.node.id, parent: patch.parent, parentHadChildren: parentHadChildren))
                var stack = [patch.node]
                while let node = stack.popLast() {
                    check += (node.next ?? [:]).values.filter { !$0.isEmpty }
                    stack += node.children ?? []
                }
            }
            flushOrder()
            // Removals: checked in order as if one by one (an id inside one removed before is
            // gone: NoSuchNode), then done as one batch, unless one removed node lies inside
            // another removed later (rare: then one by one).
            var tops: [Int] = []
            var removing = Set<Int>()
            var nested = false
            for id in remove {
                guard let slot = store.idToSlot[id], !removing.contains(slot) else { throw .noSuchNode(id: id) }
                if slot == store.root { throw .invalidScene(reason: "the root cannot be removed", node: id) }
                var ancestor = store.slots[slot].parent
                while ancestor >= 0 {
                    if removing.contains(ancestor) { throw .noSuchNode(id: id) }
                    ancestor = store.slots[ancestor].parent
                }
                removing.insert(slot)
                tops.append(slot)
            }
            for slot in tops {
                var ancestor = store.slots[slot].parent
                while ancestor >= 0 && !nested {
                    if removing.contains(ancestor) { nested = true }
                    ancestor = store.slots[ancestor].parent
                }
            }
            if nested {
                for slot in tops { removeLogged(slot) }
            } else if !tops.isEmpty {
                // Logged so that undoing (last entry first) puts siblings back lowest index first.
                let ordered = tops.sorted {
                    let (lhs, rhs) = (store.slots[$0], store.slots[$1])
                    return lhs.parent != rhs.parent ? lhs.parent < rhs.parent : lhs.indexInParent > rhs.indexInParent
                }
                for slot in ordered {
                    log.append(.removed(store.buildNode(slot), parent: store.slots[store.slots[slot].parent].id, index: store.slots[slot].indexInParent))
                }
                check += store.removeSubtrees(tops)
            }
            store.refreshStaleAggregates()
            for id in check where (store.nextRefs[id] ?? 0) > 0 && store.idToSlot[id] == nil {
                throw .invalidScene(reason: "next target '\(id)' does not exist", node: store.referrer(of: id))
            }
        } catch {
            pendingOrder.removeAll()  // the inserted nodes go again; the others kept their order
            // Runs of inserted nodes go as one batch (one by one, undoing a patch of 99,000
            // inserts that failed at its end would shift the siblings 99,000 times).
            var run: [String] = []
            // Whether each inserted node's parent had `children` before it (applied in log order
            // reversed, so the earliest insert into a parent, applied last, wins).
            var restoreChildren: [(parent: String, hadChildren: Bool)] = []
            func undoInserted() {
                guard !run.isEmpty else { return }
                let slots = Set(run.compactMap { store.idToSlot[$0] })
                let tops = slots.filter { slot in
                    var ancestor = store.slots[slot].parent
                    while ancestor >= 0 {
                        if slots.contains(ancestor) { return false }
                        ancestor = store.slots[ancestor].parent
                    }
                    return true
                }
                store.removeSubtrees(Array(tops))
                run.removeAll()
                for (parent, hadChildren) in restoreChildren {
                    if let parentSlot = store.idToSlot[parent] { store.slots[parentSlot].hadChildren = hadChildren }
                }
                restoreChildren.removeAll()
            }
            for entry in log.reversed() {
                switch entry {
                case .inserted(let id, let parent, let parentHadChildren):
                    run.append(id)
                    restoreChildren.append((parent, parentHadChildren))
                case .removed(let node, let parent, let index):
                    undoInserted()
                    _ = try? store.insertSubtree(node, parent: store.idToSlot[parent]!, at: index)
                case .replacedLeaf(let node):
                    undoInserted()
                    if let slot = store.idToSlot[node.id] { _ = try? store.replaceLeaf(slot, with: node) }
                }
            }
            undoInserted()
            store.refreshStaleAggregates()
            throw error
        }
        var names = Set<BindingRegistry.Pair>()
        for patch in upsert {
            var stack = [patch.node]
            while let node = stack.popLast() {
                names.formUnion((node.bindings ?? []).map { BindingRegistry.Pair(name: $0.name, value: $0.value) })
                stack += node.children ?? []
            }
        }
        return afterStructuralChange(before, warnFor: names)
    }
}
