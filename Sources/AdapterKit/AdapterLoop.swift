import SystemCalls

#if canImport(Glibc)
import Glibc
#endif

/// The adapter's one thread: a `poll(2)` loop over a few descriptors (focusd's connections, the
/// toolkit's connection, an inotify watch) and deadlines. It sleeps in the kernel until a
/// descriptor is ready or the earliest deadline is due, so an idle adapter makes no wake-ups.
///
/// Not thread-safe: everything runs on the thread that calls ``run()``. Work that must not run
/// inside the current handler (a reconnect after a close) goes through ``post(_:)``.
public final class AdapterLoop {
    /// Names a watch or a timer, to remove it.
    public struct Token: Hashable, Sendable { let raw: Int }

    private struct Watch {
        var fd: Int32
        var wantsWrite: (() -> Bool)?
        var handler: (_ closed: Bool) -> Void
    }

    private var watches: [Int: Watch] = [:]
    private var timers: [Int: (deadline: UInt64, handler: () -> Void)] = [:]
    private var posted: [() -> Void] = []
    private var nextToken = 1
    private var stopped = false
    private var signalPipe: (read: Int32, write: Int32)?

    public init() {
        Posix.ignoreBrokenPipe()
    }

    /// Calls `handler` each time `fd` is readable (or hung up: `closed` is true; a read then
    /// reports end of stream or the error), and, while `wantsWrite` (asked before each sleep)
    /// answers true, each time it is writable: a connection whose output is queued behind a full
    /// socket buffer is woken to write it instead of waiting for the next incoming message.
    /// The watch stays until ``remove(_:)``.
    @discardableResult
    public func watch(_ fd: Int32, wantsWrite: (() -> Bool)? = nil, _ handler: @escaping (_ closed: Bool) -> Void) -> Token {
        let token = Token(raw: nextToken)
        nextToken += 1
        watches[token.raw] = Watch(fd: fd, wantsWrite: wantsWrite, handler: handler)
        return token
    }

    /// Calls `handler` once, `delay` from now.
    @discardableResult
    public func schedule(after delay: Duration, _ handler: @escaping () -> Void) -> Token {
        let token = Token(raw: nextToken)
        nextToken += 1
        let nanoseconds = UInt64(max(0, delay.components.seconds)) * 1_000_000_000 + UInt64(max(0, delay.components.attoseconds / 1_000_000_000))
        timers[token.raw] = (Posix.monotonicNanoseconds() + nanoseconds, handler)
        return token
    }

    /// Removes a watch or a timer (a token already gone is ignored).
    public func remove(_ token: Token?) {
        guard let token else { return }
        watches[token.raw] = nil
        timers[token.raw] = nil
    }

    /// Runs `work` after the current handler returns, before the loop sleeps again.
    public func post(_ work: @escaping () -> Void) {
        posted.append(work)
    }

    /// Makes ``run()`` return after the current handler.
    public func stop() {
        stopped = true
    }

    /// Stops the loop when one of `signals` arrives, after calling `handler` with it: a helper
    /// thread waits for them (blocked in every thread from here on, so call this before starting
    /// any other thread) and wakes the loop through a pipe.
    public func stopOnSignals(_ signals: [Int32], _ handler: @escaping (Int32) -> Void) throws(PosixError) {
        let set = SignalSet.block(signals)
        let pipe = try Posix.makePipe()
        signalPipe = pipe
        let writeEnd = pipe.write
        let thread = SignalThread(set: set, fd: writeEnd)
        thread.start()
        watch(pipe.read) { [unowned self] _ in
            let bytes = (try? Posix.readAvailable(pipe.read)) ?? []
            for byte in bytes { handler(Int32(byte)) }
            self.stop()
        }
    }

    /// Runs handlers as descriptors become ready and deadlines pass, until ``stop()``.
    public func run() {
        stopped = false
        while !stopped {
            runPosted()
            if stopped { break }
            let now = Posix.monotonicNanoseconds()
            let due = timers.filter { $0.value.deadline <= now }.sorted { $0.value.deadline < $1.value.deadline }
            if !due.isEmpty {
                for (key, timer) in due where timers[key] != nil {
                    timers[key] = nil
                    timer.handler()
                }
                continue
            }
            var timeout: Int32 = -1
            if let earliest = timers.values.map(\.deadline).min() {
                timeout = Int32(clamping: (earliest - now + 999_999) / 1_000_000)
            }
            var interest: [Int32: Bool] = [:]
            for watch in watches.values { interest[watch.fd, default: false] = interest[watch.fd, default: false] || (watch.wantsWrite?() ?? false) }
            let ready: [PollReadiness]
            do {
                ready = try Posix.pollReady(interest.map { ($0.key, $0.value) }, timeoutMilliseconds: timeout)
            } catch {
                AdapterLog.error("the adapter's loop cannot wait: \(error)")
                return
            }
            for readiness in ready {
                // A handler may remove others; each is looked up again before it runs.
                for key in watches.keys.sorted() where watches[key]?.fd == readiness.fd {
                    watches[key]?.handler(readiness.closed && !readiness.readable)
                }
                runPosted()
            }
        }
    }

    private func runPosted() {
        while !posted.isEmpty {
            let work = posted
            posted.removeAll()
            for item in work { item() }
        }
    }
}

/// Waits for blocked signals on its own thread and writes each one's number to a pipe.
private final class SignalThread: @unchecked Sendable {
    let set: SignalSet
    let fd: Int32

    init(set: SignalSet, fd: Int32) {
        self.set = set
        self.fd = fd
    }

    func start() {
        var thread = pthread_t()
        let box = Unmanaged.passRetained(self)
        pthread_create(&thread, nil, { argument in
            let me = Unmanaged<SignalThread>.fromOpaque(argument!).takeRetainedValue()
            while true {
                let signal = me.set.wait()
                try? Posix.writeAll(me.fd, [UInt8(truncatingIfNeeded: signal)])
            }
        }, box.toOpaque())
        pthread_detach(thread)
    }
}

/// The adapter's messages on standard error, one line each (the systemd journal takes them).
public enum AdapterLog {
    /// Whether ``debug(_:)`` lines are written (`--verbose`).
    nonisolated(unsafe) public static var verbose = false

    public static func error(_ text: String) { write("error: \(text)") }
    public static func warning(_ text: String) { write("warning: \(text)") }
    public static func info(_ text: String) { write(text) }
    public static func debug(_ text: @autoclosure () -> String) { if verbose { write("debug: \(text())") } }

    private static func write(_ line: String) {
        try? Posix.writeAll(2, Array("focusd-adapter: \(line)\n".utf8))
    }
}
