import FocusEngine
import FocusWire
import Foundation
import Testing
import Varlink

@testable import FocusService
@testable import Varlink

/// `SceneBytes` (a large `SetScene` read straight from its bytes, without the JSON tree) against
/// the general way (the JSON parser, then `SceneDecoding` or strict `Decodable`), on thousands
/// of random plain scenes, with escapes, odd numbers, extra fields, nulls and deep nesting
/// mixed in, and byte-level mutations of them: whatever it takes must be text the general
/// parser accepts and read to the same scene, every double the same bits, and it must take
/// every plain scene without escapes the general way takes through `SceneDecoding`. Python's
/// `json` (with focusd's rules: no key twice, finite numbers) must accept what it takes and
/// read the same values. The whole call is held to the general way too: the envelope around
/// the parameters, through `VarlinkCall.large` and `SceneDecoding.largeCalls`.
/// `FOCUSD_DIFFERENTIAL_SEED=N` replays one seed.
@Suite("SetScene read from its bytes against the JSON tree and Python's json")
struct SceneBytesTests {
    static let documentsPerSeed = 2000

    static var seeds: [UInt64] {
        if let fixed = ProcessInfo.processInfo.environment["FOCUSD_DIFFERENTIAL_SEED"].flatMap(UInt64.init) { return [fixed] }
        return [0x5CE4_E001, UInt64.random(in: 1...UInt64.max)]
    }

    /// What the general way makes of `document` (whole `SetScene` parameters): nil when the
    /// JSON parser rejects it; else SceneDecoding's scene and strict Decodable's (nil: refused).
    static func general(_ document: [UInt8], depthLimit: Int) -> (fast: Scene?, decodable: Scene?)? {
        guard let value = try? JSONValue.parse(document, depthLimit: depthLimit) else { return nil }
        return (SceneDecoding.scene(parameters: value), try? value.decode([String: Scene].self, strict: true)["scene"])
    }

    static func bytes(_ document: [UInt8], depthLimit: Int) -> Scene? {
        document.withUnsafeBytes { SceneBytes.setScene(document: $0, depthLimit: depthLimit) }
    }

    /// Every frame's doubles as bits, in tree order (`==` takes -0.0 for 0.0).
    static func bits(_ node: Node) -> [UInt64] {
        var out: [UInt64] = []
        func visit(_ node: Node) {
            if let frame = node.frame { out += [frame.x, frame.y, frame.width, frame.height].map(\.bitPattern) }
            for child in node.children ?? [] { visit(child) }
        }
        visit(node)
        return out
    }

    /// The disagreements between SceneBytes and the general way on `documents`, with what was taken.
    static func compare(
        _ documents: [[UInt8]], depthLimit: Int, reader: ([UInt8], Int) -> Scene? = { bytes($0, depthLimit: $1) }
    ) -> (problems: [(Int, String)], taken: [Int], plainMissed: Int) {
        let result = differences(
            documents, read: { reader($0, depthLimit) },
            general: { document in general(document, depthLimit: depthLimit).map { ((), $0.fast, $0.decodable) } },
            bits: { bits($0.root) }, noun: "scene")
        return (result.problems, result.taken, result.problems.filter { $0.1 == "SceneDecoding took it, SceneBytes did not" }.count)
    }

    /// What `read` (a byte reader) made of each document against the general way's readings
    /// (nil: the JSON parser rejects it; else what the problems of `more` need, `SceneDecoding`'s
    /// reading and strict `Decodable`'s): the disagreements, with the indices read.
    static func differences<T: Equatable, Tree>(
        _ documents: [[UInt8]], read: ([UInt8]) -> T?, general: ([UInt8]) -> (tree: Tree, fast: T?, decodable: T?)?,
        bits: (T) -> [UInt64], noun: String, more: (T, Tree) -> String? = { _, _ in nil }
    ) -> (problems: [(Int, String)], taken: [Int]) {
        var problems: [(Int, String)] = []
        var taken: [Int] = []
        for (index, document) in documents.enumerated() {
            let fast = read(document)
            let reference = general(document)
            guard let fast else {
                // Everything SceneDecoding takes without an escape, SceneBytes must take too.
                if let reference, reference.fast != nil, !document.contains(UInt8(ascii: "\\")) {
                    problems.append((index, "SceneDecoding took it, SceneBytes did not"))
                }
                continue
            }
            taken.append(index)
            guard let reference else {
                problems.append((index, "SceneBytes took text the JSON parser rejects"))
                continue
            }
            if reference.fast != fast || reference.fast.map(bits) != bits(fast) {
                problems.append((index, "SceneDecoding reads another \(noun)"))
            }
            if reference.decodable != fast {
                problems.append((index, "Decodable reads another \(noun) (or refuses it)"))
            }
            if let problem = more(fast, reference.tree) { problems.append((index, problem)) }
        }
        return (problems, taken)
    }

