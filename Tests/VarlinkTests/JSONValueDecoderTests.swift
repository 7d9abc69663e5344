import Testing
import Varlink

private struct Scene: Codable, Equatable {
    enum Policy: String, Codable { case tvos, android }
    struct Node: Codable, Equatable {
        var id: String
        var frame: [Double]?
        var values: [String: String]?
        var children: [Node]?
    }
    var name: String
    var policy: Policy?
    var depth: UInt8
    var root: Node
}

@Suite("Decoding JSON values into Codable types")
struct JSONValueDecoderTests {
    @Test("decodes nested structs, arrays, dictionaries, optionals and enums")
    func nested() throws {
        let value: JSONValue = [
            "name": "main", "policy": "android", "depth": 3,
            "root": ["id": "r", "frame": [0, 1.5, 2, 3], "children": [["id": "a", "values": ["k": "v"]], ["id": "b", "frame": nil]]],
        ]
        let scene: Scene = try value.decode()
        #expect(scene == Scene(
            name: "main", policy: .android, depth: 3,
            root: .init(id: "r", frame: [0, 1.5, 2, 3], values: nil, children: [
                .init(id: "a", frame: nil, values: ["k": "v"], children: nil), .init(id: "b", frame: nil, values: nil, children: nil),
            ])))
        #expect(try JSONValue(encoding: scene).decode(Scene.self) == scene)
    }

    @Test("numbers convert exactly or fail, naming the parameter", arguments: [
        (JSONValue(300), "depth"), (JSONValue(1.5), "depth"), (JSONValue(-1), "depth"), (JSONValue("3"), "depth"),
    ])
    func inexactNumbers(depth: JSONValue, parameter: String) {
        let value: JSONValue = ["name": "main", "depth": depth, "root": ["id": "r"]]
        #expect(throws: VarlinkError.invalidParameter(parameter)) { try value.decodeParameters(Scene.self) }
    }

    @Test("a bad value deep inside names the top-level parameter that holds it")
    func deepError() {
        let value: JSONValue = ["name": "main", "depth": 1, "root": ["id": "r", "children": [["id": 7]]]]
        #expect(throws: VarlinkError.invalidParameter("root")) { try value.decodeParameters(Scene.self) }
        let badEnum: JSONValue = ["name": "main", "depth": 1, "policy": "ios", "root": ["id": "r"]]
        #expect(throws: VarlinkError.invalidParameter("policy")) { try badEnum.decodeParameters(Scene.self) }
        let missing: JSONValue = ["depth": 1, "root": ["id": "r"]]
        #expect(throws: VarlinkError.invalidParameter("name")) { try missing.decodeParameters(Scene.self) }
    }

    @Test("JSONValue fields decode as themselves")
    func embeddedValues() throws {
        struct Wrapper: Codable { var any: JSONValue }
        let value: JSONValue = ["any": ["x": [1, nil, "s"]]]
        #expect(try value.decode(Wrapper.self).any == ["x": [1, nil, "s"]])
    }
}
