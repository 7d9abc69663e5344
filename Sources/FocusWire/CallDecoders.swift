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
    try optionalString(members[key], key)
}

/// ``optionalString(_:_:)`` of a member already found (`value`, named `key`).
private func optionalString(_ value: JSONValue?, _ key: String) throws(VarlinkError) -> String? {
    switch value {
    case nil, .null?: return nil
    case .string(let text)?: return text
    default: throw .invalidParameter(key)
    }
}

/// ``optionalEnum(_:_:)`` of a member already found.
private func optionalEnum<T: RawRepresentable>(_ value: JSONValue?, _ key: String) throws(VarlinkError) -> T? where T.RawValue == String {
    guard let text = try optionalString(value, key) else { return nil }
    guard let value = T(rawValue: text) else { throw .invalidParameter(key) }
    return value
}

private func optionalEnum<T: RawRepresentable>(_ members: [String: JSONValue], _ key: String) throws(VarlinkError) -> T? where T.RawValue == String {
    try optionalEnum(members[key], key)
}

package struct MoveCall: Decodable, Equatable {
    /// The directions by name: `Direction(rawValue:)` compares the name with each case's in
    /// turn (0.37k instructions a `Move`), a hash lookup costs a fraction of that.
    private static let directions = Dictionary(uniqueKeysWithValues: Direction.allCases.map { ($0.rawValue, $0) })

    package var direction: Direction
    package var scene: String?
    package var wrap: Bool?
    package var track: Track?

    package init(direction: Direction, scene: String? = nil, wrap: Bool? = nil, track: Track? = nil) {
        self.direction = direction
        self.scene = scene
        self.wrap = wrap
        self.track = track
    }

    /// What `parameters.decodeParameters(MoveCall.self)` gives, without `Decodable`.
    package init(parameters: JSONValue) throws(VarlinkError) {
        try self.init { VarlinkCall(method: "", parameters: parameters).forEachParameter($0) }
    }

    /// ``init(parameters:)`` of `call`'s parameters, read in whichever form the call holds them
    /// (a small call's list of members is not made into an object first).
    package init(call: VarlinkCall) throws(VarlinkError) {
        try self.init { call.forEachParameter($0) }
    }

    /// ``init(parameters:)`` of `context`'s call, read in place.
    package init(context: VarlinkCallContext) throws(VarlinkError) {
        try self.init { context.forEachParameter($0) }
    }

    /// The parameters `forEachParameter` visits (false: they are not an object).
    private init(_ forEachParameter: ((String, JSONValue) -> Void) -> Bool) throws(VarlinkError) {
        // One pass over the members (a `Move` has two or three), each named by comparing
        // strings: a lookup per field and a set lookup per member hashed six strings a call.
        var direction: JSONValue?, scene: JSONValue?, wrap: JSONValue?, track: JSONValue?
        var unknown: String?
        let isObject = forEachParameter { key, value in
            if key == "direction" {
                direction = value
            } else if key == "scene" {
                scene = value
            } else if key == "wrap" {
                wrap = value
            } else if key == "track" {
                track = value
            } else if unknown == nil || key < unknown! {
                unknown = key
            }
        }
        guard isObject else { throw .invalidParameter("parameters") }
        if let unknown { throw .invalidParameter(unknown) }
        guard case .string(let text)? = direction, let direction = Self.directions[text] else {
            throw .invalidParameter("direction")
        }
        self.direction = direction
        self.scene = try optionalString(scene, "scene")
        switch wrap {
        case nil, .null?: self.wrap = nil
        case .bool(let flag)?: self.wrap = flag
        default: throw .invalidParameter("wrap")
        }
        self.track = try optionalEnum(track, "track")
    }
}

package struct FocusCall: Decodable, Equatable {
    package var id: String?
    package var scene: String?
    package var track: Track?

    private static let known: Set<String> = ["id", "scene", "track"]

    package init(id: String? = nil, scene: String? = nil, track: Track? = nil) {
        self.id = id
        self.scene = scene
        self.track = track
    }

    /// What `parameters.decodeParameters(FocusCall.self)` gives, without `Decodable`.
    package init(parameters: JSONValue) throws(VarlinkError) {
        guard case .object(let members) = parameters else { throw .invalidParameter("parameters") }
        try rejectUnknown(members, known: Self.known)
        id = try optionalString(members, "id")
        scene = try optionalString(members, "scene")
        track = try optionalEnum(members, "track")
    }
}
