import Glibc
import InputMapping
import Synchronization
import Testing
import SystemCalls

@testable import InputDevices

/// The input thread's decisions, driven by events on the test's thread with a virtual clock:
/// `InputCore` alone, and `LoopCore` over `FakeKernel`. No threads, no sleeps.
@Suite("The input core: discovery, opening and retries")
struct InputCoreDiscoveryTests {
    @Test("a node that is not an evdev device is listed once with its error, retried on the timer's schedule, then left alone")
    func unopenableNodeRetriedThenIdle() {
        let fake = FakeLoop(retryDelaysUsec: [10_000, 20_000])
        fake.kernel.nodes["/dev/input/event0"] = FakeKernel.Node(id: "event0")
        fake.start()
        let device = fake.recorder.added.first
        #expect(fake.recorder.added.count == 1)
        #expect(device?.id == "event0")
        #expect(device?.problem?.hasPrefix("cannot open: libevdev_new_from_fd") == true)
        let start = fake.kernel.now
        #expect(fake.kernel.armed == start + 10_000)
        #expect(fake.fireTimer())
        #expect(fake.kernel.armed == start + 10_000 + 20_000)
        #expect(fake.fireTimer())
        // The timed retries are used up: nothing is armed, an idle loop sleeps for good.
        #expect(fake.kernel.armed == nil)
        #expect(!fake.fireTimer())
        #expect(fake.kernel.calls.filter { $0.hasPrefix("open") }.count == 3)
        #expect(fake.recorder.added.count == 1)
        #expect(fake.recorder.all.count == 1, "the same problem is not reported again: \(fake.recorder.all)")
        #expect(fake.devices.map(\.id) == ["event0"])
    }

    @Test("after the timed retries, an attribute change (udev applying an ACL) retries the open, and it now succeeds")
    func attributeChangeRetries() {
        let fake = FakeLoop(retryDelaysUsec: [])
        fake.kernel.nodes["/dev/input/event3"] = FakeKernel.Node(
            id: "event3", openError: PosixError(call: "open(/dev/input/event3)", errno: EACCES))
        fake.start()
        #expect(fake.recorder.added.first?.problem?.hasPrefix("permission denied:") == true)
        #expect(fake.kernel.armed == nil)
        fake.kernel.nodes["/dev/input/event3"]?.identity = keyboard()
        fake.change("/dev/input/event3")
        #expect(fake.recorder.all.last == .changed(fake.devices[0]))
        #expect(fake.devices.first?.problem == nil)
        #expect(fake.kernel.opened == ["/dev/input/event3"])
        #expect(fake.recorder.added.count == 1)
    }

    @Test("nodes plugged and removed while running are added and removed under one id, and closed")
    func hotplug() {
        let fake = FakeLoop()
        fake.start()
        fake.plug("/dev/input/event7", FakeKernel.Node(id: "input7-event7", identity: keyboard()))
        #expect(fake.recorder.added.map(\.id) == ["input7-event7"])
        #expect(fake.kernel.watched == ["/dev/input/event7"])
        fake.unplug("/dev/input/event7")
        #expect(fake.recorder.removed == ["input7-event7"])
        #expect(fake.kernel.opened.isEmpty && fake.kernel.watched.isEmpty)
        #expect(fake.devices.isEmpty)
    }

    @Test("a node enumerated at start and reported again is listed once")
    func deduplication() {
        let fake = FakeLoop()
        fake.kernel.nodes["/dev/input/event1"] = FakeKernel.Node(id: "event1", identity: keyboard())
        fake.start()
        fake.plug("/dev/input/event1", FakeKernel.Node(id: "event1", identity: keyboard()))
        fake.plug("/dev/input/event2", FakeKernel.Node(id: "event2", identity: keyboard()))
        #expect(fake.recorder.added.map(\.id) == ["event1", "event2"])
        #expect(fake.kernel.calls.filter { $0.hasPrefix("open") } == ["open /dev/input/event1", "open /dev/input/event2"])
        #expect(fake.devices.map(\.id) == ["event1", "event2"])
    }

