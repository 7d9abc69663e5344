// The descriptor under a NIO socket channel, for writes straight to the socket.
//
// NIO's write path costs about 4.4k instructions per write (the pipeline walk, its pending-writes
// manager, the watermark's writability events, its exclusivity-checked lifecycle state): 40% of a
// `Move` with 8 monitors, and on one CPU the fan-out's latency is the server's CPU time
// (docs/fanout.md). A write the socket takes whole needs none of it: one `send`.
//
// NIO does not publish an accepted channel's descriptor. It is read by reflection from the
// channel's socket (`BaseSocketChannel.socket`, `BaseSocket.descriptor`) and accepted only when
// the kernel's cookie for it (`SO_COOKIE`) equals the one NIO's own `getsockopt` on the channel
// returns: a different layout in another NIO version finds nothing or a descriptor that fails the
// check, and the connection then writes through NIO as before.
import NIOCore
import SystemCalls

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

enum SocketDescriptor {
    /// The descriptor of `channel`'s socket, checked against the kernel's cookie; nil when it
    /// cannot be found or checked. On the channel's event loop (NIO answers its socket options
    /// synchronously there).
    static func find(of channel: any Channel) -> Int32? {
        guard let provider = channel as? any SocketOptionProvider,
            let socket = storedValue(named: "socket", in: channel),
            let descriptor = storedValue(named: "descriptor", in: socket) as? Int32,
            descriptor >= 0, let cookie = Posix.socketCookie(descriptor)
        else { return nil }
        let future: EventLoopFuture<UInt64> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(Posix.socketCookieOption))
        var checked: UInt64?
        future.assumeIsolated().whenSuccess { checked = $0 }  // already complete on the loop
        return checked == cookie ? descriptor : nil
    }

    /// The stored property `name` of `value` or of one of its superclasses, looked for from the
    /// root class down: both properties are declared in NIO's base classes, and each property a
    /// mirror passes costs its value's copy and its type's lookup (looked for from the subclass
    /// down, the lookup cost 19 µs a connection).
    private static func storedValue(named name: String, in value: Any) -> Any? {
        var mirrors = [Mirror(reflecting: value)]
        while let superclass = mirrors[mirrors.count - 1].superclassMirror { mirrors.append(superclass) }
        for mirror in mirrors.reversed() {
            if let child = mirror.children.first(where: { $0.label == name }) { return child.value }
        }
        return nil
    }
}
