import FocusConfig
import FocusEngine
import FocusWire
import FoundationEssentials
import InputDevices
import InputMapping
import NIOCore
import NIOEmbedded
import Synchronization
import Testing

@testable import FocusService

/// The input path inside the daemon, without devices: frames mapped as the input thread maps
/// them (its `DeviceMappers`, timers fired at their deadlines), through the router and the real
/// engine, on an event loop whose clock the test advances.
@Suite("Input path: device frames to focus moves")
struct InputRouterTests {
    /// A router on the demo scene, with a recorder of the Focus monitor and Input notices.
    final class Rig {
        let loop = EmbeddedEventLoop()
        let hub = SceneHub()
        let router: InputRouter
        /// The input thread's mappers.
        let mappers: DeviceMappers
        var events: [Event] = []
        var notices: [InputRouter.InputNotice] = []

        init(matcher: ProfileMatcher = ProfileMatcher(profiles: [])) throws {
            router = InputRouter(eventLoop: loop, hub: hub)
            mappers = DeviceMappers(settings: { identity, siblings in matcher.settings(for: identity, siblings: siblings) })
            let scene = try JSONDecoder().decode(Scene.self, from: Data(EmbeddedResources.demoScene.utf8))
            _ = try hub.setScene(scene, by: 0)
            _ = try hub.addMonitor(scene: nil) { [unowned self] message in
                if case .event(let event) = message { self.events.append(event) }
            }
            _ = router.addObserver { [unowned self] notice in self.notices.append(notice) }
        }

        var focused: String? { try? hub.state(of: nil).focused }
        /// Focus and blocked events: one per directional move that reached the engine.
        var moves: Int { events.filter { $0.kind == .focus || $0.kind == .blocked }.count }
        var commands: [MappedCommand] {
            notices.compactMap { if case .command(_, let command) = $0 { command } else { nil } }
        }

        /// The mappers' clock: the event loop's (virtual) monotonic time in microseconds.
        var now: Int64 { Int64(loop.now.uptimeNanoseconds / 1000) }

        private func deliver(_ outputs: [DeviceMappers.Output]) {
            for output in outputs { router.mapped(output.id, frame: nil, commands: output.commands) }
        }

        func attach(_ identity: DeviceIdentity, id: String) {
            let deviceClass = DeviceClassifier.classify(identity)
            let info = DeviceInfo(id: id, identity: identity, deviceClass: deviceClass)
            router.deviceAdded(info)
            deliver(mappers.added(info, wallNow: WallClock.nowUsec()))
        }

        func remove(_ id: String) {
            deliver(mappers.removed(id, wallNow: WallClock.nowUsec()))
            router.deviceRemoved(id)
        }

        func frame(_ id: String, _ events: [InputEvent]) {
            let context = router.focusContext.value.withLock { $0 }
            guard let commands = mappers.frame(id, events, now: now, wallNow: WallClock.nowUsec(), context: context) else { return }
            router.mapped(id, frame: events, commands: commands)
        }

        func resync(_ id: String, keysDown: Set<UInt16>) {
            router.mapped(id, frame: nil, commands: mappers.resync(id, keysDown: keysDown, absValues: [:], wallNow: WallClock.nowUsec()))
        }

        func key(_ id: String, _ code: UInt16, _ value: Int32) {
            frame(id, [InputEvent(type: EventCode.EV_KEY, code: code, value: value, timeUsec: 1_000)])
        }

        /// A key event stamped by the kernel `ageMs` ago (CLOCK_REALTIME, as focusd reads it).
        func key(_ id: String, _ code: UInt16, _ value: Int32, ageMs: Int64) {
            let stamp = WallClock.nowUsec() - ageMs * 1000
            frame(id, [InputEvent(type: EventCode.EV_KEY, code: code, value: value, timeUsec: stamp)])
        }

        /// Advances the clock, firing each mapper timer at its deadline as the input thread does
        /// (`stopped`: focusd could not run, so none fires).
        func advance(ms: Int64, stopped: Bool = false) {
            let target = now + ms * 1000
            while !stopped, let deadline = mappers.nextDeadline, deadline <= target {
                loop.advanceTime(to: .uptimeNanoseconds(UInt64(max(deadline, now)) * 1000))
                for id in mappers.due(at: deadline) {
                    router.mapped(id, frame: nil, commands: mappers.tick(id, now: deadline))
                }
            }
            loop.advanceTime(to: .uptimeNanoseconds(UInt64(target) * 1000))
        }

