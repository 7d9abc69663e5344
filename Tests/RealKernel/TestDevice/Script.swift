// The line-based event script a simulated device plays, and its player.
import CLibevdev
import Glibc

/// Where a script's events go: a uinput or a uhid device.
protocol EventSink: AnyObject {
    /// The device's `/dev/input/eventN` node.
    var devnode: String { get }
    /// Sends one evdev event (the uhid sink turns a `SYN_REPORT` into one HID report).
    func write(type: UInt32, code: UInt32, value: Int32) throws
    /// Removes the device from the kernel.
    func destroy()
}

/// One line of output, written and flushed at once (scenarios read it through a pipe).
func emit(_ line: String) {
    var text = line
    text.append("\n")
    _ = text.withCString { Glibc.write(1, $0, strlen($0)) }
}

/// Sleeps for `ms` milliseconds.
func sleepMilliseconds(_ ms: Int) {
    var request = timespec(tv_sec: ms / 1000, tv_nsec: (ms % 1000) * 1_000_000)
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}

/// Plays script lines on a device.
///
/// Script language (one command a line, `#` starts a comment):
///
///     key CODE VALUE        EV_KEY event (KEY_* or BTN_*; 1 press, 0 release, 2 repeat)
///     rel CODE VALUE        EV_REL event (REL_DIAL, REL_WHEEL_HI_RES, ...)
///     abs CODE VALUE        EV_ABS event (ABS_HAT0X, ABS_X, ...)
///     msc CODE VALUE        EV_MSC event
///     ev TYPE CODE VALUE    any event
///     syn                   SYN_REPORT (ends a frame)
///     press CODE [MS]       key down, syn, wait MS (default 20), key up, syn
///     ir CODE [FRAMES]      remote: rc-core frames (MSC_SCAN + key down, FRAMES-1 repeat frames
///                           every frame interval), then the kernel-side key-up after the timeout
///     touch SLOT X Y        touchpad: put a finger in SLOT at X,Y (no syn)
///     touch SLOT up         touchpad: lift the finger in SLOT (no syn)
///     swipe DIR [FINGERS]   touchpad: a 100 ms swipe left/right/up/down with 1-4 fingers
///     flood N [TYPE CODE]   N events each with its SYN_REPORT, as fast as possible
///     sleep MS              wait
///     echo TEXT             print TEXT on stdout (a sync point for the caller)
///     wait PATH             wait until PATH exists
///     recreate              destroy the device and create it again; prints `node PATH`
///     hold                  stop reading the script; keep the device until killed
///     destroy               remove the device and exit
final class ScriptPlayer {
    private let model: DeviceModel
    private let makeSink: () throws -> EventSink
    private(set) var sink: EventSink
    private var touchpad = Touchpad()

    init(model: DeviceModel, makeSink: @escaping () throws -> EventSink) throws {
        self.model = model
        self.makeSink = makeSink
        self.sink = try makeSink()
    }

    /// What the caller does after a line.
    enum Outcome { case next, hold, destroy }

