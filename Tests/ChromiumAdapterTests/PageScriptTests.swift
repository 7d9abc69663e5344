import Foundation
import Testing

@testable import ChromiumAdapter

@Suite("The page agent")
struct PageScriptTests {
    @Test("the embedded page agent is Page/page.js verbatim, and its generated file's header names it")
    func embeddedScriptIsTheSource() throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/ChromiumAdapter/Page/page.js").standardized.path
        #expect(PageScript.source == (try String(contentsOfFile: source, encoding: .utf8)))
        let generated = try String(contentsOfFile: PageScript.generatedFile, encoding: .utf8)
        #expect(generated.prefix { $0 != "\n" }.contains("Sources/ChromiumAdapter/Page/page.js"))
    }

    @Test("--keyboards focusd rewrites the one KEYBOARDS line of the agent, and browser leaves it as it is")
    func keyboardsRewritesItsLine() {
        #expect(PageScript.source.ranges(of: PageScript.keyboardsLine).count == 1)
        #expect(PageScript.source(keyboards: .browser) == PageScript.source)
        let focusd = PageScript.source(keyboards: .focusd)
        #expect(!focusd.contains(PageScript.keyboardsLine))
        #expect(focusd.ranges(of: #"const KEYBOARDS = "focusd";"#).count == 1)
        #expect(focusd.count == PageScript.source.count - "browser".count + "focusd".count)
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

    @Test("a scene message's root text and its other members are cut apart only when the root is exactly the message's last top-level member")
    func rootTextIsExactlyTheRootMember() {
        let text = { (payload: String) in PageAdapter.rootText(payload).map { String(decoding: $0, as: UTF8.self) } }
        let root = ##"{"id":"#document","children":[{"id":"a","frame":{"x":1,"y":2,"width":3,"height":4}}]}"##
        #expect(text(#"{"t":"scene","url":"http://x/?q=,\"root\":{"}"# + #","root":"# + root + "}") == root)
        #expect(text(#"{"t":"scene","fresh":true,"focus":null,"root":"# + root + "}") == root)
        // A member after the root, a container before it, a root nested deeper: not taken.
        #expect(text(#"{"t":"scene","root":"# + root + #","policy":"android"}"#) == nil)
        #expect(text(#"{"t":"scene","x":{"a":1},"root":"# + root + "}") == nil)
        #expect(text(#"{"t":"scene","x":[1,"root":2],"root":"# + root + "}") == nil)
        #expect(text(#"{"t":"scene"}"#) == nil)
        #expect(text(#"{"t":"scene","root":}"#) == nil)
        #expect(text("") == nil)
        // The other members, as a message of their own: exactly what a parse of the message reads besides the root.
        let message = #"{"t":"scene","url":"http://x/?q=,\"root\":{","fresh":true,"focus":null,"root":"# + root + "}"
        let parts = PageAdapter.sceneParts(Array(message.utf8))
        #expect(parts.map { String(decoding: $0.head, as: UTF8.self) } == #"{"t":"scene","url":"http://x/?q=,\"root\":{","fresh":true,"focus":null}"#)
        #expect(parts.map { String(decoding: $0.root, as: UTF8.self) } == root)
    }

    @Test("a new document's first scene is told from the page's other messages (held messages before it are the old document's)")
    func newDocumentScenes() {
        let root = ##"{"id":"#document","children":[{"id":"fresh","frame":{"x":1,"y":2,"width":3,"height":4}}]}"##
        #expect(PageAdapter.isNewDocument(#"{"t":"scene","url":"http://x/","seq":1,"fresh":true,"focus":null,"root":"# + root + "}"))
        // Its root not last (read whole), spaces the agent never writes: still told.
        #expect(PageAdapter.isNewDocument(#"{"t":"scene","root":"# + root + #", "fresh": true}"#))
        // A whole scene of the same document, "fresh" only inside a string or a node, a patch: not.
        #expect(!PageAdapter.isNewDocument(#"{"t":"scene","seq":4,"root":"# + root + "}"))
        #expect(!PageAdapter.isNewDocument(#"{"t":"scene","url":"http://x/?\"fresh\":true","root":"# + root + "}"))
        #expect(!PageAdapter.isNewDocument(#"{"t":"scene","fresh":false,"root":"# + root + "}"))
        #expect(!PageAdapter.isNewDocument(#"{"t":"patch","seq":2,"fresh":true,"frames":[]}"#))
        #expect(!PageAdapter.isNewDocument(#"{"t":"focus","id":"a","seq":1}"#))
        #expect(!PageAdapter.isNewDocument("not json"))
    }
}
