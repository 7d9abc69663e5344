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
        try self.init(call: VarlinkCall(method: "", parameters: parameters))
    }

    /// ``init(parameters:)`` of `call`'s parameters, read in whichever form the call holds them
    /// (a small call's list of members is not made into an object first).
    package init(call: VarlinkCall) throws(VarlinkError) {
        var fields = Fields()
        if let members = call.members {
            fields.take(members)
        } else {
            guard call.forEachParameter({ fields.take($0, $1) }) else { throw .invalidParameter("parameters") }
        }
        try self.init(fields)
    }

    /// ``init(parameters:)`` of `context`'s call, read in place.
    package init(context: VarlinkCallContext) throws(VarlinkError) {
        guard let members = context.members else {
            try self.init(call: context.call)
            return
        }
        var fields = Fields()
        fields.take(members)
        try self.init(fields)
    }

    /// The members of the parameters, each named by comparing strings (a `Move` has two or
    /// three): a lookup per field and a set lookup per member hashed six strings a call.
    private struct Fields {
        var direction: JSONValue?, scene: JSONValue?, wrap: JSONValue?, track: JSONValue?
        /// The unknown member's name that sorts first.
        var unknown: String?

        /// A small call's members (``VarlinkCall/members``), read by index without a closure:
        /// the visit through `forEachParameter`'s closure cost a `Move` 0.6k instructions.
        mutating func take(_ members: [VarlinkCall.Member]) {
            for index in members.indices { take(members[index].name, members[index].value) }
        }

        mutating func take(_ key: String, _ value: JSONValue) {
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
    }

    private init(_ fields: consuming Fields) throws(VarlinkError) {
        if let unknown = fields.unknown { throw .invalidParameter(unknown) }
        guard case .string(let text)? = fields.direction, let direction = Self.direction(named: text) else {
            throw .invalidParameter("direction")
        }
        self.direction = direction
        self.scene = try optionalString(fields.scene, "scene")
        switch fields.wrap {
        case nil, .null?: self.wrap = nil
        case .bool(let flag)?: self.wrap = flag
        default: throw .invalidParameter("wrap")
        }
        self.track = try optionalEnum(fields.track, "track")
    }

    /// The direction `name` names, compared with the names of its length (each a small string:
    /// comparing two is a comparison of two words or a short one of their bytes), where the
    /// lookup by hash cost ~300 instructions a `Move`. `CallDecoderTests` tries every name.
    private static func direction(named name: String) -> Direction? {
        switch name.utf8.count {
        case 2: return name == Direction.up.rawValue ? .up : nil
        case 4:
            return name == Direction.down.rawValue ? .down : name == Direction.left.rawValue ? .left
                : name == Direction.next.rawValue ? .next : nil
        case 5: return name == Direction.right.rawValue ? .right : nil
        case 8: return name == Direction.previous.rawValue ? .previous : nil
        default: return nil
        }
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
