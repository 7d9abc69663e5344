// Runs every reference example (Tests/FocusEngineTests/Examples, a copy of shared/examples) through
// SceneSession alone, checking `expect`, `emits` and `emitsNothing` as the examples' README says.
import Foundation
import Testing
@testable import FocusEngine
import FocusWire

/// Loads and runs the reference examples.
enum ExampleRunner {
    static var folder: URL {
        Bundle.module.url(forResource: "Examples", withExtension: nil)!
    }

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted()
    }

    static func decode<T: Decodable>(_ type: T.Type, _ any: Any) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONSerialization.data(withJSONObject: any, options: [.fragmentsAllowed]))
    }

    /// `nil` for absent or JSON null.
    static func opt<T>(_ params: [String: Any], _ key: String) -> T? {
        params[key] is NSNull ? nil : params[key] as? T
    }

    /// Runs one file; returns the failures, each naming the step.
    static func run(_ file: String) throws -> [String] {
        let data = try Data(contentsOf: folder.appendingPathComponent(file))
        let json = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        var session = try SceneSession(scene: try decode(Scene.self, json["scene"]!))
        var failures: [String] = []
        for (n, step) in (json["steps"] as? [[String: Any]] ?? []).enumerated() {
            let params = step["params"] as? [String: Any] ?? [:]
            let revisionBefore = session.revision
            let track: Track = (opt(params, "track") as String?).flatMap(Track.init(rawValue:)) ?? .main
            var outcome = Outcome()
            func fail(_ s: String) { failures.append("\(file) step \(n) (\(step["call"] ?? "state")): \(s)") }
            do {
                switch step["call"] as? String {
                case nil: break
                case "Move":
                    outcome = try session.move(Direction(rawValue: params["direction"] as! String)!, wrap: opt(params, "wrap"), track: track)
                case "Focus":
                    outcome = try session.focus(opt(params, "id"), track: track)
                case "SetBinding":
                    outcome = try session.setBinding(name: params["name"] as! String, isTrue: opt(params, "isTrue"),
                                                     value: opt(params, "value"), track: track)
                case "ResetFocus":
                    outcome = try session.resetFocus(scope: opt(params, "scope"))
                case "Send":
                    outcome = session.send(params["command"] as! String, detents: opt(params, "detents"))
                case "SetScene":
                    outcome = try session.replace(with: decode(Scene.self, params["scene"]!))
                case "UpdateScene":
                    outcome = try session.update(upsert: decode([NodePatch].self, params["upsert"] ?? []),
                                                 remove: opt(params, "remove") ?? [])
                case let other:
                    fail("unknown call \(other ?? "")")
                }
            } catch {
                fail("threw \(error)")
                continue
            }
            let state = session.state(active: true)
            let expect = step["expect"] as? [String: Any] ?? [:]
            for (key, want) in expect {
                switch key {
                case "focused":
                    if state.focused != (want as? String) { fail("focused \(state.focused ?? "nil") != \(want)") }
                case "accessibilityFocused":
                    if state.accessibilityFocused != (want as? String) { fail("accessibilityFocused \(state.accessibilityFocused ?? "nil") != \(want)") }
                case "path":
                    if state.path != (want as? [String]) { fail("path \(state.path) != \(want)") }
                case "bindings", "accessibilityBindings":
                    let list = key == "bindings" ? state.bindings : state.accessibilityBindings
                    for (name, v) in want as? [String: Any] ?? [:] {
                        guard let b = list.first(where: { $0.name == name }) else { fail("no binding \(name)"); continue }
                        let ok: Bool
                        if v is NSNull { ok = b.value == nil && b.isTrue != true }
                        else if let s = v as? String { ok = b.value == s }
                        else if let t = v as? Bool { ok = b.isTrue == t }
                        else { ok = false }
                        if !ok { fail("\(key).\(name) = \(b) != \(v)") }
                    }
                case "focusedValues":
                    if state.focusedValues != (want as? [String: String]) { fail("focusedValues \(state.focusedValues) != \(want)") }
                case "sceneValues":
                    if state.sceneValues != (want as? [String: String]) { fail("sceneValues \(state.sceneValues) != \(want)") }
                case "focusEffectEnabled":
                    if state.focusEffectEnabled != (want as? Bool) { fail("focusEffectEnabled \(state.focusEffectEnabled) != \(want)") }
                case "moved":
                    if outcome.moved != (want as? Bool) { fail("moved \(outcome.moved) != \(want)") }
                case "consumed":
                    if outcome.consumed != (want as? Bool) { fail("consumed \(outcome.consumed) != \(want)") }
                case "warns":
                    if !outcome.warnings.isEmpty != (want as? Bool) { fail("warnings \(outcome.warnings) vs warns \(want)") }
                default:
                    fail("unknown expectation \(key)")
                }
            }
            if let emits = step["emits"] as? [String] {
                var kinds = outcome.events.map(\.kind.rawValue)[...]
                for k in emits {
                    guard let i = kinds.firstIndex(of: k) else { fail("missing event \(k) in \(outcome.events.map(\.kind.rawValue))"); break }
                    kinds = kinds[(i + 1)...]
                }
            }
            if step["emitsNothing"] as? Bool == true {
                if !outcome.events.isEmpty || session.revision != revisionBefore { fail("expected no events, got \(outcome.events.map(\.kind.rawValue))") }
            }
            for e in outcome.events where e.revision != session.revision { fail("event \(e.kind) carries revision \(e.revision), not \(session.revision)") }
        }
        return failures
    }
}

@Suite("Reference examples")
struct ExamplesTests {
    @Test("the examples folder holds the reference examples")
    func examplesArePresent() {
        #expect(ExampleRunner.files.count >= 19)
    }

    @Test("every reference example behaves as it says", arguments: ExampleRunner.files)
    func example(_ file: String) throws {
        let failures = try ExampleRunner.run(file)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test("the test copy of the examples equals shared/examples")
    func copyMatchesShared() throws {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let shared = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/examples")
        guard FileManager.default.fileExists(atPath: shared.path) else { return }
        let sharedFiles = try FileManager.default.contentsOfDirectory(atPath: shared.path).sorted()
        let copyFiles = try FileManager.default.contentsOfDirectory(atPath: ExampleRunner.folder.path).sorted()
        #expect(sharedFiles == copyFiles)
        for f in sharedFiles where copyFiles.contains(f) {
            let a = try Data(contentsOf: shared.appendingPathComponent(f))
            let b = try Data(contentsOf: ExampleRunner.folder.appendingPathComponent(f))
            #expect(a == b, "\(f) differs from shared/examples")
        }
    }
}
