import FocusEngine
import Foundation
import Testing
import Varlink

extension ServiceSocketTests {
    /// An `UpdateScene` of 4 KiB or more is read from its bytes (`SceneBytes.updateScene`) on the
    /// loop; whatever it does not take goes the general way. Either way the reply, the error and
    /// the scene after it are those of the same call read through the JSON tree: each call is
    /// sent compact (under 4 KiB: the general way) and padded with whitespace past 4 KiB.
    @Suite("UpdateScene read from its bytes over the socket")
    struct UpdateFromBytes {
        /// Parameters, and whether the byte reader takes them (the rest go the general way).
        static let cases: [(String, Bool)] = [
            (#"{"scene":"u","upsert":[{"parent":"root","node":{"id":"tile0","frame":{"x":5,"y":6,"width":70,"height":70},"focusable":true}}]}"#, true),
            (#"{"scene":"u","upsert":[{"parent":"root","index":0,"node":{"id":"n","frame":{"x":0,"y":200,"width":50,"height":50},"focusable":true,"children":[{"id":"m","frame":{"x":1,"y":201,"width":5,"height":5}}]}}],"remove":["tile2"]}"#, true),
            (#"{"scene":"u","remove":["tile2"]}"#, true),
            (#"{"scene":"u","upsert":[{"parent":"nope","node":{"id":"a"}}]}"#, true),
            (#"{"scene":"u","upsert":[{"parent":"root","node":{"id":"d","children":[{"id":"e"},{"id":"e"}]}}]}"#, true),
            (#"{"scene":"u","upsert":[{"parent":"root","node":{"id":"w","frame":{"x":0,"y":0,"width":-1,"height":4}}}]}"#, true),
            (#"{"scene":"u","upsert":[{"parent":"root","index":99,"node":{"id":"far"}}]}"#, true),
            (#"{"scene":"u","remove":["missing"]}"#, true),
            (#"{"scene":"nosuch","upsert":[{"parent":"root","node":{"id":"a"}}]}"#, true),
            (#"{"scene":"u","upsert":[{"parent":"root","index":1.5,"node":{"id":"a"}}]}"#, false),
            (#"{"scene":"u","upsert":null}"#, false),
            (#"{"scene":"u","other":1}"#, false),
            (#"{"upsert":[]}"#, false),
            (#"{"scene":5,"upsert":[]}"#, false),
            (#"{"scene":"u","upsert":[{"parent":"root","node":{"frame":{"x":0,"y":0,"width":1,"height":1}}}]}"#, false),
            (#"{"scene":"u","upsert":[{"node":{"id":"a"}}]}"#, false),
            (#"{"scene":"u","upsert":[{"parent":"root","node":{"id":"t\u0069le0","focusable":false}}]}"#, false),
            (#"{"scene":"u","upsert":[{"parent":"root","parent":"root","node":{"id":"a"}}]}"#, false),
            (#"{"scene":"u","upsert":[{"parent":"root","node":{"id":"a","bindings":[]}}]}"#, false),
            (#"{"scene":"u","upsert":[{"parent":"root","node":{"id":"a","wrap":"diagonal"}}]}"#, false),
            (#"{"scene":"u","remove":[1]}"#, false),
            (#"{"scene":"u","upsert":[{"parent":"root","node":{"id":"a","frame":{"x":0,"y":0,"width":1}}}]}"#, false),
        ]

        /// The reply's text to `message` on a fresh connection that set the scene `u` first
        /// ("closed" when the daemon closed the connection), and the scene after it.
        static func outcome(_ daemon: FocusdProcess, _ message: [UInt8]) throws -> (reply: String, scene: JSONValue?) {
            let client = try daemon.connect()
            defer { client.close() }
            try client.call("io.focusd.Focus.SetScene", ["scene": TestScenes.row("u")])
            let reply: String
            do {
                reply = try client.roundTrip(message + [0])
            } catch {
                return ("closed", nil)
            }
            return (reply, try client.call("io.focusd.Inspect.GetScene", ["scene": "u"])["scene"])
        }

        @Test("each UpdateScene, valid or not, gets the reply, error and scene of the general way; those the reader takes are read from their bytes")
        func sameRepliesAsTheTree() throws {
            let daemon = try ServiceSocketTests.OffLoopScenes.daemon()
            defer { daemon.stop() }
            let line = "UpdateScene was read from its bytes"
            var fast = 0
            for (parameters, taken) in Self.cases {
                let compact = Array(#"{"method":"io.focusd.Focus.UpdateScene","parameters":\#(parameters)}"#.utf8)
                let padded = Array(#"{"method":"io.focusd.Focus.UpdateScene","parameters":\#(parameters)\#(String(repeating: " ", count: 5_000))}"#.utf8)
                #expect(compact.count < 4 << 10 && padded.count >= 4 << 10)
                let before = daemon.log_.components(separatedBy: line).count
                let general = try Self.outcome(daemon, compact)
                let bytes = try Self.outcome(daemon, padded)
                #expect(general.reply == bytes.reply, "\(parameters)")
                #expect(general.scene == bytes.scene, "\(parameters)")
                if taken {
                    fast += 1
                    #expect(daemon.waitForLog { $0.components(separatedBy: line).count > before }, "not read from its bytes: \(parameters)")
                }
                #expect(daemon.log_.components(separatedBy: line).count - 1 == fast, "\(parameters)")
            }
            // The cases show something: successes, engine errors, decoding errors, a closed connection.
            let replies = try Self.cases.map { try Self.outcome(daemon, Array(#"{"method":"io.focusd.Focus.UpdateScene","parameters":\#($0.0)}"#.utf8)).reply }
            #expect(replies.contains { $0.contains("\"state\"") })
            #expect(replies.contains { $0.contains("io.focusd.Focus.UnknownNode") || $0.contains("io.focusd.Focus.InvalidScene") })
            #expect(replies.contains { $0.contains("org.varlink.service.InvalidParameter") })
            #expect(replies.contains("closed"))
        }
    }
}
