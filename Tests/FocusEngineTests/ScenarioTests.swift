// Text scenarios (Tests/FocusEngineTests/Scenarios/*.txt) a reader can follow: each line a command
// or an expectation, run through the engine. The format is described at the top of each file.
import Foundation
import Testing
@testable import FocusEngine
import FocusWire

@Suite("Text scenarios")
struct ScenarioTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scenarios")
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("the home screen scenario: hold right across unbuilt items, down, back up to the remembered item")
    func homeScreen() throws {
        try run("home-screen.txt")
    }

    func run(_ file: String) throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
        var session: SceneSession?
        var last: [Event] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let words = line.split(separator: " ").map(String.init)
            let at = "\(file):\(number + 1): \(line)"
            switch words[0] {
            case "scene":
                let data = try Data(contentsOf: Self.packageRoot.appendingPathComponent(words[1]))
                session = try SceneSession(scene: JSONDecoder().decode(Scene.self, from: data))
                last = []
            case "send":
                let times = words.count >= 4 && words[2] == "×" ? Int(words[3])! : 1
                last = []
                for _ in 0..<times { last += session!.send(words[1]).events }
            case "focus":
                last = try session!.focus(words[1]).events
            case "build":
                let node = Node(id: words[2], focusable: true, interactions: [.activate],
                                values: ["title": "built \(words[3])"], index: Int(words[3])!)
                last = try session!.update(upsert: [NodePatch(parent: words[1], node: node)], remove: []).events
            case "expect":
                let state = session!.state(active: true)
                let rest = Array(words.dropFirst(2))
                switch words[1] {
                case "focused": #expect(state.focused == rest[0], "\(at)")
                case "path": #expect(state.path.joined(separator: " < ") == rest.joined(separator: " "), "\(at): \(state.path)")
                case "scroll":
                    let offset = state.scroll.first { $0.node == rest[0] }
                    #expect(offset?.offsetX == Double(rest[1]) && offset?.offsetY == Double(rest[2]), "\(at): \(String(describing: offset))")
                case "events": #expect(last.map(\.kind.rawValue) == rest, "\(at): \(last.map(\.kind.rawValue))")
                case "materialized": #expect(last.filter { $0.kind == .materialize }.count == Int(rest[0]), "\(at)")
                default: Issue.record("\(at): unknown expectation")
                }
            default:
                Issue.record("\(at): unknown command")
            }
        }
    }
}
