// libFuzzer harness: `SceneBytes` (SetScene parameters read straight from their bytes) against
// the general way (the JSON parser, then strict `Decodable`). Whatever `SceneBytes` takes must
// be valid JSON the general parser accepts and decodes to the same scene, every double the same
// bits; anything else it must leave alone (nil), never crash or read out of bounds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSceneBytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for depthLimit in [512, 6] {
        let fast = bytes.withUnsafeBytes { SceneBytes.setScene(document: $0, depthLimit: depthLimit) }
        guard let fast else { continue }
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
    return 0
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
