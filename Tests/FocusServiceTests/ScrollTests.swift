import Foundation
import Testing
import Varlink

/// Scroll containers and collections (focus.md §12) through focusd's service (in process: the
/// calls and monitor events are the socket's, without the socket).
@Suite("Scroll containers and collections through the service", .timeLimit(.minutes(1)))
struct ScrollTests {
    /// A rail: a 500-wide horizontal scroll container holding a 1,000,000-item collection with
    /// items 0 and 1 built.
    static func railScene(_ name: String) -> JSONValue {
        [
            "name": .string(name),
            "root": [
                "id": "root", "frame": TestScenes.frame(0, 0, 1920, 1080),
                "children": [
                    [
                        "id": "rail", "frame": TestScenes.frame(100, 300, 500, 100),
                        "scroll": ["axis": "horizontal", "contentWidth": 220_000_000, "contentHeight": 100],
                        "children": [
                            [
                                "id": "items", "frame": TestScenes.frame(0, 0, 0, 0),
                                "collection": ["count": 1_000_000, "layout": "row", "itemWidth": 200, "itemHeight": 100, "spacing": 20],
                                "children": [
                                    ["id": "movie0", "focusable": true, "index": 0],
                                    ["id": "movie1", "focusable": true, "index": 1],
                                ],
                            ],
                        ],
                    ],
                ],
            ],
        ]
    }

    @Test("moves reach virtual items: focus, materialize and scroll events with one revision, then ScrollTo and hand-over")
    func railThroughService() throws {
        let daemon = try InProcessFocusd()
        let client = try daemon.connect()
        let set = try client.call("io.focusd.Focus.SetScene", ["scene": Self.railScene("home")])
        #expect(set["state"]?["focused"] == "movie0")
        #expect(set["state"]?["scroll"] == [["node": "rail", "offsetX": 0.0, "offsetY": 0.0]])
        let watcher = try daemon.connect()
        let stream = try watcher.callMore("io.focusd.Focus.Monitor", ["scene": "home"])
        _ = try stream.next(timeout: .seconds(3))
        try client.call("io.focusd.Focus.Move", ["direction": "right"])
        let moved = try client.call("io.focusd.Focus.Move", ["direction": "right"])
        #expect(moved["state"]?["focused"] == "items#2")
        #expect(moved["state"]?["path"] == ["items#2", "items", "rail", "root"])
        #expect(moved["state"]?["scroll"] == [["node": "rail", "offsetX": 140.0, "offsetY": 0.0]])
        var events: [JSONValue] = []
        while events.count < 4, let m = try stream.next(timeout: .seconds(3)) { if let e = m["event"] { events.append(e) } }
        #expect(events.map { $0["kind"] } == ["focus", "focus", "materialize", "scroll"])
        #expect(events[2]["node"] == "items" && events[2]["index"] == 2)
        #expect(events[3]["node"] == "rail" && events[3]["offsetX"] == 140.0 && events[3]["cause"]?["kind"] == "directional")
        #expect(events[1]["revision"] == events[3]["revision"])

        let scrolled = try client.call("io.focusd.Focus.ScrollTo", ["node": "rail", "offsetX": -50, "offsetY": 9])
        #expect(scrolled["state"]?["scroll"] == [["node": "rail", "offsetX": 0.0, "offsetY": 0.0]])
        #expect(scrolled["state"]?["focused"] == "items#2")
        let scrollEvent = try stream.next(timeout: .seconds(3))?["event"]
        #expect(scrollEvent?["kind"] == "scroll" && scrollEvent?["cause"]?["kind"] == "programmatic")
        let notContainer = try client.error(calling: "io.focusd.Focus.ScrollTo", ["node": "movie0", "offsetX": 0, "offsetY": 0])
        #expect(notContainer == VarlinkError("io.focusd.Focus.NoSuchNode", parameters: ["id": "movie0"]))

        // The client builds the focused index: focus passes to the built node.
        let built = try client.call("io.focusd.Focus.UpdateScene", [
            "scene": "home", "upsert": [["parent": "items", "node": ["id": "movie2", "focusable": true, "index": 2]]],
        ])
        #expect(built["state"]?["focused"] == "movie2")
        var handOver: JSONValue?
        while handOver == nil, let m = try stream.next(timeout: .seconds(3)) {
            if m["event"]?["kind"] == "focus" { handOver = m["event"] }
        }
        #expect(handOver?["from"] == "items#2" && handOver?["cause"]?["kind"] == "materialized")
        #expect(try client.call("io.focusd.Focus.Focus", ["id": "items#999999"])["state"]?["focused"] == "items#999999")
        let past = try client.error(calling: "io.focusd.Focus.Focus", ["id": "items#1000000"])
        #expect(past == VarlinkError("io.focusd.Focus.NoSuchNode", parameters: ["id": "items#1000000"]))
        #expect(daemon.isServing)
    }

    @Test("a bad scroll container or collection is InvalidScene naming the node and the reason")
    func invalidScrollScene() throws {
        let daemon = try InProcessFocusd()
        let client = try daemon.connect()
        let reserved: JSONValue = [
            "name": "bad",
            "root": [
                "id": "root", "frame": TestScenes.frame(0, 0, 100, 100),
                "children": [
                    ["id": "c", "frame": TestScenes.frame(0, 0, 0, 0),
                     "collection": ["count": 3, "layout": "row", "itemWidth": 10, "itemHeight": 10]],
                    ["id": "c#1", "focusable": true, "frame": TestScenes.frame(0, 50, 10, 10)],
                ],
            ],
        ]
        let error = try client.error(calling: "io.focusd.Focus.SetScene", ["scene": reserved])
        #expect(error == VarlinkError("io.focusd.Focus.InvalidScene", parameters: [
            "reason": "id 'c#1' is reserved for a virtual item of collection 'c'", "node": "c#1",
        ]))
        #expect(daemon.isServing)
    }
}
