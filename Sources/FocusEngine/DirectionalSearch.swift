// Directional moves (focus.md §2): `next` overrides, containment (innermost section holding focus
// first, then outwards, bounded by a modal node), wrap, the search itself (spatial index or brute
// force, which must agree), and the entering rules.

/// What a directional search needs from the session beyond the tree.
struct MoveInput {
    /// The focused slot, or nil (a search from `source` only, as Android does from a corner).
    var focused: Int?
    var source: Rect
    var direction: Direction
    var strategy: SearchStrategy
    /// Section id → its last focused descendant's id (remembersLastFocus).
    var remembered: [String: String]
}

/// The result of a directional move.
enum MoveResult: Equatable {
    case focus(Int)
    case blocked
}

extension SceneStore {
    /// Runs a directional move (focus.md §2) and says where focus lands.
    mutating func directionalMove(_ input: MoveInput) -> MoveResult {
        let f = input.focused
        let modal = f.flatMap { innermostModal($0) }
        if let f, slots[f].hasNext, let target = node(f).next?[input.direction.rawValue] {
            return override(target, input: input, modal: modal)
        }
        // The containers searched, innermost first: the sections holding focus, the modal node
        // bounding it, the root (climbed one by one, without building a list on every move).
        var next: Int? = f ?? root
        while let a = next {
            next = f == nil || a == modal ? nil : slots[a].parent
            if next == -1 { next = nil }
            guard f == nil || isSection(a) || a == modal || a == root else { continue }
            let c = a
            if let w = search(in: c, from: input.source, input: input) { return enter(w, input: input) }
            if isSection(c), slots[c].wraps, let axis = node(c).wrap, let box = targetFrame(c) ?? frame(c) {
                let applies = switch axis {
                case .both: true
                case .horizontal: input.direction.isHorizontal
                case .vertical: !input.direction.isHorizontal
                }
                if applies {
                    var s = input.source
                    switch input.direction {
                    case .left: s.x = box.maxX
                    case .right: s.x = box.minX - s.width
                    case .up: s.y = box.maxY
                    default: s.y = box.minY - s.height
                    }
                    if let w = search(in: c, from: s, input: input) { return enter(w, input: input) }
                }
            }
        }
        return .blocked
    }

    /// The innermost modal node at or above `slot`.
    func innermostModal(_ slot: Int) -> Int? {
        var a = slot
        while a >= 0 { if isModal(a) { return a }; a = slots[a].parent }
        return nil
    }

    /// A `next` entry: a candidate gets focus, a section is entered, anything else blocks.
    private mutating func override(_ target: String, input: MoveInput, modal: Int?) -> MoveResult {
        guard !target.isEmpty, let t = idToSlot[target] else { return .blocked }
        if let modal, !isInside(t, modal) { return .blocked }
        if isCandidate(t) { return .focus(t) }
        if isSection(t), targetFrame(t) != nil { return enter(t, input: input) }
        return .blocked
    }