    @Test("a node that disappears before it can be opened is not listed")
    func vanishedNode() {
        let fake = FakeLoop()
        fake.start()
        fake.send(.addNode("/dev/input/event9"))
        #expect(fake.recorder.all.isEmpty)
        #expect(fake.kernel.armed == nil)
        #expect(fake.devices.isEmpty)
    }

    @Test("a device ignored by the policy is listed with the reason and profile, never opened")
    func ignoredByPolicy() {
        let fake = FakeLoop(policy: { _, _ in DevicePolicy(ignoreReason: "by test config", profile: "quiet") })
        fake.kernel.nodes["/dev/input/event2"] = FakeKernel.Node(id: "event2", identity: keyboard())
        fake.start()
        #expect(fake.recorder.added.first?.problem == "ignored: by test config")
        #expect(fake.recorder.added.first?.profile == "quiet")
        #expect(fake.kernel.calls.isEmpty)
    }

    @Test("udev's FOCUSD_IGNORE=1 lists the node as ignored without opening it; a change that drops it opens it")
    func udevIgnore() {
        let fake = FakeLoop()
        fake.kernel.nodes["/dev/input/event4"] = FakeKernel.Node(
            id: "event4", identity: keyboard(), udevProperties: ["FOCUSD_IGNORE": "1"])
        fake.start()
        #expect(fake.recorder.added.first?.problem == "ignored: FOCUSD_IGNORE=1 set by udev")
        #expect(fake.kernel.calls.isEmpty)
        fake.kernel.nodes["/dev/input/event4"]?.udevProperties = ["ID_INPUT_KEY": "1"]
        fake.change("/dev/input/event4")
        #expect(fake.devices.first?.problem == nil)
        #expect(fake.kernel.watched == ["/dev/input/event4"])
    }

    @Test("focusd's own virtual devices are opened to be recognised, closed, and never listed")
    func ownDevicesNotListed() {
        let fake = FakeLoop()
        fake.kernel.nodes["/dev/input/event5"] = FakeKernel.Node(id: "event5", identity: keyboard("focusd virtual keyboard"))
        fake.start()
        #expect(fake.recorder.all.isEmpty)
        #expect(fake.kernel.opened.isEmpty)
        fake.change("/dev/input/event5")
        #expect(fake.kernel.calls == ["open /dev/input/event5", "close /dev/input/event5"], "not reopened")
    }

    @Test("a class `other` device is listed with its reason and not read")
    func otherNotRead() {
        let fake = FakeLoop(classify: { _ in .other }, policy: { _, _ in DevicePolicy(grab: .none) })
        fake.kernel.nodes["/dev/input/event6"] = FakeKernel.Node(id: "event6", identity: keyboard())
        fake.start()
        #expect(fake.recorder.added.first?.problem == "not read: class other is not a navigation device")
        #expect(fake.kernel.opened.isEmpty)
    }

    @Test("a touchpad goes to libinput when udevd runs, and is listed unusable (not read) without it")
    func touchpadBackend() {
        let withUdev = FakeLoop(classify: { _ in .touchpad })
        withUdev.kernel.udevRuns = true
        withUdev.kernel.nodes["/dev/input/event8"] = FakeKernel.Node(id: "event8", identity: keyboard("pad"))
        withUdev.start()
        #expect(withUdev.kernel.calls == ["open /dev/input/event8", "close /dev/input/event8", "libinput /dev/input/event8"])
        #expect(withUdev.devices.first?.backend == .libinput)
        #expect(withUdev.devices.first?.problem == nil)

        let broken = FakeLoop(classify: { _ in .touchpad })
        broken.kernel.udevRuns = true
        broken.kernel.libinputUnavailable = "libinput.so.10: cannot open shared object file"
        broken.kernel.nodes["/dev/input/event8"] = FakeKernel.Node(id: "event8", identity: keyboard("pad"))
        broken.start()
        #expect(broken.devices.first?.problem == "libinput unavailable: libinput.so.10: cannot open shared object file")

        let withoutUdev = FakeLoop(classify: { _ in .touchpad })
        withoutUdev.kernel.nodes["/dev/input/event8"] = FakeKernel.Node(id: "event8", identity: keyboard("pad"))
        withoutUdev.start()
        #expect(withoutUdev.devices.first?.problem == BackendChoice.libinputNeedsUdevd)
        #expect(withoutUdev.kernel.opened.isEmpty)
    }

