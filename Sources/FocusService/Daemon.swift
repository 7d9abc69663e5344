import CMalloc
import FocusConfig
import FocusWire
import InputMapping
import Logging
import NIOCore
import NIOPosix
import SystemCalls

#if canImport(Glibc)
import Glibc
#endif

/// The running daemon: the Varlink server, the input loop and the state on the event loop.
///
/// Threads: one NIO event loop owns every scene and connection (no locks); one input thread
/// (`InputLoop`) reads devices, maps each frame (the device mappers and their timers live there)
/// and hops the frame with its commands onto the event loop once; a worker thread
/// (`NIOThreadPool`) lints, decodes and builds large scenes; the main thread waits for signals in
/// `sigwaitinfo`. The types: `DaemonOptions` (the command line), `DaemonService` (start, reload,
/// stop), `DaemonCore` (what lives on the event loop), `InputLoopBridge` (the input thread's hop). No Swift concurrency runs in the daemon: as soon as
/// anything uses it, libdispatch's worker-pool monitor wakes the process once a second (measured
/// by ServiceBench), and an idle focusd must not wake up at all.
public enum Daemon {
    /// The default config file.
    public static let defaultConfigPath = Configuration.defaultPath

    /// Runs until SIGTERM or SIGINT; SIGHUP reloads the configuration.
    public static func run(_ options: DaemonOptions) throws {
        // Blocked before any thread starts, so every thread inherits the mask and only the
        // main thread's sigwaitinfo takes these signals.
        let signals = SignalSet.block([SIGTERM, SIGINT, SIGHUP])
        cmalloc_configure_arenas()
        let logger = Logger(label: "focusd")
        let config = try loadConfiguration(options.configPath)
        for warning in config.warnings { logger.warning("\(options.configPath ?? defaultConfigPath): \(warning)") }
        let daemon = DaemonService(options: options, configuration: config, logger: logger)
        try daemon.run(signals: signals)
    }

    /// Why the daemon could not start or reload.
    public struct StartupError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads and parses the configuration; a missing default file means the defaults.
    static func loadConfiguration(_ path: String?) throws -> Configuration {
        do {
            return try readConfiguration(path)
        } catch {
            throw StartupError(description: "\(path ?? defaultConfigPath): \(error)")
        }
    }

    /// Reads and parses the configuration file (`path`, else the default one, which may be
    /// missing: then the built-in defaults). Start-up and reload share it.
    static func readConfiguration(_ path: String?) throws(ConfigError) -> Configuration {
        let bytes: [UInt8]
        do {
            bytes = try readFile(path ?? defaultConfigPath, limit: 1 << 20)
        } catch {
            // Only a missing default file means the defaults; one that is there but unreadable is
            // a mistake to report, not to paper over.
            if path == nil && error.isMissing {
                var defaults = Configuration.defaults
                GamepadDatabases.load(into: &defaults)
                return defaults
            }
            throw ConfigError("cannot read the configuration file: \(error)")
        }
        var configuration = try Configuration.parse(String(decoding: bytes, as: UTF8.self))
        GamepadDatabases.load(into: &configuration)
        return configuration
    }
}
