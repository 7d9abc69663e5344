import Testing
import Varlink

@Suite("Interface definitions")
struct VarlinkInterfaceTests {
    @Test("parses the name, methods with their fields, types and errors")
    func parsesTestInterface() throws {
        let interface = try VarlinkInterface(description: testInterfaceDescription)
        #expect(interface.name == "org.example.test")
        #expect(interface.methods["Echo"]?.inputFields == ["text", "count"])
        #expect(interface.methods["Echo"]?.outputFields == ["text", "count"])
        #expect(interface.methods.count == 12)
        #expect(interface.typeNames == ["Point"])
        #expect(interface.errorNames == ["Failed"])
        #expect(interface.description == testInterfaceDescription)
    }

    @Test("parses org.varlink.service")
    func parsesServiceInterface() throws {
        let interface = try VarlinkInterface(description: VarlinkService.serviceInterfaceDescription)
        #expect(interface.name == "org.varlink.service")
        #expect(Set(interface.methods.keys) == ["GetInfo", "GetInterfaceDescription"])
        #expect(interface.errorNames.count == 6)
    }

    @Test("parses focusd's own interface files", arguments: ["io.focusd.Focus", "io.focusd.Input"])
    func parsesFocusdInterfaces(name: String) throws {
        let path = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        let file = "/\(path)/Sources/FocusService/Resources/\(name).varlink"
        let text = try #require(readFile(file), "cannot read \(file)")
        let interface = try VarlinkInterface(description: text)
        #expect(interface.name == name)
        #expect(!interface.methods.isEmpty)
    }

    @Test("parses nested anonymous structs, enums, maps, arrays and optionals")
    func typeSyntax() throws {
        let text = """
            interface a.b
            type T (m: [string]?[]int, e: ?(one, two), s: (x: float, y: object), o: ?T)
            method M(t: T) -> ()
            """
        #expect(try VarlinkInterface(description: text).typeNames == ["T"])
    }

    @Test("keeps each type declaration whole: nested structs, enums, maps, arrays and optionals, in order")
    func typeDeclarations() throws {
        let text = """
            interface a.b
            type T (m: [string]?[]int, e: ?(one, two), s: (x: float, y: object), o: ?T, b: []bool, n: ())
            type K (up, down)
            method M(t: T) -> ()
            """
        let declarations = try VarlinkInterface.typeDeclarations(of: text)
        #expect(declarations.map(\.name) == ["T", "K"])
        #expect(declarations.first?.type == .structure([
            VarlinkField(name: "m", type: .map(.optional(.array(.int)))),
            VarlinkField(name: "e", type: .optional(.enumeration(["one", "two"]))),
            VarlinkField(name: "s", type: .structure([VarlinkField(name: "x", type: .float), VarlinkField(name: "y", type: .object)])),
            VarlinkField(name: "o", type: .optional(.named("T"))),
            VarlinkField(name: "b", type: .array(.bool)),
            VarlinkField(name: "n", type: .structure([])),
        ]))
        #expect(declarations.last?.type == .enumeration(["up", "down"]))
        #expect(try VarlinkInterface.typeFields(of: text) == ["T": ["m", "e", "s", "o", "b", "n"]])
    }

    @Test("reports syntax errors with their line and column", arguments: [
        ("interface a.b\nmethod M() -> ()\nmethod N(x int) -> ()", 3, 12, "expected ':'"),
        ("interface a.b\n\nmethod M(x: Undeclared) -> ()", 3, 13, "unknown type 'Undeclared'"),
        ("interface a.b\nmethod M() -> ()\nmethod M() -> ()", 3, 8, "declared twice"),
        ("interface a\nmethod M() -> ()", 1, 11, "invalid interface name"),
        ("interface a.b\nfunction M() -> ()", 2, 1, "expected 'method', 'type' or 'error'"),
        ("interface a.b\nmethod M() -> (x: ?", 2, 20, "expected a name"),
        ("interface a.b", 1, 14, "at least one member"),
        ("interface a.b\nmethod M() => ()", 2, 12, "unexpected character '='"),
    ])
    func syntaxErrors(text: String, line: Int, column: Int, message: String) {
        #expect {
            try VarlinkInterface(description: text)
        } throws: { error in
            guard let error = error as? VarlinkInterfaceSyntaxError else { return false }
            return error.line == line && error.column == column && error.message.contains(message)
        }
    }
}

func readFile(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count <= 0 { break }
        bytes.append(contentsOf: chunk[..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
}

import Glibc
