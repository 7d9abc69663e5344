// focusd-codegen: the Swift the build generates instead of a committed copy (run by the Codegen
// build-tool plugin, Plugins/Codegen; scripts/fuzz runs it too).
//
//   focusd-codegen wire --root PACKAGE --table TABLE --output FILE
//       the Codable conformances of the wire types, from the `.varlink` files TABLE names
//       (WireConformances.swift says how)
//   focusd-codegen embed --root PACKAGE --output FILE --type TYPE [--public] NAME=PATH...
//       each file at PATH (relative to PACKAGE) as `static let NAME` of an extension of TYPE,
//       verbatim (EmbeddedTexts.swift)
//
// A problem (a file that cannot be read, a table line or an interface type it cannot map) is one
// line on standard error naming the file and the line, and exit status 1: the build stops there.

import SystemCalls

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A problem with the generator's input: what it says, with the file (and line) it is about.
struct CodegenError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The command line's options (`--name value`, `--flag`) and its other words, in order.
struct Arguments {
    var options: [String: String] = [:]
    var flags: Set<String> = []
    var words: [String] = []

    init(_ arguments: some Sequence<String>, flags known: Set<String>) throws(CodegenError) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if known.contains(argument) {
                flags.insert(argument)
            } else if argument.hasPrefix("--") {
                guard let value = iterator.next() else { throw CodegenError("\(argument) needs a value") }
                options[argument] = value
            } else {
                words.append(argument)
            }
        }
    }

    func required(_ option: String) throws(CodegenError) -> String {
        guard let value = options[option] else { throw CodegenError("\(option) is missing") }
        return value
    }
}

/// The text of `path` (`root`/`path` when `path` is relative), whole.
func readText(_ path: String, root: String) throws(CodegenError) -> String {
    let full = path.hasPrefix("/") ? path : root + "/" + path
    do {
        return String(decoding: try Posix.readWholeFile(full, limit: 16 << 20), as: UTF8.self)
    } catch {
        throw CodegenError("\(path): \(error)")
    }
}

/// Writes `text` to `path`, unless the file already holds it (so nothing that depends on it is
/// rebuilt for an unchanged output).
func writeText(_ text: String, to path: String) throws(CodegenError) {
    if let existing = try? Posix.readWholeFile(path, limit: 16 << 20), existing.elementsEqual(text.utf8) { return }
    do {
        try Posix.writeWholeFile(path, Array(text.utf8))
    } catch {
        throw CodegenError("\(path): \(error)")
    }
}

func run() throws(CodegenError) {
    let all = Array(CommandLine.arguments.dropFirst())
    guard let mode = all.first else {
        throw CodegenError("usage: focusd-codegen wire|embed ... (see the header of Sources/focusd-codegen/main.swift)")
    }
    let arguments = try Arguments(all.dropFirst(), flags: ["--public"])
    let root = try arguments.required("--root")
    let output = try arguments.required("--output")
    switch mode {
    case "wire":
        let tablePath = try arguments.required("--table")
        let table = try WireTable(text: try readText(tablePath, root: root), path: tablePath)
        let interfaces = try table.interfaces.map { (path) throws(CodegenError) in (path, try readText(path, root: root)) }
        var conformances = try WireConformances(table: table, tablePath: tablePath, interfaces: interfaces)
        let text = try conformances.swift()
        try writeText(text, to: output)
    case "embed":
        var files: [(name: String, path: String)] = []
        for word in arguments.words {
            guard let equals = word.firstIndex(of: "=") else { throw CodegenError("expected NAME=PATH, found '\(word)'") }
            files.append((String(word[..<equals]), String(word[word.index(after: equals)...])))
        }
        let texts = try files.map { (file) throws(CodegenError) in (file.name, file.path, try readText(file.path, root: root)) }
        let text = EmbeddedTexts(
            type: try arguments.required("--type"), isPublic: arguments.flags.contains("--public"), files: texts
        ).swift()
        try writeText(text, to: output)
    default:
        throw CodegenError("unknown mode '\(mode)': wire or embed")
    }
}

do {
    try run()
} catch {
    try? Posix.writeAll(2, Array("focusd-codegen: \(error)\n".utf8))
    exit(1)
}