    @Test("the watched directory's removal removes every node in it")
    func directoryRemoved() {
        let fake = FakeLoop()
        fake.kernel.nodes["/dev/input/event1"] = FakeKernel.Node(id: "event1", identity: keyboard())
        fake.kernel.nodes["/dev/input/event2"] = FakeKernel.Node(id: "event2")
        fake.start()
        fake.kernel.news = [.directoryRemoved(prefix: "/dev/input")]
        fake.loop.serve([.discovery])
        #expect(Set(fake.recorder.removed) == ["event1", "event2"])
        #expect(fake.kernel.opened.isEmpty)
        #expect(fake.kernel.armed == nil, "no retry of a node that is gone")
    }

    @Test("the policy sees a node's siblings, and a sibling listed later re-decides the earlier node")
    func siblingsRedecide() {
        let fake = FakeLoop(policy: { identity, siblings in
            let laptop = ([identity] + siblings).contains { $0.name == "AT Translated Set 2 keyboard" }
            return DevicePolicy(profile: laptop ? "laptop" : nil)
        })
        fake.kernel.nodes["/dev/input/event2"] = FakeKernel.Node(id: "event2", identity: keyboard("Consumer Control"), group: "hid0")
        fake.kernel.nodes["/dev/input/event3"] = FakeKernel.Node(id: "event3", identity: keyboard("Consumer Control"), group: "hid1")
        fake.start()
        #expect(fake.devices.map(\.profile) == [nil, nil])
        fake.deliver("/dev/input/event2", [keyFrame(EventCode.KEY_UP, 1)])
        fake.deliver("/dev/input/event3", [keyFrame(EventCode.KEY_UP, 1)])
        let before = fake.recorder.all.count
        fake.plug("/dev/input/event1", FakeKernel.Node(id: "event1", identity: keyboard("AT Translated Set 2 keyboard"), group: "hid0"))
        #expect(fake.devices.map(\.profile) == ["laptop", "laptop", nil])
        // The reopened sibling released what it held before it was closed; the other device,
        // not re-decided, still holds its key.
        #expect(fake.recorder.all.dropFirst(before).compactMap(Mapped.init) == [Mapped("event2", frame: nil, ["up release"])])
    }

    @Test("reapplying policies releases, closes and reopens every device under its new policy")
    func reapplyPolicies() {
        final class Switch: @unchecked Sendable { var off = false }
        let switched = Switch()
        let fake = FakeLoop(policy: { _, _ in switched.off ? DevicePolicy(ignoreReason: "switched off", profile: "off") : .default })
        fake.kernel.nodes["/dev/input/event0"] = FakeKernel.Node(id: "event0", identity: keyboard())
        fake.start()
        #expect(fake.devices.first?.problem == nil)
        fake.deliver("/dev/input/event0", [keyFrame(EventCode.KEY_UP, 1)])
        switched.off = true
        fake.send(.reapplyPolicies)
        // What the device held is released before it is reported changed (and closed).
        let last = Array(fake.recorder.all.suffix(2))
        #expect(last.first.flatMap(Mapped.init) == Mapped("event0", frame: nil, ["up release"]), "\(fake.recorder.all)")
        #expect(last.last == .changed(fake.devices[0]))
        #expect(fake.devices.first?.problem == "ignored: switched off")
        #expect(fake.devices.first?.profile == "off")
        #expect(fake.kernel.opened.isEmpty)
        #expect(fake.recorder.added.count == 1)
    }
}

@Suite("The input core: reading, grabbing and releasing on every failure path")
struct InputCoreReadingTests {
    static let node = "/dev/input/event3"

    private func running(grab: GrabMode = .shared) -> FakeLoop {
        let fake = FakeLoop(policy: { _, _ in DevicePolicy(grab: grab) })
        fake.kernel.nodes[Self.node] = FakeKernel.Node(id: "input3-event3", identity: keyboard())
        fake.start()
        return fake
    }

