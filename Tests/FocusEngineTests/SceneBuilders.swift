// Small builders that keep the behaviour tests readable.
@testable import FocusEngine

/// A focusable node with a frame (defaults: 100 × 50).
func button(_ id: String, _ x: Double, _ y: Double, _ w: Double = 100, _ h: Double = 50,
            bindings: [Binding]? = nil, next: [String: String]? = nil) -> Node {
    Node(id: id, frame: Rect(x: x, y: y, width: w, height: h), focusable: true, bindings: bindings, next: next)
}

/// A plain container.
func group(_ id: String, frame: Rect? = nil, section: Bool? = nil, _ children: [Node]) -> Node {
    Node(id: id, frame: frame, section: section, children: children)
}

/// A scene whose root is 1920 × 1080.
func scene(_ children: [Node], name: String = "test", policy: SearchPolicy? = nil,
           layoutDirection: LayoutDirection? = nil, sequentialWrap: Bool? = nil) -> Scene {
    Scene(name: name, root: Node(id: "root", frame: Rect(x: 0, y: 0, width: 1920, height: 1080), children: children),
          layoutDirection: layoutDirection, policy: policy, sequentialWrap: sequentialWrap)
}

/// A session focused on `id`.
func session(_ s: Scene, focus id: String? = nil) throws -> SceneSession {
    var session = try SceneSession(scene: s)
    if let id { _ = try session.focus(id) }
    return session
}

/// A deterministic generator (SplitMix64) for randomized checks.
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
