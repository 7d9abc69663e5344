// Android's own focus-search tests, replayed through the engine under policy `android`.
//
// Tests/FocusEngineTests/Android/*.json hold the rectangle cases of AOSP's FocusFinderTest and of
// Jetpack Compose's two-dimensional traversal tests, transcribed as scenes (each file's header names
// its source, commit and license, and describes the format). Every case is one scene, one focused
// node (or none), one directional move and the node that must hold focus afterwards.

import Foundation
import Testing

import FocusEngine
import FocusWire

/// One transcribed file: where it comes from and its cases.
struct AndroidCaseFile: Decodable {
    struct Source: Decodable {
        var repository: String
        var path: String
        var commit: String
        var license: String
    }

    var source: Source
    /// Added to every frame when the scene is built (the sources use negative coordinates).
    var translate: [Double]
    var cases: [AndroidCase]
}

/// A node of a transcribed layout: focusable unless `focusable` is false (a deactivated Compose box).
struct AndroidNode: Decodable, Sendable {
    var id: String
    /// x, y, width, height.
    var frame: [Double]
    var focusable: Bool?
    var children: [AndroidNode]?
}

/// One transcribed assertion as a scene and a move.
struct AndroidCase: Decodable, Sendable, CustomTestStringConvertible {
    var name: String
    var part: Int?
    var variant: String?
    var assertion: String?
    var treeOrder: String?
    var policy: SearchPolicy
    var direction: Direction
    var rootFrame: [Double]?
    var nodes: [AndroidNode]
    var focused: String?
    /// What the source expects (nil: the move finds nothing).
    var expected: String?
    /// Present when focus.md §2 as written disagrees with the source: why.
    var contradiction: String?
    /// What focus.md gives for a contradicting case (nil: blocked).
    var focusMdExpected: String?
    /// An arithmetic assertion, checked against focus.md's definitions rather than through a move.
    var formula: Bool?

    /// Filled in by the loader: the file the case came from and that file's translation.
    var file: String = ""
    var translate: [Double] = [0, 0]

    enum CodingKeys: String, CodingKey {
        case name, part, variant, assertion, treeOrder, policy, direction, rootFrame, nodes, focused
        case expected, contradiction, focusMdExpected, formula
    }

    var testDescription: String {
        var words = [file, name]
        if let part { words.append("#\(part)") }
        if let variant { words.append(variant) }
        if let treeOrder { words.append("[\(treeOrder)]") }
        words.append(direction.rawValue)
        return words.joined(separator: " ")
    }

    /// The winner the engine must choose: focus.md's where the source contradicts it.
    var winner: String? { contradiction == nil ? expected : focusMdExpected }

    func rect(_ frame: [Double]) -> Rect {
        Rect(x: frame[0] + translate[0], y: frame[1] + translate[1], width: frame[2], height: frame[3])
    }

    func node(_ node: AndroidNode) -> Node {
        Node(id: node.id, frame: rect(node.frame), focusable: node.focusable ?? true, children: node.children?.map(self.node))
    }

    /// The scene: a root (with `rootFrame`, else the bounds of the layout) holding the nodes.
    var scene: Scene {
        let children = nodes.map(node)
        let frames = allNodes.map { rect($0.frame) }
        let bounds = rootFrame.map(rect) ?? Rect(
            x: frames.map(\.minX).min() ?? 0, y: frames.map(\.minY).min() ?? 0,
            width: (frames.map(\.maxX).max() ?? 0) - (frames.map(\.minX).min() ?? 0),
            height: (frames.map(\.maxY).max() ?? 0) - (frames.map(\.minY).min() ?? 0))
        return Scene(name: "android", root: Node(id: "root", frame: bounds, children: children), policy: policy)
    }

    var allNodes: [AndroidNode] {
        func walk(_ nodes: [AndroidNode]) -> [AndroidNode] { nodes.flatMap { [$0] + walk($0.children ?? []) } }
        return walk(nodes)
    }
}

enum AndroidCases {
    /// The data directory, from the test bundle's resources.
    static var directory: URL? {
        Bundle.module.url(forResource: "Android", withExtension: nil)
    }

    /// Every transcribed file, by file name.
    static func files() throws -> [String: AndroidCaseFile] {
        guard let directory else { throw LoadError.noDirectory }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        var files: [String: AndroidCaseFile] = [:]
        for name in names {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            do {
                files[name] = try JSONDecoder().decode(AndroidCaseFile.self, from: data)
            } catch {
                throw LoadError.undecodable(file: name, reason: "\(error)")
            }
        }
        return files
    }

