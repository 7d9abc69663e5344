// FocusBench: how fast directional moves and scene updates are on large TV layouts.
//
//     swift run -c release FocusBench [--quick]
//
// Builds a realistic TV scene (a navigation bar, shelves of tiles that are remembering sections,
// and a grid section) of 1,000, 10,000 and 100,000 nodes; times random walks of directional moves
// with the spatial index and with brute force; times UpdateScene with one upsert against installing
// the scene whole. Every figure is the median of several timed runs after a warm-up, on the monotonic
// clock. Prints PASS / FAIL next to each goal; it asserts nothing and exits 0 either way.

import FocusEngine
import Glibc

// MARK: - The layout

/// A TV home screen of exactly `nodes` nodes: root, a nav bar of 8 tabs, shelves of 40 tiles
/// (sections with remembersLastFocus) filling about 70 %, and an 8-column grid section for the rest.
func tvScene(nodes: Int, name: String = "bench") -> (scene: Scene, middleTile: String, shelfForUpdate: String) {
    let (tileWidth, tileHeight, gap, pitch) = (200.0, 112.0, 20.0, 180.0)
    let tilesPerShelf = 40
    let tabs = (0..<8).map { index in
        Node(id: "tab\(index)", frame: Rect(x: 60 + Double(index) * 160, y: 20, width: 140, height: 40), focusable: true)
    }
    let fixed = 1 + 1 + tabs.count + 1  // root, nav, tabs, grid section
    let shelfCount = max(1, (nodes * 7 / 10) / (tilesPerShelf + 1))
    let gridTiles = nodes - fixed - shelfCount * (tilesPerShelf + 1)
    precondition(gridTiles >= 0, "scene too small for the layout")

    var children = [Node(id: "nav", section: true, children: tabs)]
    var y = 100.0
    for shelf in 0..<shelfCount {
        let tiles = (0..<tilesPerShelf).map { index in
            Node(
                id: "s\(shelf)t\(index)",
                frame: Rect(x: 60 + Double(index) * (tileWidth + gap), y: y + 48, width: tileWidth, height: tileHeight),
                focusable: true)
        }
        children.append(Node(id: "shelf\(shelf)", section: true, remembersLastFocus: true, children: tiles))
        y += pitch
    }
    let columns = 8
    let grid = (0..<gridTiles).map { index in
        Node(
            id: "g\(index)",
            frame: Rect(
                x: 60 + Double(index % columns) * (tileWidth + gap), y: y + 48 + Double(index / columns) * pitch,
                width: tileWidth, height: tileHeight * 1.5),
            focusable: true)
    }
    children.append(Node(id: "grid", section: true, children: grid))
    let root = Node(id: "root", frame: Rect(x: 0, y: 0, width: 1920, height: 1080), children: children)
    let middle = shelfCount / 2
    return (Scene(name: name, root: root), "s\(middle)t\(tilesPerShelf / 2)", "shelf\(middle)")
}

// MARK: - Timing

/// A small deterministic generator (SplitMix64), so every strategy replays the same walk.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A random walk weighted like browsing a TV home screen: mostly right and down.
func walk(_ count: Int, seed: UInt64) -> [Direction] {
    var rng = SplitMix(state: seed)
    return (0..<count).map { _ in
        switch Int.random(in: 0..<20, using: &rng) {
        case 0..<8: .right
        case 8..<12: .left
        case 12..<17: .down
        default: .up
        }
    }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Seconds per move: median of `runs` timed walks of `moves` moves after a warm-up walk.
func timeMoves(_ base: SceneSession, strategy: SearchStrategy, moves: Int, runs: Int, start: String) throws -> (perMove: Double, final: String?) {
    let clock = ContinuousClock()
    var session = base
    session.searchStrategy = strategy
    _ = try session.focus(start)
    for direction in walk(max(moves / 4, 10), seed: 1) { _ = try session.move(direction) }
    var samples: [Double] = []
    var final: String?
    for run in 0..<runs {
        _ = try session.focus(start)
        let directions = walk(moves, seed: 100 + UInt64(run))
        let elapsed = try clock.measure {
            for direction in directions { _ = try session.move(direction) }
        }
        samples.append(seconds(elapsed) / Double(moves))
        if run == 0 { final = session.state(active: true).focused }
    }
    return (median(samples), final)
}

/// The focused node after each move of a walk.
func trace(_ base: SceneSession, strategy: SearchStrategy, moves: Int, start: String) throws -> [String?] {
    var session = base
    session.searchStrategy = strategy
    _ = try session.focus(start)
    return try walk(moves, seed: 7).map { direction in
        _ = try session.move(direction)
        return session.state(active: true).focused
    }
}

func format(_ value: Double, decimals: Int = 1) -> String {
    let scale = pow10(decimals)
    var text = "\(Double(nearest(value * scale)) / scale)"
    if decimals == 0, text.hasSuffix(".0") { text.removeLast(2) }
    return text
}

/// The nearest integer (without libm, which this pure-Swift target does not link).
func nearest(_ value: Double) -> Int { Int(value + (value < 0 ? -0.5 : 0.5)) }

func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { value, _ in value * 10 } }

