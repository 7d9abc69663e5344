// LoopBench: the event loop's half of a key press, as scenario 78 makes it in the guest, on the
// host and repeatable: a real focusd (this process runs `Daemon.run`, demo scene, no devices) with
// two `io.focusd.Focus.Monitor` clients and one `io.focusd.Input.Monitor` client on its real
// Unix socket; this harness's own thread plays the input thread: a USB keyboard is listed, and
// each press and release of KEY_RIGHT / KEY_LEFT (the MSC_SCAN + EV_KEY frame the kernel reports)
// is mapped by `DeviceMappers` as the input thread maps it and handed to the loop through the
// daemon's own `InputLoopBridge.mapped` (the one hop). Each press waits until both Focus monitors
// have its focus event and the Input monitor its command; each release until the Input monitor
// has it (one key at a time, as the scenario's finger).
//
//   swift build -c release --product LoopBench && .build/release/LoopBench [--presses N] [--warmup N] [--dumps none|phases|total] [--log-level L]
//
// Prints the handed → client times (wall clock; noisy on a loaded host). Under callgrind
// (`Benchmarks/LoopBench/callgrind.sh`), `--dumps phases` dumps the counters after the warm-up,
// after each press, after each release and once more right away (an idle phase: what a dump
// itself costs the loop), `--dumps total` after the warm-up and after the last release.
import CCallgrind
@_spi(Benchmarks) import FocusService
import InputDevices
import InputMapping
import Logging
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

enum Dumps: String { case none, phases, total }

struct Settings: Sendable {
    var presses = 1000
    var warmup = 50
    var dumps = Dumps.none
    /// As scenario 78 runs focusd (debug: `InputPathTimes` reads the clock per acting frame).
    var logLevel = Logger.Level.debug
    /// `--input-monitor no`: only the two Focus monitors, as a UI without a test bench runs.
    var inputMonitor = true
}

func parse() -> Settings {
    var settings = Settings()
    var arguments = CommandLine.arguments.dropFirst()
    func usage() -> Never {
        print("usage: LoopBench [--presses N] [--warmup N] [--dumps none|phases|total] [--log-level debug|warning|…] [--input-monitor yes|no]")
        exit(2)
    }
    func valid<T>(_ value: T?) -> T {
        guard let value else { usage() }
        return value
    }
    while let argument = arguments.popFirst() {
        guard let value = arguments.popFirst() else { usage() }
        switch argument {
        case "--presses": settings.presses = valid(Int(value))
        case "--warmup": settings.warmup = valid(Int(value))
        case "--dumps": settings.dumps = valid(Dumps(rawValue: value))
        case "--log-level": settings.logLevel = valid(Logger.Level(rawValue: value))
        case "--input-monitor": settings.inputMonitor = valid(["yes": true, "no": false][value])
        default: usage()
        }
    }
    return settings
}

func clockUsec(_ clock: clockid_t) -> Int64 {
    var now = timespec()
    clock_gettime(clock, &now)
    return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
}

