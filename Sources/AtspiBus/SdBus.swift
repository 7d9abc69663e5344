// The one file that owns sd-bus's pointers (libsystemd): connections, messages, slots and errors.
// Everything above it sees D-Bus as Swift values (`DBusValue`), calls with reply closures and
// signal closures, and a descriptor to wait on.
import CSdBus

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value of a D-Bus message, decoded whole (the accessibility bus's messages are small).
public indirect enum DBusValue: Equatable, Sendable {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    case unixFD(Int32)
    case array([DBusValue])
    case structure([DBusValue])
    case variant(DBusValue)
    case dictEntry(DBusValue, DBusValue)

    /// The value inside any number of variants.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    public var string: String? {
        switch unwrapped {
        case .string(let s), .objectPath(let s), .signature(let s): return s
        default: return nil
        }
    }

    /// Any integer as Int, a bool as 0/1.
    public var int: Int? {
        switch unwrapped {
        case .byte(let v): return Int(v)
        case .bool(let v): return v ? 1 : 0
        case .int16(let v): return Int(v)
        case .uint16(let v): return Int(v)
        case .int32(let v): return Int(v)
        case .uint32(let v): return Int(v)
        case .int64(let v): return Int(v)
        case .uint64(let v): return Int(truncatingIfNeeded: v)
        default: return nil
        }
    }

    public var double: Double? {
        if case .double(let v) = unwrapped { return v }
        return int.map(Double.init)
    }

    public var bool: Bool? {
        if case .bool(let v) = unwrapped { return v }
        return nil
    }

    /// The members of an array or a structure.
    public var items: [DBusValue]? {
        switch unwrapped {
        case .array(let a), .structure(let a): return a
        default: return nil
        }
    }
}

/// What a call sends: the few argument types the accessibility interfaces take.
public enum DBusArgument: Sendable {
    case string(String)
    case int32(Int32)
    case uint32(UInt32)
    case bool(Bool)
    case stringArray([String])
    /// A variant holding a double (`Properties.Set` of `Value.CurrentValue`).
    case variantDouble(Double)
    case variantBool(Bool)
}

/// A D-Bus error reply, or a failure of the library (`name` is then `errno:NAME`).
public struct DBusError: Error, CustomStringConvertible, Sendable {
    public var name: String
    public var message: String
    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }
    public var description: String { message.isEmpty ? name : "\(name): \(message)" }

    static func library(_ call: String, _ result: Int32) -> DBusError {
        DBusError(name: "errno:\(-result)", message: "\(call): \(String(cString: strerror(-result)))")
    }
}

/// A signal as received.
public struct DBusSignal: Sendable {
    public var sender: String
    public var path: String
    public var interface: String
    public var member: String
    public var body: [DBusValue]
}

/// One sd-bus connection. Not thread-safe: it lives on one thread (the adapter's bus loop), which
/// waits on `descriptor` for `events` until `timeout` and then calls `process()`.
public final class DBusConnection {
    private var bus: OpaquePointer?
    private var slots: [OpaquePointer] = []
    private var signalHandlers: [Unmanaged<SignalBox>] = []

    private init(bus: OpaquePointer) { self.bus = bus }

    /// The session bus of `DBUS_SESSION_BUS_ADDRESS`.
    public static func session() throws(DBusError) -> DBusConnection {
        var bus: OpaquePointer?
        let r = sd_bus_open_user(&bus)
        guard r >= 0, let bus else { throw DBusError.library("sd_bus_open_user", r) }
        return DBusConnection(bus: bus)
    }

    /// A bus at `address` (the accessibility bus), as a client that says Hello.
    public static func connect(address: String) throws(DBusError) -> DBusConnection {
        var bus: OpaquePointer?
        var r = sd_bus_new(&bus)
        guard r >= 0, let bus else { throw DBusError.library("sd_bus_new", r) }
        let connection = DBusConnection(bus: bus)
        r = sd_bus_set_address(bus, address)
        if r < 0 { throw DBusError.library("sd_bus_set_address(\(address))", r) }
        r = sd_bus_set_bus_client(bus, 1)
        if r < 0 { throw DBusError.library("sd_bus_set_bus_client", r) }
        r = sd_bus_start(bus)
        if r < 0 { throw DBusError.library("sd_bus_start(\(address))", r) }
        return connection
    }