    @Test("random and mutated scenes: what SceneBytes takes, the general way reads to the same scene")
    func agreesWithTheTree() throws {
        Self.expectAgreement(depthLimits: [512, 7], document: { $0.document() }) { documents, depthLimit in
            let result = Self.compare(documents, depthLimit: depthLimit)
            return (result.problems, result.taken)
        }
    }

    /// Each seed's random texts (`document` makes each one), every fifth one plain (`SceneTextGenerator.plain`).
    static func documents(seed: UInt64, _ document: (inout SceneTextGenerator) -> [UInt8]) -> [(text: [UInt8], plain: Bool)] {
        var generator = SceneTextGenerator(seed: seed)
        return (0..<documentsPerSeed).map { index in
            generator.plain = index % 5 == 0
            return (document(&generator), generator.plain)
        }
    }

    /// `compare` over each seed's random documents at each depth limit: its problems recorded,
    /// and every plain document taken (so the comparison always has a fifth of them to compare,
    /// whatever share of the random rest happens to be plain too).
    static func expectAgreement(
        depthLimits: [Int], document: (inout SceneTextGenerator) -> [UInt8],
        _ compare: ([[UInt8]], Int) -> (problems: [(Int, String)], taken: [Int])
    ) {
        for seed in seeds {
            let generated = documents(seed: seed, document)
            let documents = generated.map(\.text)
            for depthLimit in depthLimits {
                let result = compare(documents, depthLimit)
                for (index, reason) in result.problems.prefix(10) {
                    Issue.record("seed \(seed), depth limit \(depthLimit), document \(index): \(reason)\n\(String(decoding: documents[index], as: UTF8.self).prefix(600))")
                }
                let missed = Set(generated.indices.filter { generated[$0].plain }).subtracting(result.taken).sorted()
                for index in missed.prefix(3) {
                    Issue.record("seed \(seed), depth limit \(depthLimit), plain document \(index) not taken\n\(String(decoding: documents[index], as: UTF8.self).prefix(600))")
                }
                #expect(missed.isEmpty, "seed \(seed), depth limit \(depthLimit): \(missed.count) plain documents not taken")
            }
        }
    }

    /// Python's json over each seed's random documents that `read` takes, beside `read`'s
    /// encoding of what it read: every disagreement recorded; every plain document taken.
    static func expectPythonAgreement(document: (inout SceneTextGenerator) -> [UInt8], read: ([UInt8]) throws -> [UInt8]?) throws {
        var documents: [[UInt8]] = []
        var ours: [[UInt8]] = []
        for seed in seeds {
            for (index, (text, plain)) in Self.documents(seed: seed, document).enumerated() {
                guard let encoded = try read(text) else {
                    #expect(!plain, "seed \(seed), plain document \(index) not taken\n\(String(decoding: text, as: UTF8.self).prefix(600))")
                    continue
                }
                documents.append(text)
                ours.append(encoded)
            }
        }
        let disagreements = try python(documents, ours)
        for (index, reason) in disagreements.prefix(10) {
            Issue.record("document \(index): \(reason)\n\(String(decoding: documents[index], as: UTF8.self).prefix(600))")
        }
    }

