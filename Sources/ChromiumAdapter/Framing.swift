// The DevTools protocol's two framings: NUL-terminated JSON messages on the pipe
// (--remote-debugging-pipe), and WebSocket (RFC 6455) text frames on a debugging port. Pure
// (bytes in, messages out) so the tests check them against independent peers and the fuzzer
// feeds them anything.

/// A framing or handshake error, in words that name the cause.
public struct FramingError: Error, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// Splits a byte stream at NUL bytes. A message over `limit` bytes is an error (the stream cannot
/// be trusted after it).
public struct NULFramer {
    public let limit: Int
    private var buffer: [UInt8] = []
    private var scanned = 0

    public init(limit: Int = 256 << 20) {
        self.limit = limit
    }

    /// Appends `bytes` and returns the whole messages they complete (without their NUL).
    public mutating func feed(_ bytes: some Sequence<UInt8>) throws(FramingError) -> [[UInt8]] {
        buffer.append(contentsOf: bytes)
        var messages: [[UInt8]] = []
        var start = 0
        var index = scanned
        while index < buffer.count {
            if buffer[index] == 0 {
                messages.append(Array(buffer[start..<index]))
                start = index + 1
            }
            index += 1
        }
        if start > 0 { buffer.removeFirst(start) }
        scanned = buffer.count
        if buffer.count > limit { throw FramingError("a DevTools message is longer than \(limit) bytes") }
        return messages
    }

    /// Bytes received after the last complete message.
    public var pendingCount: Int { buffer.count }
}

/// One WebSocket frame's kind (RFC 6455 §5.2).
public enum WebSocketOpcode: UInt8, Sendable {
    case continuation = 0, text = 1, binary = 2, close = 8, ping = 9, pong = 10
}

/// What a ``WebSocketDecoder`` hands back: a whole message (fragments joined), or a control frame.
public enum WebSocketEvent: Equatable, Sendable {
    case text([UInt8])
    case binary([UInt8])
    case ping([UInt8])
    case pong([UInt8])
    case close(code: UInt16?, reason: [UInt8])
}

/// Decodes the frames a server sends a client (unmasked, RFC 6455 §5.1), joining fragments.
public struct WebSocketDecoder {
    public let limit: Int
    private var buffer: [UInt8] = []
    private var fragments: [UInt8] = []
    private var fragmentOpcode: WebSocketOpcode?

    public init(limit: Int = 256 << 20) {
        self.limit = limit
    }

    /// Appends `bytes`; returns the events of every complete frame.
    public mutating func feed(_ bytes: some Sequence<UInt8>) throws(FramingError) -> [WebSocketEvent] {
        buffer.append(contentsOf: bytes)
        var events: [WebSocketEvent] = []
        var offset = 0
        while true {
            guard let (frame, used) = try Self.frame(in: buffer, at: offset, limit: limit) else { break }
            offset += used
            if let event = try assemble(frame) { events.append(event) }
        }
        if offset > 0 { buffer.removeFirst(offset) }
        if buffer.count > limit + 14 { throw FramingError("a WebSocket frame is longer than \(limit) bytes") }
        return events
    }

    private struct Frame {
        var fin: Bool
        var opcode: WebSocketOpcode
        var payload: [UInt8]
    }

    /// The frame starting at `offset`, with the bytes it took; nil while it is incomplete.
    private static func frame(in bytes: [UInt8], at offset: Int, limit: Int) throws(FramingError) -> (Frame, Int)? {
        let available = bytes.count - offset
        guard available >= 2 else { return nil }
        let first = bytes[offset], second = bytes[offset + 1]
        guard first & 0x70 == 0 else { throw FramingError("a WebSocket frame sets reserved bits (no extension was negotiated)") }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            throw FramingError("a WebSocket frame has the unknown opcode \(first & 0x0F)")
        }
        let fin = first & 0x80 != 0
        guard second & 0x80 == 0 else { throw FramingError("the server masked a WebSocket frame (servers must not)") }
        var length = UInt64(second & 0x7F)
        var header = 2
        if length == 126 {
            guard available >= 4 else { return nil }
            length = UInt64(bytes[offset + 2]) << 8 | UInt64(bytes[offset + 3])
            guard length >= 126 else { throw FramingError("a WebSocket frame's length is not in its shortest form") }
            header = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            length = 0
            for index in 0..<8 { length = length << 8 | UInt64(bytes[offset + 2 + index]) }
            guard length >> 63 == 0 else { throw FramingError("a WebSocket frame's 64-bit length has its top bit set") }
            guard length > 0xFFFF else { throw FramingError("a WebSocket frame's length is not in its shortest form") }
            header = 10
        }
        if opcode.rawValue >= 8 {
            guard fin else { throw FramingError("a WebSocket control frame is fragmented") }
            guard length <= 125 else { throw FramingError("a WebSocket control frame is longer than 125 bytes") }
        }
        guard length <= UInt64(limit) else { throw FramingError("a WebSocket frame is longer than \(limit) bytes") }
        guard UInt64(available - header) >= length else { return nil }
        let start = offset + header
        return (Frame(fin: fin, opcode: opcode, payload: Array(bytes[start..<start + Int(length)])), header + Int(length))
    }

    private mutating func assemble(_ frame: Frame) throws(FramingError) -> WebSocketEvent? {
        switch frame.opcode {
        case .ping: return .ping(frame.payload)
        case .pong: return .pong(frame.payload)
        case .close:
            guard frame.payload.count != 1 else { throw FramingError("a WebSocket close frame has a 1-byte body") }
            let code = frame.payload.count >= 2 ? UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1]) : nil
            return .close(code: code, reason: Array(frame.payload.dropFirst(2)))
        case .text, .binary:
            guard fragmentOpcode == nil else { throw FramingError("a WebSocket message starts inside another one's fragments") }
            if frame.fin { return frame.opcode == .text ? .text(frame.payload) : .binary(frame.payload) }
            fragmentOpcode = frame.opcode
            fragments = frame.payload
            return nil
        case .continuation:
            guard let opcode = fragmentOpcode else { throw FramingError("a WebSocket continuation frame continues nothing") }
            fragments += frame.payload
            guard fragments.count <= limit else { throw FramingError("a WebSocket message is longer than \(limit) bytes") }
            guard frame.fin else { return nil }
            let message = fragments
            fragments = []
            fragmentOpcode = nil
            return opcode == .text ? .text(message) : .binary(message)
        }
    }
}

