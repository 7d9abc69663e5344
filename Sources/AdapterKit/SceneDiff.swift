import FocusEngine

/// What turns the scene focusd has into the scene an adapter now reads: nothing, an
/// `UpdateScene` (patches, removals) with `ScrollTo`s for containers that only scrolled, or a whole
/// `SetScene` where a patch cannot say it (the root itself changed, a node moved to another parent).
public enum SceneChange: Equatable, Sendable {
    case none
    case update(upsert: [NodePatch], remove: [String], scroll: [ScrollOffset])
    case replace
}

/// Computes ``SceneChange``s. Pure: the tests check it against focusd itself (the patches applied
/// by a real focusd give exactly the new tree).
public enum SceneDiff {
    /// The change from `old` to `new` (same scene name).
    ///
    /// A node whose own fields (all but `children`, scroll offsets aside) are unchanged and which
    /// keeps its place among its siblings is kept and its children compared; any other node of
    /// the new tree is upserted whole at its index. Patches are applied before removals, so the
    /// indexes count siblings that are about to be removed (as focusd applies them).
    public static func changes(from old: Scene, to new: Scene) -> SceneChange {
        var oldScene = old, newScene = new
        oldScene.root = Node(id: "")
        newScene.root = Node(id: "")
        if oldScene != newScene || old.root.id != new.root.id || !sameOwnFields(old.root, new.root) { return .replace }
        // Patches that rewrite most of the scene (a reflow moved every later sibling) cost more
        // than the whole scene does: focusd applies a leaf's in place, but encoding ~1,000 of them
        // cost the chromium adapter more than passing on the page's own text as a SetScene
        // (docs/adapter-decisions.md). The comparison goes first and stops as soon as it is past that.
        var diff = Diff(limit: max(64, count(new.root) / 4))
        diff.compare(old.root, new.root)
        if diff.patched > diff.limit { return .replace }
        var oldParent: [String: String] = [:]
        var oldIds: Set<String> = []
        index(old.root, parent: nil, parents: &oldParent, ids: &oldIds)
        var newParent: [String: String] = [:]
        var newIds: Set<String> = []
        index(new.root, parent: nil, parents: &newParent, ids: &newIds)
        // A node that moved to another parent: one patch cannot move it without disturbing the
        // indexes of the patches around it; rare enough (a reparented element) for a SetScene.
        for (id, parent) in newParent where oldParent[id].map({ $0 != parent }) ?? false { return .replace }
        let remove = oldParent.compactMap { id, parent -> String? in
            guard !newIds.contains(id), newIds.contains(parent), !diff.replaced.contains(parent) else { return nil }
            return id
        }.sorted()
        if diff.upsert.isEmpty && remove.isEmpty && diff.scroll.isEmpty { return .none }
        return .update(upsert: diff.upsert, remove: remove, scroll: diff.scroll)
    }

    /// Equal but for `children` and scroll offsets.
    public static func sameOwnFields(_ a: Node, _ b: Node) -> Bool {
        var a = a, b = b
        a.children = nil
        b.children = nil
        a.scroll?.offsetX = nil
        a.scroll?.offsetY = nil
        b.scroll?.offsetX = nil
        b.scroll?.offsetY = nil
        return a == b
    }

    fileprivate static func count(_ node: Node) -> Int {
        1 + (node.children ?? []).reduce(0) { $0 + count($1) }
    }

    private static func index(_ node: Node, parent: String?, parents: inout [String: String], ids: inout Set<String>) {
        ids.insert(node.id)
        if let parent { parents[node.id] = parent }
        for child in node.children ?? [] { index(child, parent: node.id, parents: &parents, ids: &ids) }
    }

    private struct Diff {
        var upsert: [NodePatch] = []
        var scroll: [ScrollOffset] = []
        /// Ids of old nodes inside subtrees that patches replace whole.
        var replaced: Set<String> = []

        /// The most nodes the patches may carry; past it the comparison stops.
        let limit: Int
        /// The nodes the patches carry so far.
        var patched = 0

        init(limit: Int) {
            self.limit = limit
        }

        private mutating func patch(_ patch: NodePatch) {
            upsert.append(patch)
            patched += SceneDiff.count(patch.node)
        }

        mutating func compare(_ old: Node, _ new: Node) {
            if let scroll = new.scroll, old.scroll?.offsetX != scroll.offsetX || old.scroll?.offsetY != scroll.offsetY {
                self.scroll.append(ScrollOffset(node: new.id, offsetX: scroll.offsetX ?? 0, offsetY: scroll.offsetY ?? 0))
            }
            if patched > limit { return }
            let oldChildren = old.children ?? []
            let newChildren = new.children ?? []
            if oldChildren.isEmpty && newChildren.isEmpty { return }
            let oldById = Dictionary(oldChildren.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let staying = Set(newChildren.map(\.id))
            // The parent's children as focusd will hold them while the patches apply: removals
            // come last, so children about to go still stand between the others.
            var current = oldChildren.map(\.id)
            var previous = -1  // where the last placed child stands in `current`
            for child in newChildren {
                var next = previous + 1
                while next < current.count, !staying.contains(current[next]) { next += 1 }
                if next < current.count, current[next] == child.id, let kept = oldById[child.id] {
                    if SceneDiff.sameOwnFields(kept, child) {
                        compare(kept, child)
                    } else {
                        // Changed in place: replaced where it stands (no index, no reordering).
                        patch(NodePatch(parent: new.id, node: child))
                        markReplaced(kept)
                    }
                    previous = next
                    continue
                }
                if let at = current.firstIndex(of: child.id) {
                    current.remove(at: at)
                    if at <= previous { previous -= 1 }
                }
                current.insert(child.id, at: previous + 1)
                previous += 1
                patch(NodePatch(parent: new.id, index: previous, node: child))
                if let replacedNode = oldById[child.id] { markReplaced(replacedNode) }
            }
        }

        private mutating func markReplaced(_ node: Node) {
            replaced.insert(node.id)
            for child in node.children ?? [] { markReplaced(child) }
        }
    }
}
