import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// What carries a connection's messages.
public enum VarlinkTransport: Sendable, Hashable {
    /// A Unix stream socket: NUL-terminated messages, the peer's credentials from `SO_PEERCRED`.
    case unixSocket
    /// A WebSocket (one message per text frame). There are no peer credentials: the peer is
    /// ``PeerCredentials/unknown`` and the server grants access by transport.
    case webSocket(origin: String)
}

/// Varlink over WebSocket (the mapping the Varlink specification gives: one message per text
/// frame, no NUL), serving the same ``VarlinkService`` as a ``VarlinkServer`` on the same event
/// loop, with the same connection core (``VarlinkConnection``), so the same limits, ordering and
/// slow-client policy apply.
///
/// The handshake is refused with HTTP 403 unless the `Origin` is allowed and, when a token is
/// configured, the token comes as the subprotocol `focusd.token.TOKEN` or as `?token=TOKEN`; past
/// the connection cap it is refused with 503. Nothing of a refused request reaches the service.
/// Plain `GET`s are answered from ``Configuration/pages`` (404 for anything else).
public final class VarlinkWebSocketServer: Sendable {
    /// A static resource served over plain HTTP.
    public struct Page: Sendable {
        public var contentType: String
        public var body: [UInt8]

        public init(contentType: String, body: [UInt8]) {
            self.contentType = contentType
            self.body = body
        }
    }

    public struct Configuration: Sendable {
        /// Message, depth and queue limits, slow-client policy and logging (as on the Unix socket).
        public var limits = VarlinkServer.Configuration()
        /// Allowed `Origin`s. An entry is `scheme://host[:port]` (without a port: any port),
        /// a bare host (`localhost`: `http` and `https`, any port), `file://`, or `*` (any origin).
        public var origins = Configuration.defaultOrigins
        /// The token a client must present; `nil`: none needed.
        public var token: String?
        /// Open WebSocket connections allowed (handshakes past it get 503).
        public var maxConnections = 64
        /// A connection silent for this long is pinged; one that then stays silent as long again
        /// is closed. `nil`: never ping.
        public var pingInterval: TimeAmount? = .seconds(30)
        /// How long a client may take to complete its HTTP request before it is closed.
        public var handshakeTimeout = TimeAmount.seconds(10)
        /// Resources served to plain `GET` requests, by path (`/`, `/focusd.js`, …).
        public var pages: [String: Page] = [:]

        /// Pages served from the machine itself: `localhost`, `127.0.0.1`, `[::1]`, and `file:`.
        /// (`null`, the origin Firefox gives `file:` pages, is not in it: sandboxed frames of any
        /// site send it too.)
        public static let defaultOrigins = ["localhost", "127.0.0.1", "[::1]", "file://"]

        public init() {}
    }

    /// The outcome of a handshake request.
    public enum HandshakeDecision: Sendable, Equatable {
        /// Upgrade; `subprotocol` is echoed in `Sec-WebSocket-Protocol` when the token came that way.
        case accept(subprotocol: String?)
        /// Answer with this HTTP status and reason (403, 503), then close.
        case refuse(status: Int, reason: String)
    }

    /// The address listened on (with the port the system chose when 0 was asked).
    public let localAddress: SocketAddress?
    public let eventLoop: any EventLoop
    private let serverChannel: any Channel
    private let state: NIOLoopBoundBox<State>

    final class State {
        /// The handshake rules in force (``reconfigure(origins:token:maxConnections:)`` changes them).
        var configuration: Configuration
        var open = 0
        var children: [ObjectIdentifier: any Channel] = [:]

        init(configuration: Configuration) {
            self.configuration = configuration
        }
    }

    private init(eventLoop: any EventLoop, serverChannel: any Channel, state: NIOLoopBoundBox<State>) {
        self.eventLoop = eventLoop
        self.serverChannel = serverChannel
        self.localAddress = serverChannel.localAddress
        self.state = state
    }

