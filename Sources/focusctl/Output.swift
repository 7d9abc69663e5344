import SystemCalls
import Varlink

import Glibc

/// Where a command's results go: short lines, JSON, or nothing (`-q`).
///
/// Every line is flushed as it is written, so `monitor` output reaches a pipe at once.
struct Output {
    enum Format { case text, prettyJSON, compactJSON, quiet }

    var format: Format

    /// Whether replies are printed as JSON.
    var isJSON: Bool { format == .prettyJSON || format == .compactJSON }

    /// Prints a reply: its JSON in the JSON formats, else the lines `text` makes of it.
    func reply(_ value: JSONValue, text: () -> [String]) {
        switch format {
        case .quiet: return
        case .prettyJSON: write(value.prettyPrinted())
        case .compactJSON: write(String(decoding: value.serialized(), as: UTF8.self))
        case .text: for line in text() { write(line) }
        }
    }

    /// Prints one JSON value on one line, whatever the format but quiet (for streams).
    func jsonLine(_ value: JSONValue) {
        guard format != .quiet else { return }
        write(String(decoding: value.serialized(), as: UTF8.self))
    }

    /// Prints a line of text unless quiet.
    func line(_ text: String) {
        guard format != .quiet else { return }
        write(text)
    }

    /// Prints a message on standard error unless quiet.
    func message(_ text: String) {
        guard format != .quiet else { return }
        Self.standardError("focusctl: \(text)")
    }

    /// Writes `text` and a newline to standard output and flushes it.
    func write(_ text: String) {
        Self.writeAll(STDOUT_FILENO, text + "\n")
    }

    /// Writes `text` and a newline to standard error.
    static func standardError(_ text: String) {
        writeAll(STDERR_FILENO, text + "\n")
    }

    /// Writes all of `text` to a file descriptor, unbuffered (so nothing waits for a flush);
    /// gives up silently when the reader has gone.
    static func writeAll(_ descriptor: Int32, _ text: String) {
        try? Posix.writeAll(descriptor, text.utf8)
    }
}

extension JSONValue {
    /// Indented JSON text (two spaces, keys sorted), for people to read.
    func prettyPrinted(indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case .array(let elements):
            guard !elements.isEmpty else { return "[]" }
            let items = elements.map { inner + $0.prettyPrinted(indent: inner) }
            return "[\n" + items.joined(separator: ",\n") + "\n" + indent + "]"
        case .object(let members):
            guard !members.isEmpty else { return "{}" }
            let items = members.keys.sorted().map { key in
                inner + JSONValue.string(key).compactText + ": " + members[key]!.prettyPrinted(indent: inner)
            }
            return "{\n" + items.joined(separator: ",\n") + "\n" + indent + "}"
        default:
            return compactText
        }
    }

    /// Compact JSON text.
    var compactText: String { String(decoding: serialized(), as: UTF8.self) }
}
