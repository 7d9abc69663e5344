import Glibc
import InputMapping
import SystemCalls
import Testing

@testable import InputDevices

// Key codes of linux/input-event-codes.h used below.
private let keyUp: UInt16 = 103, keyDown: UInt16 = 108, keyLeft: UInt16 = 105, keyRight: UInt16 = 106
private let keyOK: UInt16 = 352, keyVolumeUp: UInt16 = 115, keyPower: UInt16 = 116, key1: UInt16 = 2
private let remoteKeys: Set<UInt16> = [keyUp, keyDown, keyLeft, keyRight, keyOK, keyVolumeUp, keyPower, key1]

/// A TV remote as a fake node reports it.
private func remote(name: String = "Test TV Remote", phys: String? = "usb-1/input0", uniq: String? = nil) -> DeviceIdentity {
    DeviceIdentity(
        name: name, bus: 3, vendor: 0x1234, product: 0x5678, version: 1, phys: phys, uniq: uniq,
        capabilities: Capabilities(keys: remoteKeys))
}

/// A loop that classifies every device as a remote, grabs it exclusively and maps it with the
/// remote's defaults (and `passthrough`), with one remote plugged in and read.
private func remoteLoop(
    passthrough: Passthrough = .unmapped, deviceClass: DeviceClass = .remote, keysDown: Set<UInt16> = [],
    pending: [EvdevReading] = [], start: Bool = true
) -> FakeLoop {
    let fake = FakeLoop(
        retryDelaysUsec: [], classify: { _ in deviceClass },
        policy: { _, _ in DevicePolicy(deviceClass: deviceClass, grab: .exclusive) },
        mapping: { _, _ in
            var settings = DeviceSettings(deviceClass: deviceClass)
            settings.passthrough = passthrough
            return settings
        })
    fake.kernel.nodes[PassthroughLendTests.node] = FakeKernel.Node(
        id: PassthroughLendTests.id, identity: remote(), pending: pending, keysDown: keysDown)
    if start { fake.start() }
    return fake
}

private func commands(_ fake: FakeLoop) -> [String] {
    fake.recorder.all.flatMap { call -> [String] in
        if case .mapped(_, _, let commands) = call { commands.map { "\($0.command) \($0.phase.rawValue)" } } else { [] }
    }
}

/// What the pass-through device of the remote received: "code:value" per event, one string per frame.
private func written(_ fake: FakeLoop) -> [String] {
    fake.kernel.calls.filter { $0.hasPrefix("write ") }.flatMap { $0.split(separator: " ").dropFirst(2).map(String.init) }
}

@Suite("Pass-through, lending, the wake key and former ids on the input core (input.md §11)")
struct PassthroughLendTests {
    static let node = "/dev/input/event3"
    static let id = "input3-event3"

    // MARK: pass-through

    @Test("a grabbed remote gets one pass-through device with exactly the keys its mapping leaves, named after it")
    func passthroughCreatedWithUnmappedKeys() {
        let fake = remoteLoop()
        #expect(fake.kernel.grabbed == [Self.node])
        guard let created = fake.kernel.passthroughs[Self.node] else {
            Issue.record("no pass-through device: \(fake.kernel.calls)")
            return
        }
        #expect(created.spec.keys == [keyVolumeUp, keyPower, key1])
        #expect(created.spec.name == "focusd passthrough: Test TV Remote")
        #expect(created.spec.vendor == 0x1234 && created.spec.product == 0x5678)
        #expect(fake.devices.first?.passthrough == "/dev/input/event90")
        #expect(fake.devices.first?.grabbed == true)
        #expect(fake.kernel.calls.firstIndex(of: "grab \(Self.node)")! < fake.kernel.calls.firstIndex(of: "passthrough \(Self.node)")!)
    }

