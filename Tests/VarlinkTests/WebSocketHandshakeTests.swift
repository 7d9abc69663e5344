import Testing
import Varlink

@Suite("WebSocket handshake decisions")
struct WebSocketHandshakeTests {
    typealias Server = VarlinkWebSocketServer

    @Test("the default origins are this machine's pages on any port, http or https, and file:")
    func defaultOrigins() {
        let allowed = Server.Configuration.defaultOrigins
        for origin in ["http://localhost", "http://localhost:8080", "https://127.0.0.1:8443", "http://[::1]:3000", "file://",
            "HTTP://LOCALHOST"]
        {
            #expect(Server.originAllowed(origin, patterns: allowed), "\(origin)")
        }
        for origin in ["http://localhost.evil.example", "http://evil.example", "null", "http://127.0.0.2", "ftp://localhost",
            "http://[::2]", "localhost"]
        {
            #expect(!Server.originAllowed(origin, patterns: allowed), "\(origin)")
        }
    }

    @Test("configured origins: exact with a port, any port without one, and *")
    func configuredOrigins() {
        let patterns = ["https://kiosk.example", "http://panel.local:8080"]
        #expect(Server.originAllowed("https://kiosk.example:444", patterns: patterns))
        #expect(!Server.originAllowed("http://kiosk.example", patterns: patterns))
        #expect(Server.originAllowed("http://panel.local:8080", patterns: patterns))
        #expect(!Server.originAllowed("http://panel.local:8081", patterns: patterns))
        #expect(Server.originAllowed("https://anything.example", patterns: ["*"]))
    }

    @Test("a token is taken from the subprotocol (echoed back) or ?token=, and compared whole")
    func token() {
        var configuration = Server.Configuration()
        configuration.token = "0123456789abcdef"
        func decide(_ protocols: [String], _ uri: String = "/") -> Server.HandshakeDecision {
            Server.decide(origin: "http://localhost", subprotocols: protocols, uri: uri, configuration: configuration, open: 0)
        }
        #expect(decide(["chat, focusd.token.0123456789abcdef"]) == .accept(subprotocol: "focusd.token.0123456789abcdef"))
        #expect(decide([], "/?a=1&token=0123456789abcdef") == .accept(subprotocol: nil))
        #expect(decide([], "/?token=0123456789abcde%66") == .accept(subprotocol: nil))
        #expect(decide([]) == .refuse(status: 403, reason: "a token is required"))
        #expect(decide(["focusd.token.0123456789abcde"]) == .refuse(status: 403, reason: "wrong token"))
        #expect(decide(["focusd.token.0123456789abcdefX"]) == .refuse(status: 403, reason: "wrong token"))
        #expect(decide([], "/?token=") == .refuse(status: 403, reason: "wrong token"))
    }

    @Test("origin first, then token, then the connection cap (503)")
    func order() {
        var configuration = Server.Configuration()
        configuration.maxConnections = 2
        #expect(
            Server.decide(origin: nil, subprotocols: [], uri: "/", configuration: configuration, open: 0)
                == .refuse(status: 403, reason: "no Origin header"))
        #expect(
            Server.decide(origin: "http://evil.example", subprotocols: [], uri: "/", configuration: configuration, open: 5)
                == .refuse(status: 403, reason: "origin http://evil.example is not allowed"))
        #expect(
            Server.decide(origin: "file://", subprotocols: [], uri: "/", configuration: configuration, open: 1) == .accept(subprotocol: nil))
        #expect(
            Server.decide(origin: "file://", subprotocols: [], uri: "/", configuration: configuration, open: 2)
                == .refuse(status: 503, reason: "too many WebSocket connections (the limit is 2)"))
    }
}
