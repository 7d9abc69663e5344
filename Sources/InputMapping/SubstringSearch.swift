extension StringProtocol {
    /// Whether `needle` occurs in this text (byte-wise on UTF-8, which is exact for the ASCII
    /// device names it is used on).
    ///
    /// The standard library's `contains(_: String)` lives in _StringProcessing, whose use links
    /// the regex engine (~0.8 MB of code) into the daemon; see docs/performance.md.
    func includes(_ needle: String) -> Bool {
        let haystack = Array(utf8)
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty else { return true }
        guard haystack.count >= pattern.count else { return false }
        for start in 0...(haystack.count - pattern.count) where haystack[start..<start + pattern.count].elementsEqual(pattern) {
            return true
        }
        return false
    }
}
