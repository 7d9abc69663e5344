// `FocusBench --profile WHAT [N]`: one workload of the §12 figures and nothing else, for
// `valgrind --tool=callgrind --toggle-collect='*profileRun*'` (instruction counts are repeatable on
// a shared machine where wall-clock figures are not). WHAT is `billion` (N moves of the walk from
// `catalog#500000004` in the 10^9-item grid inside a scroll container), `small` (N moves of the
// same walk in the 1,000-node scene) or `scroll10` / `scroll10000` (N ScrollTo calls back and forth
// on a rail holding 10 or 10,000 built items).
import FocusEngine

/// An 8-column grid of 10^9 slots inside a vertical page scroll container (the §12 move figure).
func billionScene(scrolled: Bool = true) -> Scene {
    let collection = Node(
        id: "catalog", frame: Rect(x: 60, y: 100, width: 0, height: 0),
        collection: Collection(count: 1_000_000_000, layout: .grid, itemWidth: 200, itemHeight: 112, spacing: 20, columns: 8))
    let page = Node(
        id: "page", frame: Rect(x: 0, y: 0, width: 1920, height: 1080),
        scroll: Scroll(axis: .vertical, contentWidth: 1920, contentHeight: 132 * 125_000_000 + 200), children: [collection])
    let name = scrolled ? "billion" : "bare"
    return Scene(name: name, root: Node(id: "root", frame: Rect(x: 0, y: 0, width: 1920, height: 1080),
                                        children: [scrolled ? page : collection]))
}

/// A root holding a horizontal rail scroll container of `built` items (the §12 scroll figure).
func railScene(built: Int) -> Scene {
    let items = (0..<built).map { i in
        Node(id: "i\(i)", frame: Rect(x: Double(i) * 220, y: 0, width: 200, height: 112), focusable: true)
    }
    let rail = Node(
        id: "rail", frame: Rect(x: 0, y: 100, width: 1920, height: 112),
        scroll: Scroll(axis: .horizontal, contentWidth: Double(max(built, 10)) * 220, contentHeight: 112), children: items)
    return Scene(name: "rail", root: Node(id: "root", frame: Rect(x: 0, y: 0, width: 1920, height: 1080), children: [rail]))
}

@inline(never)
func profileRun(_ session: inout SceneSession, moves: [Direction], scrolls: Int) throws {
    for direction in moves { _ = try session.move(direction) }
    for step in 0..<scrolls { _ = try session.scrollTo("rail", offsetX: step % 2 == 0 ? 100 : 0, offsetY: 0) }
}

func profileBench(_ what: String, count: Int) throws {
    var session: SceneSession
    var moves: [Direction] = []
    var scrolls = 0
    switch what {
    case "billion":
        session = try SceneSession(scene: billionScene())
        _ = try session.focus("catalog#500000004")
        moves = walk(count, seed: 100)
    case "small":
        let (scene, start, _) = tvScene(nodes: 1_000)
        session = try SceneSession(scene: scene)
        _ = try session.focus(start)
        moves = walk(count, seed: 100)
    case "scroll10", "scroll10000":
        session = try SceneSession(scene: railScene(built: what == "scroll10" ? 10 : 10_000))
        scrolls = count
    default:
        print("FocusBench --profile: WHAT is billion, small, scroll10 or scroll10000")
        return
    }
    try profileRun(&session, moves: moves, scrolls: scrolls)
    print("FocusBench --profile \(what) \(count): focused \(session.focused() ?? "nothing"), revision \(session.revision)")
}
