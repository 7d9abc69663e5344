// Differential properties for focus.md §12: a lazy collection behaves exactly as the same scene with
// every item built, and nested scroll containers exactly as the same scene with scene frames
// computed by hand. Random scenes from a fixed seed list (SplitMix64), replayed move by move.
import Testing
@testable import FocusEngine

/// Replays the same random commands on both sessions, comparing focus after every one.
private func replay(_ a: inout SceneSession, _ b: inout SceneSession, starts: [String], rng: inout SplitMix,
                    steps: Int, context: String) throws {
    let commands = ["up", "down", "left", "right", "next", "previous", "crown"]
    for start in starts {
        _ = try a.focus(start)
        _ = try b.focus(start)
        for _ in 0..<steps {
            let c = commands[Int(rng.next() % UInt64(commands.count))]
            let detents = Int(rng.next() % 7) - 3
            _ = a.send(c, detents: detents)
            _ = b.send(c, detents: detents)
            if a.focused() != b.focused() {
                Issue.record("\(context): after \(c)\(c == "crown" ? " \(detents)" : "") from a walk starting at \(start): lazy \(a.focused() ?? "nil"), built \(b.focused() ?? "nil")")
                return
            }
        }
    }
}

@Suite("Scroll containers and collections against fully built scenes")
struct ScrollDifferentialTests {
    @Test("every move, sequential step and crown step in a lazy collection equals the same scene fully built")
    func collectionsEqualBuilt() throws {
        for seed in UInt64(1)...60 {
            var rng = SplitMix(state: seed)
            func int(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
            let rtl = int(3) == 0
            let policy: SearchPolicy = int(2) == 0 ? .tvos : .android
            var lazy: [Node] = [], full: [Node] = []
            var y = 0.0
            var candidates: [String] = []
            for k in 0..<(1 + int(3)) {
                // A loose button band, then a collection band.
                let loose = "loose\(k)"
                lazy.append(button(loose, Double(int(400)), y, 100, 40))
                full.append(button(loose, Double(int(400)), y, 100, 40))
                full[full.count - 1].frame = lazy[lazy.count - 1].frame
                candidates.append(loose)
                y += 60
                let layout: CollectionLayout = [.row, .column, .grid][int(3)]
                let count = 1 + int(layout == .row ? 300 : 120)
                let columns = layout == .grid ? 1 + int(6) : nil
                let coll = Collection(count: count, layout: layout, itemWidth: Double(40 + 10 * int(8)),
                                      itemHeight: Double(30 + 10 * int(6)), spacing: Double(int(4) * 10), columns: columns)
                let id = "c\(k)"
                let origin = Rect(x: Double(int(300)), y: y, width: 0, height: 0)
                let section = int(2) == 0, remembers = int(2) == 0
                var built: [Node] = [], all: [Node] = []
                // Slot frames by hand (focus.md §12), not through the engine's Lattice.
                let perRow = layout == .row ? count : layout == .column ? 1 : columns!
                let pitchX = coll.itemWidth + coll.spacing!, pitchY = coll.itemHeight + coll.spacing!
                for i in 0..<count {
                    var col = layout == .column ? 0 : i % perRow
                    let row = layout == .column ? i : i / perRow
                    if rtl && layout != .column { col = perRow - 1 - col }
                    let slot = Rect(x: origin.x + Double(col) * pitchX, y: origin.y + Double(row) * pitchY,
                                    width: coll.itemWidth, height: coll.itemHeight)
                    if int(8) == 0 {
                        let focusable = int(4) != 0
                        built.append(Node(id: "b\(k)_\(i)", focusable: focusable, index: i))
                        all.append(Node(id: "b\(k)_\(i)", frame: slot, focusable: focusable))
                        if focusable { candidates.append("b\(k)_\(i)") }
                    } else {
                        all.append(Node(id: "\(id)#\(i)", frame: slot, focusable: true))
                        if int(10) == 0 { candidates.append("\(id)#\(i)") }
                    }
                }
                let rows = (count + perRow - 1) / perRow
                let size = (width: Double(perRow) * pitchX - coll.spacing!, height: Double(rows) * pitchY - coll.spacing!)
                lazy.append(Node(id: id, frame: origin, section: section ? true : nil, remembersLastFocus: remembers ? true : nil,
                                 collection: coll, children: built))
                full.append(Node(id: id, frame: Rect(x: origin.x, y: origin.y, width: size.width, height: size.height),
                                 section: section ? true : nil, remembersLastFocus: remembers ? true : nil, children: all))
                y += size.height + 40
            }
            let dir: LayoutDirection? = rtl ? .rightToLeft : nil
            let root = Rect(x: 0, y: 0, width: 20_000, height: y)
            var a = try SceneSession(scene: Scene(name: "lazy", root: Node(id: "root", frame: root, children: lazy),
                                                  layoutDirection: dir, policy: policy, sequentialWrap: int(2) == 0))
            var b = try SceneSession(scene: Scene(name: "full", root: Node(id: "root", frame: root, children: full),
                                                  layoutDirection: dir, policy: policy, sequentialWrap: a.store.sequentialWrap))
            #expect(a.focused() == b.focused(), "seed \(seed): default focus")
            let starts = (0..<4).map { _ in candidates[int(candidates.count)] }
            try replay(&a, &b, starts: starts, rng: &rng, steps: 25, context: "seed \(seed)")
            #expect(a.store.virtualSlots.count <= 1, "seed \(seed): virtual items are collected")
        }
    }

    @Test("nested scroll containers give the same focus as the scene with scene frames computed by hand")
    func nestedScrollEqualsHandFrames() throws {
        for seed in UInt64(100)...160 {
            var rng = SplitMix(state: seed)
            func int(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
            var counter = 0
            var candidates: [String] = []
            // A container's content: bands of tiles or nested containers, placed in the visible part
            // of the content (so no scroll ever happens and nothing is clipped).
            func content(depth: Int, origin: (x: Double, y: Double), width: Double, dx: Double, dy: Double)
                -> (lazy: [Node], full: [Node], height: Double) {
                var lazy: [Node] = [], full: [Node] = []
                var y = origin.y
                for _ in 0..<(1 + int(3)) {
                    if depth < 3 && int(3) == 0 {
                        let id = "s\(counter)"; counter += 1
                        let vw = width - 20
                        let vertical = int(2) == 0
                        let offX = vertical ? 0.0 : Double(int(5) * 40), offY = vertical ? Double(int(5) * 40) : 0.0
                        let inner = content(depth: depth + 1, origin: (offX, offY), width: vw, dx: 0, dy: 0)
                        // The viewport holds the content it shows whole.
                        let vh = inner.height + 10
                        let view = Rect(x: origin.x + 10, y: y, width: vw, height: vh)
                        let sceneX = dx + view.x - offX, sceneY = dy + view.y - offY
                        lazy.append(Node(id: id, frame: view,
                                         scroll: Scroll(axis: vertical ? .vertical : .horizontal,
                                                        contentWidth: vw + 400, contentHeight: vh + 400,
                                                        offsetX: offX == 0 ? nil : offX, offsetY: offY == 0 ? nil : offY),
                                         children: inner.lazy))
                        full.append(Node(id: id, frame: Rect(x: dx + view.x, y: dy + view.y, width: vw, height: vh),
                                         section: nil, children: translate(inner.lazy, by: (sceneX, sceneY), scrolls: true)))
                        y += vh + 20
                    } else {
                        var x = origin.x
                        for _ in 0..<(1 + int(4)) {
                            let w = Double(30 + 10 * int(5)), h = Double(30 + 10 * int(3))
                            if x + w > origin.x + width - 10 { break }
                            let id = "n\(counter)"; counter += 1
                            lazy.append(button(id, x, y, w, h))
                            full.append(button(id, dx + x, dy + y, w, h))
                            candidates.append(id)
                            x += w + Double(5 + int(20))
                        }
                        y += 90
                    }
                    if y - origin.y > 120 { break }
                }
                return (lazy, full, y - origin.y)
            }
            let top = content(depth: 0, origin: (0, 0), width: 1200, dx: 0, dy: 0)
            guard !candidates.isEmpty else { continue }
            let root = Rect(x: 0, y: 0, width: 1920, height: 1080)
            let policy: SearchPolicy = int(2) == 0 ? .tvos : .android
            var a = try SceneSession(scene: Scene(name: "s", root: Node(id: "root", frame: root, children: top.lazy), policy: policy))
            var b = try SceneSession(scene: Scene(name: "h", root: Node(id: "root", frame: root, children: top.full), policy: policy))
            let starts = (0..<3).map { _ in candidates[int(candidates.count)] }
            try replay(&a, &b, starts: starts, rng: &rng, steps: 20, context: "seed \(seed)")
            #expect(a.state(active: true).scroll.count == counterScrolls(top.lazy), "seed \(seed)")
        }
    }
}

/// Content-coordinate nodes moved to scene coordinates by hand: frames translated, scroll
/// containers turned into plain groups whose content is translated by their own origin − offset.
private func translate(_ nodes: [Node], by t: (Double, Double), scrolls: Bool) -> [Node] {
    nodes.map { n in
        var m = n
        if var f = m.frame { f.x += t.0; f.y += t.1; m.frame = f }
        if let sc = n.scroll, let f = m.frame {
            m.scroll = nil
            m.children = translate(n.children ?? [], by: (f.x - (sc.offsetX ?? 0), f.y - (sc.offsetY ?? 0)), scrolls: scrolls)
        } else {
            m.children = n.children.map { translate($0, by: t, scrolls: scrolls) }
        }
        return m
    }
}

private func counterScrolls(_ nodes: [Node]) -> Int {
    nodes.reduce(0) { $0 + ($1.scroll != nil ? 1 : 0) + counterScrolls($1.children ?? []) }
}
