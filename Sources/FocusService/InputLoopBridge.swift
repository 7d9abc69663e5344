import InputDevices
import InputMapping
import NIOCore
import Synchronization

/// The device thread's delegate: one hop per report onto the event loop.
final class InputLoopBridge: InputLoopDelegate {
    let core: NIOLoopBound<DaemonCore>
    let eventLoop: any EventLoop
    /// Whether frames are timed for `InputPathTimes` (log level debug): a clock read on this
    /// thread and two on the loop per frame that made commands.
    let timed: Bool
    /// The router's: whether an Input monitor or a recorder is attached.
    let listening: SharedListening

    init(core: NIOLoopBound<DaemonCore>, eventLoop: any EventLoop, listening: SharedListening, timed: Bool = false) {
        self.core = core
        self.eventLoop = eventLoop
        self.listening = listening
        self.timed = timed
    }

    /// Whether a frame goes to the event loop. One whose commands cannot act on focus (key
    /// releases, or none at all: a scan code alone, an unmapped key) matters there only to an
    /// Input monitor or a recorder; without one it stays here, and half of all key frames cost
    /// the loop nothing (no wake-up, no task). A crown's release ends an edit stream: it acts.
    static func handsOver(_ commands: [MappedCommand], listening: Bool) -> Bool {
        listening || commands.contains { $0.phase != .release || $0.command == "crown" }
    }

    func deviceAdded(_ device: DeviceInfo) {
        eventLoop.execute { [core] in core.value.router.deviceAdded(device) }
    }
    func deviceRemoved(id: String) {
        eventLoop.execute { [core] in core.value.router.deviceRemoved(id) }
    }
    func deviceChanged(_ device: DeviceInfo) {
        eventLoop.execute { [core] in core.value.router.deviceChanged(device) }
    }
    /// A frame and its commands, mapped on the input thread: one hop to the engine.
    func mapped(id: String, frame: [InputEvent]?, commands: [MappedCommand]) {
        guard Self.handsOver(commands, listening: listening.value.load(ordering: .acquiring)) else { return }
        // The frame's kernel timestamp and the hand-over time, for `InputPathTimes` (debug):
        // frames that act (a key-up 1 ms after its press would wait behind the press and say
        // nothing about the path).
        let acts = commands.contains { $0.phase != .release }
        let kernel = timed && acts ? frame?.last?.timeUsec : nil
        let handed = kernel == nil ? 0 : WallClock.nowUsec()
        eventLoop.execute { [core] in
            let core = core.value
            let times = kernel == nil ? nil : core.inputPathTimes
            let started = times == nil ? 0 : WallClock.nowUsec()
            // One write and one flush per connection for the frame and every event its commands
            // cause, as for a call (VarlinkService.batchingWrites): first what focus waits for
            // (the engine, Focus monitors), flushed before the Input monitors' commands are
            // encoded and written (InputRouter's discussion).
            if let varlink = core.varlink {
                varlink.batchingWrites { core.router.act(id, frame: frame, commands: commands) }
                varlink.batchingWrites { core.router.publish(id, commands: commands) }
            } else {
                core.router.mapped(id, frame: frame, commands: commands)
            }
            if let times, let kernel { times.note(kernel: kernel, handed: handed, started: started, flushed: WallClock.nowUsec()) }
        }
    }
}