/// A client on focusd's socket: NUL-framed messages, blocking reads.
final class Client {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(path: String) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { fatalError("LoopBench: cannot connect to \(path): errno \(errno)") }
    }

    func send(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.append(0)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { fatalError("LoopBench: short write") }
    }

    /// The next whole message (without its NUL).
    func next() -> [UInt8] {
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let message = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                return message
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { fatalError("LoopBench: focusd closed a monitor (read \(count), errno \(errno))") }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// Reads messages until one contains one of `needles`; fails on an error reply.
    @discardableResult
    func await(_ needles: [String]) -> [UInt8] {
        let patterns = needles.map { Array($0.utf8) }
        while true {
            let message = next()
            if contains(message, Array(#""error":"#.utf8)) {
                fatalError("LoopBench: focusd answered an error: \(String(decoding: message, as: UTF8.self))")
            }
            if patterns.contains(where: { contains(message, $0) }) { return message }
        }
    }

    private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}

/// The input thread's part, played here.
func play(_ bridge: any InputLoopDelegate, loop: any EventLoop, matcher: ProfileMatcher, socketPath: String, settings: Settings) {
    let focusMonitors = [Client(path: socketPath), Client(path: socketPath)]
    let inputMonitor = settings.inputMonitor ? Client(path: socketPath) : nil
    for monitor in focusMonitors {
        monitor.send(#"{"method":"io.focusd.Focus.Monitor","more":true}"#)
        monitor.await([#""state":"#])
    }
    inputMonitor?.send(#"{"method":"io.focusd.Input.Monitor","more":true}"#)
    inputMonitor?.await([#""devices":"#])

    // The test device of scenario 78 (`focusd-testdevice keyboard`): a USB keyboard, shared.
    let identity = DeviceIdentity(
        name: "test-focusd USB keyboard", bus: 3, vendor: 0x046d, product: 0xc31c, version: 1,
        phys: "usb-0000:00:14.0-1/input0", node: "/dev/input/event3",
        capabilities: Capabilities(
            keys: Set((1...88).map(UInt16.init) + [EventCode.KEY_LEFT, EventCode.KEY_RIGHT, EventCode.KEY_UP, EventCode.KEY_DOWN]),
            kernelRepeat: true, misc: [EventCode.MSC_SCAN], leds: [0, 1, 2]),
        group: "/sys/devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1:1.0")
    let id = "input7-event3"
    let deviceSettings = matcher.settings(for: identity)
    let info = DeviceInfo(
        id: id, identity: identity, deviceClass: deviceSettings.deviceClass, profile: deviceSettings.profileName)
    let mappers = DeviceMappers(settings: { identity, siblings in matcher.settings(for: identity, siblings: siblings) })
    bridge.deviceAdded(info)
    for output in mappers.added(info, wallNow: clockUsec(CLOCK_REALTIME)) {
        bridge.mapped(id: output.id, frame: nil, commands: output.commands)
    }
    inputMonitor?.await([#""added":"#])

    func frame(_ code: UInt16, scan: Int32, _ value: Int32) -> Int64 {
        let stamp = clockUsec(CLOCK_REALTIME)
        let events = [
            InputEvent(type: EventCode.EV_MSC, code: EventCode.MSC_SCAN, value: scan, timeUsec: stamp),
            InputEvent(type: EventCode.EV_KEY, code: code, value: value, timeUsec: stamp),
        ]
        guard let commands = mappers.frame(id, events, now: clockUsec(CLOCK_MONOTONIC), wallNow: stamp, context: FocusContext())
        else { fatalError("LoopBench: the keyboard has no mapper") }
        let handed = clockUsec(CLOCK_MONOTONIC)
        bridge.mapped(id: id, frame: events, commands: commands)
        return handed
    }

    /// Callgrind dumps only the thread that asks: the dump runs on the event loop, after what it
    /// was doing (a few hundred instructions of NIO's task, counted in the next phase).
    func dump(_ label: String) {
        let label = label
        try! loop.submit { ccallgrind_dump(label) }.wait()
    }

    var toFirstFocus: [Int64] = [], toLastFocus: [Int64] = [], toRelease: [Int64] = []
    let focusNeedles = [#""kind":"focus""#, #""kind":"blocked""#]
    for i in 0..<(settings.warmup + settings.presses) {
        let measured = i >= settings.warmup
        if i == settings.warmup, settings.dumps != .none { dump("warmup") }
        let (code, scan, command) = i % 2 == 0 ? (EventCode.KEY_RIGHT, Int32(0x7004f), "right") : (EventCode.KEY_LEFT, Int32(0x70050), "left")
        var handed = frame(code, scan: scan, 1)
        focusMonitors[0].await(focusNeedles)
        let first = clockUsec(CLOCK_MONOTONIC)
        focusMonitors[1].await(focusNeedles)
        let last = clockUsec(CLOCK_MONOTONIC)
        inputMonitor?.await([#""command":"\#(command)","phase":"press""#])
        if measured {
            toFirstFocus.append(first - handed)
            toLastFocus.append(last - handed)
            if settings.dumps == .phases { dump("press \(i - settings.warmup)") }
        }
        handed = frame(code, scan: scan, 0)
        // Without an Input monitor nothing shows the release: the dump below still runs after
        // it on the loop, when it was handed over (tasks run in order).
        inputMonitor?.await([#""command":"\#(command)","phase":"release""#])
        if measured {
            if inputMonitor != nil { toRelease.append(clockUsec(CLOCK_MONOTONIC) - handed) }
            if settings.dumps == .phases {
                dump("release \(i - settings.warmup)")
                dump("idle \(i - settings.warmup)")  // the dump's own cost, to subtract
            }
        }
    }
    if settings.dumps == .total { dump("measured") }

    func stats(_ values: [Int64]) -> String {
        let sorted = values.sorted()
        func at(_ p: Double) -> Int64 { sorted[min(sorted.count - 1, Int((p * Double(sorted.count - 1)).rounded()))] }
        return "median \(at(0.5)) us, p99 \(at(0.99)) us"
    }
    if !toFirstFocus.isEmpty {
        print("LoopBench: \(settings.presses) presses and releases (after \(settings.warmup) unmeasured), 2 Focus monitors\(settings.inputMonitor ? " + 1 Input monitor" : "")")
        print("  press handed -> focus event at the first Focus monitor: \(stats(toFirstFocus))")
        print("  press handed -> focus event at the second Focus monitor: \(stats(toLastFocus))")
        if !toRelease.isEmpty { print("  release handed -> command at the Input monitor: \(stats(toRelease))") }
    }
    kill(getpid(), SIGTERM)
}

/// Runs `body` on a thread of its own (the daemon uses no Swift concurrency; neither does this).
func startThread(_ body: @escaping @Sendable () -> Void) {
    final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var thread = pthread_t()
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    let made = pthread_create(&thread, nil, { raw in
        Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
        return nil
    }, box)
    guard made == 0 else { fatalError("LoopBench: pthread_create: \(made)") }
    pthread_detach(thread)
}

let settings = parse()
var template = Array("/tmp/loopbench.XXXXXX".utf8CString)
guard let made = mkdtemp(&template) else { fatalError("LoopBench: mkdtemp: errno \(errno)") }
let directory = String(cString: made)
let socketPath = directory + "/focusd.sock"
let configPath = directory + "/focusd.toml"
close(open(configPath, O_CREAT | O_WRONLY, 0o644))  // empty: the built-in defaults, as the guest runs

LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = settings.logLevel
    return handler
}
let matcher = try RecordingSimulation.matcher(configPath: configPath)
var options = DaemonOptions()
options.socketPath = socketPath
options.configPath = configPath
options.demo = true
options.devices = false
options.logLevel = settings.logLevel
options.inputFeed = { bridge, loop in
    startThread { play(bridge, loop: loop, matcher: matcher, socketPath: socketPath, settings: settings) }
}
try Daemon.run(options)
unlink(configPath)
rmdir(directory)