    @Test("events queued before the node joined the wait set are read and mapped right after it is listed")
    func readsWhatQueuedBeforeWatching() {
        let fake = FakeLoop()
        fake.kernel.nodes[Self.node] = FakeKernel.Node(id: "input3-event3", identity: keyboard(), pending: [keyFrame(103, 1)])
        fake.start()
        #expect(fake.recorder.all.count == 2)
        #expect(fake.recorder.mapped == [Mapped(
            "input3-event3", frame: [InputEvent(type: 1, code: 103, value: 1, timeUsec: 1_700_000_000_000_000)], ["up press"])])
    }

    @Test("frames and a SYN_DROPPED resync are mapped in the kernel's order: the resync releases the held key, and a Shift down after the drop makes Tab go back")
    func framesAndResync() {
        let tab = EventCode.KEY_TAB, shift = EventCode.KEY_LEFTSHIFT
        let fake = FakeLoop()
        fake.kernel.nodes[Self.node] = FakeKernel.Node(id: "input3-event3", identity: keyboard(keys: [28, 103, 108, tab, shift]))
        fake.start()
        let stamp: Int64 = 1_700_000_000_000_000
        fake.deliver(Self.node, [keyFrame(103, 1), .resync(keysDown: [shift], absValues: [:]), keyFrame(tab, 1), keyFrame(tab, 0)])
        #expect(fake.recorder.mapped == [
            Mapped("input3-event3", frame: [InputEvent(type: 1, code: 103, value: 1, timeUsec: stamp)], ["up press"]),
            // KEY_UP is not down after the drop: released, with no frame.
            Mapped("input3-event3", frame: nil, ["up release"]),
            // Shift went down in what was dropped: the mapper knows it from the resync alone.
            Mapped("input3-event3", frame: [InputEvent(type: 1, code: tab, value: 1, timeUsec: stamp)], ["previous press"]),
            Mapped("input3-event3", frame: [InputEvent(type: 1, code: tab, value: 0, timeUsec: stamp)], ["previous release"]),
        ])
    }

    @Test("an unplug (ENODEV on read) reports the device removed once, keeps no retry, and the node's removal adds nothing")
    func unplugReleasesOnce() {
        let fake = running()
        fake.kernel.nodes[Self.node]?.readError = PosixError(call: "libevdev_next_event", errno: ENODEV)
        fake.deliver(Self.node, [])
        #expect(fake.recorder.removed == ["input3-event3"])
        #expect(fake.kernel.opened.isEmpty)
        #expect(fake.kernel.armed == nil)
        #expect(fake.devices.isEmpty)
        // udev's `change` for the dying node does not revive it; its removal is not a second removal.
        fake.change(Self.node)
        fake.unplug(Self.node)
        #expect(fake.recorder.removed == ["input3-event3"])
        // A new device at the same path is a new device.
        fake.plug(Self.node, FakeKernel.Node(id: "input4-event3", identity: keyboard()))
        #expect(fake.recorder.added.map(\.id) == ["input3-event3", "input4-event3"])
    }

    @Test("a read error other than unplug releases every key (resync with nothing down), closes, lists the error and retries")
    func readErrorReleases() {
        let fake = running(grab: .exclusive)
        #expect(fake.kernel.grabbed == [Self.node])
        fake.deliver(Self.node, [keyFrame(103, 1), keyFrame(108, 1)])
        fake.kernel.nodes[Self.node]?.readError = PosixError(call: "libevdev_next_event", errno: EIO)
        let before = fake.recorder.all.count
        fake.deliver(Self.node, [])
        let after = Array(fake.recorder.all.dropFirst(before))
        #expect(after.first.flatMap(Mapped.init) == Mapped("input3-event3", frame: nil, ["up release", "down release"]), "\(after)")
        #expect(after.count == 2)
        #expect(fake.devices.first?.problem?.hasPrefix("cannot open: libevdev_next_event") == true)
        #expect(fake.devices.first?.grabbed == false)
        #expect(fake.kernel.calls.suffix(2) == ["close \(Self.node)", "ungrab \(Self.node)"])
        #expect(fake.kernel.armed != nil)
        // The retry reopens it and reads again.
        fake.kernel.nodes[Self.node]?.readError = nil
        fake.fireTimer()
        #expect(fake.devices.first?.problem == nil)
        #expect(fake.kernel.watched == [Self.node])
    }

    @Test("stopping releases every listed device (removed), ungrabs and closes it, and ends the loop")
    func stopReleasesEverything() {
        let fake = running(grab: .exclusive)
        fake.kernel.nodes["/dev/input/event9"] = FakeKernel.Node(id: "event9")
        fake.change("/dev/input/event9")
        fake.send(.shutdown)
        #expect(Set(fake.recorder.removed) == ["input3-event3", "event9"])
        #expect(fake.kernel.grabbed.isEmpty && fake.kernel.opened.isEmpty)
        #expect(fake.loop.stopped)
        #expect(fake.devices.isEmpty)
        fake.loop.finish()
        #expect(fake.recorder.removed.count == 2, "finishing after a shutdown reports nothing twice")
    }

    @Test("an exclusive grab waits while the kernel has a key down, and is taken after the frame that releases it")
    func grabDeferred() {
        let fake = running()
        fake.kernel.nodes[Self.node]?.keysDown = [103]
        fake.deliver(Self.node, [keyFrame(103, 1)])
        fake.send(.setGrab(id: "input3-event3", .exclusive))
        #expect(fake.kernel.grabbed.isEmpty)
        #expect(fake.devices.first?.grabbed == false)
        fake.kernel.nodes[Self.node]?.keysDown = []
        fake.deliver(Self.node, [keyFrame(103, 0)])
        #expect(fake.kernel.grabbed == [Self.node])
        #expect(fake.devices.first?.grabbed == true)
        fake.send(.setGrab(id: "input3-event3", .shared))
        #expect(fake.kernel.grabbed.isEmpty)
        #expect(fake.devices.first?.grabbed == false)
    }

    @Test("a failed grab is listed as the device's problem (the service releases what it held) and cleared by a later grab")
    func grabFailure() {
        let fake = running()
        fake.kernel.nodes[Self.node]?.grabError = PosixError(call: "libevdev_grab(grab)", errno: EBUSY)
        fake.send(.setGrab(id: "input3-event3", .exclusive))
        #expect(fake.devices.first?.problem?.hasPrefix("grab failed: libevdev_grab(grab)") == true)
        #expect(fake.recorder.all.last == .changed(fake.devices[0]))
        fake.kernel.nodes[Self.node]?.grabError = nil
        fake.deliver(Self.node, [keyFrame(28, 1)])
        #expect(fake.devices.first?.problem == nil)
        #expect(fake.devices.first?.grabbed == true)
    }

    @Test("a grab request for an unknown device is ignored")
    func grabUnknown() {
        let fake = running()
        let before = fake.recorder.all
        fake.send(.setGrab(id: "input99-event99", .exclusive))
        #expect(fake.recorder.all == before)
        #expect(fake.kernel.grabbed.isEmpty)
    }

    @Test("readPending reports what the device holds before answering, and answers for unknown devices too")
    func readPendingIsABarrier() {
        let fake = running()
        fake.kernel.nodes[Self.node]?.pending = [keyFrame(103, 1)]
        fake.send(.readPending(id: "input3-event3"))
        fake.send(.readPending(id: "nothing"))
        let last = Array(fake.recorder.all.suffix(3))
        #expect(last.first.flatMap(Mapped.init) == Mapped(
            "input3-event3", frame: [InputEvent(type: 1, code: 103, value: 1, timeUsec: 1_700_000_000_000_000)], ["up press"]))
        #expect(last.dropFirst() == [.pendingRead("input3-event3"), .pendingRead("nothing")])
    }

    @Test("the core alone: an unplug mid-read closes before reporting removed, and later events for the node do nothing")
    func pureCoreUnplugOrder() {
        let core = InputCore(
            configuration: InputLoopConfiguration(classify: { _ in .keyboard }), udevRuns: false)
        let sighting = NodeSighting(node: Self.node, kind: .created, id: "input3-event3")
        #expect(core.handle(.sighted(sighting), now: 0) == [.open(node: Self.node)])
        let opened = core.handle(.opened(node: Self.node, identity: keyboard()), now: 0)
        #expect(opened.last == .watch(node: Self.node))
        let reading = core.handle(.reading(node: Self.node), now: 0)
        #expect(reading.last == .read(node: Self.node))
        let unplug = core.handle(.readFailed(node: Self.node, PosixError(call: "read", errno: ENODEV)), now: 0)
        #expect(unplug == [.close(node: Self.node), .report(.removed(id: "input3-event3"))])
        #expect(core.handle(.readings(node: Self.node, [keyFrame(1, 1)]), now: 0).isEmpty)
        #expect(core.handle(.timerFired, now: 1_000_000_000).isEmpty)
        #expect(core.deadline == nil)
        #expect(core.devices.isEmpty)
    }
}

