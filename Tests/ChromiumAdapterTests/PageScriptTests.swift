import Foundation
import Testing

@testable import ChromiumAdapter

@Suite("The page agent")
struct PageScriptTests {
    @Test("the embedded page agent is Page/page.js verbatim (scripts/embed-page-script)")
    func embeddedScriptIsTheSource() throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/ChromiumAdapter/Page/page.js").standardized.path
        #expect(PageScript.source == (try String(contentsOfFile: source, encoding: .utf8)))
    }

    @Test("commands reach pages as UI Events key values")
    func keyValues() {
        #expect(PageAdapter.keyValue("back") == "BrowserBack")
        #expect(PageAdapter.keyValue("playPause") == "MediaPlayPause")
        #expect(PageAdapter.keyValue("menu") == "ContextMenu")
        #expect(PageAdapter.keyValue("channelUp") == "ChannelUp")
        #expect(PageAdapter.keyValue("info") == "Info")
        #expect(PageAdapter.keyValue("somethingNew") == "SomethingNew")
    }
}