    deinit { close() }

    public func close() {
        for slot in slots { sd_bus_slot_unref(slot) }
        slots = []
        for box in signalHandlers { box.release() }
        signalHandlers = []
        if let bus { sd_bus_flush_close_unref(bus) }
        bus = nil
    }

    public var uniqueName: String {
        var name: UnsafePointer<CChar>?
        guard let bus, sd_bus_get_unique_name(bus, &name) >= 0, let name else { return "" }
        return String(cString: name)
    }

    // MARK: waiting

    /// The descriptor to wait on.
    public var descriptor: Int32 { bus.map { sd_bus_get_fd($0) } ?? -1 }

    /// The poll events to wait for (POLLIN, and POLLOUT while output is queued).
    public var events: Int16 { bus.map { Int16(truncatingIfNeeded: sd_bus_get_events($0)) } ?? 0 }

    /// The absolute CLOCK_MONOTONIC deadline in µs of the earliest pending call's timeout, or nil.
    public var deadline: UInt64? {
        var usec: UInt64 = 0
        guard let bus, sd_bus_get_timeout(bus, &usec) >= 0, usec != UInt64.max else { return nil }
        return usec
    }

    /// Runs every reply and signal that has arrived; returns when nothing is left to do.
    /// Throws when the connection is gone.
    public func processAll() throws(DBusError) {
        guard let bus else { throw DBusError(name: "closed", message: "the bus connection is closed") }
        while true {
            let r = sd_bus_process(bus, nil)
            if r < 0 { throw DBusError.library("sd_bus_process", r) }
            if r == 0 { return }
        }
    }

    // MARK: calls

    /// Calls a method; `reply` runs on this connection's thread with the decoded reply or the error
    /// (a timeout after `timeout` µs is an error too).
    public func call(
        destination: String, path: String, interface: String, member: String, arguments: [DBusArgument] = [],
        timeout: UInt64 = 2_000_000, reply: @escaping (Result<[DBusValue], DBusError>) -> Void
    ) {
        let message: OpaquePointer
        do {
            message = try makeCall(destination: destination, path: path, interface: interface, member: member, arguments: arguments)
        } catch {
            reply(.failure(error))
            return
        }
        defer { sd_bus_message_unref(message) }
        let box = Unmanaged.passRetained(ReplyBox(reply))
        let r = sd_bus_call_async(bus, nil, message, { m, userdata, _ in
            let box = Unmanaged<ReplyBox>.fromOpaque(userdata!).takeRetainedValue()
            box.handler(DBusConnection.decodeReply(m))
            return 1
        }, box.toOpaque(), timeout)
        if r < 0 {
            box.release()
            reply(.failure(DBusError.library("sd_bus_call_async(\(interface).\(member))", r)))
        }
    }

    /// Calls a method and waits for its reply (setup only: never on the event path).
    public func callAndWait(
        destination: String, path: String, interface: String, member: String, arguments: [DBusArgument] = [],
        timeout: UInt64 = 5_000_000
    ) throws(DBusError) -> [DBusValue] {
        let message = try makeCall(destination: destination, path: path, interface: interface, member: member, arguments: arguments)
        defer { sd_bus_message_unref(message) }
        var error = sd_bus_error(name: nil, message: nil, _need_free: 0)
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let r = sd_bus_call(bus, message, timeout, &error, &reply)
        if r < 0 {
            if let name = error.name {
                throw DBusError(name: String(cString: name), message: error.message.map { String(cString: $0) } ?? "")
            }
            throw DBusError.library("\(interface).\(member)", r)
        }
        defer { sd_bus_message_unref(reply) }
        return try DBusConnection.decodeReply(reply).get()
    }

