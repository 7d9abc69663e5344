/// A violation of the Varlink wire protocol; the connection it happens on is closed.
public enum VarlinkProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The message is not valid JSON (or nests too deeply).
    case malformedJSON(JSONParseError)
    /// The message is valid JSON but not an object.
    case notAnObject
    /// The message has a field the protocol does not define.
    case unknownField(String)
    /// A field has the wrong type or a required field is missing.
    case invalidField(String)
    /// The message is longer than the configured cap (bytes, excluding the NUL).
    case messageTooLarge(limit: Int)
    /// The peer closed the connection in the middle of a message.
    case truncatedMessage

    public var description: String {
        switch self {
        case .malformedJSON(let error): return "malformed JSON: \(error)"
        case .notAnObject: return "message is not a JSON object"
        case .unknownField(let name): return "unknown message field \"\(name)\""
        case .invalidField(let name): return "missing or mistyped message field \"\(name)\""
        case .messageTooLarge(let limit): return "message longer than \(limit) bytes"
        case .truncatedMessage: return "connection closed in the middle of a message"
        }
    }
}

/// A method call as sent by a client.
public struct VarlinkCall: Hashable, Sendable {
    /// The fully qualified method, e.g. `org.varlink.service.GetInfo`.
    public var method: String
    /// The call's parameters (always an object; `{}` when the message had none). A small call's
    /// (``members``) are made into an object each time they are asked for here.
    public var parameters: JSONValue {
        get {
            guard let members else { return tree }
            var object = [String: JSONValue](minimumCapacity: members.count)
            for member in members { object[member.name] = member.value }
            return .object(object)
        }
        set {
            tree = newValue
            members = nil
        }
    }
    /// The parameters, unless ``members`` holds them.
    private var tree: JSONValue
    /// A small call's parameters as its fast reader found them (``small(_:knownMethod:)``): each
    /// name once, in the message's order, each value a string, a Boolean or null; nil when
    /// ``parameters`` holds them. The object they stand for is not built: a `Move` made a
    /// dictionary for its two parameters (allocated, each name hashed and inserted, freed: 2k
    /// instructions) only to read them back one by one. ``forEachParameter(_:)`` reads either form.
    package private(set) var members: [Member]?

    /// A member of a small call's parameters.
    package struct Member: Sendable {
        package let name: String
        package let value: JSONValue
    }
    /// The client wants no reply.
    public var oneway: Bool
    /// The client accepts several replies (a stream).
    public var more: Bool
    /// The client asks to upgrade the connection to another protocol (not supported by this server).
    public var upgrade: Bool

    public init(method: String, parameters: JSONValue = [:], oneway: Bool = false, more: Bool = false, upgrade: Bool = false) {
        self.method = method
        self.tree = parameters
        self.oneway = oneway
        self.more = more
        self.upgrade = upgrade
    }

    /// A small call whose parameters are `members` (distinct names).
    /// (Each field set once: delegating to the general initializer and setting `members` after
    /// made the call and then copied it, a retain and a release of each of its parts per call.)
    init(method: String, members: [Member], oneway: Bool, more: Bool, upgrade: Bool) {
        self.method = method
        self.tree = [:]
        self.members = members
        self.oneway = oneway
        self.more = more
        self.upgrade = upgrade
    }

    /// Calls `body` with each member of the parameters' object (in no set order), without
    /// making the object of a small call's ``members``; false when the parameters are not an
    /// object (nothing is called then).
    /// (Not generic, nor throwing: a generic one was called unspecialized from other modules.)
    @discardableResult
    package func forEachParameter(_ body: (String, JSONValue) -> Void) -> Bool {
        if let members {
            // By index: each member read in place, not copied out first.
            for index in members.indices { body(members[index].name, members[index].value) }
            return true
        }
        guard case .object(let object) = tree else { return false }
        for (key, value) in object { body(key, value) }
        return true
    }

    // The same call whatever form its parameters are in.
    public static func == (lhs: VarlinkCall, rhs: VarlinkCall) -> Bool {
        lhs.method == rhs.method && lhs.oneway == rhs.oneway && lhs.more == rhs.more && lhs.upgrade == rhs.upgrade
            && lhs.parameters == rhs.parameters
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(parameters)
        hasher.combine(oneway)
        hasher.combine(more)
        hasher.combine(upgrade)
    }

    /// The interface part of ``method`` (everything before the last dot).
    public var interface: String {
        guard let dot = lastDot else { return "" }
        return String(method[..<dot])
    }

    /// The member part of ``method`` (after the last dot).
    public var memberName: String {
        guard let dot = lastDot else { return method }
        return String(method[method.utf8.index(after: dot)...])
    }

    /// The last dot of ``method``, found among its UTF-8 bytes (a search by `Character` cost
    /// 1.8k instructions a call, each time a dispatch asked for the interface or the member).
    private var lastDot: String.Index? { method.utf8.lastIndex(of: UInt8(ascii: ".")) }

