/// Files as Swift string literals, verbatim: focusd serves its interface files and carries its
/// demo scene, web module and page agent inside its binaries (no Foundation `Bundle`, no file to
/// find at run time). The literal is a raw multi-line string whose delimiter has one `#` more
/// than the longest run of `#` after a `"` or a `\` in the text, so no text can end it early or
/// hold an escape or an interpolation; its lines are
/// not indented, so the text stays exactly as it is (a final newline becomes the empty line
/// before the closing delimiter).
struct EmbeddedTexts {
    var type: String
    var isPublic: Bool
    var files: [(name: String, path: String, text: String)]

    func swift() -> String {
        let sources = files.map(\.path).joined(separator: ", ")
        var out = [
            "// GENERATED at build time by focusd-codegen (the Codegen plugin) from \(sources): edit those, not this.",
            "",
            "extension \(type) {",
            "    /// This generated file (its header names its sources; a test reads it).",
            "    static var generatedFile: String { #filePath }",
            "",
        ]
        let access = isPublic ? "public " : ""
        for file in files {
            let hashes = String(repeating: "#", count: Self.longestHashRun(in: file.text) + 1)
            out.append("    /// `\(file.path)`, verbatim.")
            out.append("    \(access)static let \(file.name) = \(hashes)\"\"\"")
            out.append(contentsOf: file.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
            out.append("\"\"\"\(hashes)")
            out.append("")
        }
        out[out.count - 1] = "}"
        return out.joined(separator: "\n") + "\n"
    }

    /// The longest run of `#` right after a `"` or a `\` in `text` (0 when there is none).
    static func longestHashRun(in text: String) -> Int {
        var longest = 0
        var run: Int?
        for byte in text.utf8 {
            if byte == UInt8(ascii: "#"), let current = run {
                run = current + 1
                longest = max(longest, current + 1)
            } else {
                run = byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") ? 0 : nil
            }
        }
        return longest
    }
}
