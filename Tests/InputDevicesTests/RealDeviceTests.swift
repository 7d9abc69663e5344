import Glibc
import InputMapping
import Synchronization
import Testing

@testable import InputDevices

/// Runs only where /dev/uinput exists (the QEMU guest of the real-kernel tests), on the real
/// /dev/input with inotify discovery (also without udevd).
@Suite("Real evdev nodes through uinput", .serialized, .enabled(if: Uinput.available))
struct RealDeviceTests {
    static let keyUp: UInt16 = 103
    static let keyDown: UInt16 = 108

    /// A recorder that can hold the loop thread inside the report of a frame, so the kernel
    /// buffer overflows.
    final class BlockingRecorder: InputLoopDelegate {
        let inner = Recorder()
        let blocked = Mutex<Bool>(false)
        func deviceAdded(_ device: DeviceInfo) { inner.deviceAdded(device) }
        func deviceRemoved(id: String) { inner.deviceRemoved(id: id) }
        func deviceChanged(_ device: DeviceInfo) { inner.deviceChanged(device) }
        func pendingRead(id: String) { inner.pendingRead(id: id) }
        func mapped(id: String, frame: [InputEvent]?, commands: [MappedCommand]) {
            inner.mapped(id: id, frame: frame, commands: commands)
            if frame != nil { _ = Changes.shared.wait(timeoutMs: 30_000) { !blocked.withLock { $0 } } }
        }
    }

    private func loop(_ delegate: any InputLoopDelegate, name: String, grab: GrabMode = .shared) throws -> InputLoop {
        try InputLoop(
            configuration: InputLoopConfiguration(
                classify: { _ in .keyboard },
                policy: { identity, _ in identity.name == name ? DevicePolicy(grab: grab) : DevicePolicy(ignoreReason: "not under test") }),
            delegate: delegate)
    }

    /// The grab state last reported for `id`.
    private func grabbedReported(_ recorder: Recorder, id: String) -> Bool? {
        recorder.all.reversed().lazy.compactMap { call -> Bool? in
            switch call {
            case .added(let info), .changed(let info): info.id == id ? info.grabbed : nil
            default: nil
            }
        }.first
    }

    /// Returns once the loop served every command sent before it (a `readPending` round trip).
    private func barrier(_ loop: InputLoop, _ recorder: Recorder) async {
        let token = "barrier-\(recorder.all.count)"
        loop.readPending(id: token)
        _ = await eventually(timeoutMs: 10_000) { recorder.all.contains(.pendingRead(token)) }
    }

    @Test("a uinput keyboard is added with its identity, its frames are mapped to commands, and it is removed once on unplug")
    func keyboardLifecycle() async throws {
        let recorder = Recorder()
        let loop = try loop(recorder, name: "guest test keys")
        try loop.start()
        defer { loop.stop() }
        let device = try Uinput(name: "guest test keys", keys: [Self.keyUp, Self.keyDown, 28])
        #expect(await eventually(timeoutMs: 10_000) { recorder.added(device).contains { $0.problem == nil } })
        let info = try #require(recorder.added(device).first)
        #expect(info.identity.capabilities.keys.isSuperset(of: [Self.keyUp, Self.keyDown, 28]))
        #expect(info.backend == .libevdev)
        device.key(Self.keyUp, 1)
        device.key(Self.keyUp, 0)
        #expect(await eventually(timeoutMs: 10_000) { recorder.frames(of: info.id).count == 2 })
        let sent = recorder.frames(of: info.id)
        #expect(sent.map { $0.map(\.value) } == [[1], [0]])
        #expect(sent.first?.first?.code == Self.keyUp)
        #expect((sent.first?.first?.timeUsec ?? 0) > 1_600_000_000_000_000)
        #expect(recorder.mapped.filter { $0.id == info.id }.map(\.commands) == [["up press"], ["up release"]])
        device.destroy()
        #expect(await eventually(timeoutMs: 10_000) { recorder.removed.contains(info.id) })
        // The node's removal (inotify) is queued once the node is gone: two barriers in a row
        // are answered only after the loop served it.
        #expect(await eventually(timeoutMs: 10_000) { access(device.node, F_OK) != 0 })
        await barrier(loop, recorder)
        await barrier(loop, recorder)
        #expect(recorder.removed.filter { $0 == info.id }.count == 1)
    }

    @Test("an exclusive grab waits until no key is down")
    func grabDeferred() async throws {
        let recorder = Recorder()
        let loop = try loop(recorder, name: "guest grab keys")
        try loop.start()
        defer { loop.stop() }
        let device = try Uinput(name: "guest grab keys", keys: [Self.keyUp])
        defer { device.destroy() }
        #expect(await eventually(timeoutMs: 10_000) { recorder.added(device).contains { $0.problem == nil } })
        let id = try #require(recorder.added(device).first).id
        device.key(Self.keyUp, 1)
        #expect(await eventually(timeoutMs: 10_000) { recorder.frames(of: id).count == 1 })
        loop.setGrab(id: id, .exclusive)
        await barrier(loop, recorder)
        #expect(!recorder.all.contains { if case .changed(let info) = $0 { info.grabbed } else { false } })
        device.key(Self.keyUp, 0)
        #expect(await eventually(timeoutMs: 10_000) { grabbedReported(recorder, id: id) == true })
        loop.setGrab(id: id, .shared)
        #expect(await eventually(timeoutMs: 10_000) { grabbedReported(recorder, id: id) == false })
    }

