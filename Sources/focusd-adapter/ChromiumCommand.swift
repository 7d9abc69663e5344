import AdapterKit
import ArgumentParser
import ChromiumAdapter

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
        "Who acts on the navigation keys of a keyboard the browser receives itself: browser (the page; the default) or focusd (the page never sees them). Mirrors focusd.conf's [adapters.chromium] keyboards.",
        valueName: "browser|focusd"))
    var keyboards: BrowserSession.Keyboards = .browser

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

    func run() throws {
        AdapterLog.verbose = options.verbose
        let socket = try options.socketPath()
        let session = BrowserSession(mode: launch ? .launch(command) : .connect(connect!), socket: socket, keyboards: keyboards)
        do {
            try session.run()
        } catch {
            FileHandleOutput.standardError("focusd-adapter chromium: \(error.description)")
            throw ExitCode(1)
        }
    }
}
