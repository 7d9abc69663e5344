import AdapterKit
import ArgumentParser
import ChromiumAdapter
import FocusConfig
import SystemCalls

#if canImport(Glibc)
import Glibc
#endif

extension BrowserSession.Keyboards: ExpressibleByArgument {}

/// `focusd-adapter chromium`: any web page through the DevTools protocol (adapters.md §2).
struct ChromiumCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chromium",
        abstract: "Adapt the pages of a Chromium browser (or an Electron application) over the DevTools protocol.",
        discussion: """
            focusd-adapter chromium --launch -- chromium --kiosk https://example.com
              starts the browser over --remote-debugging-pipe (no port is opened) and stops it on exit.
            focusd-adapter chromium --connect 127.0.0.1:9222
              attaches to a browser started with --remote-debugging-port=9222 (loopback only) and \
            reconnects when it restarts.
            Each page is a scene named chromium:TARGET-ID; the page that is shown is the active scene.
            """
    )

    @OptionGroup var options: AdapterOptions

    @Flag(help: "Start the browser command given after `--` over --remote-debugging-pipe.")
    var launch = false

    @Option(help: ArgumentHelp("Attach to a browser's debugging port at a loopback ADDRESS:PORT.", valueName: "address:port"))
    var connect: String?

    @Option(help: ArgumentHelp(
        "Who acts on the navigation keys of a keyboard the browser receives itself: browser (the page) or focusd (the page never sees them). Default: [adapters.chromium] keyboards of the config file, else browser.",
        valueName: "browser|focusd"))
    var keyboards: BrowserSession.Keyboards?

    @Option(help: ArgumentHelp(
        "focusd's config file, read for [adapters.chromium] (default: /etc/focusd/focusd.toml when it exists).",
        valueName: "path"))
    var config: String?

    @Argument(parsing: .postTerminator, help: "The browser command for --launch.")
    var command: [String] = []

    func validate() throws {
        switch (launch, connect) {
        case (true, .some): throw ValidationError("--launch and --connect exclude each other")
        case (false, nil): throw ValidationError("say how to reach the browser: --launch -- COMMAND… or --connect 127.0.0.1:PORT")
        case (true, nil) where command.isEmpty: throw ValidationError("--launch needs the browser command after `--` (e.g. -- chromium --kiosk URL)")
        case (false, .some) where !command.isEmpty: throw ValidationError("a browser command is only taken with --launch")
        case (false, .some(let endpoint)):
            do { _ = try Endpoint.parseLoopback(endpoint) } catch { throw ValidationError(error.description) }
        default: break
        }
    }

    /// `--keyboards`, else the config file's `[adapters.chromium] keyboards`, else `browser`. The
    /// file is focusd's own (the same schema, checked the same way): a file that is there but
    /// cannot be read or is not valid is an error naming it, never a silent default.
    func resolvedKeyboards() throws -> BrowserSession.Keyboards {
        if let keyboards { return keyboards }
        let path = config ?? Configuration.defaultPath
        let bytes: [UInt8]
        do {
            bytes = try Posix.readWholeFile(path, limit: 16 << 20)
        } catch let error where error.errno == ENOENT && config == nil {
            return .browser  // no config installed: the defaults
        } catch {
            FileHandleOutput.standardError("focusd-adapter chromium: cannot read the config file \(path): \(error)")
            throw ExitCode(1)
        }
        do {
            let settings = try Configuration.parse(String(decoding: bytes, as: UTF8.self)).adapters
            return settings.chromiumKeyboards.map { $0 == .focusd ? .focusd : .browser } ?? .browser
        } catch {
            FileHandleOutput.standardError("focusd-adapter chromium: \(path): \(error)")
            throw ExitCode(1)
        }
    }

    func run() throws {
        AdapterLog.verbose = options.verbose
        let socket = try options.socketPath()
        let session = BrowserSession(
            mode: launch ? .launch(command) : .connect(connect!), socket: socket, keyboards: try resolvedKeyboards())
        do {
            try session.run()
        } catch {
            FileHandleOutput.standardError("focusd-adapter chromium: \(error.description)")
            throw ExitCode(1)
        }
    }
}