        func focus(_ id: String) throws {
            _ = try hub.withSession(nil) { session throws(FocusError) in try session.focus(id) }
        }
    }

    static let keyboard = DeviceIdentity(
        name: "Test USB Keyboard", bus: 3, vendor: 0x046d, product: 0xc31c, node: "/dev/input/event3",
        capabilities: Capabilities(
            keys: Set([
                EventCode.KEY_UP, EventCode.KEY_DOWN, EventCode.KEY_LEFT, EventCode.KEY_RIGHT, EventCode.KEY_ENTER,
                EventCode.KEY_ESC, EventCode.KEY_SPACE, EventCode.KEY_TAB, EventCode.KEY_LEFTSHIFT,
            ] + (EventCode.KEY_Q...EventCode.KEY_P) + (EventCode.KEY_A...EventCode.KEY_L) + (EventCode.KEY_Z...EventCode.KEY_M)),
            kernelRepeat: true))

    static let powerMate = DeviceIdentity(
        name: "Griffin PowerMate", bus: 3, vendor: 0x077d, product: 0x0410, node: "/dev/input/event4",
        capabilities: Capabilities(keys: [EventCode.BTN_0], relativeAxes: [EventCode.REL_DIAL]))

    @Test("a held arrow key moves once, repeats after 400 ms then every 100 ms, and stops at its release")
    func heldArrowRepeats() throws {
        let rig = try Rig()
        rig.attach(Self.keyboard, id: "kbd")
        rig.key("kbd", EventCode.KEY_RIGHT, 1)
        #expect(rig.moves == 1)
        #expect(rig.focused == "heroTrending")
        rig.advance(ms: 399)
        #expect(rig.moves == 1)
        rig.advance(ms: 1)
        #expect(rig.moves == 2)
        rig.advance(ms: 100)
        #expect(rig.moves == 3)
        rig.key("kbd", EventCode.KEY_RIGHT, 0)
        rig.advance(ms: 3_000)
        #expect(rig.moves == 3)
        #expect(rig.commands.map(\.phase) == [.press, .repeat, .repeat, .release])
    }

    @Test("kernel autorepeat events of a keyboard are ignored: focusd times its own repeats")
    func kernelRepeatsIgnored() throws {
        let rig = try Rig()
        rig.attach(Self.keyboard, id: "kbd")
        rig.key("kbd", EventCode.KEY_DOWN, 1)
        for _ in 0..<5 { rig.key("kbd", EventCode.KEY_DOWN, 2) }
        #expect(rig.moves == 1)
        rig.key("kbd", EventCode.KEY_DOWN, 0)
    }

    @Test("unplugging a device while a direction repeats releases it and no repeat follows")
    func unplugWhileRepeating() throws {
        let rig = try Rig()
        rig.attach(Self.keyboard, id: "kbd")
        rig.key("kbd", EventCode.KEY_DOWN, 1)
        rig.advance(ms: 450)
        let movesAtUnplug = rig.moves
        #expect(movesAtUnplug == 2)
        rig.remove("kbd")
        rig.advance(ms: 5_000)
        #expect(rig.moves == movesAtUnplug)
        #expect(rig.commands.last?.phase == .release)
        #expect(rig.notices.contains { if case .removed("kbd") = $0 { true } else { false } })
    }

    @Test("a key-up read late does not come after a repeat that was due only after the key went up")
    func lateKeyUpBeatsOverdueRepeat() throws {
        let rig = try Rig()
        rig.attach(Self.keyboard, id: "kbd")
        rig.key("kbd", EventCode.KEY_RIGHT, 1, ageMs: 0)
        // focusd is stopped for 600 ms (its repeat timer cannot run); the key went up 50 ms after
        // the press, and the key-up is read now, 550 ms after it happened (the input thread
        // reads the device before a due timer acts: InputCoreMappingTests).
        rig.advance(ms: 600, stopped: true)
        rig.key("kbd", EventCode.KEY_RIGHT, 0, ageMs: 550)
        rig.advance(ms: 2_000)
        #expect(rig.commands.map(\.phase) == [.press, .release])
        #expect(rig.moves == 1)
    }

