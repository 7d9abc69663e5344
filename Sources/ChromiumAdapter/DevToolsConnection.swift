import AdapterKit
import SystemCalls
import Varlink

#if canImport(Glibc)
import Glibc
#endif

/// Why the browser cannot be used, in words that name the cause.
public struct BrowserError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A DevTools protocol connection to a browser on the adapter's loop: over the pipe of a browser
/// started with `--remote-debugging-pipe`, or a WebSocket to the browser endpoint of a
/// `--remote-debugging-port`. Commands carry ids and get their results back through handlers;
/// events (flattened sessions: each names its `sessionId`) go to ``onEvent``.
public final class DevToolsConnection {
    public typealias Reply = (Result<JSONValue, BrowserError>) -> Void

    private enum Transport {
        case pipe(read: Int32, write: Int32, framer: NULFramer)
        case webSocket(fd: Int32, decoder: WebSocketDecoder)
    }

    private let loop: AdapterLoop
    private var transport: Transport?
    private var token: AdapterLoop.Token?
    private var nextId = 1
    private var pending: [Int: Reply] = [:]
    private var generator = SystemRandomNumberGenerator()

    /// Each event: method, params, sessionId.
    public var onEvent: ((String, JSONValue, String?) -> Void)?
    /// Called once when the browser's end closes (or breaks the protocol).
    public var onClose: ((String) -> Void)?

    /// Over a pipe: `read` is the browser's fd 4, `write` its fd 3.
    public init(loop: AdapterLoop, readFD: Int32, writeFD: Int32) {
        self.loop = loop
        transport = .pipe(read: readFD, write: writeFD, framer: NULFramer())
        token = loop.watch(readFD) { [unowned self] _ in self.readable() }
    }

    /// Over a WebSocket already past its handshake (`leftover`: bytes that came after it).
    init(loop: AdapterLoop, webSocket fd: Int32, leftover: [UInt8]) {
        self.loop = loop
        transport = .webSocket(fd: fd, decoder: WebSocketDecoder())
        token = loop.watch(fd) { [unowned self] _ in self.readable() }
        if !leftover.isEmpty { loop.post { [weak self] in self?.received(leftover) } }
    }

    /// Connects to the browser endpoint of a debugging port at `address`:`port` (a loopback
    /// address; others are refused before anything is sent).
    public static func connect(loop: AdapterLoop, endpoint: String) throws(BrowserError) -> DevToolsConnection {
        let (host, port) = try Endpoint.parseLoopback(endpoint)
        // The browser's WebSocket URL, from /json/version.
        let version = try Endpoint.httpGet(host: host, port: port, path: "/json/version")
        guard let json = try? JSONValue.parse(version), let url = json["webSocketDebuggerUrl"]?.stringValue,
            let pathStart = url.dropFirst("ws://".count).firstIndex(of: "/")
        else {
            throw BrowserError("\(endpoint) answered /json/version without a webSocketDebuggerUrl: is it a Chromium DevTools port?")
        }
        let path = String(url[pathStart...])
        let fd: Int32
        do { fd = try Posix.connectTCP(address: host, port: port) } catch {
            throw BrowserError("no browser at \(endpoint): \(error.message)")
        }
        var nonce = [UInt8](repeating: 0, count: 16)
        var random = SystemRandomNumberGenerator()
        for index in nonce.indices { nonce[index] = random.next() }
        let key = Base64.encode(nonce)
        let hostHeader = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        do {
            try Posix.sendAll(fd, WebSocketHandshake.request(host: hostHeader, path: path, key: key))
            var received: [UInt8] = []
            while true {
                guard try Posix.waitReadable(fd, timeoutMilliseconds: 5000) else {
                    throw BrowserError("the browser at \(endpoint) did not answer the WebSocket handshake within 5 s")
                }
                let bytes = try Posix.readAvailable(fd)
                if bytes.isEmpty { throw BrowserError("the browser at \(endpoint) closed the connection during the handshake") }
                received += bytes
                if let used = try WebSocketHandshake.response(received, key: key) {
                    return DevToolsConnection(loop: loop, webSocket: fd, leftover: Array(received[used...]))
                }
            }
        } catch let error as BrowserError {
            Posix.closeDescriptor(fd)
            throw error
        } catch let error as FramingError {
            Posix.closeDescriptor(fd)
            throw BrowserError("\(endpoint): \(error)")
        } catch {
            Posix.closeDescriptor(fd)
            throw BrowserError("\(endpoint): \(error)")
        }
    }

