import Foundation
import InputMapping
import Testing

@testable import FocusConfig

/// focusd's TOML parser against Python's `tomllib` (TOML 1.0, in the standard library): random
/// documents (valid and mutated) with tables, arrays of tables, dotted, quoted and inline keys,
/// the four string kinds with escapes, integers in every base, special floats and the four kinds
/// of date-time go to both; they must accept and reject the same documents and read the same
/// values. Integers outside 64 bits are an error in focusd, as TOML 1.0 says; tomllib keeps them,
/// so the Python side rejects them before comparing. Date-times are kept as text by focusd: Python
/// reads that text back and compares the objects. `FOCUSD_DIFFERENTIAL_SEED=N` replays one seed.
@Suite("TOML parser against Python's tomllib")
struct TOMLDifferentialTests {
    static let documentsPerSeed = 1500

    @Test("random and mutated documents: focusd and tomllib accept, reject and read them alike")
    func agreesWithTomllib() throws {
        var seeds: [UInt64] = [0x70A1_0001, UInt64.random(in: 1...UInt64.max)]
        if let fixed = ProcessInfo.processInfo.environment["FOCUSD_DIFFERENTIAL_SEED"].flatMap(UInt64.init) { seeds = [fixed] }
        for seed in seeds {
            var generator = TOMLTextGenerator(seed: seed)
            let documents = (0..<Self.documentsPerSeed).map { _ in generator.document() }
            for (index, reason) in try Self.compare(documents).prefix(10) {
                Issue.record("seed \(seed), document \(index): \(reason)\n\(documents[index].prefix(600))")
            }
        }
    }

    /// Cases worth keeping whatever the seeds.
    static let edgeCases = [
        "a = 9223372036854775807\nb = -9223372036854775808", "a = 9223372036854775808", "a = 0x7FFF_FFFF_FFFF_FFFF",
        "a = 0o777\nb = 0b1_0\nc = +0\nd = -0", "a = 01", "a = 1__0", "a = _1", "a = 0x", "a = +0x1",
        "a = inf\nb = -nan\nc = +inf\nd = 6.02e+23\ne = 1e-400\nf = 1.8e308\ng = -0.0", "a = 1.", "a = .5", "a = 1e",
        "a = \"\\u00e9\\U0001F600\\b\\t\\n\\f\\r\\\"\\\\\"", "a = \"\\ud800\"", "a = \"\\e\"", "a = \"\\x41\"",
        "a = '''\nline\\n'''", "a = \"\"\"\\\n   folded \"\"\"", "a = \"\"\"q\"\"\"\"\"", "a = 'tab\there'",
        "a = 1979-05-27T07:32:00Z\nb = 1979-05-27 07:32:00.999999-07:00\nc = 1979-05-27\nd = 07:32:00\ne = 1979-05-27T07:32:00",
        "a = 1979-02-30", "a = 24:00:00", "a = 1979-05-27T07:32", "a = 1979-05-27t07:32:00z",
        "[a]\nb = 1\n[a]\nc = 2", "a.b = 1\n[a]\nc = 2", "[a.b]\n[a]\nc = 1", "a = {b = 1}\n[a.c]", "a = [1, 'x', {b = 2}]",
        "[[x]]\ny = 1\n[[x]]\ny = 2\n[x.z]\nw = 3", "a = 1\na = 2", "\"a\" = 1\na = 2", "'' = 1", "a = { }", "a = {b = 1,}",
        "a = [\n 1, # c\n 2,\n]", "a = 1 # é\n", "a = \"\u{7F}\"", "a = \"\u{1}\"", "a\u{C}= 1", "a = 1\r\nb = 2", "a = 1\rb = 2",
        "a = true\nb = falsey", "a = 1 b = 2", "[ a . b ]\n", "[a\n]", "a = [ [ ] , [ 1 ] ]", "3.14 = 1", "1 = {}",
    ]

    @Test("edge cases: integers, floats, escapes, multi-line strings, date-times and table rules agree with tomllib")
    func edgeCases() throws {
        for (index, reason) in try Self.compare(Self.edgeCases) {
            Issue.record("\(Self.edgeCases[index].debugDescription): \(reason)")
        }
    }

