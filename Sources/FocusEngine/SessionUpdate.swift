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
        enum Undo { case inserted(String, parent: String, parentHadChildren: Bool); case removed(Node, parent: String, index: Int) }
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
            func removeLogged(_ s: Int) {
                let p = store.slots[s].parent
                log.append(.removed(store.buildNode(s), parent: store.slots[p].id, index: store.slots[s].indexInParent))
                check += store.removeSubtree(s)
            }
            for p in upsert {
                if let index = p.index, index < 0 { throw .invalidParameter(parameter: "upsert") }
                guard var parent = store.idToSlot[p.parent] else { throw .noSuchNode(id: p.parent) }
                var position = p.index
                if store.idToSlot[p.node.id] == nil {
                    // A new node: appended now, put in its place by flushOrder.
                    let count = store.slots[parent].children.count
                    try store.validateInsert(p.node, parent: parent)
                    try store.validatePlacements(p.node, parent: parent)
                    let parentHadChildren = store.slots[parent].hadChildren
                    let slot = try store.insertSubtree(p.node, parent: parent, at: count)
                    log.append(.inserted(p.node.id, parent: p.parent, parentHadChildren: parentHadChildren))
                    // A collection keeps its children in `index` order whatever the position.
                    if store.collections[parent] == nil, pendingOrder[parent] != nil || (position ?? count) < count {
                        pendingOrder[parent, default: []].append((slot, position))
                        var stack = [p.node]
                        while let n = stack.popLast() {
                            for b in n.bindings ?? [] { reorderedNames.0.insert(b.name) }
                            for b in n.accessibilityBindings ?? [] { reorderedNames.1.insert(b.name) }
                            stack += n.children ?? []
                        }
                    }
                    var stack = [p.node]
                    while let n = stack.popLast() {
                        check += (n.next ?? [:]).values.filter { !$0.isEmpty }
                        stack += n.children ?? []
                    }
                    continue
                }
                flushOrder()
                if let existing = store.idToSlot[p.node.id] {
                    if existing == store.root {
                        throw .invalidScene(reason: "the root cannot be replaced by an update; set the scene instead", node: p.node.id)
                    }
                    if store.isInside(parent, existing) {
                        throw .invalidScene(reason: "parent '\(p.parent)' lies inside the node it would receive", node: p.node.id)
                    }
                    if position == nil, store.slots[existing].parent == parent { position = store.slots[existing].indexInParent }
                    removeLogged(existing)
                    parent = store.idToSlot[p.parent]!
                }
                try store.validateInsert(p.node, parent: parent)
                try store.validatePlacements(p.node, parent: parent)
                let parentHadChildren = store.slots[parent].hadChildren
                try store.insertSubtree(p.node, parent: parent, at: position ?? store.slots[parent].children.count)
                log.append(.inserted(p.node.id, parent: p.parent, parentHadChildren: parentHadChildren))
                var stack = [p.node]
                while let n = stack.popLast() {
                    check += (n.next ?? [:]).values.filter { !$0.isEmpty }
                    stack += n.children ?? []
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
                guard let s = store.idToSlot[id], !removing.contains(s) else { throw .noSuchNode(id: id) }
                if s == store.root { throw .invalidScene(reason: "the root cannot be removed", node: id) }
                var a = store.slots[s].parent
                while a >= 0 {
                    if removing.contains(a) { throw .noSuchNode(id: id) }
                    a = store.slots[a].parent
                }
                removing.insert(s)
                tops.append(s)
            }
            for s in tops {
                var a = store.slots[s].parent
                while a >= 0 && !nested {
                    if removing.contains(a) { nested = true }
                    a = store.slots[a].parent
                }
            }
            if nested {
                for s in tops { removeLogged(s) }
            } else if !tops.isEmpty {
                // Logged so that undoing (last entry first) puts siblings back lowest index first.
                let ordered = tops.sorted {
                    let (a, b) = (store.slots[$0], store.slots[$1])
                    return a.parent != b.parent ? a.parent < b.parent : a.indexInParent > b.indexInParent
                }
                for s in ordered {
                    log.append(.removed(store.buildNode(s), parent: store.slots[store.slots[s].parent].id, index: store.slots[s].indexInParent))
                }
                check += store.removeSubtrees(tops)
            }
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
                let tops = slots.filter { s in
                    var a = store.slots[s].parent
                    while a >= 0 {
                        if slots.contains(a) { return false }
                        a = store.slots[a].parent
                    }
                    return true
                }
                store.removeSubtrees(Array(tops))
                run.removeAll()
                for (parent, hadChildren) in restoreChildren {
                    if let p = store.idToSlot[parent] { store.slots[p].hadChildren = hadChildren }
                }
                restoreChildren.removeAll()
            }
            for u in log.reversed() {
                switch u {
                case .inserted(let id, let parent, let parentHadChildren):
                    run.append(id)
                    restoreChildren.append((parent, parentHadChildren))
                case .removed(let node, let parent, let index):
                    undoInserted()
                    _ = try? store.insertSubtree(node, parent: store.idToSlot[parent]!, at: index)
                }
            }
            undoInserted()
            throw error
        }
        var names = Set<BindingRegistry.Pair>()
        for p in upsert {
            var stack = [p.node]
            while let n = stack.popLast() {
                names.formUnion((n.bindings ?? []).map { BindingRegistry.Pair(name: $0.name, value: $0.value) })
                stack += n.children ?? []
            }
        }
        return afterStructuralChange(before, warnFor: names)
    }
}
