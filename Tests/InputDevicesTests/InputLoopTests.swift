import Glibc
import InputMapping
import Synchronization
import Testing

@testable import InputDevices

/// The real loop on a directory without udevd: real inotify, epoll, timerfd and eventfd on the
/// loop's own thread. What the loop decides is shown without threads in InputCoreTests; these
/// show that the kernel's side works, waiting on the reported condition, never for a fixed time.
@Suite("The input loop on a directory without udevd", .serialized)
struct InputLoopTests {
    @Test("starts and stops cleanly with no devices, and a second stop is harmless")
    func startStop() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let recorder = Recorder()
        let loop = try makeLoop(directory: dir.path, recorder: recorder)
        try loop.start()
        #expect(loop.devices.isEmpty)
        loop.stop()
        #expect(recorder.all.isEmpty)
        loop.stop()
    }

    @Test("a node that is not an evdev device is listed with its error, and retried by the real timer")
    func unopenableNodeRetriedByTimer() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.touch("event0")
        let recorder = Recorder()
        let policy = PolicyCounter()
        let loop = try makeLoop(directory: dir.path, recorder: recorder, policy: policy)
        try loop.start()
        defer { loop.stop() }
        #expect(await eventually { recorder.added.count == 1 })
        let device = try #require(recorder.added.first)
        #expect(device.id == "event0")
        #expect(device.node == dir.file("event0"))
        #expect(device.problem?.hasPrefix("cannot open: libevdev_new_from_fd(") == true)
        // Two timed retries (10 ms, 20 ms): the first attempt plus two, each timerfd wake-ups.
        #expect(await eventually { policy.calls(dir.file("event0")) == 3 })
        #expect(recorder.added.count == 1)
    }

    @Test("after the timed retries, an attribute change (udev applying an ACL) retries the open")
    func attributeChangeRetries() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let node = dir.touch("event3")
        let recorder = Recorder()
        let policy = PolicyCounter()
        let loop = try makeLoop(directory: dir.path, recorder: recorder, retryDelaysUsec: [], policy: policy)
        try loop.start()
        defer { loop.stop() }
        #expect(await eventually { policy.calls(node) == 1 })
        chmod(node, 0o640)
        #expect(await eventually { policy.calls(node) == 2 })
        #expect(recorder.added.count == 1)
    }

    @Test("nodes created and deleted while running are added and removed under one id")
    func hotplug() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let recorder = Recorder()
        let loop = try makeLoop(directory: dir.path, recorder: recorder)
        try loop.start()
        defer { loop.stop() }
        dir.touch("event7")
        #expect(await eventually { recorder.added.map(\.id) == ["event7"] })
        unlink(dir.file("event7"))
        #expect(await eventually { recorder.removed == ["event7"] })
    }

    @Test("an input directory created after start is picked up with the nodes already in it")
    func directoryCreatedLater() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let recorder = Recorder()
        let loop = try makeLoop(directory: dir.file("input"), recorder: recorder)
        try loop.start()
        defer { loop.stop() }
        // Created elsewhere and moved in whole: the nodes exist before the watch does.
        dir.mkdir("staging")
        dir.touch("staging/event4")
        rename(dir.file("staging"), dir.file("input"))
        #expect(await eventually { recorder.added.map(\.id) == ["event4"] })
        dir.touch("input/event5")
        #expect(await eventually { recorder.added.map(\.id) == ["event4", "event5"] })
    }

    @Test("stopping reports every listed device as removed, so the service releases its keys")
    func stopRemovesDevices() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.touch("event0")
        let recorder = Recorder()
        let loop = try makeLoop(directory: dir.path, recorder: recorder)
        try loop.start()
        #expect(await eventually { recorder.added.count == 1 })
        loop.stop()
        #expect(recorder.removed == ["event0"])
        #expect(loop.devices.isEmpty)
    }

    @Test("a command is answered on the loop thread: readPending for an unknown device still answers")
    func commandsReachTheThread() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let recorder = Recorder()
        let loop = try makeLoop(directory: dir.path, recorder: recorder)
        try loop.start()
        defer { loop.stop() }
        loop.setGrab(id: "input99-event99", .exclusive)
        loop.readPending(id: "input99-event99")
        #expect(await eventually { recorder.all == [.pendingRead("input99-event99")] })
        #expect(loop.wakeupCount >= 1)
    }

    @Test("sysfs gives a node a stable id, its name and its group before it is opened; own devices are not listed")
    func sysfsIdentityAndOwnDevices() async throws {
        let sys = TemporaryDirectory()
        let dev = TemporaryDirectory()
        defer { sys.remove(); dev.remove() }
        for (input, event, name) in [("input7", "event3", "Remote Keys"), ("input8", "event4", "focusd virtual keyboard")] {
            sys.mkdir("devices")
            sys.mkdir("devices/usb1")
            sys.mkdir("devices/usb1/\(input)")
            sys.mkdir("devices/usb1/\(input)/id")
            sys.touch("devices/usb1/\(input)/name", contents: "\(name)\n")
            sys.touch("devices/usb1/\(input)/phys", contents: "usb-1/input0\n")
            sys.touch("devices/usb1/\(input)/uniq", contents: "\n")
            sys.touch("devices/usb1/\(input)/id/vendor", contents: "046d\n")
            sys.touch("devices/usb1/\(input)/id/bustype", contents: "0003\n")
            sys.symlink("..", at: "devices/usb1/\(input)/device")
            sys.mkdir("class")
            sys.mkdir("class/input")
            sys.mkdir("class/input/\(event)")
            sys.symlink("../../../devices/usb1/\(input)", at: "class/input/\(event)/device")
            dev.touch(event)
        }
        let sysfs = Sysfs(root: sys.path)
        #expect(sysfs.deviceID(eventName: "event3") == "input7-event3")
        #expect(sysfs.deviceID(eventName: "event9") == "event9")
        let identity = try #require(sysfs.identity(eventName: "event3", node: "/dev/input/event3"))
        #expect(identity.name == "Remote Keys")
        #expect(identity.vendor == 0x046d && identity.bus == 3)
        #expect(identity.phys == "usb-1/input0" && identity.uniq == nil)
        #expect(identity.group == sys.file("devices/usb1"))

        let recorder = Recorder()
        let loop = try makeLoop(directory: dev.path, recorder: recorder, sysfsRoot: sys.path)
        try loop.start()
        #expect(await eventually { recorder.added.count == 1 })
        // Enumeration ran before the stop command: both nodes were seen, one listed.
        loop.stop()
        #expect(recorder.added.map(\.id) == ["input7-event3"])
        #expect(recorder.added.first?.name == "Remote Keys")
    }
}

