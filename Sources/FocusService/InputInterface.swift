import FocusWire
import InputDevices
import InputMapping
import Varlink

/// `io.focusd.Input` over Varlink: the devices focusd sees, a monitor of device changes and
/// commands (for test benches), and `ReloadConfig`.
final class InputInterface {
    let router: InputRouter
    /// Re-reads the configuration file; returns the profile names and warnings, or throws
    /// `InvalidConfig` (the running configuration stays).
    var reload: () throws(VarlinkError) -> (profiles: [String], warnings: [String]) = { ([], []) }

    init(router: InputRouter) {
        self.router = router
    }

    /// `Command` of io.focusd.Input.
    struct WireCommand: Encodable {
        var device: String
        var command: String
        var phase: String
        var detents: Int?
        var fraction: Double?
        var velocity: Double?
        var eventTimeUsec: Int64

        init(device: String, _ command: MappedCommand) {
            self.device = device
            self.command = command.command
            phase = command.phase.rawValue
            detents = command.detents
            fraction = command.fraction
            velocity = command.velocity
            eventTimeUsec = command.eventTimeUsec
        }
    }

    func handle(_ context: VarlinkCallContext) throws(VarlinkError) {
        switch context.method {
        case "ListDevices":
            struct Reply: Encodable { var devices: [InputDevice] }
            try encodeReply(context, Reply(devices: router.deviceList.map(InputDevice.init)))
        case "Monitor":
            try monitor(context)
        case "ReloadConfig":
            let (profiles, warnings) = try reload()
            context.reply(["profiles": .array(profiles.map { .string($0) }), "warnings": .array(warnings.map { .string($0) })])
        default:
            throw .methodNotImplemented(context.call.method)
        }
    }

    /// `Monitor`: first the device list, then one change or command per reply. Nothing is
    /// coalescible here: a bench wants every command; a client that stops reading is cut off.
    private func monitor(_ context: VarlinkCallContext) throws(VarlinkError) {
        let stream = try context.stream()
        struct Devices: Encodable { var devices: [InputDevice] }
        struct Added: Encodable { var added: InputDevice }
        struct Command: Encodable { var command: WireCommand }
        _ = try? stream.send(encoding: Devices(devices: router.deviceList.map(InputDevice.init)))
        let id = router.addObserver { notice in
            switch notice {
            case .added(let info): _ = try? stream.send(encoding: Added(added: InputDevice(info)))
            case .removed(let id): stream.send(["removed": .string(id)])
            case .command(let device, let command):
                _ = try? stream.send(encoding: Command(command: WireCommand(device: device, command)))
            }
        }
        stream.onClose = { [unowned self] in self.router.removeObserver(id) }
    }

    private func encodeReply(_ context: VarlinkCallContext, _ value: some Encodable) throws(VarlinkError) {
        do { try context.reply(encoding: value) } catch { throw .invalidParameter("parameters") }
    }
}

extension InputDevice {
    /// The wire form of what the input loop knows about a device.
    init(_ info: DeviceInfo) {
        self.init(
            id: info.id, name: info.name, node: info.node, class: info.deviceClass.rawValue, bus: info.bus,
            vendor: info.vendor, product: info.product, version: info.version, phys: info.phys, uniq: info.uniq,
            backend: info.backend.rawValue, grabbed: info.grabbed, profile: info.profile, problem: info.problem,
            reasons: info.reasons.isEmpty ? nil : info.reasons)
    }
}
