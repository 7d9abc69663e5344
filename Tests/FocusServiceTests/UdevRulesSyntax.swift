/// A syntax checker for udev rules files, for tests that cannot run `udevadm` on a real device.
///
/// It reads udev's rule grammar (udev(7)): every logical line (a trailing backslash continues it)
/// is a comment, blank, or comma-separated `KEY{attribute}OPERATOR"value"` pairs. It knows which
/// keys exist, which take an attribute, which may only match (`==`, `!=`) and which may only be
/// assigned (`=`, `+=`, `-=`, `:=`), and that every `GOTO` needs a `LABEL`.
struct UdevRulesSyntax {
    /// One `KEY{attribute}OP"value"` pair of a rule.
    struct Pair: Equatable {
        var key: String
        var attribute: String?
        var op: String
        var value: String
    }

    /// One rule: its pairs and the physical line it starts on (1-based).
    struct Rule {
        var line: Int
        var pairs: [Pair]

        /// The value of the first pair with this key, attribute and operator, if any.
        func value(_ key: String, _ attribute: String? = nil, op: String) -> String? {
            pairs.first { $0.key == key && $0.attribute == attribute && $0.op == op }?.value
        }
    }

    /// A problem found, with the physical line it concerns (1-based).
    struct Problem: Equatable, CustomStringConvertible {
        var line: Int
        var message: String
        var description: String { "line \(line): \(message)" }
    }

    private enum Use { case match, assign, both }

    /// Keys, whether they take `{attribute}` (required, optional or never), and how they are used.
    private static let keys: [String: (attribute: Bool?, use: Use)] = [
        "ACTION": (false, .match), "DEVPATH": (false, .match), "KERNEL": (false, .match),
        "KERNELS": (false, .match), "SUBSYSTEM": (false, .match), "SUBSYSTEMS": (false, .match),
        "DRIVER": (false, .match), "DRIVERS": (false, .match), "TAGS": (false, .match),
        "ATTRS": (true, .match), "CONST": (true, .match), "TEST": (nil, .match),
        "PROGRAM": (false, .match), "RESULT": (false, .match),
        "NAME": (false, .both), "SYMLINK": (false, .both), "TAG": (false, .both),
        "ATTR": (true, .both), "SYSCTL": (true, .both), "ENV": (true, .both),
        "OWNER": (false, .assign), "GROUP": (false, .assign), "MODE": (false, .assign),
        "SECLABEL": (true, .assign), "RUN": (nil, .assign), "IMPORT": (true, .assign),
        "OPTIONS": (false, .assign), "LABEL": (false, .assign), "GOTO": (false, .assign),
    ]
    private static let matchOperators: Set<String> = ["==", "!="]
    private static let assignOperators: Set<String> = ["=", "+=", "-=", ":="]

    private(set) var rules: [Rule] = []
    private(set) var problems: [Problem] = []