func grouped(_ n: Int) -> String {
    let digits = Array(String(n))
    var out = ""
    for (index, digit) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { out += "," }
        out.append(digit)
    }
    return out
}

func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, width - text.count))
    return right ? fill + text : text + fill
}

func verdict(_ pass: Bool) -> String { pass ? "PASS" : "FAIL" }

enum BenchError: Error {
    case layout(String)
}

// MARK: - Main

if CommandLine.arguments.contains("--goto") {
    do { try gotoBench() } catch { print("FocusBench --goto failed: \(error)") }
    exit(0)
}
if let k = CommandLine.arguments.firstIndex(of: "--profile") {
    let args = CommandLine.arguments
    let what = k + 1 < args.count ? args[k + 1] : ""
    let count = k + 2 < args.count ? Int(args[k + 2]) ?? 20_000 : 20_000
    do { try profileBench(what, count: count) } catch { print("FocusBench --profile failed: \(error)") }
    exit(0)
}
let quick = CommandLine.arguments.contains("--quick")
let sizes = [1_000, 10_000, 100_000]
let runs = quick ? 3 : 5

print("FocusBench: directional moves on a TV layout (nav bar, shelves of 40 tiles as remembering sections, an 8-column grid)")
print("median of \(runs) timed runs after a warm-up; ContinuousClock\n")
print(pad("nodes", 9) + pad("strategy", 14) + pad("moves", 8, right: true) + pad("moves/s", 14, right: true) + pad("µs/move", 12, right: true))

var perMove: [Int: [SearchStrategy: Double]] = [:]
var disagreements: [String] = []
do {
    for size in sizes {
        let (scene, start, _) = tvScene(nodes: size)
        let session = try SceneSession(scene: scene)
        for strategy in [SearchStrategy.spatialIndex, .bruteForce] {
            // Brute force scores every candidate: at 100,000 nodes a few hundred moves are enough.
            let moves: Int
            switch (strategy, size) {
            case (.spatialIndex, _): moves = quick ? 2_000 : 10_000
            case (.bruteForce, 100_000): moves = quick ? 50 : 200
            case (.bruteForce, 10_000): moves = quick ? 300 : 1_000
            case (.bruteForce, _): moves = quick ? 1_000 : 5_000
            }
            let (seconds, _) = try timeMoves(session, strategy: strategy, moves: moves, runs: runs, start: start)
            perMove[size, default: [:]][strategy] = seconds
            let name = strategy == .spatialIndex ? "spatialIndex" : "bruteForce"
            print(
                pad(grouped(size), 9) + pad(name, 14) + pad(grouped(moves), 8, right: true)
                    + pad(grouped(nearest(1 / seconds)), 14, right: true)
                    + pad(format(seconds * 1e6, decimals: 2), 12, right: true))
        }
        // Sanity: both strategies walk the same path (the differential tests check this in depth).
        let fast = try trace(session, strategy: .spatialIndex, moves: 100, start: start)
        let slow = try trace(session, strategy: .bruteForce, moves: 100, start: start)
        if let step = fast.indices.first(where: { fast[$0] != slow[$0] }) {
            disagreements.append("\(grouped(size)) nodes, move \(step + 1): index \(fast[step] ?? "nothing"), brute force \(slow[step] ?? "nothing")")
        }
    }
} catch {
    print("FocusBench: the engine refused the benchmark scene: \(error)")
}

