// `swift run -c release FocusBench --goto`: the cost of `planPath` (focusctl goto) on the demo
// scene and on a 10,000-node grid, next to its floor measured in the same run: the engine's own
// moves, 8 per position visited (the breadth-first search tries each command from each position).
import FocusEngine
import FocusWire
import Foundation

func gridScene(side: Int) -> Scene {
    var children: [Node] = []
    for r in 0..<side {
        for c in 0..<side {
            children.append(Node(id: "g\(r)_\(c)", frame: Rect(x: Double(c) * 120, y: Double(r) * 80, width: 100, height: 60),
                                 focusable: true))
        }
    }
    return Scene(name: "grid", root: Node(id: "root", frame: Rect(x: 0, y: 0, width: Double(side) * 120, height: Double(side) * 80),
                                          children: children))
}

func gotoBench() throws {
    let clock = ContinuousClock()
    let demoPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/FocusService/Resources/demo-scene.json")
    let demo = try JSONDecoder().decode(Scene.self, from: Data(contentsOf: demoPath))
    print("FocusBench --goto: planPath (breadth-first over the engine's moves on a copy of the session)")
    print("median of 5 runs; floor = 8 engine moves (Send) per position visited, timed in this run\n")
    print(pad("scene", 30) + pad("from → to", 32) + pad("steps", 7, right: true) + pad("visited", 9, right: true)
          + pad("plan", 12, right: true) + pad("floor", 12, right: true) + pad("ratio", 8, right: true))
    let cases: [(String, Scene, String, String)] = [
        ("demo home screen", demo, "heroFeatured", "signOut"),
        ("demo home screen", demo, "heroFeatured", "movie5"),
        ("demo home screen", demo, "heroFeatured", "moviesItems#20"),
        ("grid 100×100 (10,000 nodes)", gridScene(side: 100), "g0_0", "g99_99"),
        ("grid 100×100 (10,000 nodes)", gridScene(side: 100), "g0_0", "g50_50"),
    ]
    for (label, scene, from, to) in cases {
        var session = try SceneSession(scene: scene)
        _ = try session.focus(from)
        _ = try session.planPath(to: to)  // warm-up
        var samples: [Double] = []
        var plan: PathPlan?
        for _ in 0..<5 {
            let elapsed = clock.measure { plan = try? session.planPath(to: to) }
            samples.append(seconds(elapsed))
        }
        // The floor: the same number of engine moves, from positions all over the scene.
        let tried = (plan?.visited ?? 0) * 8
        let moves = ["up", "down", "left", "right", "next", "previous"]
        var floorSamples: [Double] = []
        for run in 0..<5 {
            var s = session
            let elapsed = clock.measure {
                var i = run
                for _ in 0..<tried {
                    _ = s.send(moves[i % moves.count])
                    i = (i &* 1_103_515_245 &+ 12_345) & 0x7fff_ffff
                }
            }
            floorSamples.append(seconds(elapsed))
        }
        let t = median(samples), f = median(floorSamples)
        print(pad(label, 30) + pad("\(from) → \(to)", 32) + pad("\(plan?.commands.count ?? -1)", 7, right: true)
              + pad(grouped(plan?.visited ?? 0), 9, right: true) + pad(format(t * 1e3, decimals: 2) + " ms", 12, right: true)
              + pad(format(f * 1e3, decimals: 2) + " ms", 12, right: true) + pad(format(t / f, decimals: 2) + "×", 8, right: true))
    }
}
