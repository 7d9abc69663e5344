import InputMapping
import Testing

@testable import FocusConfig

@Suite("TOML parser")
struct TOMLParserTests {
    func parse(_ text: String) throws -> TOMLTable { try TOML.parse(text) }

    func value(_ table: TOMLTable, _ path: String) -> TOMLValue? {
        var current = table
        let keys = path.split(separator: ".").map(String.init)
        for key in keys.dropLast() {
            guard case .table(let next)? = current[key]?.node.value else { return nil }
            current = next
        }
        return current[keys.last!]?.node.value
    }

    func error(_ text: String) -> ConfigError? {
        do {
            _ = try TOML.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("scalars: strings, integers in every base with underscores, floats, booleans, date-times")
    func scalars() throws {
        let doc = try parse("""
            a = "basic \\"quoted\\" \\t \\u00e9 \\U0001F600"
            b = 'C:\\no\\escapes'
            c = 1_000
            d = 0xDEAD_beef
            e = 0o755
            f = 0b1010
            g = -17
            h = +3.5e2
            i = -inf
            j = true
            k = 1979-05-27T07:32:00Z
            l = 6.626e-34
            m = 0
            n = -0.0
            """)
        #expect(value(doc, "a") == .string("basic \"quoted\" \t é 😀"))
        #expect(value(doc, "b") == .string("C:\\no\\escapes"))
        #expect(value(doc, "c") == .integer(1000))
        #expect(value(doc, "d") == .integer(0xDEAD_BEEF))
        #expect(value(doc, "e") == .integer(0o755))
        #expect(value(doc, "f") == .integer(10))
        #expect(value(doc, "g") == .integer(-17))
        #expect(value(doc, "h") == .float(350))
        #expect(value(doc, "i") == .float(-.infinity))
        #expect(value(doc, "j") == .boolean(true))
        #expect(value(doc, "k") == .dateTime("1979-05-27T07:32:00Z"))
        #expect(value(doc, "l") == .float(6.626e-34))
        #expect(value(doc, "m") == .integer(0))
        #expect(value(doc, "n") == .float(-0.0))
    }

    @Test("multi-line strings: trimmed first newline, line-ending backslash, literal quotes")
    func multiline() throws {
        let doc = try parse("""
            a = \"\"\"
            one
            two\"\"\"
            b = \"\"\"The quick \\
                brown fox.\"\"\"
            c = '''
            raw \\n text'''
            d = \"\"\"a "quote" ""\"\"\"
            """)
        #expect(value(doc, "a") == .string("one\ntwo"))
        #expect(value(doc, "b") == .string("The quick brown fox."))
        #expect(value(doc, "c") == .string("raw \\n text"))
        #expect(value(doc, "d") == .string("a \"quote\" \"\""))
    }

    @Test("tables, dotted keys, quoted keys, inline tables, arrays and arrays of tables")
    func structure() throws {
        let doc = try parse("""
            # comment
            top = 1 # trailing comment
            [server]
            host.name = "x"
            "quoted key" = 2
            [server.limits]
            max = [1, 2,
              3, # inside
            ]
            [[item]]
            id = 1
            [[item]]
            id = 2
            point = { x = 1, y = { z = "deep" } }
            [[item.sub]]
            k = true
            """)
        #expect(value(doc, "top") == .integer(1))
        #expect(value(doc, "server.host.name") == .string("x"))
        #expect(value(doc, "server.quoted key") == .integer(2))
        guard case .array(let max)? = value(doc, "server.limits.max") else {
            Issue.record("max is not an array")
            return
        }
        #expect(max.map(\.value) == [.integer(1), .integer(2), .integer(3)])
        guard case .array(let items)? = value(doc, "item"), items.count == 2, case .table(let second) = items[1].value else {
            Issue.record("item is not an array of two tables")
            return
        }
        #expect(items[0].position.line == 10)
        #expect(value(second, "point.y.z") == .string("deep"))
        guard case .array(let sub)? = value(second, "sub") else {
            Issue.record("item[1].sub missing")
            return
        }
        #expect(sub.count == 1)
    }

    @Test("positions: every key and value knows its line and column")
    func positions() throws {
        let doc = try parse("a = 1\n\n  [t]\n  key   = \"v\"\n")
        guard case .table(let t)? = doc["t"]?.node.value else {
            Issue.record("no table")
            return
        }
        #expect(t["key"]?.keyPosition == TOMLPosition(line: 4, column: 3))
        #expect(t["key"]?.node.position == TOMLPosition(line: 4, column: 11))
    }

    @Test("syntax errors carry the line, the column and what is wrong")
    func errors() {
        let cases: [(String, Int, Int?, String)] = [
            ("a = 1\nb = \n", 2, 5, "expected a value"),
            ("a = 1\na = 2\n", 2, 1, "duplicate key 'a' (first defined on line 1)"),
            ("[t]\nx = 1\n[t]\n", 3, 1, "table [t] is defined twice"),
            ("a = \"open\n", 1, 5, "unterminated string"),
            ("a = 1 2\n", 1, 7, "expected the end of the line"),
            ("a = [1, 2\n", 1, 5, "unterminated array"),
            ("a = { x = 1,\n y = 2 }\n", 1, 13, "inline table must stay on one line"),
            ("x = \"\\q\"\n", 1, 6, "invalid escape sequence '\\q'"),
            ("n = 012\n", 1, 5, "integer '012'"),
            ("n = 1__0\n", 1, 5, "integer '1__0'"),
            ("n = 99999999999999999999\n", 1, 5, "out of range"),
            ("f = 1.\n", 1, 5, "invalid value '1.'"),
            ("s = bare\n", 1, 5, "strings need quotes"),
            ("[a\n", 1, 3, "expected ']'"),
            ("a.b = 1\na = 2\n", 2, 1, "duplicate key 'a'"),
            ("a = 1\n[a.b]\n", 2, 1, "already holds a value"),
            ("p = { x = 1 }\n[p]\n", 2, 1, "already defined by a dotted key or inline table"),
            ("[[a]]\n[a]\n", 2, 1, "array of tables"),
            ("x = [1]\n[[x]]\n", 2, 1, "static array"),
            ("= 1\n", 1, 1, "expected a key"),
            ("a = 1\n\n\nkey\n", 4, 4, "expected '=' after the key 'key'"),
            ("t = true1\n", 1, 9, "unexpected '1' after 'true'"),
        ]
        for (text, line, column, fragment) in cases {
            guard let error = error(text) else {
                Issue.record("no error for \(text.debugDescription)")
                continue
            }
            #expect(error.line == line, "\(text.debugDescription): \(error)")
            if let column { #expect(error.column == column, "\(text.debugDescription): \(error)") }
            #expect(error.message.contains(fragment), "\(text.debugDescription): \(error)")
        }
    }

    @Test("an empty document, CRLF line endings and a BOM are fine")
    func edges() throws {
        #expect(try parse("").entries.isEmpty)
        let crlf = try parse("a = 1\r\n[b]\r\nc = \"x\"\r\n")
        #expect(value(crlf, "b.c") == .string("x"))
        #expect(value(try parse("\u{FEFF}a = 1"), "a") == .integer(1))
    }

    @Test("arrays, inline tables and dotted keys nested past the limit are an error with the line, not a crash")
    func nestingIsBounded() throws {
        // 100,000 '[' on the third line: the parser used to recurse until the stack overflowed.
        let arrays = error("[access]\n# uids\nreadOnlyUids = " + String(repeating: "[", count: 100_000))
        #expect(arrays?.line == 3)
        #expect(arrays?.message.contains("nest deeper than \(TOML.maxNesting) levels") == true, "\(String(describing: arrays))")
        #expect(arrays?.column == 16 + TOML.maxNesting, "the column of the first bracket past the limit")
        let tables = error("\n" + "a = " + String(repeating: "{ b = ", count: 20_000) + "1" + String(repeating: " }", count: 20_000))
        #expect(tables?.line == 2)
        #expect(tables?.message.contains("nest deeper than") == true)
        let dotted = error(String(repeating: "k.", count: 100_000) + "k = 1")
        #expect(dotted?.line == 1)
        #expect(dotted?.message.contains("more than \(TOML.maxNesting) parts") == true)
        let header = error("[" + String(repeating: "t.", count: 100_000) + "t]\n")
        #expect(header?.message.contains("more than \(TOML.maxNesting) parts") == true)
        // At the limit everything still parses.
        let deepest = String(repeating: "[", count: TOML.maxNesting) + "1" + String(repeating: "]", count: TOML.maxNesting)
        #expect(error("x = " + deepest) == nil)
        #expect(error(Array(repeating: "k", count: TOML.maxNesting).joined(separator: ".") + " = 1") == nil)
    }

    @Test("a 100,000-entry integer array on one line parses in work linear in its size, columns still right")
    func longArrayIsLinear() throws {
        let entries = (0..<100_000).map { String($0 * 7) }
        let text = "readOnlyUids = [" + entries.joined(separator: ", ") + "]\n"
        let (table, work) = try TOML.parseCountingWork(text)
        guard case .array(let elements)? = table["readOnlyUids"]?.node.value else {
            Issue.record("not an array")
            return
        }
        #expect(elements.count == 100_000)
        #expect(elements.last?.position == TOMLPosition(line: 1, column: text.utf8.count - 7))
        // Every byte is stepped over once; a rescan of the line per value would be ~10^10.
        #expect(work <= 2 * text.utf8.count, "work \(work) for \(text.utf8.count) bytes")
        let configuration = try Configuration.parse("[access]\n" + text)
        #expect(configuration.access.readOnlyUids.count == 100_000)
    }

    @Test("columns count Unicode scalars, also after multi-byte characters and a byte order mark")
    func columnsCountScalars() {
        #expect(error("a = \"é€😀\" x")?.column == 11)
        #expect(error("\u{FEFF}a = = 1")?.column == 6)
    }

    @Test("date-times that are not RFC 3339 (no such day, hour 24, no seconds) are an error, as tomllib says")
    func invalidDateTimesAreErrors() throws {
        for bad in ["1979-02-30", "1900-02-29", "1979-13-01", "1979-00-10", "24:00:00", "07:60:00", "07:32",
                    "1979-05-27T07:32", "1979-05-27T25:00:00", "1979-05-27T07:32:00+24:00", "1979-05-27T07:32:00.",
                    "1979-05-27X07:32:00", "1979-05-27T07:32:00Zz"] {
            let problem = error("\na = \(bad)\n")
            #expect(problem?.line == 2, "\(bad): \(String(describing: problem))")
        }
        for good in ["2000-02-29", "1979-05-27T07:32:00Z", "1979-05-27t07:32:00.999999-07:00", "1979-05-27 07:32:00",
                     "00:00:00.5", "23:59:59"] {
            #expect(error("a = \(good)") == nil, "\(good)")
        }
    }
}