/// The device mappers on the input thread: their timers are the core's deadlines, a due timer
/// reads the device first, and every failure path releases what the device held.
@Suite("The input core: mapping and its timers on the input thread")
struct InputCoreMappingTests {
    static let node = "/dev/input/event3"
    static let id = "input3-event3"
    static let keyRight: UInt16 = 106

    /// A keyboard on a loop that maps on its thread with the default settings.
    private func mapping(grab: GrabMode = .shared) -> FakeLoop {
        let fake = FakeLoop(
            retryDelaysUsec: [], policy: { _, _ in DevicePolicy(grab: grab) },
            mapping: { identity, _ in DeviceSettings(deviceClass: .keyboard) })
        fake.kernel.nodes[Self.node] = FakeKernel.Node(id: Self.id, identity: keyboard(keys: [28, Self.keyRight]))
        fake.start()
        return fake
    }

    /// A key frame stamped `ageMs` before the fake kernel's wall clock.
    private func key(_ fake: FakeLoop, _ value: Int32, ageMs: Int64 = 0) -> EvdevReading {
        keyFrame(Self.keyRight, value, at: fake.kernel.wallClockUsec() - ageMs * 1000)
    }

    private func phases(_ fake: FakeLoop) -> [CommandPhase] {
        fake.recorder.all.flatMap { call -> [CommandPhase] in
            if case .mapped(_, _, let commands) = call { commands.map(\.phase) } else { [] }
        }
    }

