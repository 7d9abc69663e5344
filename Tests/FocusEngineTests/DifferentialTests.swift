// The spatial index against the brute-force oracle, on random layouts.
//
// `SearchStrategy.bruteForce` scores every candidate; `.spatialIndex` must choose the same node for
// every move (or block with it). Each property builds a random layout (uniform grids, ragged rows of
// shelves, random overlapping rectangles, nested sections with remembersLastFocus / wrap / modal,
// disabled and zero-size nodes), installs it twice, once per strategy, under both policies, and
// replays the same moves from several starting points (nothing focused included) on both sessions,
// comparing focus and events after every move. Layouts are built from small integer generators so a
// failure shrinks to a few rectangles, printed as an indented tree.

import FocusEngine
import PropertyBased
import Testing

// MARK: - Layout description

/// A generated layout: a tree of groups (plain containers or sections) holding rectangles.
struct RandomLayout: Sendable, CustomStringConvertible {
    /// One rectangle; frames are integers so that shrinking and equal edges are common.
    struct Tile: Sendable {
        var x: Int, y: Int, width: Int, height: Int
        var disabled = false
        var focusable = true
    }

    /// A container: a plain group or a section, with its own tiles and nested groups.
    struct Group: Sendable {
        var section = false
        var remembersLastFocus = false
        var wrap: WrapAxis?
        var modal = false
        var disabled = false
        var tiles: [Tile] = []
        var groups: [Group] = []
    }

    var family: String
    var root: Group
    /// Added to every frame (the root's too): layouts are drawn around the origin as well as in
    /// the positive quadrant, since frames may have negative and mixed-sign coordinates.
    var origin: (x: Int, y: Int) = (0, 0)

    /// The scene under `policy`; ids are `g…` for groups and `n…` for tiles, in tree order.
    func scene(policy: SearchPolicy) -> Scene {
        var next = 0
        func build(_ group: Group, id: String) -> Node {
            var children: [Node] = group.tiles.map { tile in
                defer { next += 1 }
                return Node(
                    id: "n\(next)",
                    frame: Rect(x: Double(tile.x + origin.x), y: Double(tile.y + origin.y),
                                width: Double(tile.width), height: Double(tile.height)),
                    focusable: tile.focusable, disabled: tile.disabled ? true : nil)
            }
            for (index, inner) in group.groups.enumerated() {
                children.append(build(inner, id: "\(id).\(index)"))
            }
            return Node(
                id: id, disabled: group.disabled ? true : nil, section: group.section ? true : nil,
                remembersLastFocus: group.remembersLastFocus ? true : nil, wrap: group.wrap,
                modal: group.modal ? true : nil, children: children)
        }
        var root = build(root, id: "g")
        root.id = "root"
        root.frame = Rect(x: Double(origin.x), y: Double(origin.y), width: 1000, height: 1000)
        return Scene(name: "differential", root: root, policy: policy)
    }

    /// Ids of the candidates (focusable, non-empty frame, no disabled ancestor), in tree order.
    var candidates: [String] {
        var next = 0
        var result: [String] = []
        func walk(_ group: Group, disabled: Bool) {
            for tile in group.tiles {
                let id = "n\(next)"
                next += 1
                if tile.focusable && !tile.disabled && !disabled && tile.width > 0 && tile.height > 0 {
                    result.append(id)
                }
            }
            for inner in group.groups { walk(inner, disabled: disabled || inner.disabled) }
        }
        walk(root, disabled: root.disabled)
        return result
    }

    var description: String {
        var lines = ["\(family) layout" + (origin == (0, 0) ? ":" : " moved by (\(origin.x), \(origin.y)):")]
        var next = 0
        func walk(_ group: Group, id: String, depth: Int) {
            let pad = String(repeating: "  ", count: depth)
            var words = [id, group.section ? "section" : "group"]
            if group.remembersLastFocus { words.append("remembersLastFocus") }
            if let wrap = group.wrap { words.append("wrap=\(wrap.rawValue)") }
            if group.modal { words.append("modal") }
            if group.disabled { words.append("disabled") }
            lines.append(pad + words.joined(separator: " "))
            for tile in group.tiles {
                var line = "\(pad)  n\(next) [\(tile.x), \(tile.y), \(tile.width)x\(tile.height)]"
                if tile.disabled { line += " disabled" }
                if !tile.focusable { line += " not focusable" }
                lines.append(line)
                next += 1
            }
            for (index, inner) in group.groups.enumerated() { walk(inner, id: "\(id).\(index)", depth: depth + 1) }
        }
        walk(root, id: "g", depth: 1)
        return lines.joined(separator: "\n")
    }
}

