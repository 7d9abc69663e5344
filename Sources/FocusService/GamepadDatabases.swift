#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FocusConfig
import FocusWire
import InputMapping

/// Loads the SDL_GameControllerDB files a configuration names (input.md §10), and the lines of
/// `SDL_GAMECONTROLLERCONFIG`, into `Configuration.gamepadDatabase`; start-up, reload and
/// `focusd classify --config` share it. A database never breaks the config: a file that cannot be
/// read and every line that cannot be used are warnings.
public enum GamepadDatabases {
    /// Used when the config names no database and the file exists.
    public static let defaultPath = "/etc/focusd/gamecontrollerdb.txt"

    public static func load(into configuration: inout Configuration, environment: String? = nil) {
        var database = GamepadDatabase()
        let paths = configuration.gamepadDatabasePaths ?? [defaultPath]
        for path in paths {
            do {
                let bytes = try readFile(path, limit: 64 << 20)
                database.add(String(decoding: bytes, as: UTF8.self), source: path)
            } catch {
                // The default file is optional; a named one that is missing is worth a warning.
                if configuration.gamepadDatabasePaths == nil && error.isMissing { continue }
                configuration.warnings.append("gamepad database \(path): \(error)")
            }
        }
        let variable = environment ?? getenv("SDL_GAMECONTROLLERCONFIG").map { String(cString: $0) }
        if let variable, !variable.isEmpty {
            database.add(variable, source: "SDL_GAMECONTROLLERCONFIG")
        }
        configuration.warnings += database.warnings
        configuration.gamepadDatabase = database
    }
}
