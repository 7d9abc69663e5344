import FocusEngine
import FocusWire
import Foundation
import Testing
import Varlink

@testable import FocusService
@testable import Varlink

/// `SceneBytes.updateScene` (an `UpdateScene`'s patches read straight from the bytes, without
/// the JSON tree) against the general way (the JSON parser, then `SceneDecoding.patches` or
/// strict `Decodable`), on thousands of random patch sets (a reflow's leaves, subtrees, removals)
/// with escapes, odd numbers, extra fields, nulls and byte-level mutations mixed in: whatever it
/// takes must be text the general parser accepts, read to the same patches, every double the
/// same bits; it must take every plain update `SceneDecoding` takes; Python's `json` must read
/// the same values; the service's rule for applying an update off the loop must decide the same
/// from what it read as from the tree. `FOCUSD_DIFFERENTIAL_SEED=N` replays one seed.
@Suite("UpdateScene read from its bytes against the JSON tree and Python's json")
struct UpdateBytesTests {
    /// `UpdateScene`'s parameters as strict `Decodable` reads them (and as Python is given them).
    struct Update: Codable, Equatable {
        var scene: String
        var upsert: [NodePatch]?
        var remove: [String]?
    }

    static func bytes(_ document: [UInt8], depthLimit: Int) -> Update? {
        document.withUnsafeBytes { SceneBytes.updateScene(document: $0, depthLimit: depthLimit) }.map {
            Update(scene: $0.scene, upsert: $0.upsert, remove: $0.remove)
        }
    }

    /// What the general way makes of `document`: nil when the JSON parser rejects it; else its
    /// tree, SceneDecoding's patches and strict Decodable's (nil: refused).
    static func general(_ document: [UInt8], depthLimit: Int) -> (tree: JSONValue, fast: Update?, decodable: Update?)? {
        guard let value = try? JSONValue.parse(document, depthLimit: depthLimit) else { return nil }
        let fast = SceneDecoding.patches(parameters: value).map { Update(scene: $0.scene, upsert: $0.upsert, remove: $0.remove) }
        return (value, fast, try? value.decode(Update.self, strict: true))
    }

    static func bits(_ update: Update) -> [UInt64] { (update.upsert ?? []).flatMap { SceneBytesTests.bits($0.node) } }

    /// The disagreements between the byte reader and the general way on `documents`, with what was
    /// taken; besides the readings, the rule for applying an update off the loop must decide the
    /// same from either, and each node's value count must be its tree's.
    static func compare(
        _ documents: [[UInt8]], depthLimit: Int, reader: ([UInt8], Int) -> Update? = { bytes($0, depthLimit: $1) }
    ) -> (problems: [(Int, String)], taken: [Int]) {
        SceneBytesTests.differences(
            documents, read: { reader($0, depthLimit) }, general: { general($0, depthLimit: depthLimit) }, bits: bits,
            noun: "update"
        ) { fast, tree in
            let decoded = SceneDecoding.DecodedUpdate(scene: fast.scene, upsert: fast.upsert, remove: fast.remove)
            for limit in [1, 2, 3, 5, 8, 13, 40, 100, 400, 4_096]
            where FocusInterface.isLargeUpdate(tree, limit: limit) != FocusInterface.isLargeUpdate(decoded, limit: limit) {
                return "the off-loop rule decides otherwise at \(limit) values"
            }
            for (patch, node) in zip(fast.upsert ?? [], tree["upsert"]?.arrayValue ?? [])
            where SceneDecoding.valueCount(patch.node, limit: .max) != FocusInterface.valueCount(node["node"]!, limit: .max) {
                return "a node's value count differs from its tree's"
            }
            return nil
        }
    }

    @Test("random and mutated updates: what SceneBytes takes, the general way reads to the same patches, and the off-loop rule agrees")
    func agreesWithTheTree() throws {
        SceneBytesTests.expectAgreement(depthLimits: [512, 6], document: { $0.updateDocument() }) { Self.compare($0, depthLimit: $1) }
    }

