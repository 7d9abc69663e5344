// The spatial index must choose exactly what the brute-force scan chooses (focus.md §2).
import Testing
@testable import FocusEngine

@Suite("Spatial index agrees with brute force")
struct SpatialIndexTests {
    /// A random scene: loose candidates of mixed sizes (some on a coarse grid, so ties happen),
    /// and a few sections, some without a frame.
    static func randomScene(seed: UInt64, count: Int, policy: SearchPolicy) -> Scene {
        var rng = SplitMix(state: seed)
        var children: [Node] = []
        var id = 0
        func randomButton() -> Node {
            id += 1
            let onGrid = Bool.random(using: &rng)
            let x = onGrid ? Double(Int.random(in: 0..<18, using: &rng)) * 100 : Double.random(in: 0..<1800, using: &rng)
            let y = onGrid ? Double(Int.random(in: 0..<20, using: &rng)) * 50 : Double.random(in: 0..<1000, using: &rng)
            let big = Int.random(in: 0..<20, using: &rng) == 0
            let w = onGrid ? 100 : Double.random(in: 1..<(big ? 900 : 150), using: &rng)
            let h = onGrid ? 50 : Double.random(in: 1..<(big ? 600 : 120), using: &rng)
            return button("n\(id)", x, y, w, h)
        }
        var i = 0
        while i < count {
            if Int.random(in: 0..<10, using: &rng) == 0 {
                let n = Int.random(in: 1..<6, using: &rng)
                var members: [Node] = []
                for _ in 0..<n { members.append(randomButton()) }
                i += n
                id += 1
                let framed = Bool.random(using: &rng)
                children.append(Node(id: "s\(id)", frame: framed ? Rect(x: Double.random(in: 0..<1500, using: &rng), y: Double.random(in: 0..<900, using: &rng), width: 300, height: 150) : nil,
                                     section: true, children: members))
            } else {
                children.append(randomButton())
                i += 1
            }
        }
        return scene(children, policy: policy)
    }

    @Test("every move from every candidate picks the same node", arguments: [SearchPolicy.tvos, .android])
    func agrees(policy: SearchPolicy) throws {
        for seed in UInt64(1)...6 {
            let s = Self.randomScene(seed: seed, count: 150, policy: policy)
            let base = try SceneSession(scene: s)
            var ids: [String] = []
            var stack = [s.root]
            while let n = stack.popLast() { if n.focusable == true { ids.append(n.id) }; stack += n.children ?? [] }
            for id in ids {
                for d in [Direction.up, .down, .left, .right] {
                    var a = base, b = base
                    b.searchStrategy = .bruteForce
                    _ = try a.focus(id); _ = try b.focus(id)
                    _ = try a.move(d); _ = try b.move(d)
                    #expect(a.focused() == b.focused(), "seed \(seed) \(policy) from \(id) \(d)")
                }
            }
        }
    }

    @Test("android search from the corner agrees when nothing is focused")
    func cornerAgrees() throws {
        let s = Self.randomScene(seed: 42, count: 200, policy: .android)
        for d in [Direction.up, .down, .left, .right] {
            var a = try SceneSession(scene: s), b = a
            b.searchStrategy = .bruteForce
            _ = try a.focus(nil); _ = try b.focus(nil)
            _ = try a.move(d); _ = try b.move(d)
            #expect(a.focused() == b.focused() && a.focused() != nil)
        }
    }

    @Test("after updates the index still agrees")
    func agreesAfterUpdates() throws {
        let s = Self.randomScene(seed: 7, count: 120, policy: .android)
        var session = try SceneSession(scene: s)
        var rng = SplitMix(state: 99)
        for k in 0..<40 {
            let x = Double.random(in: 0..<1800, using: &rng), y = Double.random(in: 0..<1000, using: &rng)
            _ = try session.update(upsert: [NodePatch(parent: "root", node: button("u\(k % 10)", x, y, 80, 40))], remove: [])
        }
        _ = try session.update(upsert: [], remove: ["n3", "n5"])
        for id in session.scene.root.children!.filter({ $0.focusable == true }).map(\.id) {
            for d in [Direction.up, .down, .left, .right] {
                var a = session, b = session
                b.searchStrategy = .bruteForce
                _ = try a.focus(id); _ = try b.focus(id)
                _ = try a.move(d); _ = try b.move(d)
                #expect(a.focused() == b.focused(), "from \(id) \(d)")
            }
        }
    }

    @Test("random walks through nested, wrapping and remembering sections stay in lockstep", arguments: [SearchPolicy.tvos, .android])
    func randomWalks(policy: SearchPolicy) throws {
        var rng = SplitMix(state: 2024)
        for round in 0..<4 {
            // Rows of tiles as sections (some wrapping, some remembering), inside two columns.
            var columns: [Node] = []
            for c in 0..<2 {
                var rows: [Node] = []
                for r in 0..<6 {
                    var tiles: [Node] = []
                    for t in 0..<Int.random(in: 1..<7, using: &rng) {
                        tiles.append(button("c\(c)r\(r)t\(t)", Double(c * 960 + t * 130) + Double.random(in: 0..<20, using: &rng), Double(r * 170), 120, Double.random(in: 40..<160, using: &rng)))
                    }
                    var row = Node(id: "c\(c)r\(r)", section: true, children: tiles)
                    row.wrap = [nil, .horizontal, .both][Int.random(in: 0..<3, using: &rng)]
                    row.remembersLastFocus = Bool.random(using: &rng)
                    rows.append(row)
                }
                columns.append(Node(id: "col\(c)", section: Bool.random(using: &rng), children: rows))
            }
            var a = try SceneSession(scene: scene(columns, policy: policy))
            var b = a
            b.searchStrategy = .bruteForce
            var moves = 0
            defer { #expect(moves > 40, "the walk should mostly move, not bump") }
            for step in 0..<150 {
                let d = [Direction.up, .down, .left, .right][Int.random(in: 0..<4, using: &rng)]
                let oa = try a.move(d), ob = try b.move(d)
                if oa.moved { moves += 1 }
                #expect(oa.events == ob.events, "round \(round) step \(step) \(d)")
                if a.focused() != b.focused() { break }
            }
        }
    }
}