    @Test("the comparison itself notices a parser that rejects what tomllib accepts, or reads a different value")
    func comparisonCanFail() throws {
        let found = try Self.compare(["a = 1", "a = 1"], ours: [nil, #"{"a":{"type":"integer","value":"2"}}"#])
        #expect(found.map(\.0) == [0, 1], "\(found)")
    }

    /// focusd's reading of `text` in toml-test's tagged JSON form, or nil when it rejects it.
    static func tagged(_ text: String) -> String? {
        guard let table = try? TOML.parse(text) else { return nil }
        return taggedTable(table)
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func taggedTable(_ table: TOMLTable) -> String {
        "{" + table.entries.map { quoted($0.key) + ":" + taggedValue($0.node.value) }.joined(separator: ",") + "}"
    }

    static func taggedValue(_ value: TOMLValue) -> String {
        func leaf(_ type: String, _ text: String) -> String { "{\"type\":\"\(type)\",\"value\":\(quoted(text))}" }
        switch value {
        case .string(let text): return leaf("string", text)
        case .integer(let number): return leaf("integer", String(number))
        case .float(let number):
            let text = number.isNaN ? "nan" : number.isInfinite ? (number < 0 ? "-inf" : "inf") : "\(number)"
            return leaf("float", text)
        case .boolean(let flag): return leaf("bool", flag ? "true" : "false")
        case .dateTime(let text): return leaf("datetime", text)
        case .array(let nodes): return "[" + nodes.map { taggedValue($0.value) }.joined(separator: ",") + "]"
        case .table(let table): return taggedTable(table)
        }
    }

    /// Runs tomllib over `documents` and compares with focusd's reading of each (or `ours`, to
    /// test the comparison); returns the indices where they disagree, with the reason.
    static func compare(_ documents: [String], ours override: [String?]? = nil) throws -> [(Int, String)] {
        let lines = documents.enumerated().map { index, document in
            let ours = override.map { $0[index] } ?? tagged(document)
            return Data(document.utf8).base64EncodedString() + " " + (ours.map { Data($0.utf8).base64EncodedString() } ?? "-")
        }
        let directory = FileManager.default.temporaryDirectory.appending(path: "focusd-toml-diff-\(UUID().uuidString)")
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
        guard process.terminationStatus == 0 else { throw TOMLDifferentialFailure(description: "python3 failed: \(errorText)") }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, let index = Int(parts[0]) else { return nil }
            return (index, String(parts[1]))
        }
    }

    static let python = #"""
        import base64, datetime, json, math, sys, tomllib

        def tag(value):
            if isinstance(value, bool):
                return {"type": "bool", "value": "true" if value else "false"}
            if isinstance(value, int):
                if not -2**63 <= value < 2**63:
                    raise ValueError("integer out of 64-bit range (an error in TOML 1.0)")
                return {"type": "integer", "value": str(value)}
            if isinstance(value, float):
                return {"type": "float", "value": repr(value)}
            if isinstance(value, str):
                return {"type": "string", "value": value}
            if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
                return {"type": "datetime", "value": value}
            if isinstance(value, list):
                return [tag(v) for v in value]
            return {k: tag(v) for k, v in value.items()}

        def same(a, b):
            if isinstance(a, list) or isinstance(b, list):
                return isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
            if "type" in a and isinstance(a.get("type"), str) and "value" in a and len(a) == 2:
                if b.get("type") != a["type"]:
                    return False
                if a["type"] == "float":
                    x, y = float(a["value"]), float(b["value"])
                    return (math.isnan(x) and math.isnan(y)) or (x == y and math.copysign(1, x) == math.copysign(1, y))
                if a["type"] == "datetime":
                    return tomllib.loads("x = " + b["value"])["x"] == a["value"]
                return a["value"] == b["value"]
            return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)

        for index, line in enumerate(open(sys.argv[1]).read().split("\n")):
            if not line:
                continue
            document, ours = line.split(" ")
            try:
                theirs = tag(tomllib.loads(base64.b64decode(document).decode("utf-8")))
                accepted = True
            except (ValueError, UnicodeError, RecursionError) as error:
                accepted, reason = False, str(error)[:100]
            if ours == "-":
                if accepted:
                    print(index, "tomllib accepts, focusd rejects")
                continue
            if not accepted:
                print(index, "focusd accepts, tomllib rejects: " + reason)
                continue
            mine = json.loads(base64.b64decode(ours))
            try:
                agree = same(theirs, mine)
            except (ValueError, KeyError, AttributeError, TypeError) as error:
                agree = False
            if not agree:
                print(index, "different values: tomllib %r, focusd %r" % (theirs, mine))
        """#
}

struct TOMLDifferentialFailure: Error, CustomStringConvertible {
    var description: String
}

/// Random TOML documents from edge-case pieces, sometimes mutated.
struct TOMLTextGenerator {
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

    static let integers = [
        "0", "+0", "-0", "42", "-17", "1_000", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "0xDEAD_beef", "0o755", "0b1101", "0x0", "01", "1__2", "0xFFFFFFFFFFFFFFFF", "+99", "0o8",
    ]
    static let floats = [
        "3.14", "-0.0", "+1.5", "6.02e23", "1e-7", "1E+2", "inf", "-inf", "+inf", "nan", "-nan", "+nan", "1_000.5",
        "0.1", "5e-324", "1e400", "1.", ".5", "1e", "3.e2", "1.7976931348623157e308",
    ]
    static let dates = [
        "1979-05-27T07:32:00Z", "1979-05-27T00:32:00.999999-07:00", "1979-05-27 07:32:00", "1979-05-27",
        "07:32:00", "00:32:00.5", "1979-05-27T07:32:00+01:30", "2000-02-29", "1979-13-01", "1979-05-27T25:00:00",
    ]
    static let stringPieces = [
        "a", "é", "😀", "\\\"", "\\\\", "\\b", "\\t", "\\n", "\\f", "\\r", "\\u00e9", "\\U0001F600", "\\ud800",
        "\\e", "\\x41", " ", "#", "'", "=", "[", "\u{7F}", "\\u0000",
    ]
    static let bareKeys = ["a", "b", "key", "k-1", "k_2", "1234", "site", "x"]

    mutating func key() -> String {
        switch below(6) {
        case 0: return "\"" + pick(["a b", "é", "", "quoted", "a.b", "\\u0041"]) + "\""
        case 1: return "'" + pick(["literal", "a\\b", ""]) + "'"
        case 2: return pick(Self.bareKeys) + "." + pick(Self.bareKeys)
        default: return pick(Self.bareKeys)
        }
    }

    mutating func string() -> String {
        let body = (0..<below(4)).map { _ in pick(Self.stringPieces) }.joined()
        switch below(6) {
        case 0: return "'" + body.replacingOccurrences(of: "'", with: "") + "'"
        case 1: return "\"\"\"\n" + body + "\\\n  more\"\"\""
        case 2: return "'''" + pick(["", "\n"]) + body + "'''"
        default: return "\"" + body + "\""
        }
    }

    mutating func value(depth: Int) -> String {
        switch depth > 3 ? below(6) : below(9) {
        case 0: return pick(Self.integers)
        case 1: return pick(Self.floats)
        case 2: return pick(["true", "false"])
        case 3: return pick(Self.dates)
        case 4, 5: return string()
        case 6: return "[" + (0..<below(4)).map { _ in pick(["", " ", "\n"]) + value(depth: depth + 1) }.joined(separator: ",") + pick(["", ",", " ,\n"]) + "]"
        default:
            return "{" + (0..<below(3)).map { _ in " " + key() + " = " + value(depth: depth + 1) }.joined(separator: ",") + " }"
        }
    }

    mutating func document() -> String {
        var lines: [String] = []
        for _ in 0..<(1 + below(6)) {
            switch below(8) {
            case 0: lines.append("[" + key() + "]")
            case 1: lines.append("[[" + pick(["t", "t.u", "x"]) + "]]")
            case 2: lines.append("# " + pick(["comment", "é", "\u{7F}"]))
            default: lines.append(key() + pick([" = ", "=", " =  "]) + value(depth: 0) + pick(["", " # note", "  "]))
            }
        }
        var bytes = Array(lines.joined(separator: pick(["\n", "\n", "\r\n"])).utf8)
        if below(4) == 0 && !bytes.isEmpty {
            let position = below(bytes.count)
            switch below(3) {
            case 0: bytes.remove(at: position)
            case 1: bytes.insert(pick(Array("=.,[]{}\"'\\#\n 0_e".utf8)), at: position)
            default: bytes = Array(bytes.prefix(position))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