    @Test("SYN_DROPPED resync releases a held direction even when the key still reads down")
    func resyncReleases() throws {
        let rig = try Rig()
        rig.attach(Self.keyboard, id: "kbd")
        rig.key("kbd", EventCode.KEY_LEFT, 1)
        rig.resync("kbd", keysDown: [EventCode.KEY_LEFT])
        let moves = rig.moves
        rig.advance(ms: 2_000)
        #expect(rig.moves == moves)
        #expect(rig.commands.filter { $0.phase == .release }.count == 1)
        // The key's eventual release is swallowed: one press, one release.
        rig.key("kbd", EventCode.KEY_LEFT, 0)
        #expect(rig.commands.filter { $0.phase == .release }.count == 1)
    }

    @Test("Enter activates the focused tile; space types instead while the search field holds focus")
    func typingSuppressedInSearch() throws {
        let rig = try Rig()
        rig.attach(Self.keyboard, id: "kbd")
        try rig.focus("search")
        rig.key("kbd", EventCode.KEY_SPACE, 1)
        rig.key("kbd", EventCode.KEY_SPACE, 0)
        #expect(!rig.events.contains { $0.kind == .activate || $0.kind == .command })
        try rig.focus("tile00")
        rig.key("kbd", EventCode.KEY_ENTER, 1)
        rig.key("kbd", EventCode.KEY_ENTER, 0)
        #expect(rig.events.last { $0.kind == .activate }?.to == "tile00")
        #expect(rig.events.last { $0.kind == .activate }?.device == "kbd")
    }

    @Test("a knob turn moves focus one item per detent; on an edit node it edits and goes idle after 150 ms")
    func knobMovesThenEdits() throws {
        let rig = try Rig()
        rig.attach(Self.powerMate, id: "knob")
        try rig.focus("subtitles")
        let dial = { (counts: Int32) in
            rig.frame("knob", [InputEvent(type: EventCode.EV_REL, code: EventCode.REL_DIAL, value: counts, timeUsec: 1)])
        }
        dial(4)  // one detent: next item in the settings section
        #expect(rig.focused == "volume")
        rig.advance(ms: 400)
        dial(8)  // volume has `edit`: two detents become an edit event
        let edit = try #require(rig.events.last { $0.kind == .edit })
        #expect(edit.to == "volume")
        #expect(edit.detents == 2)
        #expect(rig.focused == "volume")
        rig.advance(ms: 200)
        let idle = try #require(rig.events.last { $0.kind == .edit })
        #expect(idle.detents == 0)
        #expect(idle.velocity == 0)
    }

    @Test("without an active scene, device commands still reach Input monitors and nothing fails")
    func noActiveScene() throws {
        let rig = try Rig()
        try rig.hub.removeScene("demo", by: 0)
        rig.attach(Self.keyboard, id: "kbd")
        rig.key("kbd", EventCode.KEY_UP, 1)
        rig.key("kbd", EventCode.KEY_UP, 0)
        #expect(rig.commands.map(\.command) == ["up", "up"])
    }

    @Test("a key press moves focus, and its Focus monitors get the event, before Input monitors hear of the command")
    func focusBeforeInputNotice() throws {
        let rig = try Rig()
        var order: [String] = []
        _ = try rig.hub.addMonitor(scene: nil) { message in
            if case .event(let event) = message, event.kind == .focus || event.kind == .blocked { order.append("move") }
        }
        _ = rig.router.addObserver { notice in
            if case .command(_, let command) = notice { order.append("\(command.command) \(command.phase.rawValue)") }
        }
        rig.attach(Self.keyboard, id: "kbd")
        rig.key("kbd", EventCode.KEY_RIGHT, 1)
        rig.key("kbd", EventCode.KEY_RIGHT, 0)
        rig.key("kbd", EventCode.KEY_LEFT, 1)
        #expect(order == ["move", "right press", "right release", "move", "left press"])
    }

