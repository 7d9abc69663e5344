// The spatial index skips lines of cells past the last occupied one in a band, and levels whose
// frames lie behind the source, off its beam or outside the clip; these checks make sure the
// occupancy it skips by stays exact as frames come and go.
import Testing
@testable import FocusEngine

@Suite("Spatial index occupancy")
struct IndexOccupancyTests {
    /// Every column's and row's first and last occupied cell, recomputed from the cells.
    static func recomputed(_ level: GridLevel) -> (colFirst: [Int32], colLast: [Int32], rowFirst: [Int32], rowLast: [Int32]) {
        let g = level.geo
        var out = (colFirst: [Int32](repeating: .max, count: g.cols), colLast: [Int32](repeating: -1, count: g.cols),
                   rowFirst: [Int32](repeating: .max, count: g.rows), rowLast: [Int32](repeating: -1, count: g.rows))
        for row in 0..<g.rows {
            for col in 0..<g.cols where !level.isEmpty(row * g.cols + col) {
                out.colFirst[col] = min(out.colFirst[col], Int32(row))
                out.colLast[col] = max(out.colLast[col], Int32(row))
                out.rowFirst[row] = min(out.rowFirst[row], Int32(col))
                out.rowLast[row] = max(out.rowLast[row], Int32(col))
            }
        }
        return out
    }

    @Test("column and row extents equal the occupied cells after random filing and unfiling")
    func extentsStayExact() {
        var rng = SplitMix(state: 31)
        var index = SpatialIndex(bounds: Rect(x: 0, y: 0, width: 2000, height: 1200),
                                 typicalWidth: 100, typicalHeight: 60, expected: 200)
        var filed = Set<Int>()
        for step in 0..<3000 {
            let slot = Int.random(in: 0..<200, using: &rng)
            if filed.contains(slot) && Bool.random(using: &rng) {
                index.set(slot, nil)
                filed.remove(slot)
            } else {
                // Mostly small frames on a coarse lattice (cells fill and empty), some large ones.
                let big = Int.random(in: 0..<10, using: &rng) == 0
                let rect = Rect(x: Double(Int.random(in: 0..<20, using: &rng)) * 100, y: Double(Int.random(in: 0..<20, using: &rng)) * 60,
                                width: big ? 700 : 90, height: big ? 400 : 50)
                index.set(slot, rect)
                filed.insert(slot)
            }
            if step % 100 == 99 || step == 2999 {
                for level in index.levels {
                    let want = Self.recomputed(level)
                    #expect(level.colFirst == want.colFirst && level.colLast == want.colLast, "columns at step \(step)")
                    #expect(level.rowFirst == want.rowFirst && level.rowLast == want.rowLast, "rows at step \(step)")
                }
            }
        }
        #expect(index.count == filed.count)
    }

    @Test("removing the edge rows and columns of a grid one by one keeps every move equal to brute force")
    func edgesRemovedAgree() throws {
        var tiles: [Node] = []
        for r in 0..<6 { for c in 0..<8 { tiles.append(button("r\(r)c\(c)", Double(c) * 220, Double(r) * 150, 200, 120)) } }
        var session = try SceneSession(scene: scene([group("grid", section: true, tiles)]))
        // Outer columns and rows first (the extremes of every band), then the interior.
        let order = (0..<6).map { "r\($0)c7" } + (0..<7).map { "r5c\($0)" } + (0..<5).map { "r\($0)c0" } + (1..<7).map { "r0c\($0)" }
            + ["r2c3", "r3c3", "r2c4"]
        var moves = 0
        for id in order {
            _ = try session.update(upsert: [], remove: [id])
            for tile in session.scene.root.children![0].children! {
                for d in [Direction.up, .down, .left, .right] {
                    var a = session, b = session
                    b.searchStrategy = .bruteForce
                    _ = try a.focus(tile.id); _ = try b.focus(tile.id)
                    let oa = try a.move(d), ob = try b.move(d)
                    if oa.moved { moves += 1 }
                    #expect(a.focused() == b.focused(), "after removing \(id): from \(tile.id) \(d)")
                }
            }
        }
        #expect(moves > 100, "most moves should land somewhere")
    }

    @Test("a level whose frames lie wholly behind the source, or off its beam, is passed over without losing a target")
    func levelsPassedOverAgree() throws {
        // Three sizes of frames (three levels): small buttons, a wide bar, a tall column.
        let nodes = [
            button("a", 100, 100), button("b", 400, 100), button("c", 100, 400),
            button("bar", 0, 700, 1800, 40), button("column", 1700, 0, 60, 650),
            button("far", 1500, 1000, 100, 50),
        ]
        let s = scene(nodes)
        for id in nodes.map(\.id) {
            for d in [Direction.up, .down, .left, .right] {
                var a = try session(s, focus: id), b = a
                b.searchStrategy = .bruteForce
                _ = try a.move(d); _ = try b.move(d)
                #expect(a.focused() == b.focused(), "from \(id) \(d)")
            }
        }
        // Spot checks: the column is the only target to the right of b in its beam; the bar is
        // below c in its beam.
        var fromB = try session(s, focus: "b")
        _ = try fromB.move(.right)
        #expect(fromB.focused() == "column")
        var fromC = try session(s, focus: "c")
        _ = try fromC.move(.down)
        #expect(fromC.focused() == "bar")
    }
}