    @Test("the comparison notices other patches, text the parser rejects, a missed plain update and another off-loop decision")
    func comparisonCanFail() throws {
        let good = Array(#"{"scene":"s","upsert":[{"parent":"r","index":2,"node":{"id":"a","frame":{"x":1,"y":2,"width":3,"height":4}}}],"remove":["b"]}"#.utf8)
        #expect(Self.compare([good], depthLimit: 512).problems.isEmpty)
        #expect(Self.compare([good], depthLimit: 512).taken == [0])
        let update = try #require(Self.bytes(good, depthLimit: 512))
        var moved = update
        moved.upsert![0].index = 3
        var grown = update
        grown.remove = (0..<50).map { "r\($0)" }
        #expect(Self.compare([good], depthLimit: 512, reader: { _, _ in moved }).problems.count == 2)
        #expect(Self.compare([Array(good.dropLast())], depthLimit: 512, reader: { _, _ in update }).problems.map(\.1) == ["SceneBytes took text the JSON parser rejects"])
        #expect(Self.compare([good], depthLimit: 512, reader: { _, _ in nil }).problems.map(\.1) == ["SceneDecoding took it, SceneBytes did not"])
        #expect(Self.compare([good], depthLimit: 512, reader: { _, _ in grown }).problems.map(\.1).contains("the off-loop rule decides otherwise at 13 values"))
        // Nesting: the node is at depth 4 (parameters 1, upsert 2, patch 3), its frame at 5.
        #expect(Self.bytes(good, depthLimit: 4) == nil && Self.general(good, depthLimit: 4) == nil)
        #expect(Self.bytes(good, depthLimit: 5) != nil && Self.general(good, depthLimit: 5) != nil)
    }

    @Test("what SceneBytes takes of updates, Python's json accepts and reads to the same values")
    func agreesWithPython() throws {
        try SceneBytesTests.expectPythonAgreement(document: { $0.updateDocument() }) { document in
            try Self.bytes(document, depthLimit: 512).map { try JSONTextEncoder().encode($0) }
        }
    }

    @Test("the whole call: VarlinkCall.large with SceneDecoding.largeCalls reads an UpdateScene as the general parse of the message does")
    func wholeCallAgrees() throws {
        SceneBytesTests.expectWholeCalls(method: "io.focusd.Focus.UpdateScene", document: { $0.updateDocument() }) { large, general, text in
            let decoded = large.decoded as? SceneDecoding.DecodedUpdate
            let reference = SceneDecoding.patches(parameters: general.parameters)
            #expect(decoded != nil && reference != nil, "\(text)")
            if let decoded, let reference {
                #expect(decoded.scene == reference.scene && decoded.upsert == reference.upsert && decoded.remove == reference.remove, "\(text)")
            }
            // What dispatch and the wait queues read: the scene's name (the other members are declared).
            #expect(large.call.parameters["scene"] == general.parameters["scene"], "\(text)")
            #expect(large.call.parameters.objectValue?.keys.sorted() == ["scene"])
        }
    }
}

extension SceneTextGenerator {
    /// A whole `UpdateScene` parameters text: a reflow's leaves, small subtrees with an index,
    /// removals; some with what the byte reader leaves to the general way; some mutated.
    mutating func updateDocument() -> [UInt8] {
        var top: [(String, String)] = [("scene", odd(1) ? pick(["5", "null", "{}"]) : string())]
        if chance(85) {
            var patches: [String] = []
            for _ in 0..<below(chance(10) ? 60 : 8) {
                var patch = [("parent", odd(1) ? pick(["null", "1"]) : string()), ("node", odd(1) ? "null" : node(depth: plain || chance(70) ? 5 : 3))]
                if chance(25) {
                    let odd = ["1.5", "3.0", "1e2", "-0", "null", "\"3\"", "99999999999999999999", "999999999999999999", "-12", "01"]
                    patch.append(("index", self.odd(10) ? pick(odd) : String(below(50))))
                }
                if odd(1) { patch.append(pick([("before", "\"a\""), ("parent", "\"p\"")])) }
                if odd(1) { patch.removeFirst() }
                patches.append(odd(1) ? pick(["null", "[]", "1"]) : object(patch))
            }
            top.append(("upsert", odd(1) ? pick(["null", "{}", "\"a\""]) : "[" + patches.map { space() + $0 + space() }.joined(separator: ",") + "]"))
        }
        if chance(40) {
            let ids = (0..<below(6)).map { _ in string() }
            top.append(("remove", odd(3) ? pick(["null", "[1]", "\"a\"", "[null]"]) : "[" + ids.joined(separator: ",") + "]"))
        }
        if odd(2) { top.append(pick([("other", "1"), ("scene", "\"again\"")])) }
        if odd(2) { top.removeFirst() }
        var bytes = Array((space() + object(top) + space()).utf8)
        if odd(40) { mutate(&bytes) }
        return bytes
    }
}
