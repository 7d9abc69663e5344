import FocusConfig
import FocusService
import FocusWire
import InputMapping
import Varlink

/// `focusd classify [--no-udev] [--config FILE] FILE...` (input.md §9): the class, grab, backend
/// and reasons focusd gives each device description, by the function the daemon uses.
enum Classify {
    static let spec = CommandSpec(
        name: "classify",
        abstract: "Prints the class, grab and reasons focusd gives each device description.",
        discussion: """
            Each FILE (`-` for standard input) holds one device description or an array of them \
            (input.md §9: name, ids, every event code, absinfo, udev properties). One JSON object \
            is printed per description, in order: name, class, grab, backend, reasons, mapping. \
            A malformed description is an error naming the file, the description's index and the \
            field (exit 2).
            """,
        options: [
            .init(name: "no-udev", help: "Classify as on a machine without udevd (ignore each description's `udev`)."),
            .init(name: "config", value: "FILE", help: "Apply this configuration file's device profiles."),
        ],
        positionals: [.init(name: "files", help: "Description files.", repeating: true)]
    )

    static func run(_ arguments: ParsedArguments) throws {
        // Without --config, the daemon's defaults: no profiles, the default gamepad database.
        var defaults = Configuration.defaults
        GamepadDatabases.load(into: &defaults)
        var matcher = ProfileMatcher(configuration: defaults)
        var configText = ""
        let configPath = arguments.value("config")
        if let configPath {
            do {
                configText = String(decoding: try readFile(configPath, limit: 1 << 20), as: UTF8.self)
                var configuration = try Configuration.parse(configText)
                GamepadDatabases.load(into: &configuration)
                for warning in configuration.warnings { printError("warning: \(configPath): \(warning)") }
                matcher = ProfileMatcher(configuration: configuration)
            } catch let error as FileReadError {
                throw CommandFailure("\(configPath): \(error)")
            } catch {
                throw CommandFailure("\(configPath): \(error)")
            }
        }
        var lines: [String] = []
        for file in arguments.positionals {
            let identities: [DeviceIdentity]
            do {
                identities = try DeviceDescription.load(file)
            } catch {
                printError("Error: \(error.description)")
                throw ExitStatus(code: 2)
            }
            for var identity in identities {
                if arguments.flag("no-udev") { identity.udevProperties = [:] }
                var settings = matcher.settings(for: identity)
                if settings.ignored {
                    settings.grab = .none
                    settings.reasons.append("not read: \(settings.ignoreReason ?? "ignored")")
                }
                let backend: JSONValue = settings.grab == .none ? .null : .string(settings.backend.rawValue)
                var mapping: JSONValue = .null
                if let gamepad = settings.gamepadMapping, let source = settings.gamepadMappingSource {
                    mapping = .object(["name": .string(gamepad.name), "source": .string(source)])
                } else if let gamepad = settings.gamepadMapping, let configPath {
                    // (Not String.contains(String): it links the regex engine into the daemon.)
                    let guid = Array(gamepad.guid.utf8)
                    let line = configText.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { text in
                        let bytes = Array(text.utf8)
                        return bytes.count >= guid.count
                            && (0...(bytes.count - guid.count)).contains { bytes[$0..<$0 + guid.count].elementsEqual(guid) }
                    }.map { $0 + 1 }
                    mapping = .object([
                        "name": .string(gamepad.name),
                        "source": .string(configPath + (line.map { ":\($0)" } ?? "")),
                    ])
                }
                let object: JSONValue = .object([
                    "name": .string(identity.name),
                    "class": .string(settings.deviceClass.rawValue),
                    "grab": .string(settings.grab.rawValue),
                    "backend": backend,
                    "reasons": .array(settings.reasons.map { .string($0) }),
                    "mapping": mapping,
                ])
                lines.append(object.description)
            }
        }
        // Nothing is printed before every file has been read: a malformed one gives exit 2 alone.
        for line in lines { print(line) }
    }
}
