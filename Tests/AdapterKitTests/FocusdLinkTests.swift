import FocusEngine
import FocusWire
import Foundation
import SystemCalls
import Testing
import Varlink

@testable import AdapterKit

/// An adapter's side of FocusdLink: records what it hears and runs scripted steps.
private final class Recorder: FocusdLinkDelegate {
    var ready: [FocusState] = []
    var events: [Event] = []
    var connections: [Bool] = []
    var rejected: [String] = []
    var onReady: ((FocusState) -> Void)?
    var onEvent: ((Event) -> Void)?

    func sceneReady(_ link: FocusdLink, state: FocusState) {
        ready.append(state)
        onReady?(state)
    }
    func received(_ link: FocusdLink, event: Event) {
        events.append(event)
        onEvent?(event)
    }
    func connectionChanged(_ link: FocusdLink, connected: Bool, reason: String?) { connections.append(connected) }
    func sceneRejected(_ link: FocusdLink, name: String, error: String) { rejected.append(error) }
}

@Suite("FocusdLink against focusd")
struct FocusdLinkTests {
    static func row(_ name: String, count: Int) -> Scene {
        Scene(name: name, root: Node(id: "root", frame: Rect(x: 0, y: 0, width: 1000, height: 200), children: (0..<count).map {
            Node(id: "b\($0)", frame: Rect(x: Double($0) * 100, y: 0, width: 80, height: 80), focusable: true)
        }))
    }

    /// A focusd of its own, and a started link to it on a new loop, heard by a recorder.
    private static func started() throws -> (TestFocusd, AdapterLoop, FocusdLink, Recorder) {
        let daemon = try TestFocusd()
        let loop = AdapterLoop()
        let link = FocusdLink(loop: loop, socket: daemon.socket)
        let recorder = Recorder()
        link.delegate = recorder
        link.start()
        return (daemon, loop, link, recorder)
    }

    /// Runs `loop` until `done` or `seconds` pass (a deadline timer stops it).
    static func run(_ loop: AdapterLoop, seconds: Int = 10) {
        let deadline = loop.schedule(after: .seconds(seconds)) { loop.stop() }
        loop.run()
        loop.remove(deadline)
    }

    @Test("a published scene is owned, monitored before use, diffed, and its events delivered")
    func publishMonitorAndEvents() throws {
        let (daemon, loop, link, recorder) = try Self.started()
        defer { daemon.stop() }
        link.publish(Self.row("app", count: 3))
        link.activate("app")
        let driver = try VarlinkClient(path: daemon.socket)
        recorder.onReady = { _ in
            // Moves made by someone else (a device, focusctl) reach the adapter as events.
            _ = try? driver.call("io.focusd.Focus.Move", ["direction": "right", "scene": "app"])
        }
        recorder.onEvent = { event in
            guard event.kind == .focus, event.to == "b1" else { return }
            // The page grew: one node added, sent as a diff; focus kept.
            link.publish(Self.row("app", count: 4))
            link.reportFocus("b3", in: "app") { state in
                #expect(state?.focused == "b3")
                loop.stop()
            }
        }
        Self.run(loop)
        #expect(recorder.ready.count == 1)
        #expect(recorder.ready.first?.focused == "b0")
        #expect(recorder.events.contains { $0.kind == .focus && $0.to == "b1" && $0.cause?.kind == .directional })
        let scenes = try driver.call("io.focusd.Focus.ListScenes")
        #expect(scenes["active"] == "app")
        let held = try driver.call("io.focusd.Inspect.GetScene", ["scene": "app"])
        #expect(held["scene"]?["root"]?["children"]?.arrayValue?.count == 4)
        link.stop()
        // The scene belonged to the link's connection: it goes with it.
        var gone = false
        for _ in 0..<100 where !gone {
            gone = (try driver.call("io.focusd.Focus.ListScenes"))["scenes"] == []
            if !gone { usleep(10_000) }
        }
        #expect(gone)
    }