/// Where focus starts and the moves made from there; `start` nil means nothing focused.
struct MoveScript: Sendable, CustomStringConvertible {
    var start: Int?
    var moves: [Direction]

    var description: String {
        "from \(start.map { "candidate #\($0)" } ?? "nothing focused"): \(moves.map(\.rawValue).joined(separator: " "))"
    }
}

// MARK: - Generators

enum LayoutGen {
    /// A tile on a 10-point lattice (shared edges and equal centres are frequent), sometimes empty,
    /// disabled or not focusable.
    static let tile = zip(
        Gen.int(in: 0...40), Gen.int(in: 0...40), Gen.int(in: 0...8), Gen.int(in: 0...8), Gen.int(in: 0...15)
    ).map { value in
        RandomLayout.Tile(
            x: value.0 * 10, y: value.1 * 10, width: value.2 * 10, height: value.3 * 10,
            disabled: value.4 == 0, focusable: value.4 != 1)
    }

    /// Container traits: 0–1 plain group, 2 section, 3 remembering section, 4 wrapping section,
    /// 5 remembering and wrapping section, 6 modal group; `axis` picks the wrap axis.
    static func group(kind: Int, axis: Int, disabled: Bool, tiles: [RandomLayout.Tile], groups: [RandomLayout.Group] = [])
        -> RandomLayout.Group
    {
        RandomLayout.Group(
            section: (2...5).contains(kind),
            remembersLastFocus: kind == 3 || kind == 5,
            wrap: kind == 4 || kind == 5 ? [WrapAxis.horizontal, .vertical, .both][axis % 3] : nil,
            modal: kind == 6, disabled: disabled, tiles: tiles, groups: groups)
    }

    static let innerGroup = zip(Gen.int(in: 0...6), Gen.int(in: 0...2), Gen.bool(0.08), tile.array(of: 0...8))
        .map { value in group(kind: value.0, axis: value.1, disabled: value.2, tiles: value.3) }

    static let outerGroup = zip(
        Gen.int(in: 0...6), Gen.int(in: 0...2), Gen.bool(0.05), tile.array(of: 0...8), innerGroup.array(of: 0...2)
    ).map { value in group(kind: value.0, axis: value.1, disabled: value.2, tiles: value.3, groups: value.4) }

    /// Random, often overlapping rectangles in a few flat groups.
    static let overlapping = zip(tile.array(of: 1...30), innerGroup.array(of: 0...2)).map { value in
        RandomLayout(family: "overlapping", root: RandomLayout.Group(tiles: value.0, groups: value.1))
    }

    /// Sections inside sections (remembersLastFocus, wrap, modal, disabled subtrees).
    static let nested = zip(tile.array(of: 0...6), outerGroup.array(of: 1...4)).map { value in
        RandomLayout(family: "nested sections", root: RandomLayout.Group(tiles: value.0, groups: value.1))
    }

    /// A uniform grid: rows × columns of equal tiles with a gap.
    static let grid = zip(
        Gen.int(in: 1...20), Gen.int(in: 1...20), Gen.int(in: 1...6), Gen.int(in: 1...6), Gen.int(in: 0...3)
    ).map { value in
        let (rows, columns, width, height, gap) = (value.0, value.1, value.2 * 10, value.3 * 10, value.4 * 5)
        var tiles: [RandomLayout.Tile] = []
        for row in 0..<rows {
            for column in 0..<columns {
                tiles.append(.init(x: column * (width + gap), y: row * (height + gap), width: width, height: height))
            }
        }
        return RandomLayout(family: "grid \(rows)x\(columns)", root: RandomLayout.Group(tiles: tiles))
    }

    /// Rows of different tile widths and offsets (TV shelves), some rows sections.
    static let row = zip(Gen.int(in: 1...14), Gen.int(in: 2...9), Gen.int(in: 0...12), Gen.int(in: 2...6), Gen.int(in: 0...6))
    static let ragged = row.array(of: 1...10).map { rows in
        var y = 0
        var groups: [RandomLayout.Group] = []
        for (count, width, offset, height, kind) in rows {
            let tiles = (0..<count).map { index in
                RandomLayout.Tile(x: offset * 5 + index * (width * 10 + 5), y: y, width: width * 10, height: height * 10)
            }
            groups.append(group(kind: kind, axis: 0, disabled: false, tiles: tiles))
            y += height * 10 + 10
        }
        return RandomLayout(family: "ragged rows", root: RandomLayout.Group(groups: groups))
    }

