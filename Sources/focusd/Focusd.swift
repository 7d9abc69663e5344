#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FocusService

/// `focusd`: the focus daemon. Without a subcommand it runs the daemon (`focusd run`).
@main
enum Focusd {
    static let abstract = "Turns keyboards, remotes, gamepads, knobs and touchpads into tvOS-style focus moves."
    static let discussion = """
        focusd reads input devices, moves focus in the scene a UI client describes, and \
        publishes focus state over a Varlink socket (io.focusd.Focus, io.focusd.Input). \
        Run it without arguments for the built-in defaults; add --demo to load a TV \
        home-screen scene and watch it with `focusctl watch`.
        """

    /// The subcommands; the first is the default.
    static let commands: [(spec: CommandSpec, run: @Sendable (ParsedArguments) throws -> Void)] = [
        (Run.spec, Run.run), (Simulate.spec, Simulate.run), (Lint.spec, Lint.run), (Classify.spec, Classify.run),
    ]

    static var help: String {
        var text = "\(wrap("OVERVIEW: " + abstract, width: 80))\n\n\(wrap(discussion, width: 80))\n\nUSAGE: focusd <subcommand>\n\nOPTIONS:\n"
        text += helpLine("--version", "Show the version.")
        text += helpLine("-h, --help", "Show help information.")
        text += "\nSUBCOMMANDS:\n"
        for (index, command) in commands.enumerated() {
            text += helpLine(command.spec.name + (index == 0 ? " (default)" : ""), command.spec.abstract)
        }
        return text + "\n  See 'focusd help <subcommand>' for detailed help.\n"
    }

    static func main() {
        var arguments = CommandLine.arguments.dropFirst()
        let beforeSeparator = arguments.prefix { $0 != "--" }
        if arguments.first == "help" {
            let name = arguments.dropFirst().first
            if let name, let command = commands.first(where: { $0.spec.name == name }) {
                print(command.spec.help)
            } else if let name {
                printError("Error: unknown subcommand '\(name)'\n\n" + help)
                exit(64)
            } else {
                print(help)
            }
            exit(0)
        }
        if beforeSeparator.contains("--version") {
            print(FocusdVersion.string)
            exit(0)
        }
        var command = commands[0]
        var named = false
        if let first = arguments.first, let match = commands.first(where: { $0.spec.name == first }) {
            command = match
            named = true
            arguments = arguments.dropFirst()
        }
        if beforeSeparator.contains("-h") || beforeSeparator.contains("--help") {
            print(named ? command.spec.help : help)
            exit(0)
        }
        do {
            let parsed = try command.spec.parse(arguments)
            try command.run(parsed)
        } catch let error as UsageError {
            printError("Error: \(error.message.prefix(1).uppercased() + error.message.dropFirst())")
            printError("Usage: \(error.command.usage)\n  See 'focusd \(error.command.name) --help' for more information.")
            exit(64)
        } catch let failure as CommandFailure {
            printError("Error: \(failure.description)")
            exit(1)
        } catch let exit as ExitStatus {
            Glibc.exit(exit.code)
        } catch {
            printError("Error: \(error)")
            exit(1)
        }
        exit(0)
    }
}

/// Ends the command with this status after it has printed what it found (lint problems: 1).
struct ExitStatus: Error {
    var code: Int32
}
