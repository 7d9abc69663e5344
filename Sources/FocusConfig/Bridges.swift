// The configuration's bridges to InputMapping types: errors at a TOML position, glob checks, the
// profile matcher of a whole configuration.

import InputMapping

extension ConfigError {
    init(_ message: String, at position: TOMLPosition) {
        self.init(message, line: position.line, column: position.column)
    }
}

extension Glob {
    /// Refuses a pattern with an unclosed `[`, naming the key and where it was written.
    static func validate(_ pattern: String, key: String, at position: TOMLPosition) throws(ConfigError) {
        guard bracketsAreClosed(pattern) else {
            throw ConfigError("'\(key)': unclosed '[' in the pattern \"\(pattern)\"", at: position)
        }
    }
}

extension ProfileMatcher {
    /// The matcher of a configuration: its profiles, in file order, and its gamepad database.
    public init(configuration: Configuration) {
        self.init(profiles: configuration.profiles, database: configuration.gamepadDatabase)
    }
}