    /// One to four starting points (about one in ten with nothing focused), each with up to ten moves
    /// in any direction.
    static let scripts = zip(Gen.int(in: -40...400), Gen<Direction>.case.array(of: 1...10))
        .map { value in MoveScript(start: value.0 < 0 ? nil : value.0, moves: value.1) }
        .array(of: 1...4)
}

extension LayoutGen {
    /// Each layout drawn in the positive quadrant, moved around the origin (mixed-sign frames), or
    /// moved wholly to negative coordinates.
    static let placement = Gen.int(in: 0...2).map { [(0, 0), (-250, -330), (-1200, -1010)][$0] }
}

/// `layout` moved to `origin`.
func placed(_ layout: RandomLayout, _ origin: (x: Int, y: Int)) -> RandomLayout {
    var moved = layout
    moved.origin = origin
    return moved
}

// MARK: - The comparison

/// Empties every container of `session`'s scene with one `update` and refills it child by child,
/// innermost containers last: each container is briefly a leaf, then grows again, which is what
/// the subtree aggregates (union, reach) must follow.
func churn(_ session: inout SceneSession, _ node: Node) throws {
    guard let children = node.children, !children.isEmpty else { return }
    _ = try session.update(upsert: [], remove: children.map(\.id))
    for (index, child) in children.enumerated() {
        _ = try session.update(upsert: [NodePatch(parent: node.id, index: index, node: child)], remove: [])
    }
    for child in children { try churn(&session, child) }
}

/// Patches every leaf of `session`'s scene to `target`'s (same tree, other frames and flags), each
/// where it stands (no index): a reflow as an adapter sends it, applied in place by focusd.
func reflow(_ session: inout SceneSession, to target: Node) throws {
    var patches: [NodePatch] = []
    func collect(_ node: Node) {
        for child in node.children ?? [] {
            if child.children == nil { patches.append(NodePatch(parent: node.id, node: child)) } else { collect(child) }
        }
    }
    collect(target)
    _ = try session.update(upsert: patches, remove: [])
}

/// `layout` with each tile moved and resized by its position (some to zero size: no longer a
/// candidate), and every third one's `disabled` flipped: what a reflow does to a page.
func reflowed(_ layout: RandomLayout) -> RandomLayout {
    var count = 0
    func change(_ group: RandomLayout.Group) -> RandomLayout.Group {
        var group = group
        for index in group.tiles.indices {
            count += 1
            group.tiles[index].x += (count % 5) * 7 - 13
            group.tiles[index].y += (count % 3) * 11
            group.tiles[index].width = max(0, group.tiles[index].width - count % 4)
            if count % 3 == 0 { group.tiles[index].disabled.toggle() }
        }
        group.groups = group.groups.map(change)
        return group
    }
    var moved = layout
    moved.root = change(layout.root)
    return moved
}

/// `layout` without `remembersLastFocus` anywhere.
func forgetful(_ layout: RandomLayout) -> RandomLayout {
    func forget(_ group: RandomLayout.Group) -> RandomLayout.Group {
        var group = group
        group.remembersLastFocus = false
        group.groups = group.groups.map(forget)
        return group
    }
    var copy = layout
    copy.root = forget(layout.root)
    return copy
}

