// libFuzzer harness: the Varlink framer, message parsing and a connection's dispatch
// (Sources/Varlink, compiled with the harness; NIO linked from the debug build).
// The first byte picks the chunk size the stream arrives in.
import NIOCore
import NIOEmbedded

let interface = """
    interface org.example.fuzz
    type Point (x: int, y: ?float)
    method Echo(text: string, point: ?Point, more: ?[]string) -> (text: string)
    method Stream() -> (n: int)
    error Refused (why: string)
    """
let loop = EmbeddedEventLoop()
nonisolated(unsafe) let service: VarlinkService = {
    let service = VarlinkService(vendor: "fuzz", product: "fuzz", version: "1", url: "https://example.org")
    try! service.register(description: interface) { context throws(VarlinkError) in
        struct Point: Codable { var x: Int; var y: Double? }
        struct Echo: Decodable { var text: String; var point: Point?; var more: [String]? }
        switch context.method {
        case "Echo":
            let p = try context.decodeParameters(Echo.self)
            if p.text == "refuse" { throw VarlinkError("org.example.fuzz.Refused", parameters: ["why": "asked"]) }
            context.reply(["text": .string(p.text)])
        default:
            let stream = try context.stream()
            for n in 0..<3 { _ = try? stream.send(encoding: ["n": n]) }
            stream.finish()
        }
    }
    return service
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVarlink(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let chunk = Int(bytes[0]) + 1
    var framer = MessageFramer(maxMessageSize: 4096)
    var replies = 0
    guard let connection = service.makeLocalConnection(
        peer: PeerCredentials(pid: 1, uid: 0, gid: 0), eventLoop: loop, onReply: { _ in replies += 1 })
    else { return 0 }
    defer { connection.close() }
    var offset = 1
    while offset < bytes.count {
        let end = min(offset + chunk, bytes.count)
        var buffer = ByteBufferAllocator().buffer(capacity: end - offset)
        buffer.writeBytes(bytes[offset..<end])
        framer.append(buffer)
        offset = end
        while true {
            let next: ByteBuffer?
            do { next = try framer.next() } catch { return 0 }  // too large: the connection closes
            guard let message = next else { break }
            guard let call = try? VarlinkCall(message: message.readableBytesView) else { return 0 }  // malformed: closes
            connection.receive(call)
            loop.run()
        }
    }
    return 0
}
