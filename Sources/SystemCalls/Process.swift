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