    @Test("the comparison notices a reader that reads another scene, takes what the parser rejects, or misses a plain scene")
    func comparisonCanFail() throws {
        // Feed the comparison text whose SceneBytes reading is known, beside a reference that differs.
        let good = Array(#"{"scene":{"name":"s","root":{"id":"r","frame":{"x":1,"y":2,"width":3,"height":4}}}}"#.utf8)
        #expect(Self.compare([good], depthLimit: 512).problems.isEmpty)
        #expect(Self.compare([good], depthLimit: 512).taken == [0])
        let scene = try #require(Self.bytes(good, depthLimit: 512))
        var renamed = scene
        renamed.root.id = "q"
        let malformed = Array(good.dropLast())
        // A reader that reads another id, one that takes malformed text, one that takes nothing.
        #expect(Self.compare([good], depthLimit: 512, reader: { _, _ in renamed }).problems.count == 2)
        #expect(Self.compare([malformed], depthLimit: 512, reader: { _, _ in scene }).problems.map(\.1) == ["SceneBytes took text the JSON parser rejects"])
        #expect(Self.compare([good], depthLimit: 512, reader: { _, _ in nil }).plainMissed == 1)
        // Too deep for the limit: both refuse.
        #expect(Self.bytes(good, depthLimit: 3) == nil && Self.general(good, depthLimit: 3) == nil)
        #expect(Self.bytes(good, depthLimit: 4) != nil && Self.general(good, depthLimit: 4) != nil)
        // -0.0 against 0.0: `==` agrees, the bits do not.
        let negative = Array(#"{"scene":{"name":"s","root":{"id":"r","frame":{"x":-0.0,"y":-0,"width":3,"height":4}}}}"#.utf8)
        let signed = try #require(Self.bytes(negative, depthLimit: 512))
        #expect(signed.root.frame!.x.sign == .minus && signed.root.frame!.y.sign == .plus)
        var other = signed
        other.root.frame!.x = 0
        #expect(other == signed && Self.bits(other.root) != Self.bits(signed.root))
        #expect(Self.compare([negative], depthLimit: 512, reader: { _, _ in other }).problems.count == 1)
    }

    @Test("what SceneBytes takes, Python's json accepts and reads to the same values")
    func agreesWithPython() throws {
        try Self.expectPythonAgreement(document: { $0.document() }) { document in
            try Self.bytes(document, depthLimit: 512).map { try JSONTextEncoder().encode(["scene": $0]) }
        }
        // The oracle itself can fail: another value, and text Python rejects.
        let bad = try Self.python(
            [Array(#"{"scene":{"name":"s","root":{"id":"r"}}}"#.utf8), Array(#"{"scene":{"name":"s","name":"t"}}"#.utf8)],
            [Array(#"{"scene":{"name":"s","root":{"id":"q"}}}"#.utf8), Array(#"{"scene":{"name":"t"}}"#.utf8)])
        #expect(bad.map(\.0) == [0, 1], "\(bad)")
    }

    @Test("the whole call: VarlinkCall.large with SceneDecoding.largeCalls agrees with the general parse of the message")
    func wholeCallAgrees() throws {
        Self.expectWholeCalls(method: "io.focusd.Focus.SetScene", document: { $0.document() }) { large, general, text in
            let scene = (large.decoded as? SceneDecoding.DecodedScene)?.scene
            #expect(scene != nil && scene == SceneDecoding.scene(parameters: general.parameters), "\(text)")
            // What dispatch and the wait queues read: the parameter names and the scene's name.
            #expect(large.call.parameters.objectValue?.keys.sorted() == general.parameters.objectValue?.keys.sorted())
            #expect(large.call.parameters["scene"]?["name"] == general.parameters["scene"]?["name"])
        }
        // Another method is never read by the scene decoder.
        let update = Array(#"{"method":"io.focusd.Focus.Lint","parameters":{"scene":{"name":"s","root":{"id":"r"}}}}"#.utf8)
        #expect(update.withUnsafeBufferPointer { VarlinkCall.large($0, depthLimit: 512, decoder: SceneDecoding.largeCalls) } == nil)
    }

    /// Random messages of `method` around each seed's documents through `VarlinkCall.large` and
    /// `SceneDecoding.largeCalls`: each one taken must be parsed the general way too, with the
    /// same envelope; `check` compares the parameters. Every plain message (a fifth) taken.
    static func expectWholeCalls(
        method: String, document: (inout SceneTextGenerator) -> [UInt8],
        check: ((call: VarlinkCall, decoded: any Sendable), VarlinkCall, Substring) -> Void
    ) {
        for seed in seeds {
            let messages = documents(seed: seed) { generator in generator.message(parameters: document(&generator), method: method) }
            for (index, (message, plain)) in messages.enumerated() {
                let large = message.withUnsafeBufferPointer { VarlinkCall.large($0, depthLimit: 512, decoder: SceneDecoding.largeCalls) }
                let text = String(decoding: message, as: UTF8.self).prefix(600)
                guard let large else {
                    #expect(!plain, "seed \(seed), plain message \(index) not taken\n\(text)")
                    continue
                }
                guard let general = try? VarlinkCall(parsing: message) else {
                    Issue.record("seed \(seed), message \(index): taken, but the general parse rejects it\n\(text)")
                    continue
                }
                check(large, general, text)
                #expect(large.call.method == general.method && large.call.oneway == general.oneway, "\(text)")
                #expect(large.call.more == general.more && large.call.upgrade == general.upgrade, "\(text)")
            }
        }
    }

    /// Python's json (no key twice, finite numbers) over each document and our encoding of what
    /// SceneBytes read from it; the indices where Python rejects the document or reads another value.
    static func python(_ documents: [[UInt8]], _ ours: [[UInt8]]) throws -> [(Int, String)] {
        let lines = zip(documents, ours).map { Data($0).base64EncodedString() + " " + Data($1).base64EncodedString() }
        let directory = FileManager.default.temporaryDirectory.appending(path: "focusd-scenebytes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appending(path: "cases.txt")
        try lines.joined(separator: "\n").write(to: input, atomically: true, encoding: .utf8)
        let script = directory.appending(path: "compare.py")
        try Self.pythonScript.write(to: script, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, input.path]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw SceneBytesFailure("python3 failed: \(errorText)") }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, let index = Int(parts[0]) else { return nil }
            return (index, String(parts[1]))
        }
    }

    static let pythonScript = #"""
        import base64, json, math, sys

        def reject_constant(name):
            raise ValueError("constant " + name)

        def no_duplicates(pairs):
            keys = [k for k, _ in pairs]
            if len(keys) != len(set(keys)):
                raise ValueError("duplicate key")
            return dict(pairs)

        def load(data):
            return json.loads(data.decode("utf-8"), parse_constant=reject_constant, object_pairs_hook=no_duplicates)

        def same(a, b):
            if isinstance(a, bool) or isinstance(b, bool):
                return type(a) is type(b) and a == b
            if isinstance(a, (int, float)) and isinstance(b, (int, float)):
                x, y = float(a), float(b)
                return math.isfinite(x) and x == y and math.copysign(1, x) == math.copysign(1, y)
            if isinstance(a, list) and isinstance(b, list):
                return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
            if isinstance(a, dict) and isinstance(b, dict):
                return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
            return type(a) is type(b) and a == b

        sys.setrecursionlimit(10000)
        for index, line in enumerate(open(sys.argv[1]).read().split("\n")):
            if not line:
                continue
            document, ours = (base64.b64decode(part) for part in line.split(" "))
            try:
                theirs = load(document)
            except Exception as error:
                print(index, "Python rejects it:", error)
                continue
            if not same(theirs, json.loads(ours)):
                print(index, "Python reads other values")
        """#
}

struct SceneBytesFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Random `SetScene` parameter texts: plain scenes of every field SceneBytes reads, in any key
/// order and spacing, with numbers in every JSON form; some with what it must leave to the
/// general way (escapes, nulls, other fields, wrong types); and byte-level mutations of them.
struct SceneTextGenerator {
    var state: UInt64
    /// While set, the documents are plain: valid scenes (and updates, and messages) without
    /// escapes, wrong fields or mutations, shallow enough for every depth limit the tests use
    /// (children only under the root; none under an update's node), so every reader must take
    /// them. The tests make every fifth document plain: a share fixed by construction, where a
    /// share of random documents that happen to be plain varies from seed to seed.
    var plain = false

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    /// `chance`, never while `plain`: for what makes a document one the fast readers leave alone.
    mutating func odd(_ percent: Int) -> Bool { !plain && chance(percent) }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    mutating func space() -> String { chance(80) ? "" : pick([" ", "\n", "\t ", "\r\n  "]) }

    mutating func number() -> String {
        if odd(1) { return pick(["1e400", "01", "1.", ".5", "+1", "-", "1e", "NaN", "Infinity", "\"5\"", "null", "true"]) }  // not JSON, not finite, not a number
        switch below(12) {
        case 0: return String(below(2000))
        case 1: return "-" + String(below(2000))
        case 2: return String(Double(below(100_000)) / 8)  // like 60.0 or 12.125
        case 3: return pick(["0", "-0", "0.0", "-0.0", "1e2", "1E+2", "2.5e-3", "-1.5E1", "0e0"])
        case 4: return String(below(1000)) + "." + String(below(1_000_000_000))
        case 5: return pick(["9223372036854775807", "-9223372036854775808", "9223372036854775808", "123456789012345678901234567890"])
        case 6: return pick(["0.1", "0.30000000000000004", "123456789.12345", "1234567890.123456", "4.35", "5e-324", "1.7976931348623157e308"])
        case 8: return String(next() % 1_000_000_000_000_000_000)  // up to 18 digits
        case 9: return String(Double(bitPattern: next() & 0x7FEF_FFFF_FFFF_FFFF))
        default: return String(below(4000)) + (chance(50) ? ".0" : "")
        }
    }

    mutating func string() -> String {
        if odd(2) { return pick([#""a\"b""#, #""\u00e9""#, #""tab\t""#, #""\ud83d\ude00""#]) }  // escapes
        switch below(12) {
        case 0, 1: return "\"\(pick(["é", "日本", "😀", "a b", "x/y", "\u{7F}"]))\(below(100))\""
        case 2: return "\"\""
        default: return "\"n\(below(100_000))\""
        }
    }

    mutating func object(_ members: [(String, String)]) -> String {
        var members = members
        for index in members.indices.reversed() {
            let other = below(index + 1)
            members.swapAt(index, other)
        }
        let body = members.map { "\(space())\"\($0.0)\"\(space()):\(space())\($0.1)\(space())" }.joined(separator: ",")
        return "{" + body + "}"
    }

    mutating func frame() -> String {
        var members = [("x", number()), ("y", number()), ("width", number()), ("height", number())]
        if odd(1) { members.removeLast() }
        if odd(1) { members.append(("depth", "1")) }
        return object(members)
    }

    /// A scroll container's object: its fields, sometimes one missing, wrong or extra.
    mutating func scroll() -> String {
        var members = [("axis", pick(["\"horizontal\"", "\"vertical\"", "\"both\""])), ("contentWidth", number()), ("contentHeight", number())]
        if chance(30) { members.append(("offsetX", number())) }
        if chance(30) { members.append(("offsetY", number())) }
        if chance(30) { members.append(("policy", pick(["\"visible\"", "\"center\"", "\"leading\""]))) }
        if chance(30) { members.append(("margin", number())) }
        if odd(2) { members.removeFirst(below(3) + 1) }
        if odd(2) { members.append(pick([("axis", "\"sideways\""), ("policy", "null"), ("extra", "1"), ("margin", "\"2\""), ("offsetX", "1")])) }
        return odd(1) ? "null" : object(members)
    }

    mutating func node(depth: Int) -> String {
        var members: [(String, String)] = []
        if !odd(1) { members.append(("id", odd(1) ? pick(["5", "null"]) : string())) }
        if chance(85) { members.append(("frame", odd(1) ? "null" : frame())) }
        for flag in ["focusable", "disabled", "section", "focusEffectDisabled", "remembersLastFocus", "modal"] where chance(20) {
            members.append((flag, odd(2) ? pick(["null", "1", "\"true\""]) : pick(["true", "false"])))
        }
        for name in ["role", "scope", "prefersDefaultFocus"] where chance(10) {
            members.append((name, odd(5) ? "null" : string()))
        }
        if chance(8) { members.append(("wrap", odd(5) ? pick(["\"diagonal\"", "null", "1", "[]"]) : pick(["\"horizontal\"", "\"vertical\"", "\"both\""]))) }
        if chance(8) {
            let odd = ["1.5", "3.0", "1e2", "-0", "null", "\"3\"", "99999999999999999999", "999999999999999999", "-12", "01"]
            members.append(("index", self.odd(10) ? pick(odd) : String(below(1000))))
        }
        if chance(8) {
            let valid = (0..<below(3)).map { _ in pick(["\"activate\"", "\"edit\""]) }
            members.append(("interactions", odd(5) ? pick(["[\"tap\"]", "[null]", "\"edit\"", "null", "[1]"]) : "[" + valid.joined(separator: ",") + "]"))
        }
        for name in ["values", "sceneValues", "next"] where chance(5) {
            let map = object((0..<below(3)).map { "k\($0)" }.map { ($0, string()) })
            members.append((name, odd(5) ? pick(["{\"a\":1}", "[]", "null", "{\"a\":\"1\",\"a\":\"2\"}", "{\"a\":null}"]) : map))
        }
        if chance(8) { members.append(("scroll", scroll())) }
        if odd(1) {
            members.append(pick([("bindings", "[]"), ("collection", "null"), ("defaultFocus", "{\"binding\":\"b\"}"), ("focusible", "true")]))
        }
        if depth < (plain ? 1 : 5), chance(depth == 0 ? 95 : 35) {
            let count = depth == 0 ? below(12) : below(4)
            var children: [String] = []
            for _ in 0..<count { children.append(node(depth: depth + 1)) }
            members.append(("children", "[" + children.map { space() + $0 + space() }.joined(separator: ",") + "]"))
        }
        return object(members)
    }

    /// A whole `SetScene` parameters text.
    mutating func document() -> [UInt8] {
        var scene: [(String, String)] = [("name", string()), ("root", node(depth: 0))]
        if chance(30) { scene.append(("persist", pick(["true", "false"]))) }
        if chance(30) { scene.append(("sequentialWrap", pick(["true", "false"]))) }
        if odd(3) { scene.append(pick([("policy", "\"tvos\""), ("persist", "null"), ("layoutDirection", "\"rightToLeft\"")])) }
        if odd(2) { scene.removeFirst() }
        var top = [("scene", object(scene))]
        if odd(2) { top.append(("other", "1")) }
        var bytes = Array((space() + object(top) + space()).utf8)
        if odd(40) { mutate(&bytes) }
        return bytes
    }

    /// One to three byte-level changes: a byte removed, replaced or inserted (JSON's
    /// punctuation most often), a key repeated, or the end cut off.
    mutating func mutate(_ bytes: inout [UInt8]) {
        let punctuation = Array(#"{}[]:,"\ 0-.etn"#.utf8) + [0x00, 0x1F, 0x7F, 0xC3, 0xFF]
        for _ in 0...below(3) where !bytes.isEmpty {
            let at = below(bytes.count)
            switch below(6) {
            case 0: bytes.remove(at: at)
            case 1: bytes[at] = pick(punctuation)
            case 2: bytes.insert(pick(punctuation), at: at)
            case 3: bytes.removeLast(below(bytes.count))
            case 4:
                // Repeat a key: `"id":"dup",` after an opening brace.
                if let brace = bytes[at...].firstIndex(of: UInt8(ascii: "{")) {
                    bytes.insert(contentsOf: Array(pick([#""id":"dup","#, #""x":1,"#, #""name":"d","#, #""scene":{},"#]).utf8), at: brace + 1)
                }
            default: bytes[at] = UInt8(truncatingIfNeeded: next())
            }
        }
    }

    /// A Varlink message around `parameters`: the members in any order, flags sometimes, and
    /// sometimes something the fast reader leaves alone (an unknown member, a null flag, an
    /// escape in the method, a second parameters).
    mutating func message(parameters: [UInt8], method: String = "io.focusd.Focus.SetScene") -> [UInt8] {
        var members = [("method", "\"\(method)\""), ("parameters", String(decoding: parameters, as: UTF8.self))]
        if chance(20) { members.append(("more", pick(["true", "false"]))) }
        if chance(20) { members.append(("oneway", pick(["true", "false"]))) }
        if chance(5) { members.append(("upgrade", odd(30) ? "null" : pick(["true", "false"]))) }
        if odd(3) { members.append(pick([("extra", "1"), ("method", "\"x.y\""), ("parameters", "{}")])) }
        if odd(3) { members[0].1 = pick([#""io.focusd.Focus.Set\u0053cene""#, "\"io.focusd.Focus.Lint\"", "5"]) }
        if plain || chance(70) {
            // The common order: method first (the only one the fast reader takes).
            let text = members.map { "\(space())\"\($0.0)\"\(space()):\(space())\($0.1)\(space())" }.joined(separator: ",")
            return Array(("{" + text + "}" + (odd(2) ? " x" : "")).utf8)
        }
        return Array(object(members).utf8)
    }
}
