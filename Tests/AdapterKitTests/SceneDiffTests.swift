import FocusEngine
import FocusWire
import Foundation
import SystemCalls
import Testing
import Varlink

@testable import AdapterKit

/// The diffs AdapterKit sends, checked against a real focusd: after the patches (and ScrollTos)
/// the daemon's scene (`io.focusd.Inspect.GetScene`) is exactly the new tree.
@Suite("SceneDiff against focusd")
struct SceneDiffTests {
    /// A random tree of at most `budget` nodes drawn from a small id pool (so trees share ids).
    static func randomTree(_ generator: inout SystemRandomNumberGenerator, pool: [String], depth: Int = 0) -> Node {
        var used = Set<String>()
        func make(_ id: String, depth: Int) -> Node {
            var node = Node(id: id, frame: Rect(x: Double(Int.random(in: 0..<4, using: &generator) * 100), y: 0, width: 80, height: 80))
            if Bool.random(using: &generator) { node.focusable = true }
            if depth < 3, Int.random(in: 0..<3, using: &generator) > 0 {
                var children: [Node] = []
                for _ in 0..<Int.random(in: 0...4, using: &generator) {
                    guard let child = pool.shuffled(using: &generator).first(where: { !used.contains($0) }) else { break }
                    used.insert(child)
                    children.append(make(child, depth: depth + 1))
                }
                if !children.isEmpty { node.children = children }
                if Int.random(in: 0..<4, using: &generator) == 0 {
                    node.scroll = Scroll(axis: .both, contentWidth: 2000, contentHeight: 2000,
                                         offsetX: Double(Int.random(in: 0..<3, using: &generator) * 10), offsetY: 0)
                }
            }
            return node
        }
        used.insert("root")
        return make("root", depth: 0)
    }

    /// A tree with small edits of `tree`: nodes dropped, added, reordered, changed, scrolled.
    static func edit(_ tree: Node, _ generator: inout SystemRandomNumberGenerator, fresh: inout Int) -> Node {
        var node = tree
        if node.id != "root", Int.random(in: 0..<6, using: &generator) == 0 { node.frame?.x += 5 }
        if node.scroll != nil, Bool.random(using: &generator) { node.scroll?.offsetX = Double(Int.random(in: 0..<5, using: &generator) * 7) }
        guard var children = node.children else { return node }
        children = children.filter { _ in Int.random(in: 0..<6, using: &generator) > 0 }
        if Int.random(in: 0..<4, using: &generator) == 0 { children.shuffle(using: &generator) }
        children = children.map { edit($0, &generator, fresh: &fresh) }
        if Int.random(in: 0..<3, using: &generator) == 0 {
            fresh += 1
            children.insert(Node(id: "new\(fresh)", frame: Rect(x: 0, y: 0, width: 10, height: 10), focusable: true),
                            at: Int.random(in: 0...children.count, using: &generator))
        }
        node.children = children.isEmpty ? nil : children
        return node
    }

    /// Comparable form: frames, focusable, scroll offsets (from `offsets` when given: focusd's
    /// state holds the live ones) and children.
    static func shape(_ value: JSONValue?, offsets: [String: Double]? = nil) -> String {
        guard let value else { return "nil" }
        let children = value["children"]?.arrayValue?.map { shape($0, offsets: offsets) }.joined(separator: ",") ?? ""
        let frame = value["frame"].map { String(decoding: $0.serialized(), as: UTF8.self) } ?? ""
        let id = value["id"]?.stringValue ?? "?"
        let scroll = value["scroll"].map { offsets == nil ? "s\($0["offsetX"]?.doubleValue ?? 0)" : "s" } ?? ""
        return "\(value["id"]?.stringValue ?? "?")\(frame)\(value["focusable"]?.boolValue == true ? "F" : "")\(scroll)[\(children)]"
    }

    static func shape(_ node: Node, offsets: [String: Double]? = nil) -> String { shape(try? JSONValue(encoding: node), offsets: offsets) }

    static func offsets(_ node: Node, into result: inout [String: Double]) {
        if let scroll = node.scroll { result[node.id] = scroll.offsetX ?? 0 }
        for child in node.children ?? [] { offsets(child, into: &result) }
    }

