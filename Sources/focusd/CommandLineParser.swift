#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// focusd parses its own small command line instead of using swift-argument-parser, which focusctl
// uses: ArgumentParser links FoundationEssentials into the binary, and in the daemon that code
// measured ~3 MiB of its resident memory (ServiceBench (b), docs/performance.md), a fifth of the
// 16 MiB goal, for parsing six options once at start-up. The conventions are ArgumentParser's:
// `--name value` or `--name=value`, `-h/--help` anywhere, `help SUBCOMMAND`, `--version`,
// usage errors on stderr with exit 64 (EX_USAGE).

/// One subcommand's grammar and help text.
struct CommandSpec: Sendable {
    struct Option: Sendable {
        var name: String
        var short: Character? = nil
        /// The value's name in help; nil for a flag.
        var value: String? = nil
        var help: String
        var defaultValue: String? = nil
    }

    struct Positional: Sendable {
        var name: String
        var help: String
        var repeating = false
        var optional = false
    }

    var name: String
    var abstract: String
    var discussion: String
    var options: [Option] = []
    var positionals: [Positional] = []
}

/// What a command line said: flags and option values by long name, positionals in order.
struct ParsedArguments {
    var flags: Set<String> = []
    var values: [String: String] = [:]
    var positionals: [String] = []

    func value(_ name: String) -> String? { values[name] }
    func flag(_ name: String) -> Bool { flags.contains(name) }
}

/// A usage mistake: printed with the command's usage line, exit 64.
struct UsageError: Error {
    var message: String
    var command: CommandSpec
}

extension CommandSpec {
    /// Parses `arguments` (after the subcommand's name) against this grammar.
    func parse(_ arguments: ArraySlice<String>) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var remaining = arguments[...]
        var optionsEnded = false
        while let argument = remaining.popFirst() {
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let option: Option?
            var inlineValue: String? = nil
            if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name = body.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                option = options.first { $0.name == name[0] }
                if name.count == 2 { inlineValue = String(name[1]) }
            } else if argument.count == 2, let short = argument.last {
                option = options.first { $0.short == short }
            } else {
                option = nil
            }
            guard let option else { throw UsageError(message: "unknown option '\(argument)'", command: self) }
            if option.value == nil {
                guard inlineValue == nil else {
                    throw UsageError(message: "'--\(option.name)' takes no value", command: self)
                }
                parsed.flags.insert(option.name)
            } else if let value = inlineValue ?? remaining.popFirst() {
                parsed.values[option.name] = value
            } else {
                throw UsageError(message: "missing value for '--\(option.name) <\(option.value!)>'", command: self)
            }
        }
        let required = positionals.filter { !$0.optional && !$0.repeating }.count
        if parsed.positionals.count < required {
            let missing = positionals.filter { !$0.optional && !$0.repeating }[parsed.positionals.count]
            throw UsageError(message: "missing expected argument '<\(missing.name)>'", command: self)
        }
        if !positionals.contains(where: \.repeating), parsed.positionals.count > positionals.count {
            throw UsageError(message: "unexpected argument '\(parsed.positionals[positionals.count])'", command: self)
        }
        return parsed
    }

    /// `focusd NAME [options] <arguments>`.
    var usage: String {
        var parts = ["focusd", name]
        for option in options {
            parts.append(option.value.map { "[--\(option.name) <\($0)>]" } ?? "[--\(option.name)]")
        }
        for positional in positionals {
            let text = "<\(positional.name)>" + (positional.repeating ? " ..." : "")
            parts.append(positional.optional || positional.repeating ? "[\(text)]" : text)
        }
        return parts.joined(separator: " ")
    }

    /// The whole help text, in ArgumentParser's layout.
    var help: String {
        var text = "\(wrap("OVERVIEW: " + abstract, width: 80))\n\n\(wrap(discussion, width: 80))\n\nUSAGE: \(usage)\n"
        if !positionals.isEmpty {
            text += "\nARGUMENTS:\n"
            for positional in positionals { text += helpLine("<\(positional.name)>", positional.help) }
        }
        text += "\nOPTIONS:\n"
        for option in options {
            var label = option.short.map { "-\($0), " } ?? ""
            label += "--\(option.name)" + (option.value.map { " <\($0)>" } ?? "")
            text += helpLine(label, option.help + (option.defaultValue.map { " (default: \($0))" } ?? ""))
        }
        text += helpLine("--version", "Show the version.")
        text += helpLine("-h, --help", "Show help information.")
        return text
    }
}

/// `  label   help`, the help wrapped at 80 columns in a column of its own.
func helpLine(_ label: String, _ help: String) -> String {
    let indent = 26
    let lines = wrap(help, width: 80 - indent).split(separator: "\n", omittingEmptySubsequences: false)
    var text = "  " + label
    if text.count + 1 < indent {
        text += String(repeating: " ", count: indent - text.count)
    } else {
        text += "\n" + String(repeating: " ", count: indent)
    }
    text += lines.joined(separator: "\n" + String(repeating: " ", count: indent)) + "\n"
    return text
}

/// `text` with its words wrapped at `width` columns (paragraphs kept).
func wrap(_ text: String, width: Int) -> String {
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
        var line = ""
        for word in paragraph.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
    }
    return lines.joined(separator: "\n")
}

/// Writes `text` to standard error.
func printError(_ text: String) {
    var bytes = Array(text.utf8)
    bytes.append(0x0A)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
