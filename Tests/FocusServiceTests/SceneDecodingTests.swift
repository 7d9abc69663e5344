import FocusEngine
import FocusWire
import Foundation
import Testing
import Varlink

@testable import FocusService

/// The fast reader of `SetScene`/`UpdateScene` parameters agrees with `Decodable` wherever it
/// reads anything, and leaves everything else to it.
@Suite("Scene parameters read without Decodable")
struct SceneDecodingTests {
    static func examples() throws -> [JSONValue] {
        let directory = ServiceTestPaths.examples
        return try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }.sorted().map { name in
            let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
            return try #require(JSONValue.parse(Array(text.utf8))["scene"])
        }
    }

    @Test("every reference example scene reads as Decodable reads it, or is left to Decodable")
    func examplesAgree() throws {
        var taken = 0
        for scene in try Self.examples() {
            let parameters: JSONValue = ["scene": scene]
            let expected = try parameters.decode([String: Scene].self, strict: true)["scene"]
            if let fast = SceneDecoding.scene(parameters: parameters) {
                taken += 1
                #expect(fast == expected)
            }
        }
        #expect(taken >= 5, "the fast reader took only \(taken) of the examples: it shows nothing")
    }

    @Test("a grid of plain nodes is read by the fast reader, with the same scene as Decodable's")
    func plainGrid() throws {
        let parameters: JSONValue = ["scene": TestScenes.grid("g", columns: 30, rows: 20)]
        let fast = try #require(SceneDecoding.scene(parameters: parameters))
        #expect(fast == (try parameters.decode([String: Scene].self, strict: true)["scene"]))
        #expect(fast.root.children?.count == 600)
    }

    @Test("anything else is left to Decodable: an unknown field, a null, a wrong type, a missing id, another parameter")
    func leftToDecodable() throws {
        let tile: JSONValue = ["id": "a", "focusable": true, "frame": TestScenes.frame(0, 0, 10, 10)]
        func scene(_ child: JSONValue) -> JSONValue { ["scene": ["name": "s", "root": ["id": "root", "children": [child]]]] }
        #expect(SceneDecoding.scene(parameters: scene(tile)) != nil)
        for bad: JSONValue in [
            ["id": "a", "focusible": true], ["id": "a", "focusable": nil], ["id": "a", "focusable": "yes"], ["focusable": true],
            ["id": "a", "frame": ["x": 0, "y": 0, "width": 1]], ["id": "a", "frame": ["x": 0, "y": 0, "width": 1, "height": "2"]],
            ["id": 5],
        ] {
            #expect(SceneDecoding.scene(parameters: scene(bad)) == nil, "\(bad)")
        }
        #expect(SceneDecoding.scene(parameters: ["scene": ["name": "s", "root": tile], "extra": 1]) == nil)
        #expect(SceneDecoding.patches(parameters: ["scene": "s", "upsert": [["parent": "root", "node": tile, "index": 1.5]]]) == nil)
        let patches = try #require(SceneDecoding.patches(parameters: ["scene": "s", "upsert": [["parent": "root", "index": 2, "node": tile]], "remove": ["b"]]))
        #expect(patches.scene == "s" && patches.remove == ["b"])
        #expect(patches.upsert == [NodePatch(parent: "root", index: 2, node: try tile.decode(Node.self, strict: true))])
    }
}
