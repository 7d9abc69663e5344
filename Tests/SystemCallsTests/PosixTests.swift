import Glibc
import SystemCalls
import Testing

@Suite("The errno helper")
struct PosixTests {
    @Test("EINTR is retried until the call completes")
    func retriesInterrupted() throws {
        var attempts = 0
        let result = try Posix.outcome("fake") { () -> (Int, errno: Int32?) in
            attempts += 1
            return attempts < 3 ? (-1, EINTR) : (42, nil)
        }
        #expect(result.value == 42)
        #expect(attempts == 3)
    }

    @Test("EAGAIN is reported as would-block, not as an error")
    func eagainWouldBlock() throws {
        let result = try Posix.outcome("fake") { (-1, EAGAIN) }
        #expect(result.value == nil)
    }

    @Test("other errors are typed errors carrying errno and the call name")
    func typedError() {
        #expect(throws: PosixError(call: "open(/nonexistent/x)", errno: ENOENT)) {
            _ = try Posix.openReadOnly("/nonexistent/x")
        }
    }

    @Test("negative return codes of libevdev style carry -errno")
    func negatedErrno() throws {
        #expect(throws: PosixError(call: "lib", errno: ENODEV)) { _ = try Posix.negatedErrno("lib") { -ENODEV } }
        #expect(try Posix.negatedErrno("lib") { -EAGAIN }.value == nil)
        #expect(try Posix.negatedErrno("lib") { 1 }.value == 1)
    }

    @Test("a read interrupted by a real signal is retried and completes")
    func realSignalInterruptsRead() throws {
        // A pipe read blocks; SIGALRM (with a handler, no SA_RESTART) interrupts it with EINTR;
        // the helper retries; a writer thread then makes it complete.
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let reader = FileDescriptor(fds[0])
        let writeEnd = fds[1]
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        action.sa_flags = 0
        sigemptyset(&action.sa_mask)
        var old = sigaction()
        sigaction(SIGALRM, &action, &old)
        defer { sigaction(SIGALRM, &old, nil) }
        let target = pthread_self()
        var thread = pthread_t()
        let context = UnsafeMutablePointer<(pthread_t, Int32)>.allocate(capacity: 1)
        context.initialize(to: (target, writeEnd))
        pthread_create(&thread, nil, { raw in
            let c = raw!.assumingMemoryBound(to: (pthread_t, Int32).self).pointee
            usleep(50_000)
            pthread_kill(c.0, SIGALRM)
            usleep(50_000)
            var byte: UInt8 = 7
            _ = write(c.1, &byte, 1)
            return nil
        }, context)
        var byte: UInt8 = 0
        let result = try withUnsafeMutableBytes(of: &byte) { try Posix.read(reader, into: $0) }
        pthread_join(thread, nil)
        context.deallocate()
        close(writeEnd)
        #expect(result.value == 1)
        #expect(byte == 7)
    }

    @Test("a file descriptor is closed exactly once: a second close leaves a descriptor opened since alone")
    func closesOnce() {
        let fd = FileDescriptor(open("/dev/null", O_RDONLY))
        fd.close()
        // The lowest free number: usually the one just closed, which a second close must not touch.
        let later = open("/dev/null", O_RDONLY)
        defer { close(later) }
        fd.close()
        #expect(!fd.isOpen)
        #expect(fcntl(later, F_GETFD) != -1)
    }

    @Test("a pointer-returning call: the pointer, or its errno named by the call, ENOMEM when it set none, never a stale errno")
    func pointerCalls() throws {
        let value = try Posix.pointer("fine") { UnsafeMutableRawPointer(bitPattern: 0x1000) }
        #expect(value == UnsafeMutableRawPointer(bitPattern: 0x1000))
        #expect(throws: PosixError(call: "fails", errno: EACCES)) {
            try Posix.pointer("fails") { () -> UnsafeMutableRawPointer? in
                errno = EACCES
                return nil
            }
        }
        errno = EBADF  // left over from an earlier call: not this one's
        #expect(throws: PosixError(call: "silent", errno: ENOMEM)) {
            try Posix.pointer("silent") { () -> UnsafeMutableRawPointer? in nil }
        }
    }
}
