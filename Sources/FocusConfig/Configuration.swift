// The configuration file (input.md §7): its schema, read from TOML with every error located.

import InputMapping

/// The whole configuration file, with the built-in defaults for whatever it leaves out.
public struct Configuration: Hashable, Sendable {
    public var socket = SocketSettings()
    public var access = AccessSettings()
    public var limits = LimitSettings()
    public var websocket = WebSocketSettings()
    /// `[adapters.*]`: read by focusd-adapter, checked here like every other section.
    public var adapters = AdapterSettings()
    /// Profiles in file order; the first one that matches a device wins.
    public var profiles: [Profile] = []
    /// Problems that do not stop the file from loading (for `ReloadConfig`'s `warnings`).
    public var warnings: [String] = []
    /// `[gamepads] databases`: SDL_GameControllerDB files, in order (input.md §10); nil when the
    /// file does not say, which means `/etc/focusd/gamecontrollerdb.txt` when it exists.
    public var gamepadDatabasePaths: [String]?
    /// The lines of those files and of `SDL_GAMECONTROLLERCONFIG`, loaded by the service (I/O is
    /// not this module's): profiles' own mappings win over them.
    public var gamepadDatabase = GamepadDatabase()

    public init() {}

    /// The configuration used without a file: defaults for every device.
    public static let defaults = Configuration()

    /// Where focusd (and focusd-adapter, for `[adapters.*]`) read the file unless told otherwise.
    public static let defaultPath = "/etc/focusd/focusd.toml"

    static let topLevelKeys = ["socket", "access", "limits", "websocket", "profile", "gamepads", "adapters"]

    /// Parses and validates a configuration file.
    /// - Throws: `ConfigError` with the line (and column) of the first syntax or schema problem:
    ///   unknown keys, wrong types, bad values, duplicate profile names.
    public static func parse(_ text: String) throws(ConfigError) -> Configuration {
        let document = try TOML.parse(text)
        var root = ConfigReader(document, path: "", position: TOMLPosition(line: 1, column: 1))
        var configuration = Configuration()
        if var socket = try root.table("socket") {
            configuration.socket = try readSocket(&socket)
        }
        if var access = try root.table("access") {
            configuration.access = try readAccess(&access)
        }
        if var limits = try root.table("limits") {
            configuration.limits = try readLimits(&limits)
        }
        if var websocket = try root.table("websocket") {
            configuration.websocket = try readWebSocket(&websocket)
        }
        if var adapters = try root.table("adapters") {
            configuration.adapters = try readAdapters(&adapters)
        }
        if var gamepads = try root.table("gamepads") {
            configuration.gamepadDatabasePaths = try gamepads.array("databases", ConfigReader.stringElement)
            try gamepads.finish(known: ["databases"])
        }
        if let profiles = try root.tables("profile") {
            var names: [String: Int] = [:]
            var catchAll: (name: String, line: Int)?
            for var reader in profiles {
                let profile = try ProfileReader.read(&reader)
                if let first = names[profile.name] {
                    throw ConfigError("duplicate profile name '\(profile.name)' (first on line \(first))", at: reader.position)
                }
                names[profile.name] = reader.position.line
                // Fields of the profile's SDL line that bind nothing (SDL ignores them too) are said, not silent.
                for warning in profile.gamepadMapping?.warnings ?? [] {
                    configuration.warnings.append("line \(reader.position.line): profile '\(profile.name)' gamepadMapping: \(warning)")
                }
                if let catchAll {
                    configuration.warnings.append(
                        "line \(reader.position.line): profile '\(profile.name)' never matches: profile '\(catchAll.name)' "
                            + "(line \(catchAll.line)) has no match rules and takes every device first")
                } else if profile.match == MatchRules() && profile.gamepadMapping == nil {
                    catchAll = (profile.name, reader.position.line)
                }
                configuration.profiles.append(profile)
            }
        }
        try root.finish(known: topLevelKeys)
        return configuration
    }

    static func readSocket(_ reader: inout ConfigReader) throws(ConfigError) -> SocketSettings {
        var socket = SocketSettings()
        if let (path, position) = try reader.string("path") {
            guard path.hasPrefix("/") else {
                throw ConfigError("'socket.path' must be an absolute path, found '\(path)'", at: position)
            }
            socket.path = path
        }
        if let (group, position) = try reader.string("group") {
            guard !group.isEmpty, !group.contains(":") else {
                throw ConfigError("'socket.group' must be a group name, found '\(group)'", at: position)
            }
            socket.group = group
        }
        if let entry = reader.entry("mode") {
            let mode: Int64
            switch entry.node.value {
            case .integer(let value): mode = value
            case .string(let text):
                guard let value = Int64(text, radix: 8), text.allSatisfy({ ("0"..."7").contains($0) }) else {
                    throw ConfigError("'socket.mode' must be octal digits such as \"0660\", found \"\(text)\"", at: entry.node.position)
                }
                mode = value
            default:
                throw reader.typeError("mode", expected: "an integer (0o660) or an octal string (\"0660\")", entry.node)
            }
            guard (0...0o777).contains(mode) else {
                throw ConfigError("'socket.mode' must be permission bits (0o000 to 0o777), found 0o\(String(mode, radix: 8))", at: entry.node.position)
            }
            guard mode & 0o007 == 0 else {
                throw ConfigError("'socket.mode' 0o\(String(mode, radix: 8)) would make the socket world-accessible", at: entry.node.position)
            }
            socket.mode = UInt32(mode)
        }
        try reader.finish(known: ["path", "group", "mode"])
        return socket
    }