    @Test("a mapper runs with the settings its device's policy decided, once per open: a sibling or a reload that re-decides it remaps it")
    func mapperRunsWithThePolicysSettings() {
        final class Switch: @unchecked Sendable {
            var reloaded = false
            var mappingAsked = 0
        }
        let state = Switch()
        let fake = FakeLoop(
            retryDelaysUsec: [],
            policy: { identity, siblings in
                var settings = DeviceSettings(deviceClass: .keyboard)
                if ([identity] + siblings).contains(where: { $0.name == "AT Translated Set 2 keyboard" }) {
                    settings.profileName = "laptop"
                    settings.commands[Self.keyRight] = state.reloaded ? "select" : "next"
                    settings.rotary.wrap = true
                }
                var policy = DevicePolicy(profile: settings.profileName)
                policy.settings = settings
                return policy
            },
            mapping: { _, _ in
                state.mappingAsked += 1
                return DeviceSettings(deviceClass: .keyboard)
            })
        let media = "/dev/input/event2"
        fake.kernel.nodes[media] = FakeKernel.Node(id: "event2", identity: keyboard("Consumer Control", keys: [28, Self.keyRight]), group: "hid0")
        fake.start()
        func press() -> [String] {
            let before = fake.recorder.all.count
            fake.deliver(media, [key(fake, 1), key(fake, 0)])
            return fake.recorder.all.dropFirst(before).flatMap { call -> [String] in
                if case .mapped(_, _, let commands) = call { commands.filter { $0.phase == .press }.map(\.command) } else { [] }
            }
        }
        #expect(press() == ["right"])
        #expect(fake.devices.first { $0.id == "event2" }?.crownWraps == false)
        fake.plug("/dev/input/event1", FakeKernel.Node(id: "event1", identity: keyboard("AT Translated Set 2 keyboard"), group: "hid0"))
        #expect(fake.devices.first { $0.id == "event2" }?.profile == "laptop")
        #expect(fake.devices.first { $0.id == "event2" }?.crownWraps == true)
        #expect(press() == ["next"], "the sibling re-decided the device and its mapper")
        state.reloaded = true
        fake.send(.reapplyPolicies)
        #expect(press() == ["select"], "a reload that changes no listed field still remaps")
        #expect(state.mappingAsked == 0, "the policy's settings are the mapper's: nothing decides them again")
    }