    public var isOpen: Bool { transport != nil }

    /// Sends a command; `reply` gets its `result` or its `error` (or the connection's end).
    public func send(_ method: String, _ params: JSONValue = [:], session: String? = nil, reply: Reply? = nil) {
        guard transport != nil else {
            reply?(.failure(BrowserError("the browser connection is closed")))
            return
        }
        let id = nextId
        nextId += 1
        var message: [String: JSONValue] = ["id": .integer(Int64(id)), "method": .string(method), "params": params]
        if let session { message["sessionId"] = .string(session) }
        pending[id] = reply ?? { _ in }
        write(JSONValue.object(message).serialized())
    }

    /// Closes the connection (pending commands fail).
    public func close() {
        shut(nil)
    }

    private func write(_ payload: [UInt8]) {
        do {
            switch transport {
            case .pipe(_, let fd, _): try Posix.writeAll(fd, payload + [0])
            case .webSocket(let fd, _):
                var mask = [UInt8](repeating: 0, count: 4)
                for index in 0..<4 { mask[index] = generator.next() }
                try Posix.sendAll(fd, WebSocketEncoder.frame(.text, payload, mask: mask))
            case nil: return
            }
        } catch {
            shut("cannot write to the browser: \(error.message)")
        }
    }

    private func readable() {
        let fd: Int32
        switch transport {
        case .pipe(let read, _, _): fd = read
        case .webSocket(let socket, _): fd = socket
        case nil: return
        }
        // All that is there in one read: a page's first scene (~0.5 MB, written at once into the
        // grown pipe) took eight reads of 64 KiB, each after a poll, with the page's paint
        // between them on two cores. At most 16 MiB at a time (as focusd's own messages).
        let capacity = min(max(Posix.bytesReadable(fd) ?? 0, 1 << 16), 16 << 20)
        let bytes: [UInt8]
        do { bytes = try Posix.readAvailable(fd, capacity: capacity) } catch {
            shut("the browser connection failed: \(error.message)")
            return
        }
        if bytes.isEmpty {
            shut("the browser closed the DevTools connection (it exited or was closed)")
            return
        }
        received(bytes)
    }

    private func received(_ bytes: [UInt8]) {
        var messages: [[UInt8]] = []
        do {
            switch transport {
            case .pipe(let read, let write, var framer):
                transport = nil  // keep the framer uniquely referenced while it mutates
                messages = try framer.feed(bytes)
                transport = .pipe(read: read, write: write, framer: framer)
            case .webSocket(let fd, var decoder):
                transport = nil
                let events = try decoder.feed(bytes)
                transport = .webSocket(fd: fd, decoder: decoder)
                for event in events {
                    switch event {
                    case .text(let text): messages.append(text)
                    case .binary: break
                    case .ping(let payload):
                        var mask = [UInt8](repeating: 0, count: 4)
                        for index in 0..<4 { mask[index] = generator.next() }
                        try? Posix.sendAll(fd, WebSocketEncoder.frame(.pong, payload, mask: mask))
                    case .pong: break
                    case .close:
                        shut("the browser closed the DevTools WebSocket")
                        return
                    }
                }
            case nil: return
            }
        } catch {
            shut("the browser broke the DevTools framing: \(error)")
            return
        }
        for message in messages {
            guard transport != nil else { return }
            dispatch(message)
        }
    }

    private func dispatch(_ message: [UInt8]) {
        let start = Posix.monotonicNanoseconds()
        guard let value = try? JSONValue.parse(message), value.objectValue != nil else {
            AdapterLog.warning("the browser sent a DevTools message that is not a JSON object; ignored")
            return
        }
        if message.count >= 64 << 10 {
            // What a page's first scene costs before the page adapter sees it (the payload is a
            // string escaped inside the event: ~490 KB for 5,000 candidates).
            AdapterLog.debug("DevTools message of \(message.count) bytes parsed in \((Posix.monotonicNanoseconds() - start) / 1000) µs")
        }
        if let id = value["id"]?.integerValue {
            guard let reply = pending.removeValue(forKey: Int(id)) else { return }
            if let error = value["error"] {
                reply(.failure(BrowserError(error["message"]?.stringValue ?? String(decoding: error.serialized(), as: UTF8.self))))
            } else {
                reply(.success(value["result"] ?? [:]))
            }
        } else if let method = value["method"]?.stringValue {
            onEvent?(method, value["params"] ?? [:], value["sessionId"]?.stringValue)
        }
    }