    /// Every case of every file (empty when the data cannot be read: `theDataLoads` reports that).
    static let all: [AndroidCase] = {
        guard let files = try? files() else { return [] }
        return files.keys.sorted().flatMap { name in
            files[name]!.cases.map { item in
                var item = item
                item.file = String(name.dropLast(".json".count))
                item.translate = files[name]!.translate
                return item
            }
        }
    }()

    static var moves: [AndroidCase] { all.filter { $0.formula != true } }
    static var formulas: [AndroidCase] { all.filter { $0.formula == true } }

    enum LoadError: Error {
        case noDirectory
        case undecodable(file: String, reason: String)
    }
}

@Suite("Android FocusFinder and Compose traversal cases")
struct AndroidPolicyTests {
    @Test("the transcribed cases load, name their source and license, and are well formed")
    func theDataLoads() throws {
        let files = try AndroidCases.files()
        #expect(files.keys.contains("aosp-FocusFinderTest.json"))
        for name in ["TwoItems", "ThreeItems", "", "InitialFocus"] {
            #expect(files.keys.contains("compose-TwoDimensionalFocusTraversal\(name)Test.json"))
        }
        for (name, file) in files {
            #expect(file.source.license == "Apache-2.0", "\(name)")
            #expect(!file.source.path.isEmpty && file.source.commit.count == 40, "\(name)")
            #expect(!file.cases.isEmpty, "\(name)")
            #expect(file.translate.count == 2, "\(name)")
            for item in file.cases {
                let ids = item.allNodes.map(\.id)
                #expect(Set(ids).count == ids.count, "\(name) \(item.name): duplicate ids")
                #expect(item.allNodes.allSatisfy { $0.frame.count == 4 }, "\(name) \(item.name)")
                for id in [item.focused, item.expected, item.focusMdExpected].compactMap({ $0 }) {
                    #expect(ids.contains(id), "\(name) \(item.name): no node '\(id)'")
                }
                #expect(item.focused != nil || item.rootFrame != nil, "\(name) \(item.name): corner start needs a root frame")
                #expect(item.contradiction == nil || item.focusMdExpected != item.expected,
                        "\(name) \(item.name): a contradiction names an outcome other than the source's")
            }
        }
        #expect(AndroidCases.all.count == files.values.map(\.cases.count).reduce(0, +))
    }

    @Test("a directional move chooses the node Android's tests expect (or focus.md's where they disagree)",
          arguments: AndroidCases.moves)
    func moveMatchesAndroid(_ item: AndroidCase) throws {
        var session = try SceneSession(scene: item.scene)
        session.searchStrategy = .spatialIndex
        _ = try session.focus(item.focused)
        let before = session.state(active: true)
        #expect(before.focused == item.focused, "the source node takes focus")

        let outcome = try session.move(item.direction)
        let after = session.state(active: true)
        let winner = item.winner
        #expect(after.focused == (winner ?? item.focused), "\(item.contradiction ?? "")")
        #expect(outcome.moved == (winner != nil))
        if winner == nil {
            #expect(outcome.events.contains { $0.kind == .blocked }, "a move that finds nothing emits blocked")
            #expect(after.revision == before.revision, "a blocked move changes nothing")
        } else {
            #expect(outcome.events.contains { $0.kind == .focus && $0.to == winner })
        }
    }

    @Test("the brute-force oracle agrees with the spatial index on every transcribed case",
          arguments: AndroidCases.moves)
    func bruteForceAgrees(_ item: AndroidCase) throws {
        var session = try SceneSession(scene: item.scene)
        session.searchStrategy = .bruteForce
        _ = try session.focus(item.focused)
        _ = try session.move(item.direction)
        #expect(session.state(active: true).focused == (item.winner ?? item.focused))
    }

    @Test("arithmetic assertions of FocusFinderTest hold for focus.md's distances", arguments: AndroidCases.formulas)
    func formulaHolds(_ item: AndroidCase) throws {
        // testGmailReplyButtonsScenario: majorAxisDistance(left, src, rect1) < majorAxisDistanceToFarEdge(left, src, rect2)
        // with focus.md's major = max(0, s.l − d.r), majorFar = max(1, s.l − d.l).
        let frames = item.nodes.map { item.rect($0.frame) }
        try #require(frames.count == 3 && item.direction == .left)
        let (source, first, second) = (frames[0], frames[1], frames[2])
        let major = max(0, source.minX - first.maxX)
        let majorFar = max(1, source.minX - second.minX)
        #expect(major < majorFar)
    }
}
