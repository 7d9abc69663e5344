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
        let focused = input.focused
        let modal = focused.flatMap { innermostModal($0) }
        if let focused, slots[focused].hasNext, let target = node(focused).next?[input.direction.rawValue] {
            return override(target, input: input, modal: modal)
        }
        // The containers searched, innermost first: the sections holding focus, the modal node
        // bounding it, the root (climbed one by one, without building a list on every move).
        var next: Int? = focused ?? root
        while let container = next {
            next = focused == nil || container == modal ? nil : slots[container].parent
            if next == -1 { next = nil }
            guard focused == nil || isSection(container) || container == modal || container == root else { continue }
            if let winner = search(in: container, from: input.source, input: input) { return enter(winner, input: input) }
            if isSection(container), slots[container].wraps, let axis = node(container).wrap, let box = targetFrame(container) ?? frame(container) {
                let applies = switch axis {
                case .both: true
                case .horizontal: input.direction.isHorizontal
                case .vertical: !input.direction.isHorizontal
                }
                if applies {
                    var wrappedSource = input.source
                    switch input.direction {
                    case .left: wrappedSource.x = box.maxX
                    case .right: wrappedSource.x = box.minX - wrappedSource.width
                    case .up: wrappedSource.y = box.maxY
                    default: wrappedSource.y = box.minY - wrappedSource.height
                    }
                    if let winner = search(in: container, from: wrappedSource, input: input) { return enter(winner, input: input) }
                }
            }
        }
        return .blocked
    }

    /// The innermost modal node at or above `slot`.
    func innermostModal(_ slot: Int) -> Int? {
        var ancestor = slot
        while ancestor >= 0 { if isModal(ancestor) { return ancestor }; ancestor = slots[ancestor].parent }
        return nil
    }

    /// A `next` entry: a candidate gets focus, a section is entered, anything else blocks.
    private mutating func override(_ target: String, input: MoveInput, modal: Int?) -> MoveResult {
        guard !target.isEmpty, let targetSlot = idToSlot[target] else { return .blocked }
        if let modal, !isInside(targetSlot, modal) { return .blocked }
        if isCandidate(targetSlot) { return .focus(targetSlot) }
        if isSection(targetSlot), targetFrame(targetSlot) != nil { return enter(targetSlot, input: input) }
        return .blocked
    }

    /// The winner inside `container` (excluding it, the focused node and sections holding focus).
    mutating func search(in container: Int, from source: Rect, input: MoveInput) -> Int? {
        let dir = input.direction
        let horizontal = dir.isHorizontal
        let beamOnly = policy == .tvos
        let isRoot = container == root
        let clip: Rect? = isRoot ? nil : sceneReach(container)
        if !isRoot && clip == nil { return nil }
        let scrollClip = scrollClip(focused: input.focused)
        var best = BestTargets(slots: slots, frames: index.frame, s: CanonRect(source, dir), direction: dir,
                            focused: input.focused ?? -1, container: container, isRoot: isRoot, clip: scrollClip)
        switch input.strategy {
        case .bruteForce:
            best.wantOut = !beamOnly
            if spaces.count == 1 {
                index.forEachFiled { best.visit($0) }
            } else {
                index.forEachFiled { slot in
                    best.origin = spaceOrigin(Int(index.grid[slot]))
                    best.visit(slot)
                }
            }
        case .spatialIndex:
            scanSpaces(in: container, direction: dir, source: source, beamOnly: true, clip: clip, visitor: &best)
            if !beamOnly && !(horizontal && best.bestBeam != nil) {
                best.wantBeam = false
                best.wantOut = true
                best.cap = best.bestBeam?.measure.score ?? .infinity
                scanSpaces(in: container, direction: dir, source: source, beamOnly: false, clip: clip, visitor: &best)
                if let outBest = best.bestOut, outBest.measure.score > best.cap { best.bestOut = nil }
            }
        }
        if !collections.isEmpty {
            // Virtual items compete as if built (focus.md §12): each collection's best, by arithmetic.
            let focusedItem = input.focused.flatMap { virtualItem($0) }
            var beam = best.bestBeam, out = best.bestOut
            best = BestTargets(slots: [], frames: [], s: best.s, direction: dir, focused: -1, container: container, isRoot: isRoot, clip: nil)
            // Measured first, materialized after: `item` mutates `slots` and `collections`, which a
            // live iteration or visitor would otherwise make it copy whole, once per move. (On the
            // stack: a move allocates little.)
            typealias Found = (col: Int, beam: (Int, Measure)?, out: (Int, Measure)?)
            withUnsafeTemporaryAllocation(of: Found.self, capacity: collections.count) { found in
                var foundCount = 0
                for col in collections.keys where isRoot || isInside(col, container) {
                    let exclude = focusedItem?.collection == col ? focusedItem?.index : nil
                    let (beamItem, outItem) = latticeBest(col, source: source, direction: dir, wantBeam: true, wantOut: !beamOnly,
                                             exclude: exclude, clip: scrollClip)
                    if beamItem != nil || outItem != nil { found.initializeElement(at: foundCount, to: (col, beamItem, outItem)); foundCount += 1 }
                }
                // Only an item that can win (a lower score, or a tie that tree order decides) gets a slot.
                for (col, beamItem, outItem) in found[..<foundCount] {
                    if let (itemIndex, measure) = beamItem, beam.map({ measure.score <= $0.measure.score }) ?? true,
                       let itemSlot = item(col, itemIndex), beam.map({ $0.isBeaten(by: itemSlot, measure, slots: slots) }) ?? true {
                        beam = Scored(slot: itemSlot, measure: measure)
                    }
                    if let (itemIndex, measure) = outItem, out.map({ measure.score <= $0.measure.score }) ?? true,
                       let itemSlot = item(col, itemIndex), out.map({ $0.isBeaten(by: itemSlot, measure, slots: slots) }) ?? true {
                        out = Scored(slot: itemSlot, measure: measure)
                    }
                }
                // Found is trivial: nothing to deinitialize.
            }
            if beamOnly || (horizontal && beam != nil) { out = nil }
            if let outBest = out, let beamBest = beam, outBest.measure.score > beamBest.measure.score { out = nil }
            // (A closure over `slots` alone: `precedes` itself would capture, so copy, the whole store.)
            let all = slots
            return Winner.combine(beam: beam, out: out, horizontal: horizontal, precedes: { Self.precedes(all, $0, $1) })?.slot
        }
        let all = slots
        return Winner.combine(beam: best.bestBeam, out: best.bestOut, horizontal: horizontal, precedes: { Self.precedes(all, $0, $1) })?.slot
    }

    /// Scans the grid of every space that can hold targets inside `container` (its own, and those of the
    /// scroll containers inside it), each with the query translated into the space's coordinates;
    /// the visitor measures in scene coordinates.
    func scanSpaces<V: SpaceVisitor>(in container: Int, direction: Direction, source: Rect, beamOnly: Bool, clip: Rect?,
                                     visitor: inout V) {
        let own = slots[container].space
        for space in spaces.indices {
            guard let sp = spaces[space] else { continue }
            guard space == own || container == root || (sp.container >= 0 && isInside(sp.container, container)) else { continue }
            let origin = spaceOrigin(space)
            visitor.origin = origin
            if space == 0 {
                index.scan(direction: direction, source: source, beamOnly: beamOnly, clip: clip, visitor: &visitor)
            } else {
                let shift = (x: -origin.x, y: -origin.y)
                index.scan(grid: space, direction: direction, source: source.offset(by: shift), beamOnly: beamOnly,
                           clip: clip?.offset(by: shift), visitor: &visitor)
            }
        }
        visitor.origin = (0, 0)
    }

    /// The slot of a remembered or programmatic id: a node, or a virtual item (materialized).
    mutating func resolve(_ id: String) -> Int? {
        if let slot = idToSlot[id] { return slot }
        guard let (collection, index) = parseVirtual(id), let index else { return nil }
        return item(collection, index)
    }

    /// The entering rules (focus.md §2): the outermost container entered decides.
    mutating func enter(_ winner: Int, input: MoveInput) -> MoveResult {
        var outermost: Int?
        var ancestor = winner
        while ancestor >= 0 {
            if let focused = input.focused, isInside(focused, ancestor) { break }
            if slots[ancestor].section || slots[ancestor].userDefault { outermost = ancestor }
            ancestor = slots[ancestor].parent
        }
        if let outer = outermost {
            if isSection(outer), slots[outer].remembers,
               let last = input.remembered[slots[outer].id], let lastSlot = resolve(last), isCandidate(lastSlot), isInside(lastSlot, outer) {
                return .focus(lastSlot)
            }
            if slots[outer].userDefault, let df = node(outer).defaultFocus, df.priority == .userInitiated, let target = boundCandidate(df, inside: outer) {
                return .focus(target)
            }
        }
        if isCandidate(winner) { return .focus(winner) }
        // A section's frame won: its best candidate in direction, beam ignored, else its first.
        let canonSource = CanonRect(input.source, input.direction)
        let scrollClip = scrollClip(focused: input.focused)
        var visitor = BestInDirection(slots: slots, frames: index.frame, s: canonSource, direction: input.direction,
                                focused: input.focused ?? -1, section: winner, clip: scrollClip)
        switch input.strategy {
        case .bruteForce:
            var stack = [winner]
            while let slot = stack.popLast() {
                stack.append(contentsOf: slots[slot].children)
                if slots[slot].candidate, index.filedFrame(slot) != nil {
                    visitor.origin = spaceOrigin(Int(index.grid[slot]))
                    visitor.visit(slot)
                }
            }
        case .spatialIndex:
            if let clip = sceneReach(winner) {
                scanSpaces(in: winner, direction: input.direction, source: input.source, beamOnly: false, clip: clip, visitor: &visitor)
            }
        }
        var best = visitor.best
        for col in Array(collections.keys) where isInside(col, winner) {
            // Beam ignored: the best of both kinds by score.
            let (beamItem, outItem) = latticeBest(col, source: input.source, direction: input.direction, wantBeam: true, wantOut: true,
                                     exclude: nil, clip: scrollClip)
            for (itemIndex, measure) in [beamItem, outItem].compactMap({ $0 }) {
                if let itemSlot = item(col, itemIndex), best.map({ $0.isBeaten(by: itemSlot, measure, slots: slots) }) ?? true { best = Scored(slot: itemSlot, measure: measure) }
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
        for slot in set where isCandidate(slot) && isInside(slot, region) {
            if best == nil || precedes(slot, best!) { best = slot }
        }
        return best
    }

    /// The first candidate in sequential order inside `container`.
    mutating func firstInSequence(inside container: Int, excluding: Int? = nil) -> Int? {
        ensureSequence()
        guard let seq = sequence else { return nil }
        if let range = seq.ranges[container] {
            for position in range where seq.order[position] != excluding {
                if let slot = entrySlot(seq.order[position], forward: true), slot != excluding { return slot }
            }
            return nil
        }
        for entry in seq.order where entry != excluding && isInside(entry >= 0 ? entry : -entry - 2, container) {
            if let slot = entrySlot(entry, forward: true), slot != excluding { return slot }
        }
        return nil
    }

    // MARK: Default focus (focus.md §4)

    /// The default focus target evaluated at `scopeRoot`.
    mutating func defaultTarget(at scopeRoot: Int) -> Int? {
        // 1. defaultFocus regions in pre-order.
        for region in sortedInTreeOrder(defaultRegions.filter { isInside($0, scopeRoot) }) {
            if let df = node(region).defaultFocus, let target = boundCandidate(df, inside: region) { return target }
        }
        // 2. prefersDefaultFocus inside the node declaring the scope.
        var best: Int?
        for preferring in prefersNodes where isCandidate(preferring) && isInside(preferring, scopeRoot) {
            guard let scopeName = node(preferring).prefersDefaultFocus, let decls = scopes[scopeName] else { continue }
            guard decls.contains(where: { isInside($0, scopeRoot) && isInside(preferring, $0) }) else { continue }
            if best == nil || precedes(preferring, best!) { best = preferring }
        }
        if let best { return best }
        // 3. The first candidate in sequential order.
        return firstInSequence(inside: scopeRoot)
    }

    /// Where focus goes when `lostPath` (ids of the lost node's ancestors, innermost first) no longer
    /// leads to a candidate: the nearest surviving ancestor, climbing while it holds no candidate.
    mutating func reevaluate(after lostPath: [String]) -> Int? {
        for id in lostPath {
            guard let ancestor = idToSlot[id], slots[ancestor].candCount > 0, !slots[ancestor].disabled || ancestor == root else { continue }
            if let target = defaultTarget(at: ancestor) { return target }
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
        var frame = frames[slot].offset(by: origin)
        if let clip { guard let clipped = clip.effective(slots, slot, frame) else { return }; frame = clipped }
        let measure = Measure(s: s, d: CanonRect(frame, direction))
        guard measure.inDirection else { return }
        if measure.inBeam {
            guard wantBeam else { return }
            if let current = bestBeam, !current.isBeaten(by: slot, measure, slots: slots) { return }
            guard accepts(slot) else { return }
            bestBeam = Scored(slot: slot, measure: measure)
        } else {
            guard wantOut else { return }
            if let current = bestOut, !current.isBeaten(by: slot, measure, slots: slots) { return }
            guard accepts(slot) else { return }
            bestOut = Scored(slot: slot, measure: measure)
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

    mutating func visit(_ slot: Int) {
        guard slots[slot].candidate, slot != focused else { return }
        var frame = frames[slot].offset(by: origin)
        if let clip { guard let clipped = clip.effective(slots, slot, frame) else { return }; frame = clipped }
        let measure = Measure(s: s, d: CanonRect(frame, direction))
        guard measure.inDirection else { return }
        if let current = best, !current.isBeaten(by: slot, measure, slots: slots) { return }
        guard SceneStore.isInside(slots, slot, section) else { return }
        best = Scored(slot: slot, measure: measure)
    }
}
