// libFuzzer harness: the chromium adapter's DevTools framing (Sources/ChromiumAdapter/Framing.swift):
// NUL-framed pipe messages, WebSocket frames from a server, and the handshake response.
// Any input, cut into chunks anywhere: nothing crashes; the NUL framer gives back exactly the
// input's complete messages; a payload framed as a server frames it decodes to itself, whole or
// fragmented, however the bytes arrive.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDevToolsFraming(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let chunk = Int(first % 17) + 1
    let input = Array(bytes.dropFirst())

    // NUL framing: the messages are the input's NUL-terminated pieces, in order.
    var framer = NULFramer(limit: 1 << 20)
    var messages: [[UInt8]] = []
    var index = 0
    while index < input.count {
        let piece = input[index..<min(index + chunk, input.count)]
        guard let got = try? framer.feed(piece) else { fatalError("a NUL framer within its limit failed") }
        messages += got
        index += chunk
    }
    var expected = input.split(separator: 0, omittingEmptySubsequences: false).map(Array.init)
    expected.removeLast()  // what follows the last NUL is pending
    guard messages == expected else { fatalError("NUL framing lost or changed a message") }
    guard framer.pendingCount == input.count - (input.lastIndex(of: 0).map { $0 + 1 } ?? 0) else { fatalError("pending bytes wrong") }

    // Server frames of anything: decoded or refused, never a crash.
    var decoder = WebSocketDecoder(limit: 1 << 20)
    index = 0
    while index < input.count {
        if (try? decoder.feed(input[index..<min(index + chunk, input.count)])) == nil { break }
        index += chunk
    }

    // A payload framed as a server frames it, in `first % 3 + 1` fragments, decodes to itself.
    let fragments = Int(first % 3) + 1
    var framed: [UInt8] = []
    let size = input.count
    for part in 0..<fragments {
        let slice = Array(input[(size * part / fragments)..<(size * (part + 1) / fragments)])
        let opcode: UInt8 = part == 0 ? 1 : 0
        framed.append((part == fragments - 1 ? 0x80 : 0) | opcode)
        if slice.count < 126 {
            framed.append(UInt8(slice.count))
        } else if slice.count <= 0xFFFF {
            framed += [126, UInt8(slice.count >> 8), UInt8(slice.count & 0xFF)]
        } else {
            framed.append(127)
            for shift in stride(from: 56, through: 0, by: -8) { framed.append(UInt8(truncatingIfNeeded: slice.count >> shift)) }
        }
        framed += slice
        if part == 0 && first & 0x80 != 0 { framed += [0x89, 0x01, 0x2A] }  // a ping between fragments
    }
    var roundTrip = WebSocketDecoder(limit: 1 << 20)
    var events: [WebSocketEvent] = []
    index = 0
    while index < framed.count {
        guard let got = try? roundTrip.feed(framed[index..<min(index + chunk, framed.count)]) else { fatalError("a valid frame was refused") }
        events += got
        index += chunk
    }
    let texts = events.compactMap { if case .text(let t) = $0 { t } else { nil } }
    guard texts == [input] else { fatalError("a framed payload did not decode to itself") }

    // The client's own frames unmask to the payload.
    let mask = [first, first &+ 1, first &+ 2, first &+ 3]
    let frame = WebSocketEncoder.frame(.text, input, mask: mask)
    let header = frame.count - input.count
    let unmasked = frame[header...].enumerated().map { $0.element ^ mask[$0.offset & 3] }
    guard unmasked == input, frame[header - 4..<header].elementsEqual(mask) else { fatalError("client frame wrong") }

    _ = try? WebSocketHandshake.response(input, key: "dGhlIHNhbXBsZSBub25jZQ==")
    return 0
}
