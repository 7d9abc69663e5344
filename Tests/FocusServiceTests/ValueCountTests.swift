import FocusEngine
import FocusWire
import Testing
import Varlink

@testable import FocusService

/// `SetScene`'s rule for building off the loop counts the scene's values on the loop, up to a
/// limit (``SceneDecoding/valueCount(_:limit:)``). It ran on over all 100,000 children of the
/// hostile bench's grid after reaching the limit (3-4 ms of the loop per call, found in a
/// profile of focusd's loop thread); the cost is watched by `ServiceBench --hostile`'s rows of
/// 100,000 nodes, these tests hold what the count says.
struct ValueCountTests {
    static func wide(_ count: Int) -> Node {
        Node(id: "root", frame: Rect(x: 0, y: 0, width: 1920, height: 1080), children: (0..<count).map {
            Node(id: "t\($0)", frame: Rect(x: Double($0 % 300) * 6, y: Double($0 / 300) * 3, width: 5, height: 2), focusable: true)
        })
    }

    @Test("a wide scene's value count stops within one child of the limit, and agrees with its JSON tree's below it")
    func wideSceneCountStopsAtTheLimit() throws {
        let root = Self.wide(100_000)
        // The object, its id, its frame (5), the children array; each child 2 + 5 + 1.
        #expect(SceneDecoding.valueCount(root, limit: .max) == 8 + 100_000 * 8)
        for limit in [1, 9, 100, 4_096, 50_000] {
            let count = SceneDecoding.valueCount(root, limit: limit)
            #expect(count >= limit && count < limit + 8, "limit \(limit): \(count)")
        }
        let small = Self.wide(30)
        let tree = try JSONValue(encoding: small)
        #expect(SceneDecoding.valueCount(small, limit: .max) == FocusInterface.valueCount(tree, limit: .max))
    }
}
