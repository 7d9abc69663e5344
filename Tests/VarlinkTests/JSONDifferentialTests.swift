import Foundation
import Testing
import Varlink

/// focusd's own JSON parser and serializer against Python's `json` module, an independent
/// implementation on the machine: random documents (valid and mutated) with the edge cases of
/// RFC 8259 (escapes, surrogate pairs, big and tiny numbers, deep nesting, duplicate keys) go to
/// both; they must accept and reject the same texts, and what focusd accepts must serialize to
/// text Python reads as the same value.
///
/// focusd is stricter than Python's defaults on purpose, and the Python side applies the same
/// rules before comparing: duplicate object keys, lone surrogates, numbers that overflow a double,
/// NaN/Infinity and nesting deeper than 512 are rejected. Integers beyond 64 bits become doubles
/// in focusd (compared as such). Each seed is reported with any disagreement;
/// `FOCUSD_DIFFERENTIAL_SEED=N` replays one.
@Suite("JSON parser against Python's json")
struct JSONDifferentialTests {
    static let documentsPerSeed = 1500

    @Test("random and mutated documents: focusd and Python's json accept, reject and read them alike")
    func agreesWithPython() throws {
        var seeds: [UInt64] = [0x5EED_0001, UInt64.random(in: 1...UInt64.max)]
        if let fixed = ProcessInfo.processInfo.environment["FOCUSD_DIFFERENTIAL_SEED"].flatMap(UInt64.init) { seeds = [fixed] }
        for seed in seeds {
            var generator = JSONTextGenerator(seed: seed)
            let documents = (0..<Self.documentsPerSeed).map { _ in generator.document() }
            let disagreements = try Self.compare(documents)
            for (index, reason) in disagreements.prefix(10) {
                Issue.record("seed \(seed), document \(index): \(reason)\n\(String(decoding: documents[index], as: UTF8.self).prefix(400))")
            }
        }
    }

    /// Cases worth keeping whatever the seeds: each must agree too.
    static let edgeCases = [
        #""\ud83d\ude00 \u00e9 \/ \b\f\n\r\t""#, #""\ud800""#, #""\udc00\ud800""#, "1e400", "-1e-400", "5e-324",
        "9223372036854775807", "9223372036854775808", "-9223372036854775809", "123456789012345678901234567890",
        "-0", "-0.0", "0e0", "1E+2", "01", "1.", ".5", "+1", #"{"a":1,"a":2}"#, "[1,]", #"{"a":1,}"#, "NaN",
        String(repeating: "[", count: 512) + String(repeating: "]", count: 512),
        String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
        " \t\n\r[] ", "\u{FEFF}[]", "[\"\u{7F}\"]", "\"\u{1F}\"", #"{"":0}"#, "[1e-7,1e21,1e22]",
    ]

    @Test("edge cases: escapes, surrogates, extreme numbers, duplicates and depth agree with Python")
    func edgeCases() throws {
        let disagreements = try Self.compare(Self.edgeCases.map { Array($0.utf8) })
        for (index, reason) in disagreements { Issue.record("\(Self.edgeCases[index].prefix(60)): \(reason)") }
    }

    @Test("the comparison itself notices a parser that rejects what Python accepts, or reads a different value")
    func comparisonCanFail() throws {
        let found = try Self.compare([Array("[1]".utf8), Array("[1]".utf8)], ours: [nil, Array("[2]".utf8)])
        #expect(found.map(\.0) == [0, 1], "\(found)")
    }

    /// Runs Python's json over `documents` and focusd's serialization of each (or `ours`, to test
    /// the comparison); returns the indices where the two disagree, with the reason.
    static func compare(_ documents: [[UInt8]], ours override: [[UInt8]?]? = nil) throws -> [(Int, String)] {
        var lines: [String] = []
        for (index, document) in documents.enumerated() {
            let ours: String
            if let override {
                ours = override[index].map { Data($0).base64EncodedString() } ?? "-"
            } else {
                do {
                    ours = Data(try JSONValue.parse(document).serialized()).base64EncodedString()
                } catch {
                    ours = "-"
                }
            }
            lines.append(Data(document).base64EncodedString() + " " + ours)
        }
        let directory = FileManager.default.temporaryDirectory.appending(path: "focusd-json-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appending(path: "cases.txt")
        try lines.joined(separator: "\n").write(to: input, atomically: true, encoding: .utf8)
        let script = directory.appending(path: "compare.py")
        try Self.python.write(to: script, atomically: true, encoding: .utf8)
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
        guard process.terminationStatus == 0 else { throw DifferentialFailure("python3 failed: \(errorText)") }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, let index = Int(parts[0]) else { return nil }
            return (index, String(parts[1]))
        }
    }

    static let python = #"""
        import base64, json, math, sys

        LIMIT = 512

        def reject_constant(name):
            raise ValueError("constant " + name)

        def no_duplicates(pairs):
            keys = [k for k, _ in pairs]
            if len(keys) != len(set(keys)):
                raise ValueError("duplicate key")
            return dict(pairs)