    /// Decodes a call from one message (without its NUL).
    public init(message bytes: some Collection<UInt8>, depthLimit: Int = JSONValue.defaultDepthLimit) throws(VarlinkProtocolError) {
        try self.init(message: bytes, depthLimit: depthLimit, knownMethod: nil)
    }

    /// Decodes a call; a small call naming `knownMethod` (the method of the call before, as
    /// the server resolved it) shares that string instead of making its own.
    init(message bytes: some Collection<UInt8>, depthLimit: Int, knownMethod: String?) throws(VarlinkProtocolError) {
        if depthLimit >= 8, let call = bytes.withContiguousStorageIfAvailable({ Self.small($0, knownMethod: knownMethod) }) ?? nil {
            self = call
            return
        }
        try self.init(parsing: bytes, depthLimit: depthLimit)
    }

    /// The general way, through a ``JSONValue`` tree (the reference for ``small(_:)``).
    init(parsing bytes: some Collection<UInt8>, depthLimit: Int = JSONValue.defaultDepthLimit) throws(VarlinkProtocolError) {
        let value: JSONValue
        do { value = try JSONValue.parse(bytes, depthLimit: depthLimit) } catch { throw .malformedJSON(error) }
        guard case .object(let fields) = value else { throw .notAnObject }
        var method: String?
        var parameters: JSONValue = [:]
        var flags = (oneway: false, more: false, upgrade: false)
        for (key, field) in fields {
            switch key {
            case "method":
                guard case .string(let name) = field else { throw .invalidField(key) }
                method = name
            case "parameters":
                switch field {
                case .object: parameters = field
                case .null: break
                default: throw .invalidField(key)
                }
            case "oneway", "more", "upgrade":
                let flag: Bool
                switch field {
                case .bool(let value): flag = value
                case .null: flag = false
                default: throw .invalidField(key)
                }
                if key == "oneway" { flags.oneway = flag } else if key == "more" { flags.more = flag } else { flags.upgrade = flag }
            default:
                throw .unknownField(key)
            }
        }
        guard let method else { throw .invalidField("method") }
        self.init(method: method, parameters: parameters, oneway: flags.oneway, more: flags.more, upgrade: flags.upgrade)
    }

    /// The message bytes of this call (without the NUL).
    public func serialized() -> [UInt8] {
        var fields: [String: JSONValue] = ["method": .string(method), "parameters": parameters]
        if oneway { fields["oneway"] = true }
        if more { fields["more"] = true }
        if upgrade { fields["upgrade"] = true }
        return JSONValue.object(fields).serialized()
    }
}

/// One reply to a call: parameters, or an error; `continues` when more replies follow.
public struct VarlinkReply: Hashable, Sendable {
    /// The reply's parameters (an object); for an error, the error's parameters.
    public var parameters: JSONValue
    /// More replies to the same call follow.
    public var continues: Bool
    /// The qualified error name when this reply is an error.
    public var error: String?

    public init(parameters: JSONValue = [:], continues: Bool = false, error: String? = nil) {
        self.parameters = parameters
        self.continues = continues
        self.error = error
    }

    /// Decodes a reply from one message (without its NUL).
    public init(message bytes: some Collection<UInt8>, depthLimit: Int = JSONValue.defaultDepthLimit) throws(VarlinkProtocolError) {
        let value: JSONValue
        do { value = try JSONValue.parse(bytes, depthLimit: depthLimit) } catch { throw .malformedJSON(error) }
        guard case .object(let fields) = value else { throw .notAnObject }
        self.init()
        for (key, field) in fields {
            switch (key, field) {
            case ("parameters", .object): parameters = field
            case ("parameters", .null): break
            case ("continues", .bool(let flag)): continues = flag
            case ("continues", .null): break
            case ("error", .string(let name)): error = name
            case ("error", .null): break
            case ("parameters", _), ("continues", _), ("error", _): throw .invalidField(key)
            default: throw .unknownField(key)
            }
        }
    }

    /// The message bytes of this reply (without the NUL); absent fields are omitted.
    public func serialized() -> [UInt8] {
        var output: [UInt8] = []
        write(into: &output)
        return output
    }

    /// The message bytes of a reply whose parameters are already JSON text (an object).
    static func message(encodedParameters: [UInt8], continues: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(encodedParameters.count + 40)
        output.append(contentsOf: #"{"parameters":"#.utf8)
        output.append(contentsOf: encodedParameters)
        if continues { output.append(contentsOf: #","continues":true"#.utf8) }
        output.append(UInt8(ascii: "}"))
        return output
    }

    /// Appends the message bytes of this reply (without the NUL) to `output`.
    public func write(into output: inout [UInt8]) {
        output.append(contentsOf: #"{"parameters":"#.utf8)
        parameters.write(into: &output)
        if continues { output.append(contentsOf: #","continues":true"#.utf8) }
        if let error {
            output.append(contentsOf: #","error":"#.utf8)
            JSONValue.writeString(error, into: &output)
        }
        output.append(UInt8(ascii: "}"))
    }
}
