import NIOCore

/// Splits a byte stream into NUL-terminated messages, enforcing a size cap.
///
/// Bytes are scanned once: a partial message remembers how far it has been searched.
struct MessageFramer {
    /// The longest message accepted, in bytes, excluding the NUL.
    let maxMessageSize: Int
    private var buffer: ByteBuffer?
    private var scanned = 0

    init(maxMessageSize: Int) {
        self.maxMessageSize = maxMessageSize
    }

    /// Bytes received that do not yet form a whole message.
    var pendingBytes: Int { buffer?.readableBytes ?? 0 }

    mutating func append(_ bytes: ByteBuffer) {
        if buffer == nil || buffer!.readableBytes == 0 {
            buffer = bytes
            scanned = 0
        } else {
            var incoming = bytes
            buffer!.writeBuffer(&incoming)
        }
    }

    /// The next whole message (without its NUL), `nil` when more bytes are needed.
    mutating func next() throws(VarlinkProtocolError) -> ByteBuffer? {
        guard var current = buffer, current.readableBytes > 0 else { return nil }
        buffer = nil  // keep `current` uniquely referenced so compaction does not copy
        let found = current.withUnsafeReadableBytes { raw -> Int? in
            guard scanned < raw.count else { return nil }
            let rest = UnsafeRawBufferPointer(rebasing: raw[scanned...])
            return rest.firstIndex(of: 0).map { $0 + scanned }
        }
        guard let length = found else {
            scanned = current.readableBytes
            buffer = current
            if scanned > maxMessageSize { throw .messageTooLarge(limit: maxMessageSize) }
            return nil
        }
        if length > maxMessageSize { throw .messageTooLarge(limit: maxMessageSize) }
        let message = current.readSlice(length: length)!
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