    @Test("after SYN_DROPPED what the device held is released, and a key still down is not pressed")
    func synDropped() async throws {
        let recorder = BlockingRecorder()
        let loop = try loop(recorder, name: "guest flood keys")
        try loop.start()
        defer { loop.stop() }
        let device = try Uinput(name: "guest flood keys", keys: [Self.keyUp, Self.keyDown])
        defer { device.destroy() }
        #expect(await eventually(timeoutMs: 10_000) { recorder.inner.added(device).contains { $0.problem == nil } })
        let id = try #require(recorder.inner.added(device).first).id
        recorder.blocked.withLock { $0 = true }
        device.key(Self.keyUp, 1)
        let firstFrame = await eventually(timeoutMs: 10_000) { recorder.inner.frames(of: id).count == 1 }
        #expect(firstFrame, "calls: \(recorder.inner.all)")
        // The loop is stuck in `mapped`: overflow the client buffer, ending with KEY_DOWN held.
        for _ in 0..<500 {
            device.key(Self.keyDown, 1)
            device.key(Self.keyDown, 0)
        }
        device.key(Self.keyUp, 0)
        device.key(Self.keyDown, 1)
        recorder.blocked.withLock { $0 = false }
        Changes.shared.notify()
        // The resync (no frame) releases KEY_UP, held since the first frame and up now, and
        // presses nothing: KEY_DOWN went down in what was dropped.
        func resync() -> Int? {
            recorder.inner.mapped.firstIndex { $0.id == id && $0.frame == nil && $0.commands.contains("up release") }
        }
        #expect(await eventually(timeoutMs: 10_000) { resync() != nil }, "calls: \(recorder.inner.mapped)")
        let resynced = try #require(resync())
        #expect(recorder.inner.mapped[resynced].commands.allSatisfy { $0.hasSuffix(" release") })
        // KEY_DOWN's release ends what was swallowed; KEY_UP pressed after it is the marker.
        device.key(Self.keyDown, 0)
        device.key(Self.keyUp, 1)
        device.key(Self.keyUp, 0)
        #expect(await eventually(timeoutMs: 10_000) { recorder.inner.mapped.dropFirst(resynced + 1).contains { $0.commands == ["up release"] } })
        let after = recorder.inner.mapped.dropFirst(resynced + 1).flatMap(\.commands)
        #expect(after == ["up press", "up release"], "KEY_DOWN, down at the resync, was never pressed: \(after)")
    }
}

/// Runs only in a guest with udevd (libinput's path backend needs its database).
@Suite(
    "A uinput touchpad through libinput", .serialized,
    .enabled(if: Uinput.available && UdevMonitor.daemonRuns()))
struct RealTouchpadTests {
    // Codes from linux/input-event-codes.h.
    static let btnLeft: UInt16 = 0x110, btnTouch: UInt16 = 0x14a, btnToolFinger: UInt16 = 0x145
    static let btnToolDoubleTap: UInt16 = 0x14d, btnToolTripleTap: UInt16 = 0x14e
    static let absX: UInt16 = 0x00, absY: UInt16 = 0x01, mtSlot: UInt16 = 0x2f
    static let mtX: UInt16 = 0x35, mtY: UInt16 = 0x36, mtTrackingID: UInt16 = 0x39
    static let propPointer: UInt16 = 0x00, propButtonpad: UInt16 = 0x02

    private func makeTouchpad(_ name: String) throws -> Uinput {
        try Uinput(
            name: name,
            keys: [Self.btnLeft, Self.btnTouch, Self.btnToolFinger, Self.btnToolDoubleTap, Self.btnToolTripleTap],
            absoluteAxes: [
                .init(code: Self.absX, minimum: 0, maximum: 1000, resolution: 10),
                .init(code: Self.absY, minimum: 0, maximum: 600, resolution: 10),
                .init(code: Self.mtSlot, minimum: 0, maximum: 1),
                .init(code: Self.mtX, minimum: 0, maximum: 1000, resolution: 10),
                .init(code: Self.mtY, minimum: 0, maximum: 600, resolution: 10),
                .init(code: Self.mtTrackingID, minimum: 0, maximum: 65535),
            ],
            properties: [Self.propPointer, Self.propButtonpad])
    }

    private func touch(_ pad: Uinput, x: Int32, y: Int32, down: Bool, first: Bool = false) {
        if first {
            pad.emit(3, Self.mtSlot, 0)
            pad.emit(3, Self.mtTrackingID, down ? 7 : -1)
        }
        if down {
            pad.emit(3, Self.mtX, x)
            pad.emit(3, Self.mtY, y)
            pad.emit(3, Self.absX, x)
            pad.emit(3, Self.absY, y)
        }
        if first {
            pad.emit(1, Self.btnTouch, down ? 1 : 0)
            pad.emit(1, Self.btnToolFinger, down ? 1 : 0)
        }
        pad.emit(0, 0, 0)
    }