/// Runs `scripts` on `layout` under both policies with both strategies; records the first
/// disagreement of each script as an issue naming the layout, the script and the step. With
/// `churned`, the indexed session is rebuilt by ``churn(_:_:)`` first and the oracle is a session
/// built whole.
/// With `reflowedFrom`, the indexed session is built from that layout (the same tree) and
/// ``reflow(_:to:)`` to this one.
func compareStrategies(_ layout: RandomLayout, _ scripts: [MoveScript], churned: Bool = false, reflowedFrom: RandomLayout? = nil) {
    let candidates = layout.candidates
    for policy in [SearchPolicy.tvos, .android] {
        let scene = layout.scene(policy: policy)
        let indexed: SceneSession
        var rebuilt: SceneSession
        do {
            indexed = try SceneSession(scene: scene)
            rebuilt = indexed
            if churned { try churn(&rebuilt, scene.root) }
            if let reflowedFrom {
                rebuilt = try SceneSession(scene: reflowedFrom.scene(policy: policy))
                // Nothing focused while it reflows: focus recovered from a node that stopped being
                // a candidate would be remembered by its new section, which a scene built whole
                // never saw.
                _ = try rebuilt.focus(nil)
                try reflow(&rebuilt, to: scene.root)
            }
        } catch {
            Issue.record("a generated scene is rejected: \(error)\n\(layout)")
            return
        }
        for script in scripts {
            var index = rebuilt
            index.searchStrategy = .spatialIndex
            var brute = indexed
            brute.searchStrategy = .bruteForce
            let start = script.start.flatMap { candidates.isEmpty ? nil : candidates[$0 % candidates.count] }
            do {
                _ = try index.focus(start)
                _ = try brute.focus(start)
                for (step, direction) in script.moves.enumerated() {
                    let from = index.state(active: true).focused
                    let fast = try index.move(direction)
                    let slow = try brute.move(direction)
                    let chosen = index.state(active: true).focused
                    let oracle = brute.state(active: true).focused
                    // A churned session is at a later revision: its events differ in that alone.
                    let sameOutcome = churned || reflowedFrom != nil ? fast.moved == slow.moved : fast == slow
                    if chosen != oracle || !sameOutcome {
                        Issue.record(
                            """
                            policy \(policy.rawValue), \(script) (focus on \(start ?? "nothing")), step \(step + 1) \
                            (\(direction.rawValue) from \(from ?? "nothing")): spatial index chose \(chosen ?? "nothing") (moved \(fast.moved)), \
                            brute force \(oracle ?? "nothing") (moved \(slow.moved))
                            \(layout)
                            """)
                        break
                    }
                }
            } catch {
                Issue.record("policy \(policy.rawValue), \(script): \(error)\n\(layout)")
            }
        }
    }
}

@Suite("Spatial index against brute force")
struct DifferentialTests {
    @Test("uniform grids: the spatial index and brute force choose the same node for every move")
    func uniformGrids() async {
        await propertyCheck(count: 200, input: LayoutGen.grid, LayoutGen.placement, LayoutGen.scripts) { layout, origin, scripts in
            compareStrategies(placed(layout, origin), scripts)
        }
    }

    @Test("ragged rows of shelves: the spatial index and brute force choose the same node for every move")
    func raggedRows() async {
        await propertyCheck(count: 400, input: LayoutGen.ragged, LayoutGen.placement, LayoutGen.scripts) { layout, origin, scripts in
            compareStrategies(placed(layout, origin), scripts)
        }
    }

    @Test("random overlapping rectangles: the spatial index and brute force choose the same node for every move")
    func overlappingRectangles() async {
        await propertyCheck(count: 800, input: LayoutGen.overlapping, LayoutGen.placement, LayoutGen.scripts) { layout, origin, scripts in
            compareStrategies(placed(layout, origin), scripts)
        }
    }

    @Test("nested sections with memory, wrap and modality: the spatial index and brute force agree")
    func nestedSections() async {
        await propertyCheck(count: 800, input: LayoutGen.nested, LayoutGen.placement, LayoutGen.scripts) { layout, origin, scripts in
            compareStrategies(placed(layout, origin), scripts)
        }
    }

    @Test("nested sections emptied and refilled through UpdateScene: the index still agrees with a scene built whole")
    func churnedSections() async {
        await propertyCheck(count: 300, input: LayoutGen.nested, LayoutGen.placement, LayoutGen.scripts) { layout, origin, scripts in
            compareStrategies(placed(layout, origin), scripts, churned: true)
        }
    }

    @Test("every leaf's frame and flags patched in place (a reflow): the index agrees with a scene built whole")
    func reflowedLeaves() async {
        await propertyCheck(count: 150, input: LayoutGen.nested, LayoutGen.placement, LayoutGen.scripts) { layout, origin, scripts in
            // Sections that remember would hold whatever the first layout's default focus was,
            // which a scene built whole never had: memory is not what this compares.
            let before = placed(forgetful(layout), origin)
            compareStrategies(reflowed(before), scripts, reflowedFrom: before)
            // The patched scene reads back as the target, field for field.
            let target = reflowed(before).scene(policy: .tvos)
            if var session = try? SceneSession(scene: before.scene(policy: .tvos)) {
                try? reflow(&session, to: target.root)
                #expect(session.scene.root == target.root)
            }
        }
    }
}