    @Test("the input thread is told whether an Input monitor or a recorder is attached, as they come and go")
    func listeningFollowsObservers() {
        let router = InputRouter(eventLoop: EmbeddedEventLoop(), hub: SceneHub())
        func listening() -> Bool { router.listening.value.load(ordering: .acquiring) }
        #expect(!listening())
        let monitor = router.addObserver { _ in }
        #expect(listening())
        let recorder = router.addFrameObserver { _, _ in }
        router.removeObserver(monitor)
        #expect(listening())
        router.removeObserver(recorder)
        #expect(!listening())
    }

    @Test("a frame that cannot act on focus (key releases, no command) goes to the event loop only while something listens; presses, repeats, turns and a crown's release always go")
    func framesThatCannotActStay() {
        func commands(_ list: (String, CommandPhase)...) -> [MappedCommand] {
            list.map { MappedCommand(command: $0.0, phase: $0.1, eventTimeUsec: 1_000) }
        }
        for frame in [commands(), commands(("right", .release)), commands(("select", .release), ("back", .release))] {
            #expect(!InputLoopBridge.handsOver(frame, listening: false))
            #expect(InputLoopBridge.handsOver(frame, listening: true))
        }
        for frame in [commands(("right", .press)), commands(("right", .repeat)), commands(("crown", .rotate)),
                      commands(("crown", .release)), commands(("left", .release), ("right", .press))] {
            #expect(InputLoopBridge.handsOver(frame, listening: false))
        }
    }

    /// A laptop keyboard's main node and its media-key node: one physical device (same group).
    static func laptopNodes() -> (keyboard: DeviceIdentity, media: DeviceIdentity) {
        var keyboard = Self.keyboard
        keyboard.name = "AT Translated Set 2 keyboard"
        keyboard.group = "/sys/devices/platform/i8042/serio0"
        let media = DeviceIdentity(
            name: "Consumer Control", bus: 0x11, vendor: 1, product: 1, node: "/dev/input/event7",
            capabilities: Capabilities(keys: [EventCode.KEY_PLAYPAUSE, EventCode.KEY_VOLUMEUP]),
            group: "/sys/devices/platform/i8042/serio0")
        return (keyboard, media)
    }

    static let siblingsConfig = """
        [[profile]]
        name = "laptop keyboard and its media keys"
        match = { name = "AT Translated Set 2 keyboard", siblings = true }
        [profile.commands]
        KEY_PLAYPAUSE = "select"
        """

    @Test("a siblings = true profile applies to the sibling node, whichever node is listed first")
    func siblingsProfileApplies() throws {
        for mediaFirst in [false, true] {
            let rig = try Rig(matcher: ProfileMatcher(configuration: try Configuration.parse(Self.siblingsConfig)))
            let (keyboard, media) = Self.laptopNodes()
            if mediaFirst {
                rig.attach(media, id: "media")
                rig.attach(keyboard, id: "kbd")
            } else {
                rig.attach(keyboard, id: "kbd")
                rig.attach(media, id: "media")
            }
            #expect(rig.mappers.settings(of: "media")?.profileName == "laptop keyboard and its media keys",
                    "media node listed \(mediaFirst ? "first" : "second")")
            rig.key("media", EventCode.KEY_PLAYPAUSE, 1)
            rig.key("media", EventCode.KEY_PLAYPAUSE, 0)
            #expect(rig.commands.map(\.command) == ["select", "select"], "media node listed \(mediaFirst ? "first" : "second")")
        }
    }

    @Test("a siblings profile does not reach a node of another physical device")
    func siblingsProfileStaysOnItsDevice() throws {
        let rig = try Rig(matcher: ProfileMatcher(configuration: try Configuration.parse(Self.siblingsConfig)))
        var (keyboard, media) = Self.laptopNodes()
        media.group = "/sys/devices/pci0000:00/usb1/1-2"
        rig.attach(keyboard, id: "kbd")
        rig.attach(media, id: "media")
        #expect(rig.mappers.settings(of: "media") != nil)
        #expect(rig.mappers.settings(of: "media")?.profileName == nil)
    }
}

