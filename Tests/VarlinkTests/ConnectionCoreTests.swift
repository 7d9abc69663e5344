import NIOCore
import Testing

@testable import Varlink

/// The connection's decisions without a socket: bytes and outcomes in, actions out, time virtual.
@Suite("The connection core on a virtual clock")
struct ConnectionCoreTests {
    static let ms: UInt64 = 1_000_000
    static let second: UInt64 = 1_000_000_000

    /// One message's bytes with its NUL.
    static func bytes(_ text: String) -> ByteBuffer {
        var buffer = ByteBuffer(string: text)
        buffer.writeInteger(UInt8(0))
        return buffer
    }

    static func call(_ name: String, size: Int = 0) -> String {
        let padding = size > 0 ? String(repeating: "x", count: size) : ""
        return #"{"method":"org.example.test.\#(name)","parameters":{"pad":"\#(padding)"}}"#
    }

    /// Takes and parses what the core lets through, as the handler does; returns the methods
    /// parsed here and the sizes of the messages it sent off the loop.
    static func parseAll(_ core: inout ConnectionCore) throws -> (here: [String], offLoop: [Int]) {
        var here: [String] = []
        var offLoop: [Int] = []
        while let parse = try core.nextMessage() {
            switch parse {
            case .here(let framed):
                let message = framed.joined()
                let call = try VarlinkCall(message: message.readableBytesView)
                here.append(call.memberName)
                core.parsed(call, size: message.readableBytes)
            case .offLoop(let framed):
                offLoop.append(framed.size)
            }
        }
        return (here, offLoop)
    }

    static func accepted(_ limits: ConnectionCore.Limits = .init()) -> ConnectionCore {
        var core = ConnectionCore(limits: limits)
        core.accept()
        return core
    }

    /// Queues one message of `size` bytes outside any read or batch (written at once).
    static func queue(_ core: inout ConnectionCore, size: Int, now: UInt64 = 0) -> (OutgoingQueue.Queued, Bool) {
        #expect(core.queue.admit(size: size) == .admitted)
        core.queue.gather(shared: ByteBuffer(repeating: 0x61, count: size))
        return core.queue.queued(size: size, inRead: false, batching: false, now: now)
    }

    /// Queues one message and hands it to a socket that takes only part of it: the write is in
    /// flight. Returns whether the stall watch started.
    @discardableResult
    static func inFlight(_ core: inout ConnectionCore, size: Int, now: UInt64 = 0) -> Bool {
        let (_, watch) = queue(&core, size: size, now: now)
        _ = core.queue.takeWrite(flush: true)
        core.queue.writeTracked()
        return watch
    }

