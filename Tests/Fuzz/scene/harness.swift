// libFuzzer harness: scene decoding (strict, as calls are) and validation, then the engine on
// what is accepted: moves in every direction, sequential moves, lint, an update and a removal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScene(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let json = try? JSONValue.parse(bytes), let scene = try? json.decode(Scene.self, strict: true) else { return 0 }
    let limits = Limits(maxNodes: 2000, maxDepth: 40)
    guard var session = try? SceneSession(scene: scene, limits: limits) else { return 0 }
    for direction in [Direction.right, .down, .left, .up, .next, .previous] {
        _ = try? session.move(direction)
    }
    _ = session.send("crown", detents: 3)
    _ = try? SceneSession.lint(scene, limits: limits)
    if let child = scene.root.children?.first {
        _ = try? session.update(upsert: [NodePatch(parent: scene.root.id, index: 0, node: child)], remove: [child.id])
    }
    return 0
}
