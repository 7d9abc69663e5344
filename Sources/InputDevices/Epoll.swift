// epoll, timerfd and eventfd: the calls the input loop sleeps in.
//
// Swift's Glibc module does not export <sys/epoll.h>, <sys/timerfd.h> or <sys/eventfd.h>; the
// CInputLinux target wraps them (static inline C over libc). This file is the only one that
// calls them.
import CInputLinux
import Glibc
import SystemCalls

/// The Linux readiness calls the input loop uses.
enum Epoll {
    /// Readiness bits (`EPOLLIN`, `EPOLLERR`, `EPOLLHUP`).
    static let readable: UInt32 = cinput_epoll_in
    static let error: UInt32 = cinput_epoll_err
    static let hangUp: UInt32 = cinput_epoll_hup

    /// A new epoll instance.
    static func create() throws(PosixError) -> FileDescriptor {
        FileDescriptor(try Posix.required("epoll_create1") { cinput_epoll_create() })
    }

    /// Watches `fd` for readability; the event carries `token` back.
    static func add(_ epoll: FileDescriptor, fd: Int32, token: UInt64) throws(PosixError) {
        _ = try Posix.required("epoll_ctl(ADD, \(fd))") { cinput_epoll_add(epoll.raw, fd, token) }
    }

    /// Stops watching `fd` (before it is closed).
    static func remove(_ epoll: FileDescriptor, fd: Int32) {
        _ = cinput_epoll_remove(epoll.raw, fd)
    }

    /// One readiness report: the token given to `add` and the ready bits.
    struct Ready: Equatable {
        var token: UInt64
        var events: UInt32
    }

    /// Sleeps until a watched descriptor is ready (`timeoutMs` -1: no timeout), and returns what
    /// `transform` makes of each readiness report (nil: dropped), in one array built once.
    static func wait<Element>(
        _ epoll: FileDescriptor, maxEvents: Int = 32, timeoutMs: Int32 = -1, _ transform: (Ready) -> Element?
    ) throws(PosixError) -> [Element] {
        let max = min(maxEvents, Int(CINPUT_EPOLL_MAX_EVENTS))
        // The buffers live on the stack: every wake-up of the input thread passes here.
        let ready: Result<[Element], PosixError> = withUnsafeTemporaryAllocation(of: UInt64.self, capacity: max) { t in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: max) { e in
                let count: Int32
                do throws(PosixError) {
                    count = try Posix.syscall("epoll_wait") {
                        cinput_epoll_wait(epoll.raw, t.baseAddress, e.baseAddress, Int32(max), timeoutMs)
                    }.value ?? 0
                } catch {
                    return .failure(error)
                }
                var ready: [Element] = []
                ready.reserveCapacity(Int(count))
                for index in 0..<Int(count) {
                    if let element = transform(Ready(token: t[index], events: e[index])) { ready.append(element) }
                }
                return .success(ready)
            }
        }
        return try ready.get()
    }

    // MARK: timerfd

    /// A non-blocking CLOCK_MONOTONIC timer descriptor, disarmed.
    static func timer() throws(PosixError) -> FileDescriptor {
        FileDescriptor(try Posix.required("timerfd_create") { cinput_timerfd_create() })
    }

    /// Arms `timer` to fire once at the monotonic time `deadlineUsec`, or disarms it (nil).
    static func arm(_ timer: FileDescriptor, atMonotonicUsec deadlineUsec: Int64?) throws(PosixError) {
        // A deadline at or before 0 is already due: 1 µs (0 would disarm).
        let at = deadlineUsec.map { max($0, 1) } ?? 0
        _ = try Posix.required("timerfd_settime") { cinput_timerfd_arm(timer.raw, at) }
    }

    /// Reads the expiration count so the timer stops being readable.
    /// Nothing to report on failure: an empty counter (EAGAIN) is the only expected error.
    static func drainCounter(raw fd: Int32) {
        var counter: UInt64 = 0
        _ = try? Posix.syscall("read(counter)") { Glibc.read(fd, &counter, 8) }
    }

    // MARK: eventfd

    /// A non-blocking eventfd for waking the loop from other threads.
    static func eventCounter() throws(PosixError) -> FileDescriptor {
        FileDescriptor(try Posix.required("eventfd") { cinput_eventfd_create() })
    }

    /// Adds one to an eventfd (safe from any thread; the loop drains it).
    static func signal(rawEventFD fd: Int32) {
        var one: UInt64 = 1
        _ = try? Posix.syscall("write(eventfd)") { Glibc.write(fd, &one, 8) }
    }
}