    private func shut(_ reason: String?) {
        guard let transport else { return }
        loop.remove(token)
        token = nil
        switch transport {
        case .pipe(let read, let write, _):
            Posix.closeDescriptor(read)
            Posix.closeDescriptor(write)
        case .webSocket(let fd, _): Posix.closeDescriptor(fd)
        }
        self.transport = nil
        let waiting = pending
        pending.removeAll()
        for reply in waiting.values { reply(.failure(BrowserError(reason ?? "the browser connection is closed"))) }
        if let reason { onClose?(reason) }
    }
}

/// `--connect` endpoints: loopback only.
public enum Endpoint {
    /// `127.0.0.1:PORT`, `[::1]:PORT` or `localhost:PORT` → (address literal, port); anything else
    /// (another host, a name, no port) is refused with the reason.
    public static func parseLoopback(_ text: String) throws(BrowserError) -> (String, UInt16) {
        var host: Substring
        var portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw BrowserError("'\(text)' is not ADDRESS:PORT")
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw BrowserError("'\(text)' is not ADDRESS:PORT (the port is missing)") }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard let port = UInt16(portText), port > 0 else { throw BrowserError("'\(portText)' in '\(text)' is not a TCP port") }
        switch host {
        case "localhost": return ("127.0.0.1", port)
        case "::1": return ("::1", port)
        default:
            let parts = host.split(separator: ".", omittingEmptySubsequences: false)
            if parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }), parts[0] == "127" {
                return (String(host), port)
            }
            throw BrowserError(
                "refusing \(text): the DevTools protocol gives full control of the browser, so focusd-adapter connects only to loopback addresses (127.0.0.0/8, [::1], localhost)")
        }
    }

    /// A plain HTTP/1.1 GET, the whole body (the DevTools port answers with Content-Length).
    static func httpGet(host: String, port: UInt16, path: String) throws(BrowserError) -> [UInt8] {
        let fd: Int32
        do { fd = try Posix.connectTCP(address: host, port: port) } catch {
            throw BrowserError("no browser listens at \(host):\(port) (\(error.message)); start it with --remote-debugging-port=\(port)")
        }
        defer { Posix.closeDescriptor(fd) }
        do {
            try Posix.sendAll(fd, Array("GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n\r\n".utf8))
            var received: [UInt8] = []
            while true {
                guard try Posix.waitReadable(fd, timeoutMilliseconds: 5000) else {
                    throw BrowserError("\(host):\(port) did not answer \(path) within 5 s")
                }
                let bytes = try Posix.readAvailable(fd)
                if !bytes.isEmpty { received += bytes }
                if let end = WebSocketHandshake.headEnd(received) {
                    let head = String(decoding: received[..<end], as: UTF8.self).lowercased()
                    guard head.hasPrefix("http/1.1 200") || head.hasPrefix("http/1.0 200") else {
                        throw BrowserError("\(host):\(port) answered \(path) with '\(head.prefix(40))': is it a DevTools port?")
                    }
                    let body = Array(received[(end + 4)...])
                    if let line = head.components(separatedByCRLF: ()).first(where: { $0.hasPrefix("content-length:") }),
                        let length = Int(line.dropFirst("content-length:".count).trimmingSpaces())
                    {
                        if body.count >= length { return Array(body.prefix(length)) }
                    } else if bytes.isEmpty {
                        return body
                    }
                }
                if bytes.isEmpty { throw BrowserError("\(host):\(port) closed the connection before answering \(path)") }
                if received.count > 1 << 20 { throw BrowserError("\(host):\(port) answered \(path) with over 1 MiB") }
            }
        } catch let error as BrowserError {
            throw error
        } catch {
            throw BrowserError("\(host):\(port): \(error)")
        }
    }
}