    /// Parses `text`, collecting rules and every problem found.
    init(_ text: String) {
        var labels: [String] = []
        var gotos: [(line: Int, label: String)] = []
        var logical = ""
        var start = 0
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, raw) in lines.enumerated() {
            if logical.isEmpty { start = index + 1 }
            var line = String(raw)
            if line.hasSuffix("\\") {
                line.removeLast()
                logical += line
                if index == lines.count - 1 {
                    problems.append(Problem(line: start, message: "the file ends inside a continued line"))
                }
                continue
            }
            logical += line
            defer { logical = "" }
            let trimmed = logical.trimmingWhitespace()
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            switch Self.parsePairs(trimmed) {
            case .failure(let message):
                problems.append(Problem(line: start, message: message))
            case .success(let pairs):
                for pair in pairs {
                    if let message = Self.check(pair) {
                        problems.append(Problem(line: start, message: message))
                    }
                    if pair.key == "LABEL" { labels.append(pair.value) }
                    if pair.key == "GOTO" { gotos.append((start, pair.value)) }
                }
                if pairs.allSatisfy({ Self.matchOperators.contains($0.op) }) {
                    problems.append(Problem(line: start, message: "the rule only matches and assigns nothing"))
                }
                rules.append(Rule(line: start, pairs: pairs))
            }
        }
        for label in Set(labels) where labels.filter({ $0 == label }).count > 1 {
            problems.append(Problem(line: 0, message: "LABEL \"\(label)\" is defined more than once"))
        }
        for goto in gotos where !labels.contains(goto.label) {
            problems.append(Problem(line: goto.line, message: "GOTO \"\(goto.label)\" has no LABEL"))
        }
    }

    /// Checks one pair against the key table; nil when it is fine.
    private static func check(_ pair: Pair) -> String? {
        guard let spec = keys[pair.key] else { return "unknown key \(pair.key)" }
        switch (spec.attribute, pair.attribute) {
        case (true?, nil): return "\(pair.key) needs an {attribute}"
        case (false?, _?): return "\(pair.key) takes no {attribute}"
        default: break
        }
        let isMatch = matchOperators.contains(pair.op)
        switch spec.use {
        case .match where !isMatch: return "\(pair.key) can only be matched (== or !=), not assigned with \(pair.op)"
        case .assign where isMatch: return "\(pair.key) can only be assigned, not matched with \(pair.op)"
        default: break
        }
        if pair.key == "IMPORT", let kind = pair.attribute,
           !["program", "builtin", "file", "db", "cmdline", "parent"].contains(kind) {
            return "IMPORT{\(kind)} is not one of program, builtin, file, db, cmdline, parent"
        }
        if pair.key == "RUN", let kind = pair.attribute, !["program", "builtin"].contains(kind) {
            return "RUN{\(kind)} is not RUN{program} or RUN{builtin}"
        }
        if pair.key == "MODE", !(pair.value.count == 4 && pair.value.allSatisfy({ ("0"..."7").contains($0) })) {
            return "MODE \"\(pair.value)\" is not four octal digits"
        }
        if ["LABEL", "GOTO", "GROUP", "OWNER"].contains(pair.key), pair.value.isEmpty {
            return "\(pair.key) has an empty value"
        }
        return nil
    }

    private enum Parsed { case success([Pair]), failure(String) }

    /// Splits one logical line into pairs: `KEY{attr}OP"value"` separated by commas and blanks.
    private static func parsePairs(_ line: String) -> Parsed {
        var pairs: [Pair] = []
        var rest = Substring(line)
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            let key = rest.prefix { $0.isASCII && ($0.isUppercase || $0 == "_") }
            guard !key.isEmpty else {
                return .failure("expected a KEY at \"\(rest.prefix(20))\"")
            }
            rest = rest.dropFirst(key.count)
            var attribute: String?
            if rest.first == "{" {
                guard let close = rest.firstIndex(of: "}") else {
                    return .failure("\(key){ is never closed")
                }
                attribute = String(rest[rest.index(after: rest.startIndex)..<close])
                rest = rest[rest.index(after: close)...]
            }
            rest = rest.drop { $0 == " " || $0 == "\t" }
            guard let op = ["==", "!=", "+=", "-=", ":=", "="].first(where: { rest.hasPrefix($0) }) else {
                return .failure("expected an operator after \(key) at \"\(rest.prefix(20))\"")
            }
            rest = rest.dropFirst(op.count).drop { $0 == " " || $0 == "\t" }
            if rest.first == "e" { rest = rest.dropFirst() }  // e"..." escaped strings
            guard rest.first == "\"" else {
                return .failure("the value of \(key) must be in double quotes")
            }
            rest = rest.dropFirst()
            var value = ""
            var closed = false
            while let character = rest.first {
                rest = rest.dropFirst()
                if character == "\\", let next = rest.first {
                    value.append(character)
                    value.append(next)
                    rest = rest.dropFirst()
                } else if character == "\"" {
                    closed = true
                    break
                } else {
                    value.append(character)
                }
            }
            guard closed else { return .failure("the value of \(key) has no closing quote") }
            pairs.append(Pair(key: String(key), attribute: attribute, op: op, value: value))
            rest = rest.drop { $0 == " " || $0 == "\t" }
            if rest.isEmpty { return .success(pairs) }
            guard rest.first == "," else {
                return .failure("expected a comma after \(key) at \"\(rest.prefix(20))\"")
            }
            rest = rest.dropFirst()
        }
    }
}

extension String {
    /// The string without leading and trailing blanks (spaces and tabs).
    fileprivate func trimmingWhitespace() -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        return String(drop(while: blank).reversed().drop(while: blank).reversed())
    }
}