    /// Plays one script line.
    func play(_ rawLine: String) throws -> Outcome {
        let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let command = words.first else { return .next }
        let args = Array(words.dropFirst())
        func need(_ n: ClosedRange<Int>, _ usage: String) throws {
            guard n.contains(args.count) else { throw ToolError("usage: \(usage)") }
        }
        func int(_ s: String) throws -> Int32 {
            guard let v = Int32(s) else { throw ToolError("'\(s)' is not an integer") }
            return v
        }
        switch command {
        case "key", "rel", "abs", "msc":
            try need(2...2, "\(command) CODE VALUE")
            let type = UInt32(["key": EV_KEY, "rel": EV_REL, "abs": EV_ABS, "msc": EV_MSC][command]!)
            try sink.write(type: type, code: EventNames.code(args[0], type: type), value: int(args[1]))
        case "ev":
            try need(3...3, "ev TYPE CODE VALUE")
            let type = try EventNames.type(args[0])
            try sink.write(type: type, code: EventNames.code(args[1], type: type), value: int(args[2]))
        case "syn":
            try need(0...0, "syn")
            try syn()
        case "press":
            try need(1...2, "press CODE [MS]")
            let code = try EventNames.code(args[0], type: UInt32(EV_KEY))
            try key(code, 1)
            sleepMilliseconds(Int(try args.count > 1 ? int(args[1]) : 20))
            try key(code, 0)
        case "ir":
            try need(1...2, "ir CODE [FRAMES]")
            try infrared(EventNames.code(args[0], type: UInt32(EV_KEY)), frames: Int(args.count > 1 ? int(args[1]) : 1))
        case "touch":
            try need(2...3, "touch SLOT X Y | touch SLOT up")
            let slot = try int(args[0])
            if args.count == 2 {
                guard args[1] == "up" else { throw ToolError("usage: touch SLOT up") }
                try touchpad.lift(slot: slot, on: sink)
            } else {
                try touchpad.put(slot: slot, x: int(args[1]), y: int(args[2]), on: sink)
            }
        case "swipe":
            try need(1...2, "swipe left|right|up|down [FINGERS]")
            try touchpad.swipe(args[0], fingers: args.count > 1 ? int(args[1]) : 1, on: sink)
        case "flood":
            try need(1...3, "flood N [TYPE CODE]")
            guard args.count != 2 else { throw ToolError("usage: flood N [TYPE CODE]") }
            try flood(count: Int(int(args[0])), type: args.count == 3 ? args[1] : nil, code: args.count == 3 ? args[2] : nil)
        case "sleep":
            try need(1...1, "sleep MS")
            sleepMilliseconds(Int(try int(args[0])))
        case "echo":
            emit(args.joined(separator: " "))
        case "wait":
            try need(1...1, "wait PATH")
            while access(args[0], F_OK) != 0 { sleepMilliseconds(5) }
        case "recreate":
            try need(0...0, "recreate")
            sink.destroy()
            sink = try makeSink()
            touchpad = Touchpad()
            emit("node \(sink.devnode)")
        case "hold":
            return .hold
        case "destroy":
            return .destroy
        default:
            throw ToolError("unknown script command '\(command)'")
        }
        return .next
    }

    private func syn() throws {
        try sink.write(type: UInt32(EV_SYN), code: UInt32(SYN_REPORT), value: 0)
    }

    private func key(_ code: UInt32, _ value: Int32) throws {
        try sink.write(type: UInt32(EV_KEY), code: code, value: value)
        try syn()
    }

    /// rc-core: every frame sends MSC_SCAN; the first also the key down. The kernel (the input
    /// core's soft repeat, with the device's REP_DELAY/REP_PERIOD) sends value-2 repeats while
    /// the key is down; the key goes up when no frame came for the key-up timeout.
    private func infrared(_ code: UInt32, frames: Int) throws {
        guard case .infrared(let keyUp, let interval) = model.keys else {
            throw ToolError("'ir' is for the remote model; use 'press' for \(model.id)")
        }
        let scancode = Int32(0x0400) + Int32(code)
        try sink.write(type: UInt32(EV_MSC), code: UInt32(MSC_SCAN), value: scancode)
        try key(code, 1)
        for _ in 1..<max(1, frames) {
            sleepMilliseconds(interval)
            try sink.write(type: UInt32(EV_MSC), code: UInt32(MSC_SCAN), value: scancode)
            try syn()
        }
        sleepMilliseconds(keyUp)
        try key(code, 0)
    }

    /// Writes `count` events, each in its own frame, without pausing.
    private func flood(count: Int, type typeName: String?, code codeName: String?) throws {
        let type: UInt32, code: UInt32
        if let typeName, let codeName {
            type = try EventNames.type(typeName)
            code = try EventNames.code(codeName, type: type)
        } else if let rel = model.capabilities.first(where: { $0.type == "EV_REL" })?.codes.first {
            type = UInt32(EV_REL); code = try EventNames.code(rel, type: type)
        } else if let axis = model.axes.first {
            type = UInt32(EV_ABS); code = try EventNames.code(axis.code, type: type)
        } else if let key = model.capabilities.first(where: { $0.type == "EV_KEY" })?.codes.first {
            type = UInt32(EV_KEY); code = try EventNames.code(key, type: type)
        } else {
            throw ToolError("\(model.id) has nothing to flood with")
        }
        let axis = model.axes.first { (try? EventNames.code($0.code, type: UInt32(EV_ABS))) == code }
        for i in 0..<count {
            let value: Int32
            switch Int32(type) {
            case EV_REL: value = i % 2 == 0 ? 1 : -1
            case EV_KEY: value = i % 2 == 0 ? 1 : 0  // an even count ends released
            default: value = i % 2 == 0 ? (axis?.max ?? 1) : (axis?.min ?? 0)
            }
            try sink.write(type: type, code: code, value: value)
            try syn()
        }
    }
}

