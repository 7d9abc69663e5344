/// The page agent injected into every document of a page (Page/page.js). `source`, the file's
/// text, is generated at build time from it (the Codegen plugin, `focusd-codegen embed`), so no
/// copy is committed.
enum PageScript {
    /// The line of page.js that --keyboards rewrites (adapters.md §2).
    static let keyboardsLine = #"const KEYBOARDS = "browser";"#

    /// The agent with its keyboard setting (the `KEYBOARDS` constant of page.js).
    static func source(keyboards: BrowserSession.Keyboards) -> String {
        keyboards == .browser ? source : source.replacing(keyboardsLine, with: #"const KEYBOARDS = "focusd";"#)
    }
}