    /// The winner inside container `c` (excluding `c`, the focused node and sections holding focus).
    mutating func search(in c: Int, from source: Rect, input: MoveInput) -> Int? {
        let dir = input.direction
        let horizontal = dir.isHorizontal
        let beamOnly = policy == .tvos
        let isRoot = c == root
        let clip: Rect? = isRoot ? nil : sceneReach(c)
        if !isRoot && clip == nil { return nil }
        let scrollClip = scrollClip(focused: input.focused)
        var v = BestTargets(slots: slots, frames: index.frame, s: CanonRect(source, dir), direction: dir,
                            focused: input.focused ?? -1, container: c, isRoot: isRoot, clip: scrollClip)
        switch input.strategy {
        case .bruteForce:
            v.wantOut = !beamOnly
            if spaces.count == 1 {
                index.forEachFiled { v.visit($0) }
            } else {
                index.forEachFiled { slot in
                    v.origin = spaceOrigin(Int(index.grid[slot]))
                    v.visit(slot)
                }
            }
        case .spatialIndex:
            scanSpaces(in: c, direction: dir, source: source, beamOnly: true, clip: clip, visitor: &v)
            if !beamOnly && !(horizontal && v.bestBeam != nil) {
                v.wantBeam = false
                v.wantOut = true
                v.cap = v.bestBeam?.measure.score ?? .infinity
                scanSpaces(in: c, direction: dir, source: source, beamOnly: false, clip: clip, visitor: &v)
                if let o = v.bestOut, o.measure.score > v.cap { v.bestOut = nil }
            }
        }
        if !collections.isEmpty {
            // Virtual items compete as if built (focus.md §12): each collection's best, by arithmetic.
            let focusedItem = input.focused.flatMap { virtualItem($0) }
            var beam = v.bestBeam, out = v.bestOut
            v = BestTargets(slots: [], frames: [], s: v.s, direction: dir, focused: -1, container: c, isRoot: isRoot, clip: nil)
            // Measured first, materialized after: `item` mutates `slots` and `collections`, which a
            // live iteration or visitor would otherwise make it copy whole, once per move. (On the
            // stack: a move allocates little.)
            typealias Found = (col: Int, beam: (Int, Measure)?, out: (Int, Measure)?)
            withUnsafeTemporaryAllocation(of: Found.self, capacity: collections.count) { found in
                var n = 0
                for col in collections.keys where isRoot || isInside(col, c) {
                    let exclude = focusedItem?.collection == col ? focusedItem?.index : nil
                    let (b, o) = latticeBest(col, source: source, direction: dir, wantBeam: true, wantOut: !beamOnly,
                                             exclude: exclude, clip: scrollClip)
                    if b != nil || o != nil { found.initializeElement(at: n, to: (col, b, o)); n += 1 }
                }
                // Only an item that can win (a lower score, or a tie that tree order decides) gets a slot.
                for (col, b, o) in found[..<n] {
                    if let (i, m) = b, beam.map({ m.score <= $0.measure.score }) ?? true,
                       let vs = item(col, i), beam.map({ $0.isBeaten(by: vs, m, slots: slots) }) ?? true {
                        beam = Scored(slot: vs, measure: m)
                    }
                    if let (i, m) = o, out.map({ m.score <= $0.measure.score }) ?? true,
                       let vs = item(col, i), out.map({ $0.isBeaten(by: vs, m, slots: slots) }) ?? true {
                        out = Scored(slot: vs, measure: m)
                    }
                }
                // Found is trivial: nothing to deinitialize.
            }
            if beamOnly || (horizontal && beam != nil) { out = nil }
            if let o = out, let b = beam, o.measure.score > b.measure.score { out = nil }
            // (A closure over `slots` alone: `precedes` itself would capture, so copy, the whole store.)
            let all = slots
            return Winner.combine(beam: beam, out: out, horizontal: horizontal, precedes: { Self.precedes(all, $0, $1) })?.slot
        }
        let all = slots
        return Winner.combine(beam: v.bestBeam, out: v.bestOut, horizontal: horizontal, precedes: { Self.precedes(all, $0, $1) })?.slot
    }

    /// Scans the grid of every space that can hold targets inside `c` (its own, and those of the
    /// scroll containers inside it), each with the query translated into the space's coordinates;
    /// the visitor measures in scene coordinates.
    func scanSpaces<V: SpaceVisitor>(in c: Int, direction: Direction, source: Rect, beamOnly: Bool, clip: Rect?,
                                     visitor v: inout V) {
        let own = slots[c].space
        for k in spaces.indices {
            guard let sp = spaces[k] else { continue }
            guard k == own || c == root || (sp.container >= 0 && isInside(sp.container, c)) else { continue }
            let o = spaceOrigin(k)
            v.origin = o
            if k == 0 {
                index.scan(direction: direction, source: source, beamOnly: beamOnly, clip: clip, visitor: &v)
            } else {
                let t = (x: -o.x, y: -o.y)
                index.scan(grid: k, direction: direction, source: source.offset(by: t), beamOnly: beamOnly,
                           clip: clip?.offset(by: t), visitor: &v)
            }
        }
        v.origin = (0, 0)
    }

