import AdapterKit
import ArgumentParser
import ChromiumAdapter

/// `focusd-adapter chromium`: any web page through the DevTools protocol (adapters.md §2).
struct ChromiumCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chromium",
        abstract: "Adapt the pages of a Chromium browser (or an Electron application) over the DevTools protocol."
    )

    @OptionGroup var options: AdapterOptions

    func run() throws {
        throw ValidationError("the chromium adapter is not built yet")
    }
}