    @Test("a frame and the commands its mapper made of it reach the delegate in one report")
    func frameAndCommandsInOneReport() {
        let fake = mapping()
        fake.deliver(Self.node, [key(fake, 1)])
        guard case .mapped(let id, let frame, let commands) = fake.recorder.all.last else {
            Issue.record("no mapped report: \(fake.recorder.all)")
            return
        }
        #expect(id == Self.id && frame?.first?.code == Self.keyRight)
        #expect(commands.map(\.command) == ["right"] && commands.map(\.phase) == [.press])
    }

    @Test("a held key repeats on the input thread's timer: 400 ms, then every 100 ms, reading the device before each")
    func repeatsOnTheInputThread() {
        let fake = mapping()
        let pressedAt = fake.kernel.now
        fake.deliver(Self.node, [key(fake, 1)])
        #expect(fake.kernel.armed == pressedAt + 400_000)
        let reads = fake.kernel.calls.filter { $0.hasPrefix("read") }.count
        #expect(fake.fireTimer())
        #expect(fake.kernel.calls.filter { $0.hasPrefix("read") }.count == reads + 1, "the device is read before the repeat")
        #expect(fake.kernel.armed == pressedAt + 500_000)
        #expect(fake.fireTimer())
        #expect(phases(fake) == [.press, .repeat, .repeat])
        fake.deliver(Self.node, [key(fake, 0)])
        #expect(fake.kernel.armed == nil, "released: nothing left to time, an idle loop sleeps")
        #expect(phases(fake) == [.press, .repeat, .repeat, .release])
    }

    @Test("a repeat that fell due while the key-up was still in the kernel's buffer never comes")
    func keyUpStillBufferedBeatsTheRepeat() {
        let fake = mapping()
        fake.deliver(Self.node, [key(fake, 1)])
        // focusd was stopped for 600 ms; the key went up 50 ms after the press and is still unread.
        fake.kernel.now += 600_000
        fake.kernel.nodes[Self.node]?.pending = [key(fake, 0, ageMs: 550)]
        fake.loop.serve([.timer])
        #expect(phases(fake) == [.press, .release])
        #expect(fake.kernel.armed == nil)
    }

    @Test("unplugging a device while a direction repeats releases it before it is reported removed, and no repeat follows")
    func unplugReleases() {
        let fake = mapping()
        fake.deliver(Self.node, [key(fake, 1)])
        fake.kernel.nodes[Self.node]?.readError = PosixError(call: "libevdev_next_event", errno: ENODEV)
        fake.deliver(Self.node, [])
        #expect(phases(fake) == [.press, .release])
        #expect(fake.recorder.all.last == .removed(Self.id))
        #expect(fake.kernel.armed == nil)
    }

    @Test("a read error releases what the device held before it is closed and listed with the error")
    func readErrorReleases() {
        let fake = mapping()
        fake.deliver(Self.node, [key(fake, 1)])
        fake.kernel.nodes[Self.node]?.readError = PosixError(call: "libevdev_next_event", errno: EIO)
        fake.deliver(Self.node, [])
        #expect(phases(fake) == [.press, .release])
        #expect(fake.devices.first?.problem?.hasPrefix("cannot open") == true)
        #expect(fake.kernel.armed == nil)
    }

    @Test("a failed grab releases what the device held (it is listed with a problem) and no repeat follows")
    func grabFailureReleases() {
        let fake = mapping()
        fake.deliver(Self.node, [key(fake, 1)])
        fake.kernel.nodes[Self.node]?.grabError = PosixError(call: "libevdev_grab(grab)", errno: EBUSY)
        fake.send(.setGrab(id: Self.id, .exclusive))
        #expect(phases(fake) == [.press, .release])
        #expect(fake.devices.first?.problem?.hasPrefix("grab failed") == true)
        #expect(fake.kernel.armed == nil)
    }