    /// The slot of a remembered or programmatic id: a node, or a virtual item (materialized).
    mutating func resolve(_ id: String) -> Int? {
        if let s = idToSlot[id] { return s }
        guard let (c, i) = parseVirtual(id), let i else { return nil }
        return item(c, i)
    }

    /// The entering rules (focus.md §2): the outermost container entered decides.
    mutating func enter(_ winner: Int, input: MoveInput) -> MoveResult {
        var outermost: Int?
        var a = winner
        while a >= 0 {
            if let f = input.focused, isInside(f, a) { break }
            if slots[a].section || slots[a].userDefault { outermost = a }
            a = slots[a].parent
        }
        if let c = outermost {
            if isSection(c), slots[c].remembers,
               let last = input.remembered[slots[c].id], let l = resolve(last), isCandidate(l), isInside(l, c) {
                return .focus(l)
            }
            if slots[c].userDefault, let df = node(c).defaultFocus, df.priority == .userInitiated, let t = boundCandidate(df, inside: c) {
                return .focus(t)
            }
        }
        if isCandidate(winner) { return .focus(winner) }
        // A section's frame won: its best candidate in direction, beam ignored, else its first.
        let s = CanonRect(input.source, input.direction)
        let scrollClip = scrollClip(focused: input.focused)
        var v = BestInDirection(slots: slots, frames: index.frame, s: s, direction: input.direction,
                                focused: input.focused ?? -1, section: winner, clip: scrollClip)
        switch input.strategy {
        case .bruteForce:
            var stack = [winner]
            while let x = stack.popLast() {
                stack.append(contentsOf: slots[x].children)
                if slots[x].candidate, index.filedFrame(x) != nil {
                    v.origin = spaceOrigin(Int(index.grid[x]))
                    v.visit(x)
                }
            }
        case .spatialIndex:
            if let clip = sceneReach(winner) {
                scanSpaces(in: winner, direction: input.direction, source: input.source, beamOnly: false, clip: clip, visitor: &v)
            }
        }
        var best = v.best
        for col in Array(collections.keys) where isInside(col, winner) {
            // Beam ignored: the best of both kinds by score.
            let (b, o) = latticeBest(col, source: input.source, direction: input.direction, wantBeam: true, wantOut: true,
                                     exclude: nil, clip: scrollClip)
            for (i, m) in [b, o].compactMap({ $0 }) {
                if let vs = item(col, i), best.map({ $0.isBeaten(by: vs, m, slots: slots) }) ?? true { best = Scored(slot: vs, measure: m) }
            }
        }
        if let best { return .focus(best.slot) }
        if let first = firstInSequence(inside: winner, excluding: input.focused) { return .focus(first) }
        return .blocked
    }

    /// The candidate inside `region` that `df` names (first in tree order).
    func boundCandidate(_ df: DefaultFocus, inside region: Int) -> Int? {
        guard let set = bindings.pairs[BindingRegistry.Pair(name: df.binding, value: df.value)] else { return nil }
        var best: Int?
        for s in set where isCandidate(s) && isInside(s, region) {
            if best == nil || precedes(s, best!) { best = s }
        }
        return best
    }

    /// The first candidate in sequential order inside `c`.
    mutating func firstInSequence(inside c: Int, excluding: Int? = nil) -> Int? {
        ensureSequence()
        guard let seq = sequence else { return nil }
        if let r = seq.ranges[c] {
            for i in r where seq.order[i] != excluding {
                if let s = entrySlot(seq.order[i], forward: true), s != excluding { return s }
            }
            return nil
        }
        for e in seq.order where e != excluding && isInside(e >= 0 ? e : -e - 2, c) {
            if let s = entrySlot(e, forward: true), s != excluding { return s }
        }
        return nil
    }

    // MARK: Default focus (focus.md §4)

