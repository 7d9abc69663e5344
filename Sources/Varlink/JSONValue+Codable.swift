extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var members: [String: JSONValue] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(JSONValue.self, forKey: key) }
            self = .object(members)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let flag = try? single.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? single.decode(Int64.self) {
            self = .integer(integer)
        } else if let number = try? single.decode(Double.self) {
            self = .double(number)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let flag):
            var single = encoder.singleValueContainer()
            try single.encode(flag)
        case .integer(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .double(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .string(let text):
            var single = encoder.singleValueContainer()
            try single.encode(text)
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements { try array.encode(element) }
        case .object(let members):
            var object = encoder.container(keyedBy: AnyCodingKey.self)
            for (key, value) in members { try object.encode(value, forKey: AnyCodingKey(key)) }
        }
    }
}

struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension JSONValue {
    /// Converts an `Encodable` value (typically a struct of an IDL type's fields) to a `JSONValue`.
    ///
    /// `nil` optionals are omitted, as Varlink expects for absent optional fields.
    public init(encoding value: some Encodable) throws {
        self = try JSONValue.parse(JSONTextEncoder().encode(value))
    }

    /// Decodes this value into a `Decodable` type, straight from the tree (no JSON text).
    ///
    /// Throws `DecodingError` with the coding path; use ``decodeParameters(_:)`` to get a Varlink
    /// `InvalidParameter` instead.
    ///
    /// - Parameter strict: reject object members the type does not declare (``UnknownFieldError``),
    ///   as call parameters are; leave it false to read replies, which may gain fields.
    public func decode<T: Decodable>(_ type: T.Type = T.self, strict: Bool = false) throws -> T {
        if let value = self as? T { return value }
        return try T(from: JSONValueDecoder(value: self, strict: strict))
    }

    /// Decodes call parameters into `T`, mapping failures to `org.varlink.service.InvalidParameter`
    /// naming the offending top-level parameter (a missing field names that field; a bad nested
    /// value names the parameter that contains it). Decoding is strict: a member `T` does not
    /// declare, at any depth, is named by its path (`focusible`, `scene.root.children[0].focusible`),
    /// as sd-varlink names unknown fields.
    public func decodeParameters<T: Decodable>(_ type: T.Type = T.self) throws(VarlinkError) -> T {
        do {
            return try decode(T.self, strict: true)
        } catch let error as UnknownFieldError {
            throw VarlinkError.invalidParameter(error.path)
        } catch let error as DecodingError {
            throw VarlinkError.invalidParameter(Self.parameterName(of: error))
        } catch {
            throw VarlinkError.invalidParameter("parameters")
        }
    }

    /// The top-level parameter a decoding error concerns ("parameters" when it is the whole object).
    static func parameterName(of error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return context.codingPath.first?.stringValue ?? key.stringValue
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.codingPath.first?.stringValue ?? "parameters"
        @unknown default:
            return "parameters"
        }
    }
}
