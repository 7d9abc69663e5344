// libFuzzer harness: `SceneBytes` (SetScene and UpdateScene parameters read straight from their
// bytes) against the general way (the JSON parser, then strict `Decodable`). Whatever
// `SceneBytes` takes must be valid JSON the general parser accepts and decodes to the same scene
// or patches, every double the same bits; anything else it must leave alone (nil), never crash
// or read out of bounds. Each input is tried as both methods' parameters.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSceneBytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for depthLimit in [512, 6] {
        if let fast = bytes.withUnsafeBytes({ SceneBytes.setScene(document: $0, depthLimit: depthLimit) }) {
            guard let json = try? JSONValue.parse(bytes, depthLimit: depthLimit) else {
                fatalError("SceneBytes took text the JSON parser rejects")
            }
            guard let reference = try? json.decode([String: Scene].self, strict: true)["scene"] else {
                fatalError("SceneBytes took parameters Decodable rejects")
            }
            guard fast == reference, bits(fast.root) == bits(reference.root) else {
                fatalError("SceneBytes read another scene than Decodable")
            }
        }
        if let update = bytes.withUnsafeBytes({ SceneBytes.updateScene(document: $0, depthLimit: depthLimit) }) {
            guard let json = try? JSONValue.parse(bytes, depthLimit: depthLimit) else {
                fatalError("SceneBytes took an update the JSON parser rejects")
            }
            guard let reference = try? json.decode(UpdateParameters.self, strict: true) else {
                fatalError("SceneBytes took UpdateScene parameters Decodable rejects")
            }
            guard reference.scene == update.scene, reference.upsert == update.upsert, reference.remove == update.remove,
                (reference.upsert ?? []).flatMap({ bits($0.node) }) == (update.upsert ?? []).flatMap({ bits($0.node) })
            else { fatalError("SceneBytes read other patches than Decodable") }
        }
    }
    return 0
}

/// `UpdateScene`'s parameters as the service decodes them the general way.
private struct UpdateParameters: Decodable {
    var scene: String
    var upsert: [NodePatch]?
    var remove: [String]?
}

/// Every frame's doubles as bits, in tree order (`==` takes -0.0 for 0.0).
private func bits(_ node: Node) -> [UInt64] {
    var out: [UInt64] = []
    func visit(_ node: Node) {
        if let frame = node.frame { out += [frame.x, frame.y, frame.width, frame.height].map(\.bitPattern) }
        for child in node.children ?? [] { visit(child) }
    }
    visit(node)
    return out
}