    @Test("a scene replaced from its text goes to focusd before the adapter reads it, by focusd's own reader, once focusd has answered; text neither reader takes gives focusd back the scene it had")
    func replaceFromText() throws {
        let (daemon, loop, link, recorder) = try Self.started()
        defer { daemon.stop() }
        let driver = try VarlinkClient(path: daemon.socket)
        func children(_ scene: String) throws -> Int? {
            try driver.call("io.focusd.Inspect.GetScene", ["scene": .string(scene)])["scene"]?["root"]?["children"]?.arrayValue?.count
        }
        let five = Array(try JSONTextEncoder().encode(Self.row("app", count: 5).root))
        let seven = Array(try JSONTextEncoder().encode(Self.row("app", count: 7).root))
        // Three nodes, with an escape focusd's general parser reads and SceneBytes leaves to it.
        let escaped = Array(String(decoding: try JSONTextEncoder().encode(Self.row("app", count: 3).root), as: UTF8.self)
            .replacing(#""id":"b0""#, with: #""id":"\u0062\u0030""#).utf8)
        #expect(escaped.withUnsafeBytes { SceneBytes.setScene(document: $0, depthLimit: 64) } == nil)
        var decoded: [Int] = []
        var held: [Int?] = []
        var read: [Int?] = []
        // New: sent, then read by SceneBytes (`decode` is not asked) once focusd has answered;
        // its Monitor follows.
        link.replace("app", encodedRoot: five, decode: { decoded.append(5); return nil }) { read.append($0?.root.children?.count) }
        #expect(read.isEmpty)  // not read before focusd answered
        recorder.onReady = { _ in
            #expect(read == [5])
            // Replaced: the same; a use of the scene before focusd's answer reads it first.
            link.replace("app", encodedRoot: seven, decode: { decoded.append(7); return nil }) { read.append($0?.root.children?.count) }
            #expect(read == [5])
            #expect(link.sentScene("app") == Self.row("app", count: 7))
            #expect(read == [5, 7])
            link.reportFocus("b6", in: "app") { state in
                #expect(state?.focused == "b6")
                held.append(try? children("app"))
                // Text neither the link nor `decode` reads: focusd is given the scene the link knows again.
                link.replace("app", encodedRoot: escaped, decode: { decoded.append(3); return nil }) { read.append($0?.root.children?.count) }
                #expect(decoded.isEmpty)  // read after focusd's answer, as SceneBytes reads
                link.reportFocus("b1", in: "app") { _ in
                    held.append(try? children("app"))
                    loop.stop()
                }
            }
        }
        Self.run(loop)
        #expect(decoded == [3])
        #expect(read == [5, 7, nil])
        #expect(held == [7, 7])
        #expect(link.sentScene("app") == Self.row("app", count: 7))
        #expect(recorder.rejected.isEmpty)
    }

    @Test("a scene replaced and withdrawn before focusd answered is removed from focusd, and its reader never told")
    func replaceThenWithdraw() throws {
        let (daemon, loop, link, _) = try Self.started()
        defer { daemon.stop() }
        let driver = try VarlinkClient(path: daemon.socket)
        let five = Array(try JSONTextEncoder().encode(Self.row("gone", count: 5).root))
        var told = 0
        // Connected first (the link sends nothing before): a scene of another name answers that.
        link.publish(Self.row("other", count: 1))
        loop.schedule(after: .milliseconds(200)) {
            link.replace("gone", encodedRoot: five, decode: { nil }) { _ in told += 1 }
            link.withdraw("gone")
            link.reportFocus("b0", in: "other") { _ in loop.stop() }
        }
        Self.run(loop)
        #expect(told == 0)
        #expect(link.sentScene("gone") == nil)
        #expect((try driver.call("io.focusd.Focus.ListScenes"))["scenes"] == ["other"])
    }

    @Test("when focusd restarts, the link reconnects through its socket's directory and re-sends its scenes")
    func reconnectsAndResends() throws {
        let (daemon, loop, link, recorder) = try Self.started()
        defer { daemon.stop() }
        link.publish(Self.row("app", count: 2))
        link.activate("app")
        recorder.onReady = { _ in
            if recorder.ready.count == 1 {
                daemon.stop()
                // Back a little later, started from another thread while the link waits.
                loop.schedule(after: .milliseconds(300)) {
                    DispatchQueue.global().async { try? daemon.start() }
                }
            } else {
                loop.stop()
            }
        }
        Self.run(loop, seconds: 15)
        #expect(recorder.ready.count == 2)
        #expect(recorder.connections == [true, false, true])
        let driver = try VarlinkClient(path: daemon.socket)
        let scenes = try driver.call("io.focusd.Focus.ListScenes")
        #expect(scenes["scenes"] == ["app"] && scenes["active"] == "app")
    }

    @Test("the socket path: option, else FOCUSD_SOCKET, else the per-user or system default")
    func socketPathDefaults() {
        #expect(FocusdLink.socketPath(option: "/x.sock", environment: { _ in "/env.sock" }) == "/x.sock")
        #expect(FocusdLink.socketPath(option: nil, environment: { $0 == "FOCUSD_SOCKET" ? "/env.sock" : nil }) == "/env.sock")
        let fallback = FocusdLink.socketPath(option: nil, environment: { $0 == "XDG_RUNTIME_DIR" ? "/run/user/7" : nil })
        #expect(fallback == (getuid() == 0 ? "/run/focusd/focusd.sock" : "/run/user/7/focusd/focusd.sock"))
    }
}
