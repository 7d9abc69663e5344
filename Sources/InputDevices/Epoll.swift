// epoll, timerfd and eventfd: the calls the input loop sleeps in.
//
// Swift's Glibc module does not export <sys/epoll.h>, <sys/timerfd.h> or <sys/eventfd.h>, and this
// module has no C shim of its own, so the three headers' functions are resolved once with dlsym and
// called through `@convention(c)` types; their flags are the kernel ABI's fixed numbers. This file
// is the only one that knows.
import Glibc

/// The Linux readiness calls the input loop uses.
enum Epoll {
    /// Readiness bits (`EPOLLIN`, `EPOLLERR`, `EPOLLHUP`).
    static let readable: UInt32 = 0x001
    static let error: UInt32 = 0x008
    static let hangUp: UInt32 = 0x010

    private static let cloexec: Int32 = 0o2000000
    private static let nonblock: Int32 = 0o4000
    private static let ctlAdd: Int32 = 1
    private static let ctlDel: Int32 = 2

    #if arch(x86_64)
    /// `struct epoll_event` is packed on x86-64: 4 bytes of events, 8 of data.
    private static let eventSize = 12
    private static let dataOffset = 4
    #else
    private static let eventSize = 16
    private static let dataOffset = 8
    #endif

    private typealias CreateFn = @convention(c) (Int32) -> Int32
    private typealias CtlFn = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    private typealias WaitFn = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32
    private typealias TimerCreateFn = @convention(c) (Int32, Int32) -> Int32
    private typealias TimerSetFn = @convention(c) (Int32, Int32, UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32
    private typealias EventfdFn = @convention(c) (UInt32, Int32) -> Int32

    private struct Symbols: @unchecked Sendable {
        let create: CreateFn
        let ctl: CtlFn
        let wait: WaitFn
        let timerCreate: TimerCreateFn
        let timerSet: TimerSetFn
        let eventfd: EventfdFn
    }

    private static let symbols: Symbols = {
        let handle = dlopen(nil, RTLD_NOW)
        func resolve<F>(_ name: String, as _: F.Type) -> F {
            guard let pointer = dlsym(handle, name) else {
                fatalError("libc lacks \(name), which every Linux glibc has")
            }
            return unsafeBitCast(pointer, to: F.self)
        }
        return Symbols(
            create: resolve("epoll_create1", as: CreateFn.self),
            ctl: resolve("epoll_ctl", as: CtlFn.self),
            wait: resolve("epoll_wait", as: WaitFn.self),
            timerCreate: resolve("timerfd_create", as: TimerCreateFn.self),
            timerSet: resolve("timerfd_settime", as: TimerSetFn.self),
            eventfd: resolve("eventfd", as: EventfdFn.self)
        )
    }()

    /// A new epoll instance.
    static func create() throws(PosixError) -> FileDescriptor {
        FileDescriptor(try Posix.required("epoll_create1") { symbols.create(cloexec) })
    }

    /// Watches `fd` for readability; the event carries `token` back.
    static func add(_ epoll: FileDescriptor, fd: Int32, token: UInt64) throws(PosixError) {
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: eventSize, alignment: 8)
        defer { raw.deallocate() }
        raw.initializeMemory(as: UInt8.self, repeating: 0)
        raw.storeBytes(of: readable, toByteOffset: 0, as: UInt32.self)
        raw.storeBytes(of: token, toByteOffset: dataOffset, as: UInt64.self)
        _ = try Posix.required("epoll_ctl(ADD, \(fd))") { symbols.ctl(epoll.raw, ctlAdd, fd, raw.baseAddress) }
    }

    /// Stops watching `fd` (before it is closed).
    static func remove(_ epoll: FileDescriptor, fd: Int32) {
        var event = [UInt8](repeating: 0, count: eventSize)
        _ = event.withUnsafeMutableBytes { raw in symbols.ctl(epoll.raw, ctlDel, fd, raw.baseAddress) }
    }

    /// One readiness report: the token given to `add` and the ready bits.
    struct Ready: Equatable {
        var token: UInt64
        var events: UInt32
    }

    /// Sleeps until a watched descriptor is ready (`timeoutMs` -1: no timeout).
    static func wait(_ epoll: FileDescriptor, maxEvents: Int = 32, timeoutMs: Int32 = -1) throws(PosixError) -> [Ready] {
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: eventSize * maxEvents, alignment: 8)
        defer { raw.deallocate() }
        let count = try Posix.syscall("epoll_wait") {
            symbols.wait(epoll.raw, raw.baseAddress, Int32(maxEvents), timeoutMs)
        }.value ?? 0
        return (0..<Int(count)).map { i in
            Ready(
                token: raw.loadUnaligned(fromByteOffset: i * eventSize + dataOffset, as: UInt64.self),
                events: raw.loadUnaligned(fromByteOffset: i * eventSize, as: UInt32.self)
            )
        }
    }

    // MARK: timerfd

    /// A non-blocking CLOCK_MONOTONIC timer descriptor, disarmed.
    static func timer() throws(PosixError) -> FileDescriptor {
        FileDescriptor(try Posix.required("timerfd_create") { symbols.timerCreate(CLOCK_MONOTONIC, cloexec | nonblock) })
    }

    /// Arms `timer` to fire once at the monotonic time `deadlineUsec`, or disarms it (nil).
    static func arm(_ timer: FileDescriptor, atMonotonicUsec deadlineUsec: Int64?) throws(PosixError) {
        // struct itimerspec { timespec it_interval; timespec it_value; }, absolute time.
        var spec: (Int, Int, Int, Int) = (0, 0, 0, 0)
        if let deadlineUsec {
            let d = max(deadlineUsec, 1)
            spec.2 = Int(d / 1_000_000)
            spec.3 = Int(d % 1_000_000) * 1000
        }
        let absolute: Int32 = 1
        _ = try withUnsafePointer(to: &spec) { (pointer) throws(PosixError) in
            try Posix.required("timerfd_settime") { symbols.timerSet(timer.raw, absolute, pointer, nil) }
        }
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
        FileDescriptor(try Posix.required("eventfd") { symbols.eventfd(0, cloexec | nonblock) })
    }

    /// Adds one to an eventfd (safe from any thread; the loop drains it).
    static func signal(rawEventFD fd: Int32) {
        var one: UInt64 = 1
        _ = try? Posix.syscall("write(eventfd)") { Glibc.write(fd, &one, 8) }
    }
}
