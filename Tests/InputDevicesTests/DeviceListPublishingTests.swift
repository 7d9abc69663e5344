import Glibc
import InputMapping
import Synchronization
import Testing
import SystemCalls

@testable import InputDevices

/// The input thread publishes its device list (for `ListDevices`) after a wake-up only when the
/// list changed: a key press is two wake-ups that change no device, and rebuilding and handing
/// over the whole list after each was most of the thread's work per frame.
@Suite("The published device list")
struct DeviceListPublishingTests {
    static let node = "/dev/input/event4"
    static let id = "input4-event4"

    /// The profile the policy names, changed by the test.
    final class Profile: Sendable {
        let name = Mutex<String?>(nil)
    }

    /// A loop with one keyboard read and mapped on the input thread, under `profile`.
    static func started(profile: Profile = Profile()) -> FakeLoop {
        let fake = FakeLoop(
            retryDelaysUsec: [10_000],
            policy: { _, _ in DevicePolicy(profile: profile.name.withLock { $0 }) },
            mapping: { _, _ in DeviceSettings(deviceClass: .keyboard) })
        fake.kernel.nodes[node] = FakeKernel.Node(id: id, identity: keyboard(keys: [28, 103, 106, 108]))
        fake.start()
        return fake
    }

    @Test("key presses, their repeats and releases, a read barrier and an unchanged grab publish nothing")
    func framesPublishNothing() {
        let fake = Self.started()
        #expect(fake.devices.map(\.id) == [Self.id])
        let before = fake.publishCount
        let listed = fake.devices
        fake.deliver(Self.node, [keyFrame(106, 1)])
        #expect(fake.fireTimer(), "the press armed its repeat")
        fake.deliver(Self.node, [keyFrame(106, 0)])
        fake.deliver(Self.node, [keyFrame(28, 1), keyFrame(28, 0)])
        fake.send(.readPending(id: Self.id))
        fake.send(.setGrab(id: Self.id, .shared))
        let commands = fake.recorder.all.compactMap { if case .mapped(_, _, let commands) = $0 { commands } else { nil } }
        #expect(commands.joined().map(\.phase) == [.press, .repeat, .release, .press, .release], "the frames were mapped")
        #expect(fake.publishCount == before, "no wake-up changed a device, so none published the list")
        #expect(fake.devices == listed)
    }

    @Test("each change of a device publishes the list once, with the change: grab, problem, recovery, profile, removal")
    func changesPublish() {
        let profile = Profile()
        let fake = Self.started(profile: profile)
        var count = fake.publishCount
        /// Runs `step`, which must publish exactly once, and returns the device as published.
        func published(_ step: () -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> DeviceInfo? {
            step()
            #expect(fake.publishCount == count + 1, sourceLocation: sourceLocation)
            count = fake.publishCount
            return fake.devices.first { $0.id == Self.id }
        }

        #expect(published { fake.plug("/dev/input/event5", FakeKernel.Node(id: "input5-event5", identity: keyboard())) } != nil)
        #expect(fake.devices.map(\.id) == [Self.id, "input5-event5"])

        #expect(published { fake.send(.setGrab(id: Self.id, .exclusive)) }?.grabbed == true)
        #expect(published { fake.send(.setGrab(id: Self.id, .shared)) }?.grabbed == false)

        fake.kernel.nodes[Self.node]?.grabError = PosixError(call: "libevdev_grab", errno: EBUSY)
        #expect(published { fake.send(.setGrab(id: Self.id, .exclusive)) }?.problem?.hasPrefix("grab failed") == true)
        fake.kernel.nodes[Self.node]?.grabError = nil
        fake.send(.setGrab(id: Self.id, .shared))
        count = fake.publishCount

        fake.kernel.nodes[Self.node]?.readError = PosixError(call: "libevdev_next_event", errno: EIO)
        #expect(published { fake.deliver(Self.node, []) }?.problem?.hasPrefix("cannot open") == true)
        fake.kernel.nodes[Self.node]?.readError = nil
        #expect(published { fake.fireTimer() }?.problem == nil, "the timed reopen succeeded")

        profile.name.withLock { $0 = "remote" }
        #expect(published { fake.send(.reapplyPolicies) }?.profile == "remote")

        fake.kernel.nodes[Self.node]?.readError = PosixError(call: "libevdev_next_event", errno: ENODEV)
        #expect(published { fake.deliver(Self.node, []) } == nil, "an unplugged device leaves the list at once")
        fake.unplug(Self.node)
        #expect(fake.publishCount == count, "the removal of its node changes the list no more")

        #expect(published { fake.unplug("/dev/input/event5") } == nil)
        #expect(fake.devices.isEmpty)

        #expect(published { fake.plug(Self.node, FakeKernel.Node(id: Self.id, identity: keyboard())) } != nil)
        #expect(published { fake.send(.removeNode(Self.node)) } == nil)
    }
}

/// `DeviceMappers` keeps each mapper's next deadline as it changes (the loop asks for the earliest
/// after every wake-up without copying the mappers): every kind of change moves it.
@Suite("The device mappers' earliest deadline")
struct DeviceMappersDeadlineTests {
    static func key(_ code: UInt16, _ value: Int32) -> [InputEvent] {
        [InputEvent(type: EventCode.EV_KEY, code: code, value: value, timeUsec: 0)]
    }