    @Test("stopping releases what every device held, then reports it removed")
    func stopReleases() {
        let fake = mapping()
        fake.deliver(Self.node, [key(fake, 1)])
        fake.send(.shutdown)
        #expect(phases(fake) == [.press, .release])
        #expect(fake.recorder.all.last == .removed(Self.id))
    }

    @Test("reapplying policies (a reload) releases what is held and remaps")
    func reloadReleases() {
        let fake = mapping()
        fake.deliver(Self.node, [key(fake, 1)])
        fake.send(.reapplyPolicies)
        #expect(phases(fake) == [.press, .release])
        fake.deliver(Self.node, [key(fake, 1)])
        #expect(phases(fake) == [.press, .release, .press], "the new mapper works")
    }

    @Test("the mappers read the focus context the event loop publishes: space selects, but types while a text node holds focus")
    func focusContextReachesTheMappers() {
        let typing = Mutex(false)
        let fake = FakeLoop(
            retryDelaysUsec: [], mapping: { _, _ in DeviceSettings(deviceClass: .keyboard) },
            focusContext: { FocusContext(typingSuppressed: typing.withLock { $0 }) })
        let space: UInt16 = 57
        fake.kernel.nodes[Self.node] = FakeKernel.Node(id: Self.id, identity: keyboard(keys: [space, Self.keyRight]))
        fake.start()
        fake.deliver(Self.node, [keyFrame(space, 1), keyFrame(space, 0)])
        typing.withLock { $0 = true }
        fake.deliver(Self.node, [keyFrame(space, 1), keyFrame(space, 0)])
        let commands = fake.recorder.all.flatMap { call -> [String] in
            if case .mapped(_, _, let commands) = call { commands.map(\.command) } else { [] }
        }
        #expect(commands == ["select", "select"], "one press and release, then nothing while typing")
    }

    @Test("a touchpad's gestures from libinput are mapped: a swipe moves by its dominant axis, a tap selects, each an instant press and release")
    func gesturesAreMapped() {
        let core = InputCore(configuration: InputLoopConfiguration(classify: { _ in .touchpad }), udevRuns: true)
        let pad = "/dev/input/event8"
        _ = core.handle(.sighted(NodeSighting(node: pad, kind: .created, id: "input8-event8")), now: 0)
        #expect(core.handle(.opened(node: pad, identity: keyboard("pad")), now: 0).last == .addToLibinput(node: pad))
        _ = core.handle(.reading(node: pad), now: 0)
        func commands(_ gesture: Gesture) -> [Mapped] {
            core.handle(.gestures([InputCore.NodeGesture(node: pad, gesture: gesture)]), now: 1_000).compactMap { action in
                if case .report(.mapped(let id, let frame, let commands)) = action {
                    Mapped(id, frame: frame, commands.map { "\($0.command) \($0.phase.rawValue)" })
                } else { nil }
            }
        }
        #expect(commands(.swipe(dx: 12, dy: -3, timeUsec: 5)) == [Mapped("input8-event8", frame: nil, ["right press", "right release"])])
        #expect(commands(.swipe(dx: 2, dy: -9, timeUsec: 6)) == [Mapped("input8-event8", frame: nil, ["up press", "up release"])])
        #expect(commands(.tap(timeUsec: 7)) == [Mapped("input8-event8", frame: nil, ["select press", "select release"])])
        // A gesture of a node the core does not know (closed meanwhile) makes nothing.
        #expect(core.handle(.gestures([InputCore.NodeGesture(node: "/dev/input/event9", gesture: .tap(timeUsec: 8))]), now: 1_000).isEmpty)
    }

    @Test("SYN_DROPPED releases a held direction and swallows its later release")
    func resyncReleases() {
        let fake = mapping()
        fake.deliver(Self.node, [key(fake, 1)])
        fake.deliver(Self.node, [.resync(keysDown: [Self.keyRight], absValues: [:])])
        #expect(phases(fake) == [.press, .release])
        #expect(fake.kernel.armed == nil)
        fake.deliver(Self.node, [key(fake, 0)])
        #expect(phases(fake) == [.press, .release])
    }
}