    @Test("a touchpad is read with libinput: a one-finger drag to the right moves right, a click selects")
    func dragAndClick() async throws {
        let recorder = Recorder()
        let name = "guest test touchpad"
        let loop = try InputLoop(
            configuration: InputLoopConfiguration(
                classify: { $0.name == name ? .touchpad : .other },
                policy: { identity, _ in identity.name == name ? .default : DevicePolicy(ignoreReason: "not under test") }),
            delegate: recorder)
        try loop.start()
        defer { loop.stop() }
        let pad = try makeTouchpad(name)
        defer { pad.destroy() }
        #expect(await eventually(timeoutMs: 10_000) { !recorder.added(pad).isEmpty })
        let info = try #require(recorder.added(pad).first)
        #expect(info.backend == .libinput, "problem: \(info.problem ?? "none")")
        // Drag right by 40 mm over 20 frames, 10 ms apart.
        touch(pad, x: 300, y: 300, down: true, first: true)
        for step in 1...20 {
            usleep(10_000)
            touch(pad, x: 300 + Int32(step) * 20, y: 300, down: true)
        }
        touch(pad, x: 0, y: 0, down: false, first: true)
        // A swipe is mapped to an instant press and release of its direction.
        let swipe = Mapped(info.id, frame: nil, ["right press", "right release"])
        let swiped = await eventually(timeoutMs: 10_000) { recorder.mapped.contains(swipe) }
        #expect(swiped, "calls: \(recorder.all)")
        let clicked = recorder.mapped.count
        // A physical click of the buttonpad.
        touch(pad, x: 500, y: 300, down: true, first: true)
        pad.emit(1, Self.btnLeft, 1)
        pad.emit(0, 0, 0)
        usleep(20_000)
        pad.emit(1, Self.btnLeft, 0)
        pad.emit(0, 0, 0)
        touch(pad, x: 0, y: 0, down: false, first: true)
        let tap = Mapped(info.id, frame: nil, ["select press", "select release"])
        let tapped = await eventually(timeoutMs: 10_000) { recorder.mapped.dropFirst(clicked).contains(tap) }
        #expect(tapped, "calls: \(recorder.all)")
    }
}

/// Runs only in a guest with udevd: properties, groups and FOCUSD_IGNORE come from udev rules.
@Suite("udev properties of real nodes", .serialized, .enabled(if: Uinput.available && UdevMonitor.daemonRuns()))
struct RealUdevTests {
    @Test("udev properties and the group reach the identity; FOCUSD_IGNORE=1 lists a device unopened")
    func propertiesAndIgnore() async throws {
        // udevd notices new rule files by their directory's timestamp.
        let rules = "/run/udev/rules.d"
        _ = mkdir(rules, 0o755)
        let rule = "SUBSYSTEM==\"input\", KERNEL==\"event*\", ATTRS{name}==\"guest ignored keys\", ENV{FOCUSD_IGNORE}=\"1\"\n"
        let ruleFile = "\(rules)/70-focusd-test.rules"
        let fd = open(ruleFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = rule.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        defer { unlink(ruleFile) }
        _ = system("udevadm control --reload")

        let recorder = Recorder()
        let names: Set = ["guest ignored keys", "guest udev keys"]
        let loop = try InputLoop(
            configuration: InputLoopConfiguration(
                classify: { _ in .keyboard },
                policy: { identity, _ in names.contains(identity.name) ? .default : DevicePolicy(ignoreReason: "not under test") }),
            delegate: recorder)
        try loop.start()
        defer { loop.stop() }
        let ignored = try Uinput(name: "guest ignored keys", keys: [28])
        defer { ignored.destroy() }
        let used = try Uinput(name: "guest udev keys", keys: [28, 30])
        defer { used.destroy() }
        #expect(await eventually(timeoutMs: 10_000) {
            !recorder.added(ignored).isEmpty && !recorder.added(used).isEmpty
        })
        let ignoredInfo = try #require(recorder.added(ignored).first)
        #expect(ignoredInfo.problem == "ignored: FOCUSD_IGNORE=1 set by udev")
        #expect(ignoredInfo.identity.capabilities == Capabilities(), "never opened, so no capabilities")
        let usedInfo = try #require(recorder.added(used).first)
        #expect(usedInfo.problem == nil)
        #expect(usedInfo.identity.udevProperties["ID_INPUT_KEY"] == "1")
        // A uinput device has no physical parent, so no group; QEMU's AT keyboard has one.
        #expect(usedInfo.identity.group == nil)
        if let keyboard = recorder.added.first(where: { $0.name == "AT Translated Set 2 keyboard" }) {
            #expect(keyboard.identity.group?.hasPrefix("/sys/devices/platform/i8042/serio") == true)
            #expect(keyboard.problem == "ignored: not under test")
        }
        #expect(usedInfo.id.hasPrefix("input"))
    }
}
