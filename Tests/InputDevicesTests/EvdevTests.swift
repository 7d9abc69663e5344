import Glibc
import InputMapping
import SystemCalls
import Testing

@testable import InputDevices

@Suite("libevdev devices")
struct EvdevTests {
    static let capabilities = Capabilities(
        keys: [1, 28, 103, 108, 0x160, 0x130],  // KEY_ESC, KEY_ENTER, KEY_UP, KEY_DOWN, KEY_OK, BTN_SOUTH
        relativeAxes: [0x07],  // REL_DIAL
        absoluteAxes: [
            0x00: AxisInfo(minimum: -32768, maximum: 32767, fuzz: 16, flat: 128, resolution: 0),
            0x10: AxisInfo(minimum: -1, maximum: 1),
        ],
        properties: [0x00],  // INPUT_PROP_POINTER
        kernelRepeat: true)

    @Test("capabilities are read back from libevdev exactly as enabled, with absinfo")
    func capabilityExtraction() {
        let device = EvdevDevice(inMemory: "Test Pad", capabilities: Self.capabilities, bus: 3, vendor: 0x45e, product: 0x2ea)
        #expect(device.capabilities() == Self.capabilities)
        let identity = device.identity(node: "/dev/input/event5")
        #expect(identity.name == "Test Pad")
        #expect(identity.bus == 3 && identity.vendor == 0x45e && identity.product == 0x2ea)
        #expect(identity.node == "/dev/input/event5")
        #expect(identity.capabilities.absoluteAxes[0x00]?.flat == 128)
    }

    @Test("a device with nothing enabled has empty capabilities and no kernel repeat")
    func emptyCapabilities() {
        let device = EvdevDevice(inMemory: "Nothing", capabilities: Capabilities())
        #expect(device.capabilities() == Capabilities())
        #expect(device.keysDown().isEmpty)
    }

    @Test("key state reports exactly the keys down")
    func keyState() {
        let device = EvdevDevice(inMemory: "Keys", capabilities: Self.capabilities)
        device.setKeyState(103, down: true)
        device.setKeyState(0x130, down: true)
        #expect(device.keysDown() == [103, 0x130])
        device.setKeyState(103, down: false)
        #expect(device.keysDown() == [0x130])
        #expect(device.absValues()[0x10] == -1)
    }

    @Test("opening a regular file fails with a typed libevdev error, not a crash")
    func regularFileIsNotEvdev() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.touch("event0")
        #expect {
            _ = try EvdevDevice(opening: path)
        } throws: { error in
            guard let error = error as? PosixError else { return false }
            return error.call == "libevdev_new_from_fd(\(path))" && error.errno == ENOTTY
        }
        #expect(throws: PosixError(call: "open(\(dir.file("event1")))", errno: ENOENT)) {
            _ = try EvdevDevice(opening: dir.file("event1"))
        }
    }
}

@Suite("Grab only with no key down")
struct GrabDecisionTests {
    @Test("an exclusive grab is taken when no key is down and deferred while one is")
    func deferWhileKeyDown() {
        #expect(GrabAction.decide(wanted: .exclusive, grabbed: false, keysDown: []) == .grab)
        #expect(GrabAction.decide(wanted: .exclusive, grabbed: false, keysDown: [28]) == .wait)
        #expect(GrabAction.decide(wanted: .exclusive, grabbed: true, keysDown: [28]) == .nothing)
    }

    @Test("shared or no grab releases a held grab, key down or not, and otherwise does nothing")
    func release() {
        for mode in [GrabMode.shared, .none] {
            #expect(GrabAction.decide(wanted: mode, grabbed: true, keysDown: [28]) == .ungrab)
            #expect(GrabAction.decide(wanted: mode, grabbed: true, keysDown: []) == .ungrab)
            #expect(GrabAction.decide(wanted: mode, grabbed: false, keysDown: [28]) == .nothing)
        }
    }
}

@Suite("Reopen back-off")
struct RetryScheduleTests {
    @Test("timed retries follow the delays, then stop so an idle loop sleeps")
    func delays() {
        let schedule = RetrySchedule()
        #expect(schedule.nextAttempt(afterFailures: 1, now: 1_000) == 101_000)
        #expect(schedule.nextAttempt(afterFailures: 2, now: 0) == 500_000)
        #expect(schedule.nextAttempt(afterFailures: 3, now: 0) == 2_000_000)
        #expect(schedule.nextAttempt(afterFailures: 4, now: 0) == nil)
        #expect(schedule.nextAttempt(afterFailures: 0, now: 0) == nil)
    }
}

@Suite("The kernel's key state (EVIOCGKEY)")
struct KernelKeysTests {
    @Test("a key bitmap decodes to the codes of its set bits")
    func decodesBitmap() {
        var bitmap = [UInt8](repeating: 0, count: 96)
        bitmap[103 / 8] |= 1 << (103 % 8)  // KEY_UP
        bitmap[0x160 / 8] |= 1 << (0x160 % 8)  // KEY_OK
        bitmap[767 / 8] |= 1 << (767 % 8)  // KEY_MAX
        #expect(KernelKeys.decode(bitmap) == [103, 0x160, 767])
        #expect(KernelKeys.decode([UInt8](repeating: 0, count: 96)).isEmpty)
        #expect(KernelKeys.decode([0xff]) == Set((0..<8).map { UInt16($0) }))
    }

    @Test("a descriptor that is not an evdev node has no key state")
    func notEvdev() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let fd = open(dir.touch("plain"), O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        #expect(KernelKeys.down(fd: fd) == nil)
    }
}