    /// The default focus target evaluated at `e`.
    mutating func defaultTarget(at e: Int) -> Int? {
        // 1. defaultFocus regions in pre-order.
        for r in sortedInTreeOrder(defaultRegions.filter { isInside($0, e) }) {
            if let df = node(r).defaultFocus, let t = boundCandidate(df, inside: r) { return t }
        }
        // 2. prefersDefaultFocus inside the node declaring the scope.
        var best: Int?
        for p in prefersNodes where isCandidate(p) && isInside(p, e) {
            guard let scopeName = node(p).prefersDefaultFocus, let decls = scopes[scopeName] else { continue }
            guard decls.contains(where: { isInside($0, e) && isInside(p, $0) }) else { continue }
            if best == nil || precedes(p, best!) { best = p }
        }
        if let best { return best }
        // 3. The first candidate in sequential order.
        return firstInSequence(inside: e)
    }

    /// Where focus goes when `lostPath` (ids of the lost node's ancestors, innermost first) no longer
    /// leads to a candidate: the nearest surviving ancestor, climbing while it holds no candidate.
    mutating func reevaluate(after lostPath: [String]) -> Int? {
        for id in lostPath {
            guard let a = idToSlot[id], slots[a].candCount > 0, !slots[a].disabled || a == root else { continue }
            if let t = defaultTarget(at: a) { return t }
        }
        return defaultTarget(at: root)
    }
}

/// A scan visitor fed from several spaces: `origin` is where the space being scanned lies in the
/// scene, added to the filed frames it reads.
protocol SpaceVisitor: ScanVisitor {
    var origin: (x: Double, y: Double) { get set }
}

/// The best in-beam and out-of-beam targets inside a container (focus.md §2), fed by a scan.
struct BestTargets: SpaceVisitor {
    let slots: [Slot]
    let frames: [Rect]
    var origin: (x: Double, y: Double) = (0, 0)
    let s: CanonRect
    let direction: Direction
    let focused: Int
    let container: Int
    let isRoot: Bool
    let clip: ScrollClip?
    var wantBeam = true
    var wantOut = false
    var cap = Double.infinity
    var bestBeam: Scored?
    var bestOut: Scored?

    var bound: Double {
        wantOut ? min(cap, bestOut?.measure.score ?? .infinity) : (bestBeam?.measure.score ?? .infinity)
    }

    func accepts(_ slot: Int) -> Bool {
        if slot == focused || slot == container { return false }
        if !isRoot && !SceneStore.isInside(slots, slot, container) { return false }
        if focused >= 0, !slots[slot].candidate, SceneStore.isInside(slots, focused, slot) { return false }
        return true
    }

    mutating func visit(_ slot: Int) {
        var fr = frames[slot].offset(by: origin)
        if let clip { guard let c = clip.effective(slots, slot, fr) else { return }; fr = c }
        let m = Measure(s: s, d: CanonRect(fr, direction))
        guard m.inDirection else { return }
        if m.inBeam {
            guard wantBeam else { return }
            if let b = bestBeam, !b.isBeaten(by: slot, m, slots: slots) { return }
            guard accepts(slot) else { return }
            bestBeam = Scored(slot: slot, measure: m)
        } else {
            guard wantOut else { return }
            if let b = bestOut, !b.isBeaten(by: slot, m, slots: slots) { return }
            guard accepts(slot) else { return }
            bestOut = Scored(slot: slot, measure: m)
        }
    }
}

/// The best candidate of a section in direction with the beam ignored (the entering rule 3).
struct BestInDirection: SpaceVisitor {
    let slots: [Slot]
    let frames: [Rect]
    var origin: (x: Double, y: Double) = (0, 0)
    let s: CanonRect
    let direction: Direction
    let focused: Int
    let section: Int
    let clip: ScrollClip?
    var best: Scored?

    var bound: Double { best?.measure.score ?? .infinity }

    mutating func visit(_ x: Int) {
        guard slots[x].candidate, x != focused else { return }
        var fr = frames[x].offset(by: origin)
        if let clip { guard let c = clip.effective(slots, x, fr) else { return }; fr = c }
        let m = Measure(s: s, d: CanonRect(fr, direction))
        guard m.inDirection else { return }
        if let b = best, !b.isBeaten(by: x, m, slots: slots) { return }
        guard SceneStore.isInside(slots, x, section) else { return }
        best = Scored(slot: x, measure: m)
    }
}
