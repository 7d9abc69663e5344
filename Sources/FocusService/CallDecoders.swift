import FocusEngine
import Varlink

// The parameters of the calls a remote sends for every key press (`Move`, `Focus`), read
// straight from the parsed object instead of through `Decodable`, whose keyed containers cost
// half as much as parsing the message (callgrind). Each reads what the `Decodable` conformance
// reads, with the same strictness and the same errors (`InvalidParameter` naming the unknown
// field that sorts first, else the first bad member in declaration order; `null` is an absent
// optional): `CallDecoderTests` checks both over random parameter objects. The `Decodable`
// conformance stays the reference.

/// Throws `InvalidParameter` naming the first (sorted) member not in `known`, as strict decoding does.
private func rejectUnknown(_ members: [String: JSONValue], known: Set<String>) throws(VarlinkError) {
    var unknown: String?
    for key in members.keys where !known.contains(key) {
        if unknown == nil || key < unknown! { unknown = key }
    }
    if let unknown { throw .invalidParameter(unknown) }
}

private func optionalString(_ members: [String: JSONValue], _ key: String) throws(VarlinkError) -> String? {
    switch members[key] {
    case nil, .null?: return nil
    case .string(let text)?: return text
    default: throw .invalidParameter(key)
    }
}

private func optionalEnum<T: RawRepresentable>(_ members: [String: JSONValue], _ key: String) throws(VarlinkError) -> T? where T.RawValue == String {
    guard let text = try optionalString(members, key) else { return nil }
    guard let value = T(rawValue: text) else { throw .invalidParameter(key) }
    return value
}

struct MoveCall: Decodable, Equatable {
    var direction: Direction
    var scene: String?
    var wrap: Bool?
    var track: Track?

    private static let known: Set<String> = ["direction", "scene", "wrap", "track"]

    init(direction: Direction, scene: String? = nil, wrap: Bool? = nil, track: Track? = nil) {
        self.direction = direction
        self.scene = scene
        self.wrap = wrap
        self.track = track
    }

    /// What `parameters.decodeParameters(MoveCall.self)` gives, without `Decodable`.
    init(parameters: JSONValue) throws(VarlinkError) {
        guard case .object(let members) = parameters else { throw .invalidParameter("parameters") }
        try rejectUnknown(members, known: Self.known)
        guard case .string(let text)? = members["direction"], let direction = Direction(rawValue: text) else {
            throw .invalidParameter("direction")
        }
        self.direction = direction
        scene = try optionalString(members, "scene")
        switch members["wrap"] {
        case nil, .null?: wrap = nil
        case .bool(let flag)?: wrap = flag
        default: throw .invalidParameter("wrap")
        }
        track = try optionalEnum(members, "track")
    }
}

struct FocusCall: Decodable, Equatable {
    var id: String?
    var scene: String?
    var track: Track?

    private static let known: Set<String> = ["id", "scene", "track"]

    init(id: String? = nil, scene: String? = nil, track: Track? = nil) {
        self.id = id
        self.scene = scene
        self.track = track
    }

    /// What `parameters.decodeParameters(FocusCall.self)` gives, without `Decodable`.
    init(parameters: JSONValue) throws(VarlinkError) {
        guard case .object(let members) = parameters else { throw .invalidParameter("parameters") }
        try rejectUnknown(members, known: Self.known)
        id = try optionalString(members, "id")
        scene = try optionalString(members, "scene")
        track = try optionalEnum(members, "track")
    }
}