    /// Runs `handler` for every signal matching `rule` (a D-Bus match rule); the rule is sent to
    /// the bus so the messages are routed here.
    public func addMatch(_ rule: String, handler: @escaping (DBusSignal) -> Void) throws(DBusError) {
        guard let bus else { throw DBusError(name: "closed", message: "the bus connection is closed") }
        let box = Unmanaged.passRetained(SignalBox(handler))
        var slot: OpaquePointer?
        let r = sd_bus_add_match(bus, &slot, rule, { m, userdata, _ in
            let box = Unmanaged<SignalBox>.fromOpaque(userdata!).takeUnretainedValue()
            guard let m else { return 0 }
            let signal = DBusSignal(
                sender: sd_bus_message_get_sender(m).map { String(cString: $0) } ?? "",
                path: sd_bus_message_get_path(m).map { String(cString: $0) } ?? "",
                interface: sd_bus_message_get_interface(m).map { String(cString: $0) } ?? "",
                member: sd_bus_message_get_member(m).map { String(cString: $0) } ?? "",
                body: (try? DBusConnection.decodeBody(m)) ?? [])
            box.handler(signal)
            return 0
        }, box.toOpaque())
        if r < 0 {
            box.release()
            throw DBusError.library("sd_bus_add_match(\(rule))", r)
        }
        if let slot { slots.append(slot) }
        signalHandlers.append(box)
    }

    // MARK: messages

    private func makeCall(
        destination: String, path: String, interface: String, member: String, arguments: [DBusArgument]
    ) throws(DBusError) -> OpaquePointer {
        guard let bus else { throw DBusError(name: "closed", message: "the bus connection is closed") }
        var message: OpaquePointer?
        let r = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
        guard r >= 0, let message else {
            throw DBusError.library("sd_bus_message_new_method_call(\(destination) \(path) \(interface).\(member))", r)
        }
        for argument in arguments {
            let r = DBusConnection.append(argument, to: message)
            if r < 0 {
                sd_bus_message_unref(message)
                throw DBusError.library("sd_bus_message_append(\(interface).\(member))", r)
            }
        }
        return message
    }

    private static func append(_ argument: DBusArgument, to m: OpaquePointer) -> Int32 {
        func basic<T>(_ type: UInt8, _ value: T) -> Int32 {
            withUnsafePointer(to: value) { sd_bus_message_append_basic(m, CChar(bitPattern: type), $0) }
        }
        func string(_ s: String) -> Int32 {
            s.withCString { sd_bus_message_append_basic(m, CChar(bitPattern: UInt8(ascii: "s")), $0) }
        }
        switch argument {
        case .string(let s): return string(s)
        case .int32(let v): return basic(UInt8(ascii: "i"), v)
        case .uint32(let v): return basic(UInt8(ascii: "u"), v)
        case .bool(let v): return basic(UInt8(ascii: "b"), Int32(v ? 1 : 0))
        case .stringArray(let list):
            var r = sd_bus_message_open_container(m, CChar(bitPattern: UInt8(ascii: "a")), "s")
            for s in list where r >= 0 { r = string(s) }
            return r < 0 ? r : sd_bus_message_close_container(m)
        case .variantDouble(let v):
            var r = sd_bus_message_open_container(m, CChar(bitPattern: UInt8(ascii: "v")), "d")
            if r >= 0 { r = basic(UInt8(ascii: "d"), v) }
            return r < 0 ? r : sd_bus_message_close_container(m)
        case .variantBool(let v):
            var r = sd_bus_message_open_container(m, CChar(bitPattern: UInt8(ascii: "v")), "b")
            if r >= 0 { r = basic(UInt8(ascii: "b"), Int32(v ? 1 : 0)) }
            return r < 0 ? r : sd_bus_message_close_container(m)
        }
    }

