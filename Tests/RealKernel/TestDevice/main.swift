// focusd-testdevice: simulated input devices and a bare evdev reader, for the real-kernel tests
// (Tests/RealKernel/README.md). Needs /dev/uinput (and /dev/uhid for HID-level models).
import CLibevdev
import Glibc

let usage = """
    usage: focusd-testdevice COMMAND ...

    Creates input devices modelled on real ones through uinput (or uhid) and reads input nodes.

    commands:
      list                          List the device models, one per line: id, then what it imitates.
      create MODEL [--name NAME]    Create a device, print `node /dev/input/eventN`, then play the
                                    script read from stdin (see below); at the end of stdin the
                                    device is destroyed. The name defaults to "test-focusd <model name>".
      flood MODEL COUNT             Create a device, print its node, wait for one line on stdin, then
                                    write COUNT one-event frames at once (to overflow a reader's
                                    kernel buffer: SYN_DROPPED), print `flooded COUNT`, and keep the
                                    device until stdin ends.
      read NODE [--grab] [--count N]
                                    Open NODE with libevdev, print `ready NODE NAME`, then each event
                                    as `TYPE CODE VALUE kernel=SEC.USEC recv=SEC.USEC` (both
                                    CLOCK_MONOTONIC: the kernel's timestamp and the time this process
                                    received it). SYN_DROPPED is printed as such, followed by
                                    libevdev's resync events as `resync TYPE CODE VALUE`. Prints
                                    `gone` when the device disappears. --count exits after N events
                                    other than EV_SYN; --grab takes the device exclusively (EVIOCGRAB).
      monitor SOCKET [INTERFACE]    A compiled Varlink client: call INTERFACE.Monitor (default
                                    io.focusd.Focus) with more on the Unix socket SOCKET and print
                                    each reply as `recv=SEC.USEC JSON` (CLOCK_MONOTONIC, when this
                                    process read it), so a scenario times focusd without its own
                                    JSON parsing in the figure. Exits when the connection ends.
      relay NODE SOCKET [--hops 1|2] [--size BYTES]
                                    The relay floor (what focusd's threads cost without focusd's
                                    work): listen on the Unix socket SOCKET, print `listening
                                    SOCKET`, accept one client, read its call (up to a NUL) and
                                    answer it, then read NODE with libevdev as `read` does and send
                                    the client one NUL-terminated JSON message of BYTES bytes
                                    (default 512) per EV_KEY event, carrying the kernel timestamp
                                    (`kernel`, CLOCK_MONOTONIC), `code` and `value`. --hops 1: the
                                    reader thread writes the socket itself; --hops 2 (default): it
                                    hands each event to a writer thread (a locked queue and an
                                    eventfd the writer waits on in epoll_wait), which writes. The
                                    client is `monitor SOCKET`. Exits when the client or the device goes.
      help                          Print this text.

    script commands (one a line, # comments):
      key|rel|abs|msc CODE VALUE, ev TYPE CODE VALUE, syn, press CODE [MS], ir CODE [FRAMES],
      touch SLOT X Y, touch SLOT up, swipe DIR [FINGERS], flood N [TYPE CODE], sleep MS, echo TEXT,
      wait PATH, recreate, hold, destroy.
    Errors print `error: ...` on stderr and exit with status 2.
    """

/// Makes the device of `model` through its backend.
func makeDevice(_ model: DeviceModel, name: String) throws -> EventSink {
    switch model.backend {
    case .uinput: return try UinputDevice(model: model, name: name)
    case .uhid(let descriptor): return try UhidDevice(model: model, name: name, descriptor: descriptor)
    }
}

/// Parses `--flag VALUE` options after the positional arguments.
struct Options {
    var positional: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []

    init(_ args: ArraySlice<String>, valued: Set<String>, flags allowed: Set<String>) throws {
        var i = args.startIndex
        while i < args.endIndex {
            let a = args[i]
            if valued.contains(a) {
                guard i + 1 < args.endIndex else { throw ToolError("\(a) needs a value") }
                values[a] = args[i + 1]
                i += 2
            } else if allowed.contains(a) {
                flags.insert(a)
                i += 1
            } else if a.hasPrefix("--") {
                throw ToolError("unknown option \(a)")
            } else {
                positional.append(a)
                i += 1
            }
        }
    }
}

