import InputMapping
import SystemCalls
import Testing

@testable import InputDevices

/// Plays libevdev: a queue of normal-mode steps, then a queue of sync events per SYN_DROPPED.
private struct FakeEvdev {
    var normal: [NextEvent?]
    var sync: [InputEvent] = []
    var syncReads = 0

    mutating func next(sync inSync: Bool) throws(PosixError) -> NextEvent? {
        if inSync {
            syncReads += 1
            return sync.isEmpty ? nil : .event(sync.removeFirst())
        }
        return normal.isEmpty ? nil : normal.removeFirst()
    }
}

private func key(_ code: UInt16, _ value: Int32, at t: Int64 = 0) -> NextEvent { .event(InputEvent(type: 1, code: code, value: value, timeUsec: t)) }
private func report(at t: Int64 = 0) -> NextEvent { .event(InputEvent(type: 0, code: 0, value: 0, timeUsec: t)) }

@Suite("Frames and SYN_DROPPED")
struct FrameAssemblerTests {
    @Test("events are grouped per SYN_REPORT, which is not included; empty frames are dropped")
    func framesPerReport() throws {
        var fake = FakeEvdev(normal: [key(28, 1, at: 5), report(at: 5), report(at: 7), key(28, 0, at: 9), key(42, 1, at: 9), report(at: 9)])
        var assembler = FrameAssembler()
        let readings = try assembler.read(next: { sync throws(PosixError) in try fake.next(sync: sync) }, state: { ([], [:]) })
        #expect(readings == [
            .frame([InputEvent(type: 1, code: 28, value: 1, timeUsec: 5)]),
            .frame([InputEvent(type: 1, code: 28, value: 0, timeUsec: 9), InputEvent(type: 1, code: 42, value: 1, timeUsec: 9)]),
        ])
    }

    @Test("a frame split across two reads is delivered whole by the second")
    func partialFrameKept() throws {
        var assembler = FrameAssembler()
        var first = FakeEvdev(normal: [key(103, 1)])
        #expect(try assembler.read(next: { s throws(PosixError) in try first.next(sync: s) }, state: { ([], [:]) }).isEmpty)
        #expect(assembler.pending.count == 1)
        var second = FakeEvdev(normal: [report()])
        #expect(try assembler.read(next: { s throws(PosixError) in try second.next(sync: s) }, state: { ([], [:]) })
            == [.frame([InputEvent(type: 1, code: 103, value: 1, timeUsec: 0)])])
    }

    @Test("SYN_DROPPED drops the partial frame, drains the sync events and reports the state once")
    func droppedResyncs() throws {
        var fake = FakeEvdev(
            normal: [key(103, 1), .dropped, key(108, 1), report()],
            sync: [InputEvent(type: 1, code: 103, value: 0, timeUsec: 0), InputEvent(type: 0, code: 0, value: 0, timeUsec: 0)])
        var assembler = FrameAssembler()
        let readings = try assembler.read(
            next: { s throws(PosixError) in try fake.next(sync: s) }, state: { ([30], [0: -5]) })
        #expect(readings == [
            .resync(keysDown: [30], absValues: [0: -5]),
            .frame([InputEvent(type: 1, code: 108, value: 1, timeUsec: 0)]),
        ])
        #expect(fake.sync.isEmpty)
        #expect(fake.syncReads == 3)
    }

    @Test("a read error (the device was unplugged) is thrown, typed")
    func errorsPropagate() {
        var assembler = FrameAssembler()
        #expect(throws: PosixError(call: "libevdev_next_event", errno: 19)) {
            _ = try assembler.read(
                next: { _ throws(PosixError) in throw PosixError(call: "libevdev_next_event", errno: 19) }, state: { ([], [:]) })
        }
    }
}