@Suite("Policies and udev on the host", .serialized)
struct InputLoopPolicyTests {
    /// A policy whose ignore set a test changes while the loop runs.
    final class SwitchablePolicy: Sendable {
        let ignored = Mutex<Bool>(false)
        func policy(_ identity: DeviceIdentity) -> DevicePolicy {
            ignored.withLock { $0 } ? DevicePolicy(ignoreReason: "switched off", profile: "off") : .default
        }
    }

    @Test("reapplying policies re-decides every device and reports the change")
    func reapplyPolicies() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.touch("event0")
        let recorder = Recorder()
        let switchable = SwitchablePolicy()
        let loop = try InputLoop(
            configuration: InputLoopConfiguration(
                inputDirectory: dir.path, sysfsRoot: "/nonexistent-sysfs", useUdev: false, retryDelaysUsec: [],
                classify: { _ in .keyboard }, policy: { identity, _ in switchable.policy(identity) }),
            delegate: recorder)
        try loop.start()
        defer { loop.stop() }
        #expect(await eventually { recorder.added.count == 1 })
        #expect(recorder.added.first?.problem?.hasPrefix("cannot open") == true)
        switchable.ignored.withLock { $0 = true }
        loop.reapplyPolicies()
        #expect(await eventually {
            if case .changed(let info) = recorder.all.last { info.problem == "ignored: switched off" } else { false }
        })
        guard case .changed(let info) = recorder.all.last else { return }
        #expect(info.profile == "off")
        #expect(recorder.added.count == 1)
    }

    @Test("udevd is detected by its control socket")
    func udevDetection() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        #expect(!UdevMonitor.daemonRuns(controlPath: dir.file("control")))
        dir.touch("control")
        #expect(UdevMonitor.daemonRuns(controlPath: dir.file("control")))
    }

    @Test("udev enumeration returns only event nodes with their sysfs paths")
    func udevEnumeration() throws {
        let records = try UdevMonitor().enumerate()
        for record in records {
            #expect(record.node.hasPrefix("/dev/input/event"))
            #expect(record.syspath.hasPrefix("/sys/"))
            #expect(record.syspath.hasSuffix(String(record.node.split(separator: "/").last!)))
        }
    }

    @Test("a loop with udev discovery starts and stops cleanly, listing ignored devices without reading them")
    func udevLoop() async throws {
        let recorder = Recorder()
        let loop = try InputLoop(
            configuration: InputLoopConfiguration(
                useUdev: true, classify: { _ in .other }, policy: { _, _ in DevicePolicy(ignoreReason: "test") }),
            delegate: recorder)
        try loop.start()
        // The thread enumerates before it serves the stop command.
        loop.stop()
        for call in recorder.all {
            switch call {
            case .added(let device), .changed(let device): #expect(device.problem == "ignored: test")
            case .removed: break
            default: Issue.record("an ignored device was read: \(call)")
            }
        }
    }
}