print("")
if let index = perMove[10_000]?[.spatialIndex], let brute = perMove[10_000]?[.bruteForce] {
    let ratio = brute / index
    print("speed-up of the spatial index over brute force at 10,000 nodes: \(format(ratio))×   goal ≥50×   \(verdict(ratio >= 50))")
}
for size in [1_000, 100_000] {
    if let index = perMove[size]?[.spatialIndex], let brute = perMove[size]?[.bruteForce] {
        print("  (at \(grouped(size)) nodes: \(format(brute / index))×)")
    }
}
if let small = perMove[1_000]?[.spatialIndex], let large = perMove[100_000]?[.spatialIndex] {
    let growth = large / small
    print("growth of the index's per-move cost from 1,000 to 100,000 nodes: \(format(growth, decimals: 2))×   goal ≤2×   \(verdict(growth <= 2))")
}
for line in disagreements { print("WARNING: strategies disagree on the same walk: \(line)") }

// Where the time goes: back-and-forth moves along one axis from the middle tile (inside a shelf for
// left/right, across shelves for up/down), with the spatial index.
do {
    print("")
    print("diagnostic: spatial index µs/move, alternating a direction and its opposite from the middle tile")
    print(pad("nodes", 9) + pad("left/right", 12, right: true) + pad("up/down", 12, right: true))
    for size in sizes {
        let (scene, start, _) = tvScene(nodes: size)
        var session = try SceneSession(scene: scene)
        var cells: [String] = []
        for pair in [[Direction.left, .right], [.up, .down]] {
            _ = try session.focus(start)
            let moves = quick ? 200 : 1_000
            var samples: [Double] = []
            for _ in 0..<runs {
                let clock = ContinuousClock()
                let elapsed = try clock.measure {
                    for step in 0..<moves { _ = try session.move(pair[step % 2]) }
                }
                samples.append(seconds(elapsed) / Double(moves))
            }
            cells.append(format(median(samples) * 1e6, decimals: 2))
        }
        print(pad(grouped(size), 9) + pad(cells[0], 12, right: true) + pad(cells[1], 12, right: true))
    }
} catch {
    print("FocusBench: the diagnostic failed: \(error)")
}

// Where a walk's time goes: each move of the timed walk (the spatial index, 10,000 nodes) timed on its
// own, as a histogram, with the slowest moves replayed from the same state: a move that is slow again
// costs that much; one that is fast on replay was interrupted (the machine is shared).
do {
    print("")
    let (scene, start, _) = tvScene(nodes: 10_000)
    let base = try SceneSession(scene: scene)
    let directions = walk(quick ? 2_000 : 10_000, seed: 100)
    let clock = ContinuousClock()
    // (No copy of the session is kept per move: it would make every move copy what it changes.)
    var session = base
    _ = try session.focus(start)
    var costs: [(seconds: Double, index: Int, from: String?, to: String?)] = []
    for (index, direction) in directions.enumerated() {
        let from = session.focused()
        var outcome = Outcome()
        let elapsed = try clock.measure { outcome = try session.move(direction) }
        costs.append((seconds(elapsed), index, from, outcome.moved ? session.focused() : nil))
    }
    var buckets: [Int: Int] = [:]
    for cost in costs {
        var bucket = 0
        while Double(1 << bucket) * 0.25e-6 < cost.seconds && bucket < 20 { bucket += 1 }
        buckets[bucket, default: 0] += 1
    }
    print("diagnostic: the walk's moves at 10,000 nodes by cost (spatial index, each move timed alone)")
    print(buckets.sorted { $0.key < $1.key }.map { "≤\(format(Double(1 << $0.key) * 0.25, decimals: 2)) µs: \(grouped($0.value))" }.joined(separator: "   "))
    print("slowest moves, replayed from the same state:")
    for cost in costs.sorted(by: { $0.seconds > $1.seconds }).prefix(5) {
        var replay = base
        _ = try replay.focus(start)
        for direction in directions[..<cost.index] { _ = try replay.move(direction) }
        let again = try clock.measure { _ = try replay.move(directions[cost.index]) }
        print("  move \(cost.index + 1) \(directions[cost.index]) from \(cost.from ?? "nothing") to \(cost.to ?? "blocked"): "
              + "\(format(cost.seconds * 1e6, decimals: 2)) µs, replayed \(format(seconds(again) * 1e6, decimals: 2)) µs")
    }
} catch {
    print("FocusBench: the per-move diagnostic failed: \(error)")
}