    @Test("bytes are framed at each NUL, a partial message waits for the rest, and nothing is parsed before acceptance")
    func framing() throws {
        var core = ConnectionCore(limits: .init())
        var chunk = Self.bytes(Self.call("A"))
        chunk.writeString(#"{"method":"org.exa"#)
        core.bytesRead(chunk)
        let step1 = try core.nextMessage()
        #expect(step1 == nil)
        let step2 = core.shouldRead()
        #expect(!step2)  // not accepted yet: reads are held
        core.accept()
        let step3 = try Self.parseAll(&core)
        #expect(step3.here == ["A"])
        core.bytesRead(Self.bytes(#"mple.test.B","parameters":{}}"#))
        let step4 = try Self.parseAll(&core)
        #expect(step4.here == ["B"])
        #expect(core.framer.pendingBytes == 0)
        let step5 = core.shouldRead()
        #expect(step5)
    }

    @Test("a message past the size cap is a protocol violation")
    func oversizedMessage() {
        var core = Self.accepted(.init(maxMessageSize: 64))
        core.bytesRead(Self.bytes(Self.call("A", size: 100)))
        #expect(throws: VarlinkProtocolError.self) { try core.nextMessage() }
    }

    @Test("a large message is parsed off the loop and later input waits for it")
    func parseOffLoop() throws {
        var core = Self.accepted(.init(parseOffLoopThreshold: 1000))
        var chunk = Self.bytes(Self.call("Big", size: 2000))
        chunk.writeImmutableBuffer(Self.bytes(Self.call("Small")))
        core.bytesRead(chunk)
        let first = try Self.parseAll(&core)
        #expect(first.here.isEmpty && first.offLoop.count == 1)
        let step6 = core.shouldRead()
        #expect(core.parsing && !step6)
        // The call comes back from the parser thread: it runs before the small one behind it.
        core.parsed(VarlinkCall(method: "org.example.test.Big"), size: first.offLoop[0])
        #expect(!core.parsing)
        let step7 = try Self.parseAll(&core)
        #expect(step7.here == ["Small"])
        #expect(core.isParsedOffLoop(size: first.offLoop[0]))
        let step8 = core.nextCall()
        #expect(step8?.call.memberName == "Big")
        let step9 = core.nextCall()
        #expect(step9 == nil)  // the next waits for the answer
        core.callCompleted()
        let step10 = core.nextCall()
        #expect(step10?.call.memberName == "Small")
    }

    @Test("calls are dispatched one at a time, in order")
    func dispatchInOrder() throws {
        var core = Self.accepted()
        var chunk = ByteBuffer()
        for name in ["A", "B", "C"] { chunk.writeImmutableBuffer(Self.bytes(Self.call(name))) }
        core.bytesRead(chunk)
        _ = try Self.parseAll(&core)
        var order: [String] = []
        while let next = core.nextCall() {
            order.append(next.call.memberName)
            let step11 = core.nextCall()
            #expect(step11 == nil)
            core.callCompleted()
        }
        #expect(order == ["A", "B", "C"])
        #expect(core.pendingCallBytes == 0)
    }

    @Test("a pipelining client gets 1 ms of loop time per turn, then steps aside until the pause ends")
    func fairnessTurns() throws {
        var core = Self.accepted()
        var chunk = ByteBuffer()
        for _ in 0..<10 { chunk.writeImmutableBuffer(Self.bytes(Self.call("Move"))) }
        core.bytesRead(chunk)
        _ = try Self.parseAll(&core)
        var now: UInt64 = 5 * Self.second
        var answered = 0
        while let _ = core.nextCall() {
            core.callCompleted()
            answered += 1
            now += Self.ms / 4  // each call takes 250 µs of loop time
            if !core.dispatched(now: now) { break }
        }
        #expect(answered == 5)  // the first starts the turn at its end; four more fit in 1 ms
        let turn = core.turnIsOver(now: now)
        #expect(turn.over && turn.schedule)
        let again = core.turnIsOver(now: now)
        #expect(again.over && !again.schedule)  // asked once
        core.turnResumed()
        let step12 = core.turnIsOver(now: now + 50_000)
        #expect(!step12.over)
        let step13 = core.settle()
        #expect(step13 == .init())
    }

    @Test("over the queue bound, calls are not parsed but up to 1 MiB is still read ahead; reads resume as it drains")
    func backpressureAndReadAhead() throws {
        var core = Self.accepted(.init(outgoingQueueLimit: 1000))
        // A reply larger than the bound is in flight: the client is not reading.
        let step14 = Self.queue(&core, size: 1500)
        #expect(step14.0 == .writeNow)
        let write = core.queue.takeWrite(flush: true)
        #expect(write.write?.untracked == true)
        core.queue.writeTracked()  // the socket took part of it
        #expect(core.queue.isOverLimit)
        // Calls keep arriving: read, not parsed, until 1 MiB waits unparsed.
        let one = Self.bytes(Self.call("Move", size: 1000))
        var read = 0
        while core.shouldRead() {
            core.bytesRead(one)
            read += one.readableBytes
            let step15 = try core.nextMessage()
            #expect(step15 == nil)
            let step16 = core.settle()
            #expect(step16.resumeReading == false)
        }
        #expect(read >= ConnectionCore.unparsedInputLimit && read < ConnectionCore.unparsedInputLimit + one.readableBytes)
        #expect(core.readHeld)
        // The socket takes the reply: parsing and reads resume.
        let written = core.queue.written(size: 1500, messages: 1, succeeded: true, tracked: true, now: 0)
        #expect(written.catchUp)
        #expect(core.afterWrite() == .pump)
        let step17 = try Self.parseAll(&core)
        #expect(step17.here.count == ConnectionCore.pendingCallCountLimit)
        let step18 = core.settle()
        #expect(step18.resumeReading == false)  // 128 parsed calls wait: still held
        while let _ = core.nextCall() { core.callCompleted() }
        _ = try Self.parseAll(&core)
        while let _ = core.nextCall() { core.callCompleted() }
        let step19 = core.settle()
        #expect(step19.resumeReading)
    }

    @Test("messages queued during a read or a batch are gathered into one write at its end")
    func gatheringInReadAndBatch() {
        var core = Self.accepted()
        for _ in 0..<3 {
            core.queue.gather(shared: ByteBuffer(repeating: 1, count: 10))
            let step20 = core.queue.queued(size: 10, inRead: true, batching: false, now: 0)
            #expect(step20.0 == .held)
        }
        let step21 = core.queue.flushDue()
        #expect(step21)
        let step22 = core.queue.flushDue()
        #expect(!step22)
        let write = core.queue.takeWrite(flush: true)
        #expect(write.write?.size == 30 && write.write?.messages == 3 && write.flush)
        core.queue.gather(shared: ByteBuffer(repeating: 1, count: 10))
        let step23 = core.queue.queued(size: 10, inRead: false, batching: true, now: 0)
        #expect(step23.0 == .flushAfterBatch)
        core.queue.gather(shared: ByteBuffer(repeating: 1, count: 10))
        let step24 = core.queue.queued(size: 10, inRead: false, batching: true, now: 0)
        #expect(step24.0 == .held)  // registered once
        #expect(core.queue.writes == 1)
    }

    @Test("while a write is in flight, messages gather and go as one write when it completes, or at 64 KiB")
    func gatheringBehindAWriteInFlight() {
        var core = Self.accepted(.init(outgoingQueueLimit: 1 << 20))
        Self.inFlight(&core, size: 100)
        for _ in 0..<10 {
            let step25 = Self.queue(&core, size: 100)
            #expect(step25.0 == .writeNow)
            let step = core.queue.takeWrite(flush: true)
            #expect(step.write == nil && !step.flush)
        }
        let written = core.queue.written(size: 100, messages: 1, succeeded: true, tracked: true, now: 0)
        #expect(written.writeGathered)
        let next = core.queue.takeWrite(flush: true)
        #expect(next.write?.messages == 10 && next.write?.size == 1000)
        core.queue.writeTracked()
        _ = Self.queue(&core, size: OutgoingQueue.gatheredWriteLimit)
        let step26 = core.queue.takeWrite(flush: true)
        #expect(step26.write?.untracked == false)  // big enough to go now
    }

    @Test("a WebSocket writes each message on its own")
    func webSocketWritesEachMessage() {
        var core = Self.accepted(.init(gathers: false))
        core.queue.gather(shared: ByteBuffer(repeating: 1, count: 10))
        _ = core.queue.queued(size: 10, inRead: true, batching: false, now: 0)
        #expect(core.queue.mustWriteBeforeGathering)
        let first = core.queue.takeWrite(flush: false)
        #expect(first.write?.messages == 1 && first.write?.untracked == false)
    }

    @Test("a monitor stream behind may send again once the queue drains to half its bound")
    func coalescedStreamCatchesUp() {
        var core = Self.accepted(.init(outgoingQueueLimit: 1000))
        Self.inFlight(&core, size: 800)
        _ = Self.queue(&core, size: 400)  // over the bound: coalescible events are skipped
        #expect(core.queue.isOverLimit && !core.queue.hasRoomForBehindStreams)
        let first = core.queue.written(size: 800, messages: 1, succeeded: true, tracked: true, now: 0)
        #expect(first.catchUp)  // 400 left, at most half of 1000
    }

    @Test("a client over the bound with no write progress for 10 s is cut off; progress restarts the wait")
    func stallCutOff() {
        var core = Self.accepted(.init(outgoingQueueLimit: 1000))
        var now: UInt64 = 100 * Self.second
        let watch = Self.inFlight(&core, size: 2000, now: now)
        #expect(watch)
        #expect(core.queue.stallCheckInterval == 2 * Self.second)
        // 6 s in, the socket took a part (the transport holds less): progress.
        now += 6 * Self.second
        let step27 = core.queue.stallCheck(now: now, buffered: 1500)
        #expect(step27 == .watching)
        for _ in 0..<4 {
            now += 2 * Self.second
            let step28 = core.queue.stallCheck(now: now, buffered: 1500)
            #expect(step28 == .watching)
        }
        now += 2 * Self.second  // 10 s since the last progress
        let step29 = core.queue.stallCheck(now: now, buffered: 1500)
        #expect(step29 == .cutOff)
    }

    @Test("a queue that drains ends the stall watch")
    func stallWatchEnds() {
        var core = Self.accepted(.init(outgoingQueueLimit: 1000))
        Self.inFlight(&core, size: 2000)
        _ = core.queue.written(size: 2000, messages: 1, succeeded: true, tracked: true, now: Self.second)
        let step30 = core.queue.stallCheck(now: 20 * Self.second, buffered: 0)
        #expect(step30 == .over)
        #expect(!core.queue.stallWatched)
    }

    @Test("past the hard cap, a client that is not reading is cut off at once")
    func hardCap() {
        var core = Self.accepted(.init(outgoingQueueLimit: 1000, outgoingQueueHardLimit: 5000))
        Self.inFlight(&core, size: 1200)
        #expect(core.queue.admit(size: 2000) == .admitted)  // 1200 + 384 + 2000 + 384 < 5000
        _ = Self.queue(&core, size: 2000)
        #expect(core.queue.admit(size: 2000) == .overHardCap)
    }

    @Test("input closed mid-message is a truncation; after the last answer is written the connection is finished")
    func inputClosed() throws {
        var core = Self.accepted()
        var chunk = Self.bytes(Self.call("A"))
        chunk.writeString("{")
        core.bytesRead(chunk)
        core.inputDidClose()
        _ = try Self.parseAll(&core)
        let step31 = core.settle()
        #expect(step31.truncated)

        var clean = Self.accepted()
        clean.bytesRead(Self.bytes(Self.call("A")))
        clean.inputDidClose()
        _ = try Self.parseAll(&clean)
        _ = clean.nextCall()
        let step32 = clean.settle()
        #expect(!step32.finished)  // the call is not answered
        _ = Self.queue(&clean, size: 10)
        clean.callCompleted()
        _ = clean.queue.takeWrite(flush: true)
        let step33 = clean.settle()
        #expect(!step33.finished)  // its reply is not written
        _ = clean.queue.written(size: 10, messages: 1, succeeded: true, tracked: false, now: 0)
        #expect(clean.afterWrite() == .close)
    }

    @Test("closing reports what was held and hands back the calls that never ran; nothing is taken after")
    func close() throws {
        var core = Self.accepted()
        var chunk = Self.bytes(Self.call("A"))
        chunk.writeImmutableBuffer(Self.bytes(Self.call("B")))
        chunk.writeString("{partial")
        core.bytesRead(chunk)
        _ = try Self.parseAll(&core)
        _ = core.nextCall()
        _ = Self.queue(&core, size: 50)
        let (held, unrun) = core.closed()
        #expect(unrun.map(\.call.memberName) == ["B"])
        #expect(held == 8 + 50 + unrun[unrun.startIndex].size)
        let step34 = core.nextCall()
        #expect(!core.isOpen && step34 == nil)
        #expect(core.queue.admit(size: 10) == .closed)
        let step35 = core.queue.takeWrite(flush: true)
        #expect(step35.write == nil)
        // The write in flight fails: its bytes are reported freed.
        let step36 = core.queue.written(size: 50, messages: 1, succeeded: false, tracked: false, now: 0)
        #expect(step36.released == 50 + 384)
    }

    @Test("the in-process connection's calls take the same turns")
    func localCalls() {
        var core = Self.accepted()
        core.callReceived(VarlinkCall(method: "org.example.test.A"))
        core.callReceived(VarlinkCall(method: "org.example.test.B"))
        let step37 = core.nextCall()
        #expect(step37?.call.memberName == "A")
        let step38 = core.nextCall()
        #expect(step38 == nil)
        core.callCompleted()
        let step39 = core.nextCall()
        #expect(step39?.call.memberName == "B")
    }
}

