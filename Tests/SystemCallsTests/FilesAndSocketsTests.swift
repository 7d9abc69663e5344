import Glibc
import SystemCalls
import Testing

@Suite("Whole files, write-all and the clocks")
struct FilesAndSocketsTests {
    /// A fresh file under /tmp holding `bytes`; removed by the caller.
    func temporaryFile(_ bytes: [UInt8]) throws -> String {
        var template = Array("/tmp/systemcalls-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        try #require(fd >= 0)
        defer { close(fd) }
        try Posix.writeAll(fd, bytes)
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test("a whole file is read, and one over the limit fails with EFBIG naming the path")
    func wholeFileAndLimit() throws {
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0) }
        let path = try temporaryFile(bytes)
        defer { unlink(path) }
        #expect(try Posix.readWholeFile(path, limit: 200_000) == bytes)
        #expect(throws: PosixError(call: "read", errno: EFBIG, path: path)) {
            _ = try Posix.readWholeFile(path, limit: 199_999)
        }
    }

    @Test("/proc files are read with read(2) (recv would fail with ENOTSOCK)")
    func procFile() throws {
        let status = try #require(Posix.readTextFile("/proc/self/status"))
        #expect(status.contains("Pid:\t\(getpid())\n"))
    }

    @Test("a missing file is a typed error with its errno, the call and the path")
    func missingFile() {
        let error = #expect(throws: PosixError.self) { _ = try Posix.readWholeFile("/nonexistent/x", limit: 10) }
        #expect(error?.errno == ENOENT)
        #expect(error?.description == "open(/nonexistent/x): No such file or directory (errno 2)")
    }

    @Test("write-all delivers more than a pipe holds, in order, while a reader drains it")
    func writeAllThroughPipe() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var thread = pthread_t()
        let readEnd = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        readEnd.initialize(to: fds[0])
        try #require(pthread_create(&thread, nil, { raw in
            let fd = raw!.assumingMemoryBound(to: Int32.self).pointee
            var received: [UInt8] = []
            while let count = try? Posix.read(fd, into: &received), count > 0 {}
            let box = UnsafeMutablePointer<[UInt8]>.allocate(capacity: 1)
            box.initialize(to: received)
            return UnsafeMutableRawPointer(box)
        }, readEnd) == 0)
        try Posix.writeAll(fds[1], bytes)
        close(fds[1])
        var result: UnsafeMutableRawPointer?
        pthread_join(thread, &result)
        let box = result!.assumingMemoryBound(to: [UInt8].self)
        #expect(box.pointee == bytes)
        box.deinitialize(count: 1)
        box.deallocate()
        readEnd.deallocate()
        close(fds[0])
    }

    @Test("send-all to a closed peer fails with EPIPE instead of raising SIGPIPE")
    func sendAllClosedPeer() throws {
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        close(fds[1])
        defer { close(fds[0]) }
        #expect(throws: PosixError(call: "send", errno: EPIPE)) { try Posix.sendAll(fds[0], [1, 2, 3]) }
    }

    @Test("the monotonic clock in µs and ns agree, and sleeping until a deadline reaches it")
    func clocks() {
        let start = Posix.monotonicNanoseconds()
        Posix.sleep(untilMonotonicNanoseconds: start + 2_000_000)
        let after = Posix.monotonicUsec()
        #expect(after * 1000 >= Int64(start) + 2_000_000)
        #expect(abs(Posix.realtimeUsec() / 1_000_000 - Int64(time(nil))) <= 1)
    }
}

@Suite("A child's exit waited for with a timeout")
struct ReapWithinTests {
    @Test("a child that exits within the timeout is reaped when it exits, not when the timeout ends")
    func exitWakesTheWait() throws {
        let pid = try Posix.spawn(["sh", "-c", "sleep 0.1; exit 3"], mapping: [])
        let start = Posix.monotonicNanoseconds()
        let status = try #require(Posix.reap(pid, withinMilliseconds: 5000))
        let waited = (Posix.monotonicNanoseconds() - start) / 1_000_000
        #expect((status >> 8) & 0xFF == 3)  // WEXITSTATUS
        #expect(waited >= 90 && waited < 2000, "waited \(waited) ms")
    }

    @Test("a child still running when the timeout ends is left running (nil), and is reaped once killed")
    func timeoutLeavesItRunning() throws {
        let pid = try Posix.spawn(["sleep", "30"], mapping: [])
        let start = Posix.monotonicNanoseconds()
        #expect(Posix.reap(pid, withinMilliseconds: 150) == nil)
        #expect((Posix.monotonicNanoseconds() - start) / 1_000_000 >= 140)
        Posix.signalProcess(pid, SIGKILL)
        let status = try #require(Posix.reap(pid, withinMilliseconds: 5000))
        #expect(status & 0x7F == SIGKILL)  // WTERMSIG
    }

    @Test("a child that already exited is reaped at once")
    func alreadyExited() throws {
        let pid = try Posix.spawn(["true"], mapping: [])
        _ = Posix.reap(pid, withinMilliseconds: 5000)
        // Reaped: a second wait finds no such child (-1), at once.
        let start = Posix.monotonicNanoseconds()
        #expect(Posix.reap(pid, withinMilliseconds: 5000) == -1)
        #expect((Posix.monotonicNanoseconds() - start) / 1_000_000 < 1000)
    }
}

@Suite("A pipe grown for large messages")
struct GrowPipeTests {
    @Test("a pipe grown to 1 MiB takes a 900 KB message in one write, which one of 64 KiB cannot")
    func grownPipeTakesTheMessageAtOnce() throws {
        let pipe = try Posix.makePipe()
        defer { Posix.closeDescriptor(pipe.read); Posix.closeDescriptor(pipe.write) }
        _ = fcntl(pipe.write, F_SETFL, O_NONBLOCK)
        let message = [UInt8](repeating: 0x41, count: 900_000)
        func writtenAtOnce() -> Int { message.withUnsafeBytes { write(pipe.write, $0.baseAddress, $0.count) } }
        #expect(writtenAtOnce() < message.count)  // the default size: a part only
        var drain = [UInt8](repeating: 0, count: 1 << 20)
        _ = fcntl(pipe.read, F_SETFL, O_NONBLOCK)
        while read(pipe.read, &drain, drain.count) > 0 {}  // emptied
        let size = try #require(Posix.growPipe(pipe.read, to: 1 << 20))
        #expect(size >= 1 << 20 && fcntl(pipe.read, 1032) == size)  // F_GETPIPE_SZ
        #expect(writtenAtOnce() == message.count)
        // What is there is known before the read, and read at once.
        #expect(Posix.bytesReadable(pipe.read) == message.count)
        #expect(try Posix.readAvailable(pipe.read, capacity: message.count).count == message.count)
        #expect(Posix.bytesReadable(pipe.read) == 0)
        #expect(Posix.bytesReadable(-1) == nil)
    }
}