// UpdateScene with one upsert on a 10,000-node scene, against installing the scene whole.
do {
    let clock = ContinuousClock()
    let (scene, _, shelf) = tvScene(nodes: 10_000)
    var installs: [Double] = []
    var replaces: [Double] = []
    var session = try SceneSession(scene: scene)
    for _ in 0..<(runs + 1) {
        var made: SceneSession?
        let fresh = try clock.measure { made = try SceneSession(scene: scene) }
        installs.append(seconds(fresh))
        let replaced = try clock.measure { _ = try session.replace(with: scene) }
        replaces.append(seconds(replaced))
        _ = made
    }
    installs.removeFirst()
    replaces.removeFirst()

    // One tile of a shelf, moved by one point and back, so every call changes the scene.
    let updates = quick ? 200 : 1_000
    let shelfNode = scene.root.children?.first { $0.id == shelf }
    guard let original = shelfNode?.children?[3] else { throw BenchError.layout("no tile 3 in \(shelf)") }
    let patches = [0.0, 1.0].map { dx in
        var tile = original
        tile.frame?.x += dx
        return NodePatch(parent: shelf, index: 3, node: tile)
    }
    var samples: [Double] = []
    for run in 0..<(runs + 1) {
        let elapsed = try clock.measure {
            for step in 0..<updates {
                _ = try session.update(upsert: [patches[(step + 1) % 2]], remove: [])
            }
        }
        if run > 0 { samples.append(seconds(elapsed) / Double(updates)) }
    }
    let update = median(samples)
    let install = median(installs)
    let replace = median(replaces)
    let whole = min(install, replace)
    print("")
    print("UpdateScene, one upsert, 10,000 nodes: \(format(update * 1e6, decimals: 2)) µs")
    print("installing the scene whole: SceneSession(scene:) \(format(install * 1e3, decimals: 2)) ms, SetScene replace \(format(replace * 1e3, decimals: 2)) ms")
    print("update / whole install: 1/\(format(whole / update, decimals: 0))   goal ≤1/20   \(verdict(update * 20 <= whole))")
} catch {
    print("FocusBench: the update benchmark failed: \(error)")
}