    /// Random trees through a real focusd, `rounds` scenes of four random edits each: `send` makes
    /// focusd's scene (the old tree) the edited one and says whether it sent an update; after
    /// each, focusd's scene must be exactly the edited tree. Returns how many updates were sent.
    static func editRounds(_ rounds: Int, send: (VarlinkClient, String, Node, Node) throws -> Bool) throws -> Int {
        let daemon = try TestFocusd()
        defer { daemon.stop() }
        let client = try VarlinkClient(path: daemon.socket)
        var generator = SystemRandomNumberGenerator()
        let pool = (0..<14).map { "n\($0)" }
        var fresh = 0
        var updates = 0
        for round in 0..<rounds {
            let name = "edits\(round)"
            var root = randomTree(&generator, pool: pool)
            try client.call("io.focusd.Focus.SetScene", ["scene": try JSONValue(encoding: Scene(name: name, root: root))])
            for _ in 0..<4 {
                let next = edit(root, &generator, fresh: &fresh)
                if try send(client, name, root, next) { updates += 1 }
                let held = try client.call("io.focusd.Inspect.GetScene", ["scene": .string(name)])
                // Offsets are compared apart: focusd itself scrolls to keep focus visible.
                #expect(shape(held["scene"]?["root"], offsets: [:]) == shape(next, offsets: [:]), "round \(round)")
                root = next
            }
            try client.call("io.focusd.Focus.RemoveScene", ["scene": .string(name)])
        }
        return updates
    }

    @Test("random edits applied as UpdateScene and ScrollTo give focusd exactly the new tree")
    func diffsReproduceTheNewTree() throws {
        let updates = try Self.editRounds(120) { client, name, old, new in
            switch SceneDiff.changes(from: Scene(name: name, root: old), to: Scene(name: name, root: new)) {
            case .none:
                #expect(Self.shape(old) == Self.shape(new))
                return false
            case .replace:
                try client.call("io.focusd.Focus.SetScene", ["scene": try JSONValue(encoding: Scene(name: name, root: new))])
                return false
            case .update(let upsert, let remove, let scroll):
                // A ScrollTo for exactly the kept containers whose offset changed.
                var before: [String: Double] = [:], after: [String: Double] = [:]
                Self.offsets(old, into: &before)
                Self.offsets(new, into: &after)
                var sentWhole: [String: Double] = [:]
                for patch in upsert { Self.offsets(patch.node, into: &sentWhole) }
                for offset in scroll { #expect(after[offset.node] == offset.offsetX && before[offset.node] != offset.offsetX) }
                let expected = after.filter { before[$0.key] != nil && before[$0.key] != $0.value }.keys
                for id in expected where sentWhole[id] == nil { #expect(scroll.contains { $0.node == id }, "\(id) scrolled") }
                try client.call("io.focusd.Focus.UpdateScene", [
                    "scene": .string(name), "upsert": try JSONValue(encoding: upsert), "remove": .array(remove.map { .string($0) }),
                ])
                for offset in scroll {
                    try client.call("io.focusd.Focus.ScrollTo", [
                        "scene": .string(name), "node": .string(offset.node), "offsetX": .double(offset.offsetX), "offsetY": .double(offset.offsetY),
                    ])
                }
                return true
            }
        }
        #expect(updates > 100)
    }

    @Test("a changed root or a node moved to another parent needs a whole SetScene")
    func rootChangesAndMovesReplace() {
        let a = Node(id: "a", frame: Rect(x: 0, y: 0, width: 1, height: 1))
        let old = Scene(name: "s", root: Node(id: "root", frame: Rect(x: 0, y: 0, width: 10, height: 10), children: [
            Node(id: "p", children: [a]), Node(id: "q"),
        ]))
        var grown = old
        grown.root.frame?.height = 20
        #expect(SceneDiff.changes(from: old, to: grown) == .replace)
        var moved = old
        moved.root.children = [Node(id: "p"), Node(id: "q", children: [a])]
        #expect(SceneDiff.changes(from: old, to: moved) == .replace)
        #expect(SceneDiff.changes(from: old, to: old) == .none)
    }
}

/// A `focusd --no-devices` on a socket in a fresh directory, for AdapterKit's tests.
final class TestFocusd: @unchecked Sendable {
    let directory: String
    let socket: String
    let process = Process()

    init(socket: String? = nil) throws {
        directory = NSTemporaryDirectory() + "adapterkit-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        self.socket = socket ?? directory + "/run/focusd.sock"
        try start()
    }

    static var binary: String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path + "/.build/debug/focusd"
    }

    func start() throws {
        let process = self.process.isRunning || self.process.processIdentifier != 0 ? Process() : self.process
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["--socket", socket, "--no-devices"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        current = process
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if Posix.isListening(path: socket) { return }
            usleep(10_000)
        }
        throw TestFocusdFailure(text: "focusd did not come up at \(socket)")
    }

    private(set) var current: Process?

    func stop() {
        guard let current, current.isRunning else { return }
        kill(current.processIdentifier, SIGTERM)
        current.waitUntilExit()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

struct TestFocusdFailure: Error, CustomStringConvertible {
    var text: String
    var description: String { text }
}
