import FocusConfig
import InputDevices
import InputMapping
import Logging
import NIOCore

/// How `focusd` was asked to run (its command line).
public struct DaemonOptions: Sendable {
    /// `--socket`; nil: `$FOCUSD_SOCKET`, the config's `socket.path`, then the mode's default.
    public var socketPath: String?
    /// `--config`; nil: `/etc/focusd/focusd.toml` when it exists, else the built-in defaults.
    public var configPath: String?
    /// `--demo`: install the built-in demo scene (persistent) at start.
    public var demo = false
    /// `--no-devices` sets this false: socket only.
    public var devices = true
    /// Where event nodes live (tests point this elsewhere).
    public var inputDirectory = "/dev/input"
    public var logLevel: Logger.Level = .info
    /// `--websocket ADDR:PORT`: serve Varlink over WebSocket there (overrides `[websocket] listen`).
    public var webSocket: ListenAddress?
    /// For `Benchmarks/LoopBench` only (no command line sets it): with `devices` false, the
    /// input thread's delegate — the one hop onto the event loop that an `InputLoop` would get —
    /// and the event loop are handed here once the socket serves, so a harness can play the
    /// input thread and drive the loop's half of a key press exactly as the devices do (and run
    /// its profiler's dumps on the loop thread).
    @_spi(Benchmarks) public var inputFeed: (@Sendable (any InputLoopDelegate, any EventLoop) -> Void)?

    public init() {}

    /// Parses `--websocket`'s `ADDR:PORT`, or says why it is not one.
    public static func webSocketAddress(_ text: String) -> Result<ListenAddress, ConfigError> {
        ListenAddress.parse(text)
    }
}
