// GamepadBench: reading an SDL_GameControllerDB file (input.md §10) the way the daemon reads it at
// start and on every reload (`GamepadDatabases.load`), beside the floor measured in the same run:
// a bare read of the same file (`readFile`) and one pass over its bytes counting newlines.
//
//   swift build -c release --product GamepadBench && .build/release/GamepadBench [FILE] [--rounds N]
//
// FILE defaults to /etc/focusd/gamecontrollerdb.txt when present, else the committed copy of SDL's
// database (Tests/InputMappingTests/Gamepads/gamecontrollerdb.txt). Prints the medians and the
// goal (the whole real file in ≤ 10 ms); asserts nothing.
import FocusConfig
import FocusService
import FocusWire
import SystemCalls

#if canImport(Glibc)
import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
let rounds = arguments.firstIndex(of: "--rounds").flatMap { Int(arguments[$0 + 1]) } ?? 31
let repositoryRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()
let path: String = {
    if let given = arguments.first(where: { !$0.hasPrefix("--") && Int($0) == nil }) { return given }
    if access(GamepadDatabases.defaultPath, R_OK) == 0 { return GamepadDatabases.defaultPath }
    return repositoryRoot + "/Tests/InputMappingTests/Gamepads/gamecontrollerdb.txt"
}()

func milliseconds() -> Double { Double(Posix.monotonicNanoseconds()) / 1_000_000 }

/// This thread's CPU time (ms): on a machine shared with other work, the wall clock also counts
/// the time the thread waited for a core; both are printed.
func cpuMilliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

func format(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) ms"
}

var bare: [Double] = [], bareCPU: [Double] = []
var loads: [Double] = [], loadsCPU: [Double] = []
var lines = 0
var configuration = Configuration.defaults
for round in 0..<rounds {
    // Alternately, so that both see the same machine.
    var start = milliseconds()
    var startCPU = cpuMilliseconds()
    guard let bytes = try? readFile(path, limit: 64 << 20) else {
        print("GamepadBench: cannot read \(path)")
        exit(1)
    }
    var newlines = 0
    for byte in bytes where byte == 10 { newlines += 1 }
    bare.append(milliseconds() - start)
    bareCPU.append(cpuMilliseconds() - startCPU)
    lines = newlines

    configuration = Configuration.defaults
    configuration.gamepadDatabasePaths = [path]
    start = milliseconds()
    startCPU = cpuMilliseconds()
    GamepadDatabases.load(into: &configuration, environment: "")
    loads.append(milliseconds() - start)
    loadsCPU.append(cpuMilliseconds() - startCPU)
}
// The first round warms caches and the allocator up.
for index in [0] {
    bare.remove(at: index)
    bareCPU.remove(at: index)
    loads.remove(at: index)
    loadsCPU.remove(at: index)
}
let database = configuration.gamepadDatabase
print("GamepadBench: \(path): \(lines) lines, \(database.entries.count) Linux entries, \(database.otherPlatform) for other platforms, \(database.warnings.count) warning(s); median of \(rounds - 1) rounds")
print("                                   wall clock   CPU time")
print("    floor: read + newline scan     \(format(median(bare)).leftPadded(10))  \(format(median(bareCPU)).leftPadded(10))")
print("    GamepadDatabases.load          \(format(median(loads)).leftPadded(10))  \(format(median(loadsCPU)).leftPadded(10))"
    + "  (\(String(Int((median(loads) / median(bare)).rounded())))× the floor)")
// On a machine busy with other work the wall clock also counts the waits for a core: the load
// average says how busy it was.
let loadAverage = (try? readFile("/proc/loadavg", limit: 4096)).map { String(decoding: $0, as: UTF8.self).split(separator: " ").prefix(3).joined(separator: " ") } ?? "?"
print("    goal ≤ 10 ms: CPU time \(median(loadsCPU) <= 10 ? "PASS" : "FAIL"), wall clock \(median(loads) <= 10 ? "PASS" : "FAIL") (load average \(loadAverage) on \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) cores)")

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