    /// Starts listening on `host:port` and serving `service`; call it on `eventLoop` (where the
    /// service lives, as with ``VarlinkServer/startOnEventLoop(service:endpoint:configuration:eventLoop:)``).
    public static func startOnEventLoop(
        service: VarlinkService, host: String, port: Int, configuration: Configuration, eventLoop: any EventLoop
    ) -> EventLoopFuture<VarlinkWebSocketServer> {
        let serviceBox = NIOLoopBoundBox(service, eventLoop: eventLoop)
        let state = NIOLoopBoundBox(State(configuration: configuration), eventLoop: eventLoop)
        let limits = configuration.limits
        let maxFrameSize = Int(min(UInt64(limits.maxMessageSize), UInt64(UInt32.max)))
        let bootstrap = ServerBootstrap(group: eventLoop)
            .serverChannelOption(ChannelOptions.backlog, value: limits.backlog)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let upgrader = NIOWebSocketServerUpgrader(
                    maxFrameSize: maxFrameSize,
                    automaticErrorHandling: true,
                    shouldUpgrade: { channel, head in
                        channel.eventLoop.makeCompletedFuture {
                            let decision = decide(head, configuration: state.value.configuration, open: state.value.open)
                            guard case .accept(let subprotocol) = decision else { return nil }
                            // The slot is taken now: the upgrade completes later.
                            state.value.open += 1
                            channel.closeFuture.assumeIsolated().whenComplete { _ in state.value.open -= 1 }
                            var headers = HTTPHeaders()
                            if let subprotocol { headers.add(name: "Sec-WebSocket-Protocol", value: subprotocol) }
                            return headers
                        }
                    },
                    upgradePipelineHandler: { channel, head in
                        channel.eventLoop.makeCompletedFuture {
                            let origin = head.headers["Origin"].first ?? ""
                            let connection = VarlinkConnection(
                                id: VarlinkConnection.nextID(), service: serviceBox.value, configuration: limits,
                                eventLoop: channel.eventLoop, transport: .webSocket(origin: origin))
                            let sync = channel.pipeline.syncOperations
                            try sync.addHandler(
                                NIOWebSocketFrameAggregator(
                                    minNonFinalFragmentSize: 1, maxAccumulatedFrameCount: 1 << 14,
                                    maxAccumulatedFrameSize: maxFrameSize))
                            try sync.addHandler(
                                WebSocketMessageHandler(pingInterval: configuration.pingInterval, logger: connection.logger))
                            try sync.addHandler(VarlinkChannelHandler(connection: connection))
                        }
                    }
                )
                return channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.configureHTTPServerPipeline(
                        withServerUpgrade: (
                            upgraders: [upgrader],
                            completionHandler: { context in
                                _ = context.pipeline.syncOperations.removeHandler(name: HTTPRequestHandler.name)
                            }
                        ))
                    try sync.addHandler(
                        HTTPRequestHandler(configuration: configuration, state: state), name: HTTPRequestHandler.name)
                    state.value.children[ObjectIdentifier(channel)] = channel
                    channel.closeFuture.assumeIsolated().whenComplete { _ in
                        state.value.children.removeValue(forKey: ObjectIdentifier(channel))
                    }
                }
            }
        return bootstrap.bind(host: host, port: port).map { channel in
            limits.logger.info(
                "serving Varlink over WebSocket",
                metadata: ["host": "\(host)", "port": "\(channel.localAddress?.port ?? port)"])
            return VarlinkWebSocketServer(eventLoop: eventLoop, serverChannel: channel, state: state)
        }
    }

    /// Whether `origin` (an `Origin` header's value) is allowed by `patterns`.
    public static func originAllowed(_ origin: String, patterns: [String]) -> Bool {
        let origin = origin.lowercased()
        let (scheme, rest) = splitScheme(origin)
        for pattern in patterns.map({ $0.lowercased() }) {
            if pattern == "*" { return true }
            // Without a scheme only `null` is an origin, and only when listed as such.
            guard let scheme else {
                if origin == "null" && pattern == "null" { return true }
                continue
            }
            if pattern == origin { return true }
            let (patternScheme, patternRest) = splitScheme(pattern)
            if let patternScheme {
                // `scheme://host` without a port: any port of that host.
                if patternScheme == scheme, hostPart(rest) == patternRest, !patternRest.isEmpty { return true }
                if patternScheme == "file", scheme == "file" { return true }
            } else if scheme == "http" || scheme == "https", hostPart(rest) == pattern {
                return true
            }
        }
        return false
    }

    private static func splitScheme(_ text: String) -> (String?, String) {
        // By hand: String.firstRange(of: String) would link the regex engine (docs/performance.md, memory).
        let bytes = Array(text.utf8)
        guard bytes.count >= 3, let index = (0...(bytes.count - 3)).first(where: {
            bytes[$0] == UInt8(ascii: ":") && bytes[$0 + 1] == UInt8(ascii: "/") && bytes[$0 + 2] == UInt8(ascii: "/")
        }) else { return (nil, text) }
        return (String(decoding: bytes[..<index], as: UTF8.self), String(decoding: bytes[(index + 3)...], as: UTF8.self))
    }

    /// `host[:port]` → host (`[::1]:80` → `[::1]`).
    private static func hostPart(_ authority: String) -> String {
        if authority.hasPrefix("[") {
            guard let end = authority.firstIndex(of: "]") else { return authority }
            return String(authority[...end])
        }
        return String(authority.split(separator: Character(":"), maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// Decides a handshake request: origin, token, connection cap.
    static func decide(_ head: HTTPRequestHead, configuration: Configuration, open: Int) -> HandshakeDecision {
        decide(
            origin: head.headers["Origin"].first, subprotocols: head.headers["Sec-WebSocket-Protocol"], uri: head.uri,
            configuration: configuration, open: open)
    }

    /// Decides a handshake from its `Origin`, its `Sec-WebSocket-Protocol` header values, its
    /// request URI, and the number of connections open.
    public static func decide(
        origin: String?, subprotocols: [String], uri: String, configuration: Configuration, open: Int
    ) -> HandshakeDecision {
        guard let origin else {
            return .refuse(status: 403, reason: "no Origin header")
        }
        guard originAllowed(origin, patterns: configuration.origins) else {
            return .refuse(status: 403, reason: "origin \(origin) is not allowed")
        }
        var subprotocol: String?
        if let token = configuration.token {
            let offered = subprotocols.flatMap { $0.split(separator: Character(",")) }.map { $0.trimmingSpaces() }
            let prefix = "focusd.token."
            if let match = offered.first(where: { $0.hasPrefix(prefix) && constantTimeEqual(String($0.dropFirst(prefix.count)), token) }) {
                subprotocol = match
            } else if let query = queryValue(uri, "token"), constantTimeEqual(query, token) {
                subprotocol = nil
            } else {
                let given = offered.contains { $0.hasPrefix(prefix) } || queryValue(uri, "token") != nil
                return .refuse(status: 403, reason: given ? "wrong token" : "a token is required")
            }
        }
        if open >= configuration.maxConnections {
            return .refuse(status: 503, reason: "too many WebSocket connections (the limit is \(configuration.maxConnections))")
        }
        return .accept(subprotocol: subprotocol)
    }

    static func queryValue(_ uri: String, _ name: String) -> String? {
        guard let question = uri.firstIndex(of: "?") else { return nil }
        for pair in uri[uri.index(after: question)...].split(separator: Character("&")) {
            let parts = pair.split(separator: Character("="), maxSplits: 1, omittingEmptySubsequences: false)
            if parts.first.map(String.init) == name { return parts.count > 1 ? percentDecoded(String(parts[1])) : "" }
        }
        return nil
    }

    private static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Compares without stopping at the first difference (the time says nothing about the token).
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) {
            difference |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
        }
        return difference == 0
    }

    /// Changes who may connect from now on (a configuration reload); connections already open
    /// stay. Call on the event loop.
    public func reconfigure(origins: [String], token: String?, maxConnections: Int) {
        state.value.configuration.origins = origins
        state.value.configuration.token = token
        state.value.configuration.maxConnections = maxConnections
    }

    /// Stops listening and closes every connection (WebSocket connections get a close frame).
    public func close() -> EventLoopFuture<Void> {
        let serverChannel = self.serverChannel
        return serverChannel.close()
            .flatMapError { _ in self.eventLoop.makeSucceededVoidFuture() }
            .flatMap { [state] () -> EventLoopFuture<Void> in
                let children = Array(state.value.children.values)
                let futures = children.map { $0.closeFuture }
                for child in children {
                    child.pipeline.triggerUserOutboundEvent(WebSocketMessageHandler.GoingAway(), promise: nil)
                    child.close(promise: nil)
                }
                return EventLoopFuture.andAllComplete(futures, on: self.eventLoop)
            }
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

/// Plain HTTP before (or instead of) the upgrade: refused handshakes get their status, `GET`s
/// of ``VarlinkWebSocketServer/Configuration/pages`` their page, the rest 404.
final class HTTPRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    static let name = "focusd.http"

    let configuration: VarlinkWebSocketServer.Configuration
    let state: NIOLoopBoundBox<VarlinkWebSocketServer.State>
    private var head: HTTPRequestHead?
    private var timeout: Scheduled<Void>?

    init(configuration: VarlinkWebSocketServer.Configuration, state: NIOLoopBoundBox<VarlinkWebSocketServer.State>) {
        self.configuration = configuration
        self.state = state
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        timeout = context.eventLoop.assumeIsolated().scheduleTask(in: configuration.handshakeTimeout) {
            channel.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timeout?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end:
            guard let head else { return }
            self.head = nil
            respond(context: context, to: head)
        }
    }

    private func respond(context: ChannelHandlerContext, to head: HTTPRequestHead) {
        if head.headers.contains(name: "Upgrade") {
            // The upgrader passed it on: refused (or not a WebSocket upgrade at all).
            var decision = VarlinkWebSocketServer.decide(head, configuration: state.value.configuration, open: state.value.open)
            if case .accept = decision { decision = .refuse(status: 403, reason: "not a valid WebSocket handshake") }
            guard case .refuse(let status, let reason) = decision else { return }
            configuration.limits.logger.notice(
                "refusing a WebSocket handshake", metadata: ["status": "\(status)", "reason": "\(reason)"])
            send(context: context, status: .init(statusCode: status), type: "text/plain; charset=utf-8",
                body: Array("\(reason)\n".utf8), close: true)
            return
        }
        let path = String(head.uri.split(separator: Character("?"), maxSplits: 1).first ?? "/")
        guard head.method == .GET || head.method == .HEAD, let page = configuration.pages[path] else {
            send(context: context, status: .notFound, type: "text/plain; charset=utf-8", body: Array("not found\n".utf8),
                close: true)
            return
        }
        send(context: context, status: .ok, type: page.contentType, body: head.method == .HEAD ? [] : page.body,
            close: !head.isKeepAlive)
    }

    private func send(context: ChannelHandlerContext, status: HTTPResponseStatus, type: String, body: [UInt8], close: Bool) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: "\(body.count)")
        headers.add(name: "Cache-Control", value: "no-store")
        if close { headers.add(name: "Connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        var buffer = context.channel.allocator.buffer(capacity: body.count)
        buffer.writeBytes(body)
        context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if close {
            let channel = context.channel
            done.whenComplete { _ in channel.close(promise: nil) }
        }
    }
}

/// Text frames ↔ Varlink messages: each text frame in becomes one NUL-terminated message for the
/// ``VarlinkConnection``; each message out (its NUL dropped) one text frame. Answers pings,
/// pings a silent peer, and says goodbye with a close frame.
final class WebSocketMessageHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = WebSocketFrame

    let pingInterval: TimeAmount?
    let logger: Logger
    private var closeSent = false
    private var heardFrom = true
    private var awaitingPong = false
    private var pingTask: Scheduled<Void>?
    private var closeCode = WebSocketErrorCode.policyViolation

    init(pingInterval: TimeAmount?, logger: Logger) {
        self.pingInterval = pingInterval
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        schedulePing(context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        pingTask?.cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        pingTask?.cancel()
        context.fireChannelInactive()
    }

    private func schedulePing(context: ChannelHandlerContext) {
        guard let pingInterval else { return }
        pingTask = context.eventLoop.assumeIsolated().scheduleTask(in: pingInterval) { [self] in
            guard context.channel.isActive else { return }
            if heardFrom {
                heardFrom = false
                awaitingPong = false
            } else if awaitingPong {
                logger.notice("closing WebSocket connection: no pong")
                closeConnection(context: context, .goingAway)
                return
            } else {
                awaitingPong = true
                context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .ping, data: context.channel.allocator.buffer(capacity: 0))), promise: nil)
            }
            schedulePing(context: context)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        heardFrom = true
        switch frame.opcode {
        case .text:
            var message = frame.unmaskedData
            // A NUL would end the message early on the connection: it never belongs in JSON text.
            // Text frames must be UTF-8 (RFC 6455 §8.1).
            if message.readableBytesView.contains(0) || String(validating: message.readableBytesView, as: UTF8.self) == nil {
                closeConnection(context: context, .dataInconsistentWithMessage)
                return
            }
            message.writeInteger(UInt8(0))
            context.fireChannelRead(wrapInboundOut(message))
        case .binary:
            logger.notice("closing WebSocket connection: a binary frame (Varlink messages are text frames)")
            closeConnection(context: context, .unacceptableData)
        case .ping:
            var payload = frame.unmaskedData
            var pong = context.channel.allocator.buffer(capacity: payload.readableBytes)
            pong.writeBuffer(&payload)
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: pong)), promise: nil)
        case .pong:
            awaitingPong = false
        case .connectionClose:
            // Echo the close, then end the connection (RFC 6455 §5.5.1).
            closeConnection(context: context, .normalClosure)
        default:
            break
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        var message = unwrapOutboundIn(data)
        if message.readableBytes > 0, message.getInteger(at: message.writerIndex - 1, as: UInt8.self) == 0 {
            message.moveWriterIndex(to: message.writerIndex - 1)
        }
        context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: message)), promise: promise)
    }

    /// The server is shutting down: the close frame says 1001 (going away), not 1008.
    struct GoingAway: Sendable {}

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        if event is GoingAway {
            closeCode = .goingAway
            promise?.succeed()
            return
        }
        context.triggerUserOutboundEvent(event, promise: promise)
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .all { sendCloseFrame(context: context) }
        context.close(mode: mode, promise: promise)
    }

    /// Says goodbye with `closeCode` (once), then closes: for closes this handler decides.
    private func closeConnection(context: ChannelHandlerContext, _ code: WebSocketErrorCode) {
        closeCode = code
        sendCloseFrame(context: context)
        context.close(promise: nil)
    }

    private func sendCloseFrame(context: ChannelHandlerContext) {
        guard !closeSent, context.channel.isActive else { return }
        closeSent = true
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: closeCode)
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)), promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard context.channel.isActive, !closeSent else { return }
        // WebSocketProtocolErrorHandler has already sent its close frame for these.
        if error is NIOWebSocketError { closeSent = true }
        logger.notice("closing WebSocket connection", metadata: ["error": "\(error)"])
        closeConnection(context: context, error is NIOWebSocketFrameAggregator.Error ? .messageTooLarge : .protocolError)
    }
}
