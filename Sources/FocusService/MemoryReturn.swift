import CMalloc
import Logging
import NIOCore
import NIOPosix

/// The one place focusd hands freed heap memory back to the system (`malloc_trim`).
///
/// glibc keeps freed pages in its arenas unless asked, so a daemon that once held a big scene or
/// parsed a big message would stay at that peak. Whatever frees a large amount says so here
/// (scenes dropped or shrunk, a large call dispatched, a connection closed); once the total
/// since the last trim reaches ``threshold`` one trim runs ``delay`` later, after the caller has
/// let go of the memory, on the worker thread. Small frees cost nothing, and a burst of frees
/// costs one trim.
final class MemoryReturn {
    /// Bytes freed (estimated) that make a trim worth its cost (a trim of a large heap takes a
    /// few milliseconds).
    static let threshold = 1 << 20
    /// What a scene node costs, roughly (engine slot, node value, index entry, id).
    static let bytesPerNode = 300
    /// How long after the report that crossed ``threshold`` the trim runs (reports in between
    /// join it).
    static let delay = TimeAmount.milliseconds(50)

    let eventLoop: any EventLoop
    /// Where the trim runs (nil: on the loop). Trimming a heap that held a 100,000-node scene
    /// hands back some 200 MB in madvise calls that took 25 ms on a loaded machine: on the loop,
    /// every client and device waited that long.
    let worker: NIOThreadPool?
    /// Told of each trim at debug level (a test waits for it rather than sampling memory).
    let logger: Logger?
    private var freedSinceTrim = 0
    private var scheduled = false
    /// Trims done (for tests and the log).
    private(set) var trims = 0

    init(eventLoop: any EventLoop, worker: NIOThreadPool? = nil, logger: Logger? = nil) {
        self.eventLoop = eventLoop
        self.worker = worker
        self.logger = logger
    }

    /// `bytes` were (or are about to be) freed.
    func freed(bytes: Int) {
        freedSinceTrim += bytes
        guard freedSinceTrim >= Self.threshold, !scheduled else { return }
        scheduled = true
        // A little later, not on the next turn: what was reported is not always free yet (a
        // closed connection's channel and buffers go a few loop turns after it reports), and a
        // trim that ran first found 1,000 closed connections' 3.7 MiB still in use and left it.
        eventLoop.assumeIsolated().scheduleTask(in: Self.delay) {
            self.scheduled = false
            self.freedSinceTrim = 0
            self.trims += 1
            let trim = self.trims
            let logger = self.logger
            let run: @Sendable () -> Void = {
                _ = cmalloc_trim()
                logger?.debug("memory handed back to the system (trim \(trim))")
            }
            // After whatever the worker was given to free before (it runs its work in order).
            if let worker = self.worker {
                worker.submit { _ in run() }
            } else {
                run()
            }
        }
    }

    /// A message of `bytes` was parsed and dispatched: its JSON tree and what was decoded from it
    /// took several times its size.
    func freed(messageBytes bytes: Int) {
        freed(bytes: bytes * 4)
    }

    func freed(nodes: Int) {
        freed(bytes: nodes * Self.bytesPerNode)
    }
}
