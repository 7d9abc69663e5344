import FocusWire
import InputDevices
import InputMapping
import NIOCore
import Varlink

/// `io.focusd.Input` over Varlink: the devices focusd sees, a monitor of device changes and
/// commands (for test benches), and `ReloadConfig`.
final class InputInterface {
    let router: InputRouter
    /// Re-reads the configuration file (off the loop; the future completes on it) and swaps it
    /// in; the profile names and warnings, or `InvalidConfig` (the running configuration stays).
    /// Nil until the daemon has started (a call before that changes nothing).
    var reload: (() -> EventLoopFuture<([String], [String])>)?

    /// The input loop that lends devices (nil: focusd reads no devices).
    var inputLoop: InputLoop?
    /// Which connection each lent device is lent to, by device id (input.md §11).
    private(set) var lenders: [String: UInt64] = [:]

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

        /// `{"command":COMMAND}` by hand, the bytes `Codable` writes for it (as `WireWriters`
        /// do for focus events; `WireWriterTests` compares them): every key press and release
        /// goes to each Input monitor, and `Codable` costs more than the rest of its way.
        func writeReply(into json: inout JSONBytes) throws {
            json.raw(#"{"command":{"device":"#)
            json.string(device)
            json.raw(#","command":"#)
            json.string(command)
            json.raw(#","phase":"#)
            json.string(phase)
            json.member(#","detents":"#, detents)
            try json.member(#","fraction":"#, fraction)
            try json.member(#","velocity":"#, velocity)
            json.raw(#","eventTimeUsec":"#)
            json.int(Int(eventTimeUsec))
            json.raw("}}")
        }
    }

    func handle(_ context: VarlinkCallContext) throws(VarlinkError) {
        guard let method = InputMethod(rawValue: context.method) else {
            throw .methodNotImplemented(context.call.method)
        }
        switch method {
        case .listDevices:
            struct Reply: Encodable { var devices: [InputDevice] }
            try encodeReply(context, Reply(devices: router.deviceList.map(InputDevice.init)))
        case .monitor:
            try monitor(context)
        case .reloadConfig:
            guard let reload else { return context.reply(["profiles": [], "warnings": []]) }
            reload().assumeIsolated().whenComplete { result in
                switch result {
                case .success(let (profiles, warnings)):
                    context.reply(["profiles": .array(profiles.map { .string($0) }), "warnings": .array(warnings.map { .string($0) })])
                case .failure(let error):
                    context.fail(error as? VarlinkError ?? VarlinkError("io.focusd.Input.InvalidConfig", parameters: ["reason": .string("\(error)")]))
                }
            }
        case .lend:
            try lend(context)
        case .reclaim:
            try reclaim(context)
        }
    }

    // MARK: Lend and Reclaim (input.md §11)

    private struct DeviceParameter: Decodable { var device: String }
    private struct DeviceReply: Encodable { var device: InputDevice }

    static func noSuchDevice(_ id: String) -> VarlinkError {
        VarlinkError("io.focusd.Input.NoSuchDevice", parameters: ["id": .string(id)])
    }

    static func deviceLent(_ id: String) -> VarlinkError {
        VarlinkError("io.focusd.Input.DeviceLent", parameters: ["id": .string(id)])
    }

    /// `Lend`: answered once the input thread has released and ungrabbed the device, so the
    /// caller's EVIOCGRAB right after the reply succeeds. Lending a device again on the same
    /// connection answers with it as it is.
    private func lend(_ context: VarlinkCallContext) throws(VarlinkError) {
        let id = try context.decodeParameters(DeviceParameter.self).device
        let connection = context.connection.id
        if let owner = lenders[id], owner != connection { throw Self.deviceLent(id) }
        guard let inputLoop, router.listed[id] != nil else { throw Self.noSuchDevice(id) }
        lenders[id] = connection
        let eventLoop = router.eventLoop
        let bound = NIOLoopBound((interface: self, context: context), eventLoop: eventLoop)
        inputLoop.lend(id: id) { device in
            eventLoop.execute {
                let (interface, context) = bound.value
                guard let device else {
                    if interface.lenders[id] == connection { interface.lenders[id] = nil }
                    return context.fail(Self.noSuchDevice(id))
                }
                try? context.reply(encoding: DeviceReply(device: InputDevice(device)))
            }
        }
    }

    /// `Reclaim`: the device is opened again as at plug-in, then the reply. A device lent to
    /// another connection is `DeviceLent`; one not lent is answered as it is.
    private func reclaim(_ context: VarlinkCallContext) throws(VarlinkError) {
        let id = try context.decodeParameters(DeviceParameter.self).device
        if let owner = lenders[id], owner != context.connection.id { throw Self.deviceLent(id) }
        guard let inputLoop, lenders.removeValue(forKey: id) != nil else {
            guard let device = router.listed[id] else { throw Self.noSuchDevice(id) }
            return try encodeReply(context, DeviceReply(device: InputDevice(device)))
        }
        let eventLoop = router.eventLoop
        let bound = NIOLoopBound(context, eventLoop: eventLoop)
        inputLoop.reclaim(id: id) { device in
            eventLoop.execute {
                let context = bound.value
                guard let device else { return context.fail(Self.noSuchDevice(id)) }
                try? context.reply(encoding: DeviceReply(device: InputDevice(device)))
            }
        }
    }

    /// A connection closed: every device it had lent is taken back.
    func connectionClosed(_ connection: UInt64) {
        for (id, owner) in lenders where owner == connection {
            lenders[id] = nil
            inputLoop?.reclaim(id: id) { _ in }
        }
    }

    /// The last command sent to monitors, with its reply encoded once for all of them, named by
    /// the router's ``InputRouter/noticeToken`` (one integer to compare, not the command and
    /// its device's id).
    private var lastCommand: (token: UInt64, reply: VarlinkEncodedReply)?

    /// `Monitor`: first the device list, then one change or command per reply. Nothing is
    /// coalescible here: a bench wants every command; a client that stops reading is cut off.
    private func monitor(_ context: VarlinkCallContext) throws(VarlinkError) {
        let stream = try context.stream()
        struct Devices: Encodable { var devices: [InputDevice] }
        struct Added: Encodable { var added: InputDevice }
        _ = try? stream.send(encoding: Devices(devices: router.deviceList.map(InputDevice.init)))
        let id = router.addObserver { [unowned self] notice in
            switch notice {
            case .added(let info): _ = try? stream.send(encoding: Added(added: InputDevice(info)))
            case .removed(let id): stream.send(["removed": .string(id)])
            case .command(let device, let command):
                // Encoded once for every monitor: the router hands the same notice to each in turn.
                let token = self.router.noticeToken
                if let last = self.lastCommand, last.token == token {
                    stream.send(last.reply)
                } else if let reply = try? VarlinkEncodedReply(writing: WireCommand(device: device, command).writeReply) {
                    self.lastCommand = (token, reply)
                    stream.send(reply)
                }
            }
        }
        stream.onClose = { [unowned self] in self.router.removeObserver(id) }
    }

    /// `io.focusd.Inspect.Record`: the chosen devices' descriptions, then their frames as read.
    /// Devices read through libinput (touch surfaces) deliver gestures, not frames: not recorded.
    func record(_ context: VarlinkCallContext) throws(VarlinkError) {
        struct Parameters: Decodable { var devices: [String]? }
        let p = try context.decodeParameters(Parameters.self)
        let listed = Dictionary(router.deviceList.map { ($0.id, $0) }) { a, _ in a }
        for id in p.devices ?? [] {
            guard let info = listed[id] else {
                throw VarlinkError("io.focusd.Inspect.NoSuchDevice", parameters: ["id": .string(id)])
            }
            if let problem = info.problem {
                throw VarlinkError("io.focusd.Inspect.DeviceNotRecordable",
                                   parameters: ["id": .string(id), "reason": .string("focusd does not read it: \(problem)")])
            }
            if info.backend == .libinput {
                throw VarlinkError("io.focusd.Inspect.DeviceNotRecordable", parameters: [
                    "id": .string(id), "reason": .string("read through libinput, which gives focusd gestures, not kernel events"),
                ])
            }
        }
        let chosen = p.devices.map(Set.init)
        func wanted(_ info: DeviceInfo) -> Bool {
            info.problem == nil && info.backend == .libevdev && (chosen?.contains(info.id) ?? true)
        }
        final class Recorded { var ids: Set<String> = [] }
        let recorded = Recorded()
        let stream = try context.stream()
        struct Devices: Encodable { var devices: [RecordedDevice] }
        struct Added: Encodable { var added: RecordedDevice }
        struct Frame: Encodable {
            var device: String
            var events: [Event]
            struct Event: Encodable {
                var type: Int
                var code: Int
                var value: Int
                var timeUsec: Int64
            }
        }
        let first = router.deviceList.filter(wanted)
        recorded.ids = Set(first.map(\.id))
        _ = try? stream.send(encoding: Devices(devices: first.map(RecordedDevice.init)))
        let id = router.addObserver { notice in
            switch notice {
            case .added(let info):
                guard !recorded.ids.contains(info.id), wanted(info) else { return }
                recorded.ids.insert(info.id)
                _ = try? stream.send(encoding: Added(added: RecordedDevice(info)))
            case .removed(let id):
                guard recorded.ids.remove(id) != nil else { return }
                stream.send(["removed": .string(id)])
            case .command:
                break
            }
        }
        let frames = router.addFrameObserver { device, events in
            guard recorded.ids.contains(device), let last = events.last else { return }
            var out = events.map { Frame.Event(type: Int($0.type), code: Int($0.code), value: Int($0.value), timeUsec: $0.timeUsec) }
            out.append(Frame.Event(type: 0, code: 0, value: 0, timeUsec: last.timeUsec))  // the SYN_REPORT that ended it
            _ = try? stream.send(encoding: Frame(device: device, events: out))
        }
        stream.onClose = { [unowned self] in
            self.router.removeObserver(id)
            self.router.removeObserver(frames)
        }
    }

    private func encodeReply(_ context: VarlinkCallContext, _ value: some Encodable) throws(VarlinkError) {
        do { try context.reply(encoding: value) } catch { throw .invalidParameter("parameters") }
    }
}

extension RecordedDevice {
    /// A device's description for a recording, from what the input loop read of it.
    init(_ info: DeviceInfo) {
        let c = info.identity.capabilities
        self.init(
            id: info.id, name: info.name, bus: info.bus, vendor: info.vendor, product: info.product,
            version: info.version, phys: info.phys, uniq: info.uniq, class: info.deviceClass.rawValue,
            keys: c.keys.map(Int.init).sorted(), relativeAxes: c.relativeAxes.map(Int.init).sorted(),
            absoluteAxes: c.absoluteAxes.keys.sorted().map { code in
                let a = c.absoluteAxes[code]!
                return RecordedAxis(code: Int(code), minimum: Int(a.minimum), maximum: Int(a.maximum), fuzz: Int(a.fuzz),
                                    flat: Int(a.flat), resolution: Int(a.resolution))
            },
            properties: c.properties.map(Int.init).sorted(), kernelRepeat: c.kernelRepeat)
    }
}

extension InputDevice {
    /// The wire form of what the input loop knows about a device.
    init(_ info: DeviceInfo) {
        self.init(
            id: info.id, name: info.name, node: info.node, class: info.deviceClass.rawValue, bus: info.bus,
            vendor: info.vendor, product: info.product, version: info.version, phys: info.phys, uniq: info.uniq,
            backend: info.backend.rawValue, grabbed: info.grabbed, profile: info.profile, problem: info.problem,
            reasons: info.reasons.isEmpty ? nil : info.reasons, lent: info.lent ? true : nil, passthrough: info.passthrough)
    }
}