// Scroll containers and collections (focus.md §12): a move inside a collection of 1,000,000,000
// items against a move in the 1,000-node scene above (same walk, same clock), and a scroll of a
// container holding 10,000 built items against one holding 10.
do {
    print("")
    // An 8-column grid of 10^9 slots inside a vertical page scroll container, focus in the middle.
    let big = try SceneSession(scene: billionScene())
    let moves = quick ? 2_000 : 10_000
    let (billion, _) = try timeMoves(big, strategy: .spatialIndex, moves: moves, runs: runs, start: "catalog#500000004")
    let (scene, start, _) = tvScene(nodes: 1_000)
    let (small, _) = try timeMoves(try SceneSession(scene: scene), strategy: .spatialIndex, moves: moves, runs: runs, start: start)
    print("move in a 1,000,000,000-item collection (in a scroll container): \(format(billion * 1e6, decimals: 2)) µs; 1,000-node scene: \(format(small * 1e6, decimals: 2)) µs")
    print("  ratio \(format(billion / small, decimals: 2))×   goal ≤2×   \(verdict(billion <= 2 * small))")
    // Where it goes: the same grid without the scroll container, and at a low index (cost vs count).
    let bare = try SceneSession(scene: billionScene(scrolled: false))
    let (noScroll, _) = try timeMoves(bare, strategy: .spatialIndex, moves: moves, runs: runs, start: "catalog#500000004")
    let (low, _) = try timeMoves(bare, strategy: .spatialIndex, moves: moves, runs: runs, start: "catalog#4")
    print("  diagnostic: the same collection outside a scroll container \(format(noScroll * 1e6, decimals: 2)) µs at index 500,000,004, \(format(low * 1e6, decimals: 2)) µs at index 4")

    // ScrollTo back and forth on a rail holding `built` items.
    func scrollCost(built: Int) throws -> Double {
        var session = try SceneSession(scene: railScene(built: built))
        let calls = quick ? 200 : 1_000
        let clock = ContinuousClock()
        var samples: [Double] = []
        for run in 0..<(runs + 1) {
            let elapsed = try clock.measure {
                for step in 0..<calls { _ = try session.scrollTo("rail", offsetX: step % 2 == 0 ? 100 : 0, offsetY: 0) }
            }
            if run > 0 { samples.append(seconds(elapsed) / Double(calls)) }
        }
        return median(samples)
    }
    let ten = try scrollCost(built: 10), tenThousand = try scrollCost(built: 10_000)
    print("ScrollTo of a container holding 10 built items: \(format(ten * 1e6, decimals: 2)) µs; 10,000: \(format(tenThousand * 1e6, decimals: 2)) µs")
    print("  ratio \(format(tenThousand / ten, decimals: 1))×   goal ≤2×   \(verdict(tenThousand <= 2 * ten))")
} catch {
    print("FocusBench: the scroll and collection benchmark failed: \(error)")
}

// MARK: - Many siblings in one UpdateScene (issue 11.3)

/// Upserts `count` new tiles at index 0 of the root in one call, then removes every other one in
/// one call; next to the same scene installed whole (the floor: every node built once).
func siblingPatches(count: Int) throws -> (insert: Double, remove: Double, install: Double) {
    let clock = ContinuousClock()
    let tiles = (0..<count).map { i in
        Node(id: "s\(i)", frame: Rect(x: Double(i % 300) * 6, y: Double(i / 300) * 3, width: 5, height: 2), focusable: true)
    }
    let root = Node(id: "root", frame: Rect(x: 0, y: 0, width: 1920, height: 1080), children: [])
    var session = try SceneSession(scene: Scene(name: "siblings", root: root))
    let patches = tiles.map { NodePatch(parent: "root", index: 0, node: $0) }
    let insert = try clock.measure { _ = try session.update(upsert: patches, remove: []) }
    let removals = (0..<count).filter { $0.isMultiple(of: 2) }.map { "s\($0)" }
    let remove = try clock.measure { _ = try session.update(upsert: [], remove: removals) }
    var whole = root
    whole.children = tiles
    let install = try clock.measure { _ = try SceneSession(scene: Scene(name: "siblings", root: whole)) }
    return (seconds(insert), seconds(remove), seconds(install))
}

do {
    print("")
    print("UpdateScene among many siblings: N upserts at index 0 in one call, then N/2 removals in one call")
    print(pad("N", 9) + pad("inserts", 12, right: true) + pad("removals", 12, right: true) + pad("install whole", 15, right: true) + pad("inserts/install", 17, right: true))
    var perNode: [Double] = []
    for count in quick ? [10_000, 40_000] : [10_000, 40_000, 99_000] {
        let (insert, remove, install) = try siblingPatches(count: count)
        perNode.append(insert / Double(count))
        print(pad(grouped(count), 9) + pad(format(insert * 1e3) + " ms", 12, right: true) + pad(format(remove * 1e3) + " ms", 12, right: true)
              + pad(format(install * 1e3) + " ms", 15, right: true) + pad(format(insert / install) + "×", 17, right: true))
    }
    let growth = perNode.last! / perNode.first!
    print("growth of the per-insert cost from the smallest N to the largest: \(format(growth, decimals: 2))×   goal ≤2× (near-linear)   \(verdict(growth <= 2))")
} catch {
    print("FocusBench: the sibling benchmark failed: \(error)")
}
