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

    /// A recorder that can hold the loop thread inside `frame`, so the kernel buffer overflows.
    final class BlockingRecorder: InputLoopDelegate {
        let inner = Recorder()
        let blocked = Mutex<Bool>(false)
        func deviceAdded(_ device: DeviceInfo) { inner.deviceAdded(device) }
        func deviceRemoved(id: String) { inner.deviceRemoved(id: id) }
        func deviceChanged(_ device: DeviceInfo) { inner.deviceChanged(device) }
        func frame(id: String, events: [InputEvent]) {
            inner.frame(id: id, events: events)
            while blocked.withLock({ $0 }) { usleep(1000) }
        }
        func resync(id: String, keysDown: Set<UInt16>, absValues: [UInt16: Int32]) {
            inner.resync(id: id, keysDown: keysDown, absValues: absValues)
        }
        func gesture(id: String, gesture: Gesture) { inner.gesture(id: id, gesture: gesture) }
    }

    private func loop(_ delegate: any InputLoopDelegate, name: String, grab: GrabMode = .shared) throws -> InputLoop {
        try InputLoop(
            configuration: InputLoopConfiguration(
                classify: { _ in .keyboard },
                policy: { $0.name == name ? DevicePolicy(grab: grab) : DevicePolicy(ignoreReason: "not under test") }),
            delegate: delegate)
    }

    private func frames(_ recorder: Recorder, id: String) -> [[InputEvent]] {
        recorder.all.compactMap { if case .frame(id, let events) = $0 { events } else { nil } }
    }

    @Test("a uinput keyboard is added with its identity, sends frames, and is removed once on unplug")
    func keyboardLifecycle() async throws {
        let recorder = Recorder()
        let loop = try loop(recorder, name: "guest test keys")
        try loop.start()
        defer { loop.stop() }
        let device = try Uinput(name: "guest test keys", keys: [Self.keyUp, Self.keyDown, 28])
        #expect(await eventually(timeoutMs: 10_000) { recorder.added.contains { $0.node == device.node && $0.problem == nil } })
        let info = try #require(recorder.added.first { $0.node == device.node })
        #expect(info.identity.capabilities.keys.isSuperset(of: [Self.keyUp, Self.keyDown, 28]))
        #expect(info.backend == .libevdev)
        device.key(Self.keyUp, 1)
        device.key(Self.keyUp, 0)
        #expect(await eventually(timeoutMs: 10_000) { frames(recorder, id: info.id).count == 2 })
        let sent = frames(recorder, id: info.id)
        #expect(sent.map { $0.map(\.value) } == [[1], [0]])
        #expect(sent.first?.first?.code == Self.keyUp)
        #expect((sent.first?.first?.timeUsec ?? 0) > 1_600_000_000_000_000)
        device.destroy()
        #expect(await eventually(timeoutMs: 10_000) { recorder.removed.contains(info.id) })
        try await Task.sleep(for: .milliseconds(200))
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
        #expect(await eventually(timeoutMs: 10_000) { recorder.added.contains { $0.node == device.node && $0.problem == nil } })
        let id = try #require(recorder.added.first { $0.node == device.node }).id
        device.key(Self.keyUp, 1)
        #expect(await eventually(timeoutMs: 10_000) { frames(recorder, id: id).count == 1 })
        loop.setGrab(id: id, .exclusive)
        try await Task.sleep(for: .milliseconds(100))
        #expect(loop.devices.first { $0.id == id }?.grabbed == false)
        device.key(Self.keyUp, 0)
        #expect(await eventually(timeoutMs: 10_000) { loop.devices.first { $0.id == id }?.grabbed == true })
        loop.setGrab(id: id, .shared)
        #expect(await eventually(timeoutMs: 10_000) { loop.devices.first { $0.id == id }?.grabbed == false })
    }

    @Test("after SYN_DROPPED the loop reports one resync with the keys still down")
    func synDropped() async throws {
        let recorder = BlockingRecorder()
        let loop = try loop(recorder, name: "guest flood keys")
        try loop.start()
        defer { loop.stop() }
        let device = try Uinput(name: "guest flood keys", keys: [Self.keyUp, Self.keyDown])
        defer { device.destroy() }
        #expect(await eventually(timeoutMs: 10_000) { recorder.inner.added.contains { $0.node == device.node && $0.problem == nil } })
        let id = try #require(recorder.inner.added.first { $0.node == device.node }).id
        recorder.blocked.withLock { $0 = true }
        device.key(Self.keyUp, 1)
        let firstFrame = await eventually(timeoutMs: 10_000) { frames(recorder.inner, id: id).count == 1 }
        #expect(firstFrame, "calls: \(recorder.inner.all)")
        // The loop is stuck in `frame`: overflow the client buffer, ending with KEY_DOWN held.
        for _ in 0..<500 {
            device.key(Self.keyDown, 1)
            device.key(Self.keyDown, 0)
        }
        device.key(Self.keyUp, 0)
        device.key(Self.keyDown, 1)
        recorder.blocked.withLock { $0 = false }
        #expect(await eventually(timeoutMs: 10_000) {
            recorder.inner.all.contains { if case .resync(id, let keys, _) = $0 { keys == [Self.keyDown] } else { false } }
        })
    }
}