    static func readAccess(_ reader: inout ConfigReader) throws(ConfigError) -> AccessSettings {
        var access = AccessSettings()
        access.readOnlyUids = try reader.array("readOnlyUids", ConfigReader.idElement) ?? []
        access.readOnlyGids = try reader.array("readOnlyGids", ConfigReader.idElement) ?? []
        access.allowedUids = try reader.array("allowedUids", ConfigReader.idElement) ?? []
        access.allowedGids = try reader.array("allowedGids", ConfigReader.idElement) ?? []
        try reader.finish(known: ["readOnlyUids", "readOnlyGids", "allowedUids", "allowedGids"])
        return access
    }

    static func readWebSocket(_ reader: inout ConfigReader) throws(ConfigError) -> WebSocketSettings {
        var settings = WebSocketSettings()
        if let (text, position) = try reader.string("listen") {
            switch ListenAddress.parse(text) {
            case .success(let address): settings.listen = address
            case .failure(let error): throw ConfigError("'websocket.listen': \(error.message)", at: position)
            }
        }
        settings.origins = try reader.array("origins", ConfigReader.stringElement)
        if let (token, position) = try reader.string("token") {
            guard token.count >= 16, token.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: ",") }) else {
                throw ConfigError(
                    "'websocket.token' must be at least 16 printable ASCII characters without spaces or commas", at: position)
            }
            settings.token = token
        }
        if let (text, position) = try reader.string("access") {
            guard let access = WebSocketSettings.Access(rawValue: text) else {
                throw ConfigError("'websocket.access' must be \"full\" or \"readOnly\", found \"\(text)\"", at: position)
            }
            settings.access = access
        }
        if let value = try reader.integer("maxConnections", in: 1...65_536) { settings.maxConnections = Int(value) }
        if let value = try reader.number("pingInterval", in: 0...3600) { settings.pingInterval = value }
        if let listen = settings.listen, !listen.isLoopback, settings.token == nil {
            throw ConfigError(
                "'websocket.listen' \(listen) is not a loopback address: set 'websocket.token' too", at: reader.position)
        }
        try reader.finish(known: ["listen", "origins", "token", "access", "maxConnections", "pingInterval"])
        return settings
    }

    static func readAdapters(_ reader: inout ConfigReader) throws(ConfigError) -> AdapterSettings {
        var settings = AdapterSettings()
        if var chromium = try reader.table("chromium") {
            if let (text, position) = try chromium.string("keyboards") {
                guard let keyboards = AdapterSettings.Keyboards(rawValue: text) else {
                    throw ConfigError("'adapters.chromium.keyboards' must be \"browser\" or \"focusd\", found \"\(text)\"", at: position)
                }
                settings.chromiumKeyboards = keyboards
            }
            try chromium.finish(known: ["keyboards"])
        }
        try reader.finish(known: ["chromium"])
        return settings
    }

    static func readLimits(_ reader: inout ConfigReader) throws(ConfigError) -> LimitSettings {
        var limits = LimitSettings()
        if let value = try reader.integer("maxNodes", in: 1...10_000_000) { limits.maxNodes = Int(value) }
        if let value = try reader.integer("maxDepth", in: 1...10_000) { limits.maxDepth = Int(value) }
        if let value = try reader.integer("maxMessageBytes", in: 1024...(1 << 31)) { limits.maxMessageBytes = Int(value) }
        if let value = try reader.integer("maxConnectionsPerUid", in: 1...65_536) { limits.maxConnectionsPerUid = Int(value) }
        if let value = try reader.integer("maxConnections", in: 1...1_000_000) { limits.maxConnections = Int(value) }
        if let value = try reader.integer("maxScenesPerConnection", in: 1...100_000) { limits.maxScenesPerConnection = Int(value) }
        if let value = try reader.integer("maxScenesPerUid", in: 1...100_000) { limits.maxScenesPerUid = Int(value) }
        if let value = try reader.integer("maxNodesPerUid", in: 1...100_000_000) { limits.maxNodesPerUid = Int(value) }
        if let value = try reader.integer("outgoingQueueBytes", in: 4096...(1 << 31)) { limits.outgoingQueueBytes = Int(value) }
        if let value = try reader.number("slowClientTimeout", in: 0.1...3600) {
            limits.slowClientTimeoutMs = Int((value * 1000).rounded())
        }
        if let value = try reader.integer("promptBuildBytes", in: 0...(1 << 31)) { limits.promptBuildBytes = Int(value) }
        try reader.finish(known: [
            "maxNodes", "maxDepth", "maxMessageBytes", "maxConnectionsPerUid", "outgoingQueueBytes", "slowClientTimeout",
            "maxConnections", "maxScenesPerConnection", "maxScenesPerUid", "maxNodesPerUid", "promptBuildBytes",
        ])
        return limits
    }
}

/// Bus names a match rule may use instead of numbers (`BUS_*` of linux/input.h).
public enum BusType {
    public static let names: [String: Int] = [
        "pci": 0x01, "isapnp": 0x02, "usb": 0x03, "hil": 0x04, "bluetooth": 0x05, "virtual": 0x06,
        "isa": 0x10, "i8042": 0x11, "xtkbd": 0x12, "rs232": 0x13, "gameport": 0x14, "parport": 0x15,
        "amiga": 0x16, "adb": 0x17, "i2c": 0x18, "host": 0x19, "gsc": 0x1A, "atari": 0x1B, "spi": 0x1C,
        "rmi": 0x1D, "cec": 0x1E, "intel-ishtp": 0x1F,
    ]
}