    private static func decodeReply(_ m: OpaquePointer?) -> Result<[DBusValue], DBusError> {
        guard let m else { return .failure(DBusError(name: "noReply", message: "no reply message")) }
        if sd_bus_message_is_method_error(m, nil) > 0 {
            let error = sd_bus_message_get_error(m)
            let name = error?.pointee.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed"
            let message = error?.pointee.message.map { String(cString: $0) } ?? ""
            return .failure(DBusError(name: name, message: message))
        }
        do throws(DBusError) {
            return .success(try decodeBody(m))
        } catch {
            return .failure(error)
        }
    }

    private static func decodeBody(_ m: OpaquePointer) throws(DBusError) -> [DBusValue] {
        var values: [DBusValue] = []
        while let value = try readNext(m) { values.append(value) }
        return values
    }

    /// The next value of the current container, or nil at its end.
    private static func readNext(_ m: OpaquePointer) throws(DBusError) -> DBusValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        var r = sd_bus_message_peek_type(m, &type, &contents)
        if r < 0 { throw DBusError.library("sd_bus_message_peek_type", r) }
        if r == 0 { return nil }
        let code = UInt8(bitPattern: type)
        func read<T>(_ initial: T) throws(DBusError) -> T {
            var value = initial
            let r = sd_bus_message_read_basic(m, type, &value)
            if r < 0 { throw DBusError.library("sd_bus_message_read_basic", r) }
            return value
        }
        switch code {
        case UInt8(ascii: "y"): return .byte(try read(UInt8(0)))
        case UInt8(ascii: "b"): return .bool(try read(Int32(0)) != 0)
        case UInt8(ascii: "n"): return .int16(try read(Int16(0)))
        case UInt8(ascii: "q"): return .uint16(try read(UInt16(0)))
        case UInt8(ascii: "i"): return .int32(try read(Int32(0)))
        case UInt8(ascii: "u"): return .uint32(try read(UInt32(0)))
        case UInt8(ascii: "x"): return .int64(try read(Int64(0)))
        case UInt8(ascii: "t"): return .uint64(try read(UInt64(0)))
        case UInt8(ascii: "d"): return .double(try read(Double(0)))
        case UInt8(ascii: "h"): return .unixFD(try read(Int32(-1)))
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            let pointer: UnsafePointer<CChar>? = try read(nil)
            let s = pointer.map { String(cString: $0) } ?? ""
            switch code {
            case UInt8(ascii: "s"): return .string(s)
            case UInt8(ascii: "o"): return .objectPath(s)
            default: return .signature(s)
            }
        case UInt8(ascii: "a"), UInt8(ascii: "r"), UInt8(ascii: "v"), UInt8(ascii: "e"):
            r = sd_bus_message_enter_container(m, type, contents)
            if r < 0 { throw DBusError.library("sd_bus_message_enter_container", r) }
            var members: [DBusValue] = []
            while let value = try readNext(m) { members.append(value) }
            r = sd_bus_message_exit_container(m)
            if r < 0 { throw DBusError.library("sd_bus_message_exit_container", r) }
            switch code {
            case UInt8(ascii: "a"): return .array(members)
            case UInt8(ascii: "r"): return .structure(members)
            case UInt8(ascii: "v"): return .variant(members.first ?? .structure([]))
            default:
                guard members.count == 2 else { throw DBusError(name: "malformed", message: "a dictionary entry of \(members.count) values") }
                return .dictEntry(members[0], members[1])
            }
        default:
            throw DBusError(name: "malformed", message: "unknown D-Bus type code \(code)")
        }
    }
}

private final class ReplyBox {
    let handler: (Result<[DBusValue], DBusError>) -> Void
    init(_ handler: @escaping (Result<[DBusValue], DBusError>) -> Void) { self.handler = handler }
}

private final class SignalBox {
    let handler: (DBusSignal) -> Void
    init(_ handler: @escaping (DBusSignal) -> Void) { self.handler = handler }
}