    @Test("a press arms its repeat, the repeat re-arms it, a release, resync, removal or reload clears it, per device")
    func deadlineFollowsEveryChange() {
        let mappers = DeviceMappers(settings: { _, _ in DeviceSettings(deviceClass: .keyboard) })
        let identity = keyboard(keys: [EventCode.KEY_RIGHT, EventCode.KEY_LEFT])
        for id in ["a", "b"] {
            #expect(mappers.added(DeviceInfo(id: id, identity: identity, deviceClass: .keyboard), wallNow: 0).isEmpty)
        }
        let context = FocusContext()
        #expect(mappers.nextDeadline == nil)
        #expect(mappers.frame("a", Self.key(EventCode.KEY_RIGHT, 1), now: 1_000, wallNow: 0, context: context)?.count == 1)
        #expect(mappers.nextDeadline == 401_000, "the press arms the repeat after 400 ms")
        #expect(mappers.due(at: 400_999).isEmpty && mappers.due(at: 401_000) == ["a"])
        #expect(mappers.tick("a", now: 401_000).map(\.phase) == [.repeat])
        #expect(mappers.nextDeadline == 501_000, "the repeat re-arms 100 ms later")
        _ = mappers.frame("b", Self.key(EventCode.KEY_LEFT, 1), now: 450_000, wallNow: 0, context: context)
        #expect(mappers.nextDeadline == 501_000)
        _ = mappers.frame("a", Self.key(EventCode.KEY_RIGHT, 0), now: 460_000, wallNow: 0, context: context)
        #expect(mappers.nextDeadline == 850_000, "a's release leaves b's repeat")
        #expect(mappers.resync("b", keysDown: [], absValues: [:], wallNow: 0).map(\.phase) == [.release])
        #expect(mappers.nextDeadline == nil)
        _ = mappers.frame("a", Self.key(EventCode.KEY_RIGHT, 1), now: 500_000, wallNow: 0, context: context)
        _ = mappers.frame("b", Self.key(EventCode.KEY_LEFT, 1), now: 600_000, wallNow: 0, context: context)
        #expect(mappers.nextDeadline == 900_000)
        #expect(mappers.removed("a", wallNow: 0).map(\.commands.count) == [1])
        #expect(mappers.nextDeadline == 1_000_000 && mappers.due(at: 2_000_000) == ["b"])
        #expect(mappers.changed(DeviceInfo(id: "b", identity: identity, deviceClass: .keyboard, problem: "gone"), wallNow: 0).count == 1)
        #expect(mappers.nextDeadline == nil)
        #expect(mappers.added(DeviceInfo(id: "a", identity: identity, deviceClass: .keyboard), wallNow: 0).isEmpty)
        _ = mappers.frame("a", Self.key(EventCode.KEY_RIGHT, 1), now: 700_000, wallNow: 0, context: context)
        #expect(mappers.nextDeadline == 1_100_000)
        #expect(mappers.reconfigure(wallNow: 0).map(\.id) == ["a"])
        #expect(mappers.nextDeadline == nil && mappers.due(at: .max).isEmpty)
    }
}
