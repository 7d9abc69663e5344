/// What a service read straight from a large call's parameter bytes (``LargeCallDecoder``).
public struct DecodedParameters: Sendable {
    /// Bytes the parameters object took, from its opening brace.
    public var length: Int
    /// What ``VarlinkCallContext/parameters`` holds for the call: the members that dispatch
    /// (the check for undeclared parameters) and the handler read before they use ``value``,
    /// e.g. a name, each as the message has it; not the whole parameters.
    public var parameters: JSONValue
    /// The parameters as the handler uses them (``VarlinkCallContext/decoded``).
    public var value: any Sendable

    public init(length: Int, parameters: JSONValue, value: any Sendable) {
        self.length = length
        self.parameters = parameters
        self.value = value
    }
}

/// Reads the parameters of a large call (one parsed off the event loop) straight from the
/// message's bytes, when the service can take them as they are: given the method and the
/// bytes from the parameters object's opening brace to the end of the message (the object is
/// at nesting depth 2: the message is 1), it returns what it read, or nil and the call is
/// parsed the general way. It must return a value only for bytes the general parser accepts
/// (valid JSON, no key twice, no deeper than the limit) and that the handler would read to
/// the same value, so that replies and errors stay the general way's.
public typealias LargeCallDecoder = @Sendable (_ method: String, _ parameters: UnsafeRawBufferPointer, _ depthLimit: Int) -> DecodedParameters?

extension VarlinkCall {
    /// The call in `bytes` with its parameters read by `decoder`, without building a
    /// ``JSONValue`` tree for the message; nil goes the general way. The envelope is read as
    /// ``small(_:)`` reads it (`method` before `parameters`, strings of printable ASCII
    /// without escapes, flags `true` or `false`, each member once); the parameters are the
    /// decoder's.
    static func large(
        _ bytes: UnsafeBufferPointer<UInt8>, depthLimit: Int, decoder: LargeCallDecoder
    ) -> (call: VarlinkCall, decoded: any Sendable)? {
        guard depthLimit >= 1 else { return nil }
        var reader = Reader(bytes: bytes)
        guard reader.take(UInt8(ascii: "{")) else { return nil }
        var method: String?
        var decoded: DecodedParameters?
        var flags = CallFlags()
        repeat {
            guard let key = reader.string(), reader.take(UInt8(ascii: ":")) else { return nil }
            switch key {
            case "method":
                guard method == nil, let name = reader.string() else { return nil }
                method = name
            case "parameters":
                guard decoded == nil, let method else { return nil }
                reader.skipSpace()
                let start = reader.position
                guard start < bytes.count, bytes[start] == UInt8(ascii: "{"),
                    let parameters = decoder(method, UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start...])), depthLimit),
                    parameters.length > 0, parameters.length <= bytes.count - start
                else { return nil }
                reader.position = start + parameters.length
                decoded = parameters
            case "oneway", "more", "upgrade":
                guard case .bool(let flag)? = reader.scalar(), flags.take(key, flag) else { return nil }
            default:
                return nil
            }
        } while reader.take(UInt8(ascii: ","))
        guard reader.take(UInt8(ascii: "}")), reader.atEnd, let method, let decoded else { return nil }
        let call = VarlinkCall(
            method: method, parameters: decoded.parameters, oneway: flags.oneway ?? false,
            more: flags.more ?? false, upgrade: flags.upgrade ?? false)
        return (call, decoded.value)
    }
}
