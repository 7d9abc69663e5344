import Foundation
import Testing

@testable import ChromiumAdapter

/// The DevTools framing against an independent peer (Python's `websockets` frame codec), plus the
/// RFC's own handshake example. The real browser checks both framings end to end
/// (Tests/Adapters/chromium_test.py); scripts/fuzz fuzzes them (Tests/Fuzz/devtools).
@Suite("DevTools framing")
struct FramingTests {
    static let peer = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("peer/ws_peer.py").path

    static func python(_ arguments: [String], input: String = "") throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", peer] + arguments
        let pipe = Pipe()
        let stdin = Pipe()
        process.standardOutput = pipe
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    static func bytes(hex: Substring) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return result
    }

    @Test("frames the websockets library serializes decode to its messages, however the bytes arrive")
    func decodesAnIndependentServersFrames() throws {
        let output = try Self.python(["serve"])
        let sections = output.split(separator: "=\n", omittingEmptySubsequences: false)
        let frames = sections[0].split(separator: "\n").flatMap { Self.bytes(hex: $0) }
        let expected = sections[1].split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { Self.bytes(hex: $0) }
        for chunk in [1, 3, 7, 1000, frames.count] {
            var decoder = WebSocketDecoder()
            var events: [WebSocketEvent] = []
            var index = 0
            while index < frames.count {
                events += try decoder.feed(frames[index..<min(index + chunk, frames.count)])
                index += chunk
            }
            let texts = events.compactMap { if case .text(let t) = $0 { t } else { nil } }
            #expect(texts == expected, "chunks of \(chunk)")
            #expect(events.filter { $0 == .ping([0x70]) }.count == 3)
            #expect(events.last == .close(code: 1000, reason: Array("bye".utf8)))
        }
    }

    @Test("the frames the adapter sends parse in the websockets library as the payloads sent")
    func encodesFramesAnIndependentPeerReads() throws {
        let payloads: [[UInt8]] = [[], Array("{\"id\":1}".utf8), Array(repeating: 0x41, count: 200), Array(repeating: 0x42, count: 70_000)]
        let frames = payloads.enumerated().map { WebSocketEncoder.frame(.text, $0.element, mask: [1, 2, 3, UInt8($0.offset)]) }
        let output = try Self.python(["parse"], input: frames.map { $0.map { String(format: "%02x", $0) }.joined() }.joined(separator: "\n"))
        let lines = output.split(separator: "\n")
        #expect(lines.count == payloads.count)
        for (line, payload) in zip(lines, payloads) {
            let parts = line.split(separator: " ", omittingEmptySubsequences: false)
            #expect(parts[0] == "1")
            #expect(Self.bytes(hex: parts[1]) == payload)
        }
    }

    @Test("the handshake's accept key is RFC 6455's example; a wrong one, a refusal or no HTTP is refused by name")
    func handshake() throws {
        #expect(WebSocketHandshake.accept(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        let key = "dGhlIHNhbXBsZSBub25jZQ=="
        let good = Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n".utf8) + [0x81]
        #expect(try WebSocketHandshake.response(good, key: key) == good.count - 1)
        #expect(try WebSocketHandshake.response(Array(good.prefix(20)), key: key) == nil)
        let wrong = Array("HTTP/1.1 101 OK\r\nUpgrade: websocket\r\nSec-WebSocket-Accept: AAAA\r\n\r\n".utf8)
        #expect(throws: FramingError("the handshake response's Sec-WebSocket-Accept does not match the key")) {
            try WebSocketHandshake.response(wrong, key: key)
        }
        let refused = Array("HTTP/1.1 404 Not Found\r\n\r\n".utf8)
        #expect(throws: FramingError("the endpoint refused the WebSocket upgrade: HTTP/1.1 404 Not Found")) {
            try WebSocketHandshake.response(refused, key: key)
        }
        #expect(throws: FramingError.self) { try WebSocketHandshake.response(Array("SSH-2.0-OpenSSH\r\n\r\n".utf8), key: key) }
    }

    @Test("server frames that break RFC 6455 are refused: masked, reserved bits, long control frames, stray continuations")
    func refusesBrokenFrames() {
        for frame: [UInt8] in [[0x81, 0x81, 0, 0, 0, 0, 0x41], [0xC1, 0x00], [0x89, 126, 0, 126] + Array(repeating: 0, count: 126),
                               [0x80, 0x00], [0x83, 0x00], [0x01, 0x00, 0x01, 0x00], [0x81, 126, 0, 5, 1, 2, 3, 4, 5]] {
            var decoder = WebSocketDecoder()
            #expect(throws: FramingError.self) { try decoder.feed(frame) }
        }
    }

    @Test("NUL framing: messages split at NUL whatever the chunks; an endless message is an error")
    func nulFraming() throws {
        var framer = NULFramer(limit: 8)
        #expect(try framer.feed(Array("{\"a\"".utf8)) == [])
        #expect(try framer.feed(Array(":1}\0{}\0{".utf8)) == [Array("{\"a\":1}".utf8), Array("{}".utf8)])
        #expect(framer.pendingCount == 1)
        #expect(throws: FramingError.self) { try framer.feed(Array(repeating: 0x20, count: 9)) }
    }

    @Test("--connect takes loopback endpoints only, and says why it refuses others")
    func loopbackEndpoints() throws {
        #expect(try Endpoint.parseLoopback("127.0.0.1:9222") == ("127.0.0.1", 9222))
        #expect(try Endpoint.parseLoopback("127.1.2.3:80") == ("127.1.2.3", 80))
        #expect(try Endpoint.parseLoopback("[::1]:9222") == ("::1", 9222))
        #expect(try Endpoint.parseLoopback("localhost:9222") == ("127.0.0.1", 9222))
        for refused in ["10.0.0.1:9222", "0.0.0.0:9222", "[::]:9222", "example.com:9222", "192.168.1.2:1", "128.0.0.1:5"] {
            #expect(throws: BrowserError.self) { try Endpoint.parseLoopback(refused) }
        }
        for malformed in ["127.0.0.1", "127.0.0.1:", "127.0.0.1:70000", "127.0.0.1:0", "[::1]9222"] {
            #expect(throws: BrowserError.self) { try Endpoint.parseLoopback(malformed) }
        }
    }
}
