import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Splits a byte stream into NUL-terminated messages, enforcing a size cap.
///
/// Bytes are scanned once: a partial message remembers how far it has been searched. A large
/// partial message is kept as the chunks it arrived in, not grown into one buffer: growing
/// doubles the buffer and copies it (8 and 16 MiB copies on the event loop for a 15 MiB
/// message); the chunks are joined by whoever takes the message (``FramedMessage/joined()``),
/// on the parser thread for a large one.
struct MessageFramer {
    /// The longest message accepted, in bytes, excluding the NUL.
    let maxMessageSize: Int
    /// The last chunk received (the only one unless a large message is partly received),
    /// scanned up to `scanned`.
    private var buffer: ByteBuffer?
    /// Earlier chunks of the partial message that `buffer` ends, each scanned (no NUL) and at
    /// least ``chunkSize`` bytes.
    private var earlier: [ByteBuffer] = []
    private var earlierBytes = 0
    private var scanned = 0
    /// A partial message this large goes on in a new chunk instead of being copied on: small
    /// reads (a client trickling bytes) are still joined as they come, so that each chunk kept
    /// holds enough bytes to be worth its overhead.
    static let chunkSize = 64 << 10

    init(maxMessageSize: Int) {
        self.maxMessageSize = maxMessageSize
    }

    /// Bytes received that do not yet form a whole message.
    var pendingBytes: Int { earlierBytes + (buffer?.readableBytes ?? 0) }

    /// Chunks the partial message is held in (for tests).
    var chunkCount: Int { earlier.count + (buffer == nil ? 0 : 1) }

    mutating func append(_ bytes: ByteBuffer) {
        if buffer == nil || buffer!.readableBytes == 0 {
            buffer = bytes
            scanned = 0
        } else if scanned == buffer!.readableBytes && scanned >= Self.chunkSize {
            // Only the start of one message, scanned whole: keep it as a chunk as it is.
            earlier.append(buffer!)
            earlierBytes += scanned
            buffer = bytes
            scanned = 0
        } else {
            var incoming = bytes
            buffer!.writeBuffer(&incoming)
        }
    }

    /// The next whole message (without its NUL), joined into one buffer; `nil` when more bytes
    /// are needed.
    mutating func next() throws(VarlinkProtocolError) -> ByteBuffer? {
        try nextMessage()?.joined()
    }

    /// The next whole message (without its NUL) in the chunks it arrived in; `nil` when more
    /// bytes are needed.
    mutating func nextMessage() throws(VarlinkProtocolError) -> FramedMessage? {
        guard var current = buffer, current.readableBytes > 0 else { return nil }
        buffer = nil  // keep `current` uniquely referenced so compaction does not copy
        let found = current.withUnsafeReadableBytes { raw -> Int? in
            guard scanned < raw.count, let base = raw.baseAddress else { return nil }
            // memchr: `firstIndex(of:)` stepped through a call's bytes at ~7 instructions each.
            guard let nul = memchr(base + scanned, 0, raw.count - scanned) else { return nil }
            return base.distance(to: UnsafeRawPointer(nul))
        }
        guard let length = found else {
            scanned = current.readableBytes
            buffer = current
            if pendingBytes > maxMessageSize { throw .messageTooLarge(limit: maxMessageSize) }
            return nil
        }
        if earlierBytes + length > maxMessageSize { throw .messageTooLarge(limit: maxMessageSize) }
        let last = current.readSlice(length: length)!
        let message = FramedMessage(earlier: earlier, last: last, size: earlierBytes + length)
        earlier = []
        earlierBytes = 0
        current.moveReaderIndex(forwardBy: 1)
        scanned = 0
        if current.readableBytes > 0 {
            // Compact now and then so a connection that never drains its buffer does not grow it.
            if current.readerIndex > 65536 && current.readerIndex > current.readableBytes {
                current.discardReadBytes()
            }
            buffer = current
        }
        return message
    }
}

/// One whole message as received: the chunks it arrived in (one, unless it was large).
struct FramedMessage: Sendable {
    /// The chunks before the last (none unless it was large): apart, not one array of all of
    /// them, so that a message in one chunk allocates no array.
    var earlier: [ByteBuffer]
    var last: ByteBuffer
    /// Bytes in all (without the NUL).
    var size: Int

    /// The chunks in order.
    var parts: [ByteBuffer] { earlier + [last] }

    /// The message in one buffer: the one chunk as it is, or the chunks copied together.
    func joined() -> ByteBuffer {
        if earlier.isEmpty { return last }
        var whole = ByteBufferAllocator().buffer(capacity: size)
        for part in earlier { whole.writeImmutableBuffer(part) }
        whole.writeImmutableBuffer(last)
        return whole
    }
}