    @Test("unmapped keys go to the pass-through device in the source's frames; mapped keys never do")
    func unmappedKeysPassMappedDoNot() {
        let fake = remoteLoop()
        fake.deliver(Self.node, [
            .frame([InputEvent(type: 1, code: keyVolumeUp, value: 1, timeUsec: 1), InputEvent(type: 1, code: keyRight, value: 1, timeUsec: 1)]),
            keyFrame(keyVolumeUp, 2), keyFrame(keyRight, 0), keyFrame(keyVolumeUp, 0), keyFrame(key1, 1), keyFrame(key1, 0),
        ])
        #expect(written(fake) == ["115:1", "115:2", "115:0", "2:1", "2:0"])
        #expect(commands(fake) == ["right press", "right release"])
    }

    @Test("a read's pass-through frames go out in one write before any of its frames is mapped or handed on")
    func passthroughWrittenBeforeMapping() {
        let fake = remoteLoop()
        var reportsAtWrite: [Int] = []
        fake.kernel.onWrite = { [recorder = fake.recorder] in reportsAtWrite.append(recorder.all.count) }
        let before = fake.recorder.all.count
        fake.deliver(Self.node, [
            .frame([InputEvent(type: 1, code: keyRight, value: 1, timeUsec: 1), InputEvent(type: 1, code: keyVolumeUp, value: 1, timeUsec: 1)]),
            keyFrame(key1, 1), keyFrame(keyRight, 0),
        ])
        #expect(reportsAtWrite == [before], "one write, before the read's first report")
        #expect(fake.kernel.calls.filter { $0.hasPrefix("write ") } == ["write \(Self.node) 115:1 2:1"], "one write of both frames, each its own frame")
        #expect(commands(fake) == ["right press", "right release"])
        // A read that passes nothing is mapped without a write.
        fake.deliver(Self.node, [keyFrame(keyRight, 1), keyFrame(keyRight, 0)])
        #expect(reportsAtWrite.count == 1)
        #expect(commands(fake) == ["right press", "right release", "right press", "right release"])
    }

    @Test("a release or repeat of a key pressed before the pass-through device existed does not reach it")
    func strayReleaseNotPassed() {
        let fake = remoteLoop()
        fake.deliver(Self.node, [keyFrame(keyPower, 2), keyFrame(keyPower, 0)])
        #expect(written(fake).isEmpty)
    }

    @Test("passthrough = \"none\" makes no device; a list passes only its keys the mapping leaves")
    func passthroughOption() {
        let none = remoteLoop(passthrough: .none)
        #expect(none.kernel.passthroughs.isEmpty && none.devices.first?.passthrough == nil)
        let list = remoteLoop(passthrough: .keys([keyPower, keyRight]))
        #expect(list.kernel.passthroughs[Self.node]?.spec.keys == [keyPower], "a mapped key is never passed through")
        list.deliver(Self.node, [keyFrame(keyVolumeUp, 1), keyFrame(keyPower, 1), keyFrame(keyPower, 0)])
        #expect(written(list) == ["116:1", "116:0"])
    }

    @Test("a shared device has no pass-through device: its keys reach the system anyway")
    func sharedDeviceNoPassthrough() {
        let fake = FakeLoop(
            retryDelaysUsec: [], policy: { _, _ in DevicePolicy(deviceClass: .keyboard, grab: .shared) },
            mapping: { _, _ in DeviceSettings(deviceClass: .keyboard) })
        fake.kernel.nodes[Self.node] = FakeKernel.Node(id: Self.id, identity: remote())
        fake.start()
        #expect(fake.kernel.passthroughs.isEmpty)
    }

    @Test("a key held at unplug is released on the pass-through device before it is destroyed")
    func heldKeyReleasedAtUnplug() {
        let fake = remoteLoop()
        fake.deliver(Self.node, [keyFrame(keyVolumeUp, 1)])
        fake.unplug(Self.node)
        let calls = fake.kernel.calls.filter { $0.contains("passthrough") || $0.hasPrefix("write") }
        #expect(calls == ["passthrough \(Self.node)", "write \(Self.node) 115:1", "write \(Self.node) 115:0", "destroy passthrough \(Self.node)"])
        #expect(fake.kernel.passthroughs.isEmpty)
    }

