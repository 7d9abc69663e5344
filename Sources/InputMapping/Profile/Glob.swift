// Shell-style globs for match rules: `*`, `?`, `[abc]`, `[a-z]`, `[!x]`, and `\` to escape.

/// Matches text against a shell-style glob.
public enum Glob {
    /// True when `text` matches `pattern` as a whole.
    public static func matches(_ pattern: String, _ text: String) -> Bool {
        match(Array(pattern), 0, Array(text), 0)
    }

    private static func match(_ p: [Character], _ pi: Int, _ t: [Character], _ ti: Int) -> Bool {
        var pi = pi
        var ti = ti
        while pi < p.count {
            switch p[pi] {
            case "*":
                while pi < p.count && p[pi] == "*" { pi += 1 }
                if pi == p.count { return true }
                for start in ti...t.count where match(p, pi, t, start) { return true }
                return false
            case "?":
                guard ti < t.count else { return false }
                pi += 1
                ti += 1
            case "[":
                guard ti < t.count, let (matched, next) = bracket(p, pi, t[ti]), matched else { return false }
                pi = next
                ti += 1
            case "\\" where pi + 1 < p.count:
                guard ti < t.count, t[ti] == p[pi + 1] else { return false }
                pi += 2
                ti += 1
            default:
                guard ti < t.count, t[ti] == p[pi] else { return false }
                pi += 1
                ti += 1
            }
        }
        return ti == t.count
    }

    /// Evaluates `[...]` at `start` for `character`: (matched, index after `]`), nil when unclosed.
    private static func bracket(_ p: [Character], _ start: Int, _ character: Character) -> (Bool, Int)? {
        var i = start + 1
        var negate = false
        if i < p.count && (p[i] == "!" || p[i] == "^") {
            negate = true
            i += 1
        }
        var matched = false
        var first = true
        while i < p.count && (p[i] != "]" || first) {
            first = false
            if i + 2 < p.count && p[i + 1] == "-" && p[i + 2] != "]" {
                if p[i] <= character && character <= p[i + 2] { matched = true }
                i += 3
            } else {
                if p[i] == character { matched = true }
                i += 1
            }
        }
        guard i < p.count else { return nil }
        return (matched != negate, i + 1)
    }

    /// Whether every `[` of `pattern` (not escaped) is closed.
    public static func bracketsAreClosed(_ pattern: String) -> Bool {
        let characters = Array(pattern)
        var i = 0
        while i < characters.count {
            if characters[i] == "\\" {
                i += 2
                continue
            }
            if characters[i] == "[" && bracket(characters, i, " ") == nil { return false }
            i += 1
        }
        return true
    }
}