func create(_ args: ArraySlice<String>) throws {
    let opts = try Options(args, valued: ["--name"], flags: [])
    guard opts.positional.count == 1 else { throw ToolError("usage: create MODEL [--name NAME]") }
    let model = try DeviceModels.named(opts.positional[0])
    let name = opts.values["--name"] ?? DeviceModels.namePrefix + model.name
    let player = try ScriptPlayer(model: model) { try makeDevice(model, name: name) }
    emit("node \(player.sink.devnode)")
    var lineNumber = 0
    while let line = readLine() {
        lineNumber += 1
        let outcome: ScriptPlayer.Outcome
        do { outcome = try player.play(line) } catch let error as ToolError {
            player.sink.destroy()
            throw ToolError("script line \(lineNumber) '\(line)': \(error.description)")
        }
        switch outcome {
        case .next: continue
        case .destroy:
            player.sink.destroy()
            return
        case .hold:
            while true { pause() }
        }
    }
    player.sink.destroy()
}

func flood(_ args: ArraySlice<String>) throws {
    let opts = try Options(args, valued: [], flags: [])
    guard opts.positional.count == 2, let count = Int(opts.positional[1]), count > 0 else {
        throw ToolError("usage: flood MODEL COUNT")
    }
    let model = try DeviceModels.named(opts.positional[0])
    let player = try ScriptPlayer(model: model) { try makeDevice(model, name: DeviceModels.namePrefix + model.name) }
    emit("node \(player.sink.devnode)")
    _ = readLine()
    _ = try player.play("flood \(count)")
    emit("flooded \(count)")
    while readLine() != nil {}
    player.sink.destroy()
}

func read(_ args: ArraySlice<String>) throws {
    let opts = try Options(args, valued: ["--count"], flags: ["--grab"])
    guard opts.positional.count == 1 else { throw ToolError("usage: read NODE [--grab] [--count N]") }
    var remaining = Int.max
    if let c = opts.values["--count"] {
        guard let n = Int(c), n > 0 else { throw ToolError("--count takes a positive number") }
        remaining = n
    }
    let node = opts.positional[0]
    let reader = try EvdevReader(path: node, grab: opts.flags.contains("--grab"))
    emit("ready \(node) \(reader.name)")
    func line(_ e: ReadEvent) -> String {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let kernel = "\(e.seconds).\(pad6(e.microseconds))"
        let recv = "\(now.tv_sec).\(pad6(now.tv_nsec / 1000))"
        return "\(EventNames.typeName(e.type)) \(EventNames.codeName(type: e.type, code: e.code)) \(e.value) kernel=\(kernel) recv=\(recv)"
    }
    while remaining > 0 {
        switch try reader.next() {
        case .event(let e):
            emit(line(e))
            if e.type != UInt32(EV_SYN) { remaining -= 1 }
        case .dropped(let e, let resync):
            emit(line(e))
            for r in resync { emit("resync " + line(r)) }
        case .gone:
            emit("gone")
            return
        }
    }
}

func monitor(_ args: ArraySlice<String>) throws {
    guard args.count == 1 || args.count == 2 else { throw ToolError("usage: monitor SOCKET [INTERFACE]") }
    let path = Array(args)[0]
    let interface = args.count == 2 ? Array(args)[1] : "io.focusd.Focus"
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
    }
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard fd >= 0, connected == 0 else { throw ToolError("cannot connect to \(path): errno \(errno)") }
    let call = Array("{\"method\":\"\(interface).Monitor\",\"parameters\":{},\"more\":true}".utf8) + [0]
    guard call.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress, $0.count) }) == call.count else { throw ToolError("cannot write the call") }
    var pending: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if count <= 0 { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        pending += chunk[..<count]
        while let end = pending.firstIndex(of: 0) {
            emit("recv=\(now.tv_sec).\(pad6(now.tv_nsec / 1000)) " + String(decoding: pending[..<end], as: UTF8.self))
            pending.removeSubrange(...end)
        }
    }
}

/// `n` as six digits with leading zeros.
func pad6(_ n: Int) -> String {
    let s = String(n)
    return String(repeating: "0", count: max(0, 6 - s.count)) + s
}

let arguments = CommandLine.arguments
do {
    switch arguments.count > 1 ? arguments[1] : "help" {
    case "list":
        for m in DeviceModels.all { emit("\(m.id)\t\(m.summary)") }
    case "create": try create(arguments.dropFirst(2))
    case "flood": try flood(arguments.dropFirst(2))
    case "read": try read(arguments.dropFirst(2))
    case "monitor": try monitor(arguments.dropFirst(2))
    case "relay": try relay(arguments.dropFirst(2))
    case "help", "--help", "-h": emit(usage)
    case let other: throw ToolError("unknown command '\(other)'\n\(usage)")
    }
} catch let error as ToolError {
    let message = "error: \(error.description)\n"
    _ = message.withCString { Glibc.write(2, $0, strlen($0)) }
    exit(2)
}
