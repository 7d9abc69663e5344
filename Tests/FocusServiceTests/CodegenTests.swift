import Foundation
import Testing

/// focusd-codegen, the generator the Codegen plugin runs (Sources/focusd-codegen), run as the
/// build left it in .build/debug on inputs of its own: what the build generates from the real
/// interfaces is held by WireFieldTableTests, EmbeddedResourcesTests and every wire test; these
/// check that an input it cannot map stops it with the place named, never with a guess.
@Suite("The code generator")
struct CodegenTests {
    static let tool = ServiceTestPaths.root + "/.build/debug/focusd-codegen"

    /// A scratch directory holding `files` (name → text).
    static func directory(_ files: [String: String]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("codegen-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (name, text) in files {
            try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        }
        return directory
    }

    /// Runs the tool; its exit status, standard error and output file (nil when not written).
    static func run(_ arguments: [String], in directory: String) throws -> (status: Int32, error: String, output: String?) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments + ["--root", directory, "--output", directory + "/out.swift"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let error = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, error, try? String(contentsOfFile: directory + "/out.swift", encoding: .utf8))
    }

    static func wire(table: String, interfaces: [String: String]) throws -> (status: Int32, error: String, output: String?) {
        let directory = try directory(interfaces.merging(["table": table]) { $1 })
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try run(["wire", "--table", "table"], in: directory)
    }

    static let interface = """
        interface org.example.t
        type Kind (one, two)
        type Item (class: string, kind: Kind, mode: ?(fast, slow), tags: ?[]string, counts: [string]int, child: ?Item)
        method M() -> ()

        """

    @Test("a struct type's conformance: keys in the interface's order, ?T by decodeIfPresent, keywords in backticks, mapped enums")
    func conformanceShape() throws {
        let result = try Self.wire(table: "interface a.varlink\nenum Item.mode Mode\n", interfaces: ["a.varlink": Self.interface])
        #expect(result.status == 0, "\(result.error)")
        let output = try #require(result.output)
        #expect(output.contains("extension Kind: Codable {}\nextension Mode: Codable {}\n"))
        #expect(output.contains("        case `class`\n        case kind\n        case mode\n        case tags\n        case counts\n        case child\n"))
        #expect(output.contains("`class`: container.decode(String.self, forKey: .`class`),"))
        #expect(output.contains("mode: container.decodeIfPresent(Mode.self, forKey: .mode),"))
        #expect(output.contains("tags: container.decodeIfPresent([String].self, forKey: .tags),"))
        #expect(output.contains("counts: container.decode([String: Int].self, forKey: .counts),"))
        #expect(output.contains("child: container.decodeIfPresent(Item.self, forKey: .child)\n"))
        #expect(output.contains("try container.encodeIfPresent(self.child, forKey: .child)"))
        #expect(output.contains("try container.encode(self.counts, forKey: .counts)"))
    }

    @Test("an input it cannot map stops it with the file, the type and the field named, and writes nothing")
    func unmappableInputsAreErrors() throws {
        let cases: [(table: String, interfaces: [String: String], error: String)] = [
            ("interface a.varlink\n", ["a.varlink": Self.interface],
             "a.varlink: type Item, field mode: an inline enum needs 'enum Item.mode SWIFT-ENUM' in table"),
            ("interface a.varlink\nenum Item.mode Mode\nname Gone Other\n", ["a.varlink": Self.interface],
             "table:3: 'name Gone' names nothing the interfaces declare"),
            ("interface a.varlink\nenum Item.mode Mode\nkeys Item\n", ["a.varlink": Self.interface],
             "table:3: expected 'keys TYPE SWIFT'"),
            ("interface a.varlink\nenum Item.mode Kind\n", ["a.varlink": Self.interface],
             "a.varlink: type Item, field mode: values [\"fast\", \"slow\"] differ from [\"one\", \"two\"], also mapped to Kind"),
            ("interface a.varlink\ninterface b.varlink\nenum Item.mode Mode\n",
             ["a.varlink": Self.interface, "b.varlink": "interface org.example.u\ntype Kind (one, three)\n"],
             "b.varlink: type Kind differs from its declaration in a.varlink"),
            ("interface a.varlink\n", ["a.varlink": "interface org.example.t\ntype T (o: object)\n"],
             "a.varlink: type T, field o: an `object` field has no generated form"),
            ("interface a.varlink\n", ["a.varlink": "interface org.example.t\ntype T (o: []?int)\n"],
             "a.varlink: type T, field o: an array of optionals has no generated form"),
            ("interface a.varlink\n", ["a.varlink": "interface org.example.t\ntype T (o: int\n"],
             "a.varlink: line 3, column 1: expected ')', found end of text"),
            ("interface missing.varlink\n", [:], "missing.varlink: "),
            ("nonsense\n", [:], "table:1: unknown entry 'nonsense'"),
        ]
        for (table, interfaces, error) in cases {
            let result = try Self.wire(table: table, interfaces: interfaces)
            #expect(result.status == 1, "\(table)")
            #expect(result.error.hasPrefix("focusd-codegen: " + error), "\(result.error)")
            #expect(result.output == nil, "\(table)")
        }
    }

    @Test("an embedded text's delimiter outlasts every run of # after a quote or a backslash in it")
    func embedDelimiterOutlastsTheText() throws {
        let text = "a \"## b \\####(c) \"#\" d\n"  // runs of 2, 4 and 1
        let directory = try Self.directory(["t.txt": text])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try Self.run(["embed", "--type", "T", "value=t.txt"], in: directory)
        #expect(result.status == 0, "\(result.error)")
        let output = try #require(result.output)
        #expect(output.hasPrefix("// GENERATED at build time by focusd-codegen (the Codegen plugin) from t.txt"))
        // The literal's lines are the text's; the newline before the closing delimiter is not its.
        #expect(output.contains("    static let value = #####\"\"\"\n" + text + "\n\"\"\"#####\n"))
    }
}