    @Test("an unplug seen as ENODEV on read releases the pass-through keys and destroys the device")
    func heldKeyReleasedOnENODEV() {
        let fake = remoteLoop()
        fake.deliver(Self.node, [keyFrame(key1, 1)])
        fake.kernel.nodes[Self.node]?.readError = PosixError(call: "libevdev_next_event", errno: ENODEV)
        fake.loop.serve([.device(node: Self.node)])
        #expect(written(fake) == ["2:1", "2:0"])
        #expect(fake.kernel.passthroughs.isEmpty)
    }

    @Test("SYN_DROPPED releases what the pass-through device holds and keeps the device")
    func resyncReleasesPassthrough() {
        let fake = remoteLoop()
        fake.deliver(Self.node, [keyFrame(keyVolumeUp, 1), .resync(keysDown: [keyVolumeUp], absValues: [:])])
        #expect(written(fake) == ["115:1", "115:0"])
        #expect(fake.kernel.passthroughs[Self.node] != nil)
        fake.deliver(Self.node, [keyFrame(keyVolumeUp, 2), keyFrame(keyVolumeUp, 0)])
        #expect(written(fake) == ["115:1", "115:0"], "the key's later repeat and release are not passed: it was released")
    }

    @Test("ungrabbing releases and destroys the pass-through device; grabbing again makes a new one")
    func ungrabDestroys() {
        let fake = remoteLoop()
        fake.deliver(Self.node, [keyFrame(keyPower, 1)])
        fake.send(.setGrab(id: Self.id, .shared))
        #expect(written(fake) == ["116:1", "116:0"])
        #expect(fake.kernel.passthroughs.isEmpty && fake.devices.first?.passthrough == nil)
        fake.send(.setGrab(id: Self.id, .exclusive))
        #expect(fake.kernel.passthroughs[Self.node] != nil)
    }

    @Test("focusd's own pass-through node is never opened and never listed, whatever its name")
    func ownPassthroughNodeIgnored() {
        let fake = remoteLoop()
        fake.plug("/dev/input/event90", FakeKernel.Node(id: "input90-event90", identity: remote(name: "renamed")))
        #expect(!fake.kernel.calls.contains("open /dev/input/event90"))
        #expect(fake.devices.map(\.id) == [Self.id])
        // Once its removal is seen, the node is an ordinary node again.
        fake.unplug("/dev/input/event90")
        fake.plug("/dev/input/event90", FakeKernel.Node(id: "input91-event90", identity: keyboard()))
        #expect(fake.devices.map(\.id).contains("input91-event90"))
    }

    @Test("without /dev/uinput the remote still works, listed without a pass-through device")
    func passthroughFailure() {
        let fake = remoteLoop(start: false)
        fake.kernel.passthroughError = PosixError(call: "open(/dev/uinput)", errno: ENOENT)
        fake.start()
        #expect(fake.devices.first?.grabbed == true)
        #expect(fake.devices.first?.passthrough == nil && fake.devices.first?.problem == nil)
        fake.deliver(Self.node, [keyFrame(keyRight, 1)])
        #expect(commands(fake) == ["right press"])
    }

    // MARK: lending

    @Test("lending releases what is held, destroys the pass-through device, ungrabs and closes, then answers")
    func lendReleasesAndUngrabs() {
        let fake = remoteLoop()
        fake.deliver(Self.node, [keyFrame(keyRight, 1), keyFrame(keyVolumeUp, 1)])
        fake.send(.lend(id: Self.id, token: 7))
        #expect(commands(fake) == ["right press", "right release"])
        #expect(written(fake) == ["115:1", "115:0"])
        #expect(fake.kernel.grabbed.isEmpty && fake.kernel.opened.isEmpty && fake.kernel.passthroughs.isEmpty)
        #expect(fake.completed.count == 1 && fake.completed.first?.token == 7)
        #expect(fake.completed.first?.device?.lent == true && fake.completed.first?.device?.grabbed == false)
        #expect(fake.devices.first?.lent == true, "published before the answer")
        let calls = fake.kernel.calls
        #expect(calls.firstIndex(of: "write \(Self.node) 115:0")! < calls.firstIndex(of: "ungrab \(Self.node)")!)
    }