/// Multitouch state of the simulated touchpad: slots, tracking ids, and the legacy single-touch
/// events (BTN_TOUCH, BTN_TOOL_*, ABS_X/Y) a real touchpad sends alongside.
struct Touchpad {
    static let slots: Int32 = 5
    private var fingers: [Int32: (x: Int32, y: Int32)] = [:]
    private var nextTrackingID: Int32 = 1
    private var currentSlot: Int32 = -1

    mutating func put(slot: Int32, x: Int32, y: Int32, on sink: EventSink) throws {
        guard (0..<Self.slots).contains(slot) else { throw ToolError("touch slot must be 0...\(Self.slots - 1)") }
        let before = fingers.count
        try select(slot, on: sink)
        if fingers[slot] == nil {
            try sink.write(type: UInt32(EV_ABS), code: UInt32(ABS_MT_TRACKING_ID), value: nextTrackingID)
            nextTrackingID += 1
        }
        fingers[slot] = (x, y)
        try sink.write(type: UInt32(EV_ABS), code: UInt32(ABS_MT_POSITION_X), value: x)
        try sink.write(type: UInt32(EV_ABS), code: UInt32(ABS_MT_POSITION_Y), value: y)
        try legacy(before: before, on: sink)
    }

    mutating func lift(slot: Int32, on sink: EventSink) throws {
        guard fingers[slot] != nil else { throw ToolError("no finger in slot \(slot)") }
        let before = fingers.count
        try select(slot, on: sink)
        try sink.write(type: UInt32(EV_ABS), code: UInt32(ABS_MT_TRACKING_ID), value: -1)
        fingers[slot] = nil
        try legacy(before: before, on: sink)
    }

    /// A swipe of 10 frames, 10 ms apart, then every finger lifts.
    mutating func swipe(_ direction: String, fingers count: Int32, on sink: EventSink) throws {
        let (dx, dy): (Int32, Int32)
        switch direction {
        case "left": (dx, dy) = (-50, 0)
        case "right": (dx, dy) = (50, 0)
        case "up": (dx, dy) = (0, -30)
        case "down": (dx, dy) = (0, 30)
        default: throw ToolError("swipe direction must be left, right, up or down")
        }
        guard (1...4).contains(count) else { throw ToolError("swipe takes 1 to 4 fingers") }
        let syn = { try sink.write(type: UInt32(EV_SYN), code: UInt32(SYN_REPORT), value: 0) }
        for step in Int32(0)...10 {
            for f in 0..<count {
                try put(slot: f, x: 358 + f * 150 + dx * step, y: 190 + dy * step, on: sink)
            }
            try syn()
            sleepMilliseconds(10)
        }
        for f in 0..<count { try lift(slot: f, on: sink) }
        try syn()
    }

    private mutating func select(_ slot: Int32, on sink: EventSink) throws {
        if slot != currentSlot {
            try sink.write(type: UInt32(EV_ABS), code: UInt32(ABS_MT_SLOT), value: slot)
            currentSlot = slot
        }
    }

    private func legacy(before: Int, on sink: EventSink) throws {
        let tools = [BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP, BTN_TOOL_QUADTAP, BTN_TOOL_QUINTTAP]
        if before != fingers.count {
            if before == 0 || fingers.isEmpty {
                try sink.write(type: UInt32(EV_KEY), code: UInt32(BTN_TOUCH), value: fingers.isEmpty ? 0 : 1)
            }
            if before > 0 { try sink.write(type: UInt32(EV_KEY), code: UInt32(tools[min(before, 5) - 1]), value: 0) }
            if !fingers.isEmpty {
                try sink.write(type: UInt32(EV_KEY), code: UInt32(tools[min(fingers.count, 5) - 1]), value: 1)
            }
        }
        if let first = fingers.keys.min(), let p = fingers[first] {
            try sink.write(type: UInt32(EV_ABS), code: UInt32(ABS_X), value: p.x)
            try sink.write(type: UInt32(EV_ABS), code: UInt32(ABS_Y), value: p.y)
        }
    }
}