public enum WebSocketEncoder {
    /// One final frame from a client: masked with `mask` (RFC 6455 §5.3: clients must mask).
    public static func frame(_ opcode: WebSocketOpcode, _ payload: some Collection<UInt8>, mask: [UInt8]) -> [UInt8] {
        precondition(mask.count == 4)
        var bytes: [UInt8] = [0x80 | opcode.rawValue]
        let count = payload.count
        if count < 126 {
            bytes.append(0x80 | UInt8(count))
        } else if count <= 0xFFFF {
            bytes += [0x80 | 126, UInt8(count >> 8), UInt8(count & 0xFF)]
        } else {
            bytes.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: UInt64(count) >> UInt64(shift))) }
        }
        bytes += mask
        bytes.reserveCapacity(bytes.count + count)
        for (index, byte) in payload.enumerated() { bytes.append(byte ^ mask[index & 3]) }
        return bytes
    }
}

/// The opening handshake of a WebSocket client (RFC 6455 §4.1).
public enum WebSocketHandshake {
    /// The GET request for `path` on `host` with the base64 nonce `key`.
    public static func request(host: String, path: String, key: String) -> [UInt8] {
        Array("""
            GET \(path) HTTP/1.1\r
            Host: \(host)\r
            Upgrade: websocket\r
            Connection: Upgrade\r
            Sec-WebSocket-Key: \(key)\r
            Sec-WebSocket-Version: 13\r
            \r

            """.utf8)
    }

    /// The `Sec-WebSocket-Accept` a server must answer `key` with.
    public static func accept(for key: String) -> String {
        Base64.encode(SHA1.digest(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
    }

    /// Checks the server's response head (up to its blank line): nil while it is incomplete;
    /// otherwise how many bytes the head took (frames may follow at once).
    public static func response(_ bytes: [UInt8], key: String) throws(FramingError) -> Int? {
        guard let end = headEnd(bytes) else {
            if bytes.count > 16384 { throw FramingError("the WebSocket handshake response has no end within 16 KiB") }
            return nil
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedByCRLF: ())
        guard let status = lines.first else { throw FramingError("the WebSocket handshake response is empty") }
        let parts = status.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1.") else {
            throw FramingError("the endpoint did not answer in HTTP (\(status.prefix(60))): is it a DevTools port?")
        }
        guard parts[1] == "101" else { throw FramingError("the endpoint refused the WebSocket upgrade: \(status)") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingSpaces()
        }
        guard headers["upgrade"]?.lowercased() == "websocket" else { throw FramingError("the handshake response lacks `Upgrade: websocket`") }
        guard headers["sec-websocket-accept"] == accept(for: key) else {
            throw FramingError("the handshake response's Sec-WebSocket-Accept does not match the key")
        }
        return end + 4
    }

    /// The index of the `\r\n\r\n` ending an HTTP head.
    static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }
}

extension String {
    func components(separatedByCRLF: Void) -> [String] {
        var lines: [String] = []
        var current = ""
        var previousCR = false
        for character in unicodeScalars {
            if character == "\n" && previousCR {
                lines.append(current)
                current = ""
                previousCR = false
                continue
            }
            if previousCR { current.unicodeScalars.append("\r") }
            previousCR = character == "\r"
            if !previousCR { current.unicodeScalars.append(character) }
        }
        if previousCR { current.unicodeScalars.append("\r") }
        lines.append(current)
        return lines
    }

    func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

extension Substring {
    func trimmingSpaces() -> String { String(self).trimmingSpaces() }
}

/// SHA-1 (FIPS 180-4), for the WebSocket handshake's accept key only.
enum SHA1 {
    static func digest(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var padded = message
        padded.append(0x80)
        while padded.count % 64 != 56 { padded.append(0) }
        let bits = UInt64(message.count) * 8
        for shift in stride(from: 56, through: 0, by: -8) { padded.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        var w = [UInt32](repeating: 0, count: 80)
        for chunk in stride(from: 0, to: padded.count, by: 64) {
            for i in 0..<16 {
                let b = chunk + i * 4
                w[i] = UInt32(padded[b]) << 24 | UInt32(padded[b + 1]) << 16 | UInt32(padded[b + 2]) << 8 | UInt32(padded[b + 3])
            }
            for i in 16..<80 {
                let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
                w[i] = x << 1 | x >> 31
            }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for i in 0..<80 {
                let f: UInt32, k: UInt32
                switch i {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
                (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, temp)
            }
            h[0] = h[0] &+ a
            h[1] = h[1] &+ b
            h[2] = h[2] &+ c
            h[3] = h[3] &+ d
            h[4] = h[4] &+ e
        }
        return h.flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) } }
    }
}

/// Standard base64 with padding.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
            let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << UInt32(16 - 8 * $1.offset) }
            for position in 0..<4 {
                output.append(position <= chunk.count ? alphabet[Int(value >> UInt32(18 - 6 * position) & 0x3F)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
