/// An error a subcommand reports in one line (`Error: ...`, exit 1), without the usage text a
/// ``UsageError`` gets: a missing or malformed file is not a usage mistake.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