@Suite("Which reader a device gets")
struct BackendChoiceTests {
    @Test("a touchpad is read with libinput when udevd runs, and listed unusable without it")
    func touchpadNeedsUdevd() {
        #expect(BackendChoice.decide(.touchpad, forced: nil, udevRuns: true) == .read(.libinput))
        #expect(BackendChoice.decide(.touchpad, forced: nil, udevRuns: false)
            == .unusable(problem: BackendChoice.libinputNeedsUdevd))
    }

    @Test("every other class is read with libevdev, with or without udevd")
    func othersUseLibevdev() {
        for deviceClass in [DeviceClass.keyboard, .remote, .gamepad, .rotary, .pointer, .other] {
            #expect(BackendChoice.decide(deviceClass, forced: nil, udevRuns: false) == .read(.libevdev))
            #expect(BackendChoice.decide(deviceClass, forced: nil, udevRuns: true) == .read(.libevdev))
        }
    }

    @Test("a backend forced by config wins: libevdev for a touchpad, libinput only with udevd")
    func forcedBackend() {
        #expect(BackendChoice.decide(.touchpad, forced: .libevdev, udevRuns: false) == .read(.libevdev))
        #expect(BackendChoice.decide(.keyboard, forced: .libinput, udevRuns: true) == .read(.libinput))
        #expect(BackendChoice.decide(.keyboard, forced: .libinput, udevRuns: false)
            == .unusable(problem: BackendChoice.libinputNeedsUdevd))
    }

    @Test("the policy sees a node's siblings (same sysfs parent), and a sibling listed later re-decides the earlier node")
    func policySeesSiblings() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // A fake sysfs: event1 and event2 are two input devices of one physical device (hid0),
        // event3 belongs to another one.
        for (event, input, parent, name) in [("event1", "input1", "hid0", "AT Translated Set 2 keyboard"),
                                             ("event2", "input2", "hid0", "Consumer Control"),
                                             ("event3", "input3", "hid1", "Consumer Control")] {
            dir.mkdir("sys")
            dir.mkdir("sys/devices")
            dir.mkdir("sys/devices/\(parent)")
            dir.mkdir("sys/devices/\(parent)/\(input)")
            dir.touch("sys/devices/\(parent)/\(input)/name", contents: name + "\n")
            dir.symlink("..", at: "sys/devices/\(parent)/\(input)/device")
            dir.mkdir("sys/class")
            dir.mkdir("sys/class/input")
            dir.mkdir("sys/class/input/\(event)")
            dir.symlink("../../../devices/\(parent)/\(input)", at: "sys/class/input/\(event)/device")
        }
        dir.mkdir("dev")
        dir.touch("dev/event2")  // the media node first, as a laptop's often is
        dir.touch("dev/event3")
        let recorder = Recorder()
        // The laptop profile's rule: a keyboard named so, or (siblings = true) a node beside one.
        let loop = try InputLoop(
            configuration: InputLoopConfiguration(
                inputDirectory: dir.file("dev"), sysfsRoot: dir.file("sys"), useUdev: false, retryDelaysUsec: [],
                classify: { _ in .keyboard },
                policy: { identity, siblings in
                    let laptop = ([identity] + siblings).contains { $0.name == "AT Translated Set 2 keyboard" }
                    return DevicePolicy(ignoreReason: "not opened in this test", profile: laptop ? "laptop" : nil)
                }),
            delegate: recorder)
        try loop.start()
        defer { loop.stop() }
        func profile(_ id: String) -> String?? {
            recorder.all.reversed().lazy.compactMap { call -> DeviceInfo? in
                switch call {
                case .added(let info), .changed(let info): info.id == id ? info : nil
                default: nil
                }
            }.first.map(\.profile)
        }
        #expect(await eventually { profile("input2-event2") != nil && profile("input3-event3") != nil })
        #expect(profile("input2-event2") == .some(nil), "no keyboard beside it yet")
        dir.touch("dev/event1")
        #expect(await eventually { profile("input2-event2") == .some("laptop") }, "\(recorder.all)")
        #expect(profile("input1-event1") == .some("laptop"))
        #expect(profile("input3-event3") == .some(nil), "another physical device")
    }
}