    @Test("a lent device is not reopened by a change, a reload or a grab request, and maps nothing")
    func lentStaysClosed() {
        let fake = remoteLoop()
        fake.send(.lend(id: Self.id, token: 1))
        let opens = fake.kernel.calls.filter { $0.hasPrefix("open") }.count
        fake.change(Self.node)
        fake.send(.reapplyPolicies)
        fake.send(.setGrab(id: Self.id, .exclusive))
        #expect(fake.kernel.calls.filter { $0.hasPrefix("open") }.count == opens)
        #expect(fake.kernel.grabbed.isEmpty)
        #expect(fake.devices.first?.lent == true)
    }

    @Test("reclaiming opens the device as at plug-in: grabbed once no key is down, pass-through again")
    func reclaimGrabsWhenFree() {
        let fake = remoteLoop()
        fake.send(.lend(id: Self.id, token: 1))
        fake.kernel.nodes[Self.node]?.keysDown = [keyRight]
        fake.send(.reclaim(id: Self.id, token: 2))
        #expect(fake.completed.last?.token == 2 && fake.completed.last?.device?.lent == false)
        #expect(fake.kernel.grabbed.isEmpty, "a key is down: the grab waits")
        #expect(commands(fake).isEmpty, "a key held at reclaim is not a wake press")
        fake.kernel.nodes[Self.node]?.keysDown = []
        fake.deliver(Self.node, [keyFrame(keyRight, 0)])
        #expect(fake.kernel.grabbed == [Self.node])
        #expect(fake.kernel.passthroughs[Self.node] != nil)
        fake.deliver(Self.node, [keyFrame(keyLeft, 1)])
        #expect(commands(fake) == ["left press"])
    }

    @Test("lending or reclaiming an unknown device answers with no device")
    func lendUnknown() {
        let fake = remoteLoop()
        fake.send(.lend(id: "input99-event99", token: 3))
        fake.send(.reclaim(id: "input99-event99", token: 4))
        #expect(fake.completed.map(\.token) == [3, 4])
        #expect(fake.completed.allSatisfy { $0.device == nil })
    }

    @Test("a lent device that leaves and comes back under its former id is still lent, and not opened")
    func lentSurvivesReplug() {
        let fake = remoteLoop()
        fake.send(.lend(id: Self.id, token: 1))
        fake.unplug(Self.node)
        fake.plug("/dev/input/event4", FakeKernel.Node(id: "input4-event4", identity: remote()))
        #expect(fake.devices.map(\.id) == [Self.id])
        #expect(fake.devices.first?.lent == true)
        #expect(!fake.kernel.opened.contains("/dev/input/event4"))
        fake.send(.reclaim(id: Self.id, token: 2))
        #expect(fake.kernel.grabbed == ["/dev/input/event4"])
    }

    // MARK: the key that woke the remote

    @Test("a mapped key down when a remote is opened is pressed at once; the grab waits for its release")
    func wakeKeyPressed() {
        let fake = remoteLoop(keysDown: [keyOK])
        #expect(commands(fake) == ["select press"])
        #expect(fake.kernel.grabbed.isEmpty)
        fake.kernel.nodes[Self.node]?.keysDown = []
        fake.deliver(Self.node, [keyFrame(keyOK, 0)])
        #expect(commands(fake) == ["select press", "select release"])
        #expect(fake.kernel.grabbed == [Self.node])
    }

    @Test("the wake key's press also queued for focusd (pressed just after the open) is not sent twice")
    func wakeKeyNotTwice() {
        let fake = remoteLoop(keysDown: [keyOK], pending: [keyFrame(keyOK, 1)])
        #expect(commands(fake) == ["select press"])
        fake.kernel.nodes[Self.node]?.keysDown = []
        fake.deliver(Self.node, [keyFrame(keyOK, 0), keyFrame(keyOK, 1), keyFrame(keyOK, 0)])
        #expect(commands(fake) == ["select press", "select release", "select press", "select release"])
    }