        def check(value, depth=0):
            # focusd's rules on top of Python's json: depth, lone surrogates, finite numbers.
            if isinstance(value, (list, dict)):
                if depth + 1 > LIMIT:
                    raise ValueError("too deep")
                items = value.items() if isinstance(value, dict) else enumerate(value)
                for key, item in items:
                    if isinstance(key, str):
                        check(key, depth + 1)
                    check(item, depth + 1)
            elif isinstance(value, str):
                value.encode("utf-8")  # a lone surrogate cannot be encoded
            elif isinstance(value, float) and not math.isfinite(value):
                raise ValueError("not finite")

        def load(data):
            text = data.decode("utf-8")
            value = json.loads(text, parse_constant=reject_constant, object_pairs_hook=no_duplicates)
            check(value)
            return value

        def same(a, b):
            if isinstance(a, bool) or isinstance(b, bool):
                return type(a) is type(b) and a == b
            if isinstance(a, int) and isinstance(b, (int, float)):
                if -2**63 <= a < 2**63:
                    return a == b
                return float(a) == b
            if isinstance(a, float) and isinstance(b, (int, float)):
                return a == b and math.copysign(1, a) == math.copysign(1, float(b))
            if isinstance(a, list) and isinstance(b, list):
                return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
            if isinstance(a, dict) and isinstance(b, dict):
                return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
            return type(a) is type(b) and a == b

        sys.setrecursionlimit(10000)
        for index, line in enumerate(open(sys.argv[1]).read().split("\n")):
            if not line:
                continue
            document, ours = line.split(" ")
            document = base64.b64decode(document)
            try:
                theirs = load(document)
                accepted = True
            except (ValueError, UnicodeError, RecursionError) as error:
                accepted, reason = False, str(error)[:80]
            if ours == "-":
                if accepted:
                    print(index, "python accepts, focusd rejects")
                continue
            if not accepted:
                print(index, "focusd accepts, python rejects: " + reason)
                continue
            try:
                mine = load(base64.b64decode(ours))
            except (ValueError, UnicodeError, RecursionError) as error:
                print(index, "focusd's serialization is not JSON python reads: " + str(error)[:80])
                continue
            if not same(theirs, mine):
                print(index, "different values: python %r, focusd %r" % (theirs, mine))
        """#
}

struct DifferentialFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Random JSON texts: values built from edge-case pieces, sometimes deeply nested, sometimes
/// mutated by a byte inserted, deleted or the text cut short.
struct JSONTextGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    static let numbers = [
        "0", "-0", "1", "-1", "42", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "18446744073709551616", "123456789012345678901234567890", "0.5", "-0.0", "1e10", "1E-10", "1e+2",
        "1.7976931348623157e308", "1.8e308", "5e-324", "2e-324", "1e-400", "3.141592653589793238462643",
        "0.1", "100000000000000000000.0", "4.9e-324", "1e400", "-1e400", "12.5e-3",
    ]
    static let stringPieces = [
        "a", "é", "😀", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\\u0000", "\\u001f", "\\u00e9",
        "\\u20AC", "\\ud83d\\ude00", "\\uD83D\\uDE00", "\\ud800", "\\udc00", "\\ud800\\u0041", " ", "\u{7F}", "key",
        "\\uFFFF", "\\uFEFF",
    ]
    static let whitespace = ["", "", "", " ", "\n", "\t", "\r\n", "  "]

    mutating func string() -> String {
        "\"" + (0..<below(5)).map { _ in pick(Self.stringPieces) }.joined() + "\""
    }

    mutating func value(depth: Int) -> String {
        let kind = depth > 5 ? below(5) : below(8)
        switch kind {
        case 0: return pick(["null", "true", "false"])
        case 1, 2: return pick(Self.numbers)
        case 3, 4: return string()
        case 5:
            let items = (0..<below(4)).map { _ in pick(Self.whitespace) + value(depth: depth + 1) + pick(Self.whitespace) }
            return "[" + items.joined(separator: ",") + "]"
        default:
            var keys = (0..<below(4)).map { _ in string() }
            if !keys.isEmpty && below(6) == 0 { keys.append(keys[0]) }  // a duplicate key
            let members = keys.map { $0 + pick(Self.whitespace) + ":" + pick(Self.whitespace) + value(depth: depth + 1) }
            return "{" + members.joined(separator: ",") + "}"
        }
    }

    mutating func document() -> [UInt8] {
        var text = pick(Self.whitespace) + value(depth: 0) + pick(Self.whitespace)
        if below(20) == 0 {
            let depth = 505 + below(15)
            text = String(repeating: "[", count: depth) + text + String(repeating: "]", count: depth)
        }
        var bytes = Array(text.utf8)
        if below(4) == 0 && !bytes.isEmpty {
            let position = below(bytes.count)
            switch below(4) {
            case 0: bytes.remove(at: position)
            case 1: bytes.insert(pick(Array(",]}\"\\0e-. :[{".utf8) + [0x01, 0xFF, 0xC3]), at: position)
            case 2: bytes = Array(bytes.prefix(position))
            default: bytes[position] = pick(Array("0a\"\\,".utf8))
            }
        }
        return bytes
    }
}
