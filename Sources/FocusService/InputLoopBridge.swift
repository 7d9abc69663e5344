import InputDevices
import InputMapping
import NIOCore

/// The device thread's delegate: one hop per report onto the event loop.
final class InputLoopBridge: InputLoopDelegate {
    let core: NIOLoopBound<DaemonCore>
    let eventLoop: any EventLoop

    init(core: NIOLoopBound<DaemonCore>, eventLoop: any EventLoop) {
        self.core = core
        self.eventLoop = eventLoop
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
        eventLoop.execute { [core] in
            let core = core.value
            // One write and one flush per connection for the frame and every event its commands
            // cause, as for a call (VarlinkService.batchingWrites).
            guard let varlink = core.varlink else { return core.router.mapped(id, frame: frame, commands: commands) }
            varlink.batchingWrites { core.router.mapped(id, frame: frame, commands: commands) }
        }
    }
}
