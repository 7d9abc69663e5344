#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The calling process: its id and environment.
extension Posix {
    public static func processID() -> Int32 { getpid() }

    public static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    public static func unsetEnvironment(_ name: String) { unsetenv(name) }
}

/// The calling thread's scheduling priority.
extension Posix {
    /// Sets the nice value of the calling thread only (Linux keeps one per thread, and
    /// `setpriority(PRIO_PROCESS, 0, …)` names the calling thread). Raising it (a lower priority)
    /// is always allowed; lowering it needs `CAP_SYS_NICE` or an `RLIMIT_NICE` that allows it,
    /// which is why focusd gives work of two priorities two threads rather than one thread that
    /// changes its own (docs/worker-priority.md).
    public static func setThreadNice(_ value: Int32) throws(PosixError) {
        try required("setpriority") { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, value) }
    }
}