    @Test("an unmapped key down at open is no press (the system saw it: the grab waits), and a keyboard gets no wake press")
    func wakeOnlyMappedKeysOfRemotesAndPads() {
        let unmapped = remoteLoop(keysDown: [keyPower])
        #expect(commands(unmapped).isEmpty && unmapped.kernel.grabbed.isEmpty)
        let keyboardLoop = remoteLoop(deviceClass: .keyboard, keysDown: [keyRight])
        #expect(commands(keyboardLoop).isEmpty)
        let pad = remoteLoop(deviceClass: .gamepad, keysDown: [keyRight])
        #expect(commands(pad) == ["right press"])
    }

    // MARK: former ids

    @Test("a device back within ten minutes (same bus, ids, name and phys) gets its former id; later, a new one")
    func formerIDWithinTenMinutes() {
        let fake = remoteLoop()
        fake.unplug(Self.node)
        fake.kernel.now += 9 * 60_000_000
        fake.plug("/dev/input/event5", FakeKernel.Node(id: "input5-event5", identity: remote()))
        #expect(fake.devices.map(\.id) == [Self.id])
        fake.unplug("/dev/input/event5")
        fake.kernel.now += 10 * 60_000_000 + 1
        fake.plug("/dev/input/event6", FakeKernel.Node(id: "input6-event6", identity: remote()))
        #expect(fake.devices.map(\.id) == ["input6-event6"])
    }

    @Test("a device re-plugged at the same node, sysfs naming it before it is opened, gets its former id")
    func formerIDFromSysfsAtTheSameNode() {
        let fake = remoteLoop(start: false)
        fake.kernel.nodes[Self.node]?.inSysfs = true
        fake.start()
        fake.kernel.nodes[Self.node]?.readError = PosixError(call: "libevdev_next_event", errno: ENODEV)
        fake.loop.serve([.device(node: Self.node)])
        fake.unplug(Self.node)
        var back = FakeKernel.Node(id: "input9-event3", identity: remote())
        back.inSysfs = true
        fake.plug(Self.node, back)
        #expect(fake.devices.map(\.id) == [Self.id])
    }

    @Test("uniq decides when the device has one; another name or phys-less, uniq-less device is new")
    func formerIDKeys() {
        let fake = remoteLoop(start: false)
        fake.kernel.nodes[Self.node]?.identity = remote(phys: "bt-a", uniq: "aa:bb")
        fake.start()
        fake.unplug(Self.node)
        fake.plug("/dev/input/event5", FakeKernel.Node(id: "input5-event5", identity: remote(phys: "bt-b", uniq: "aa:bb")))
        #expect(fake.devices.map(\.id) == [Self.id], "same uniq, another phys: the same device")
        fake.unplug("/dev/input/event5")
        fake.plug("/dev/input/event6", FakeKernel.Node(id: "input6-event6", identity: remote(name: "Other", phys: "bt-b", uniq: "aa:bb")))
        #expect(fake.devices.map(\.id) == ["input6-event6"])
    }

    @Test("FormerIDs alone: claimed once, kept ten minutes on the virtual clock, never for a device without phys and uniq")
    func formerIDsPure() {
        var ids = FormerIDs()
        let device = remote(phys: "p1")
        ids.left(device, id: "a", at: 0)
        #expect(ids.claim(device, at: FormerIDs.keepUsec) == "a")
        #expect(ids.claim(device, at: FormerIDs.keepUsec) == nil, "claimed once")
        ids.left(device, id: "a", at: 0)
        #expect(ids.claim(device, at: FormerIDs.keepUsec + 1) == nil)
        let anonymous = remote(phys: nil, uniq: nil)
        ids.left(anonymous, id: "b", at: 0)
        #expect(ids.claim(anonymous, at: 1) == nil)
    }

    // MARK: pure parts

    @Test("the pass-through name is cut to the kernel's 80 bytes on a character boundary")
    func passthroughName() {
        #expect(PassthroughSpec.name(for: "Remote") == "focusd passthrough: Remote")
        let long = PassthroughSpec.name(for: String(repeating: "é", count: 60))
        #expect(long.utf8.count <= 79 && long.utf8.count >= 78)
        #expect(long.hasPrefix("focusd passthrough: é"))
    }
}
