import FoundationEssentials
import Testing
@testable import Varlink

@Suite("JSON values")
struct JSONValueTests {
    @Test("parses every kind of value and serializes it back to equivalent text")
    func roundTrip() throws {
        let text = #"{"a":[1,-2,3.5,1e3,true,false,null],"b":{"c":"d\n\"é😀"},"e":9223372036854775807}"#
        let value = try JSONValue.parse(text)
        #expect(value["a"] == [1, -2, 3.5, 1000.0, true, false, nil])
        #expect(value["b"]?["c"]?.stringValue == "d\n\"é😀")
        #expect(value["e"] == .integer(.max))
        #expect(try JSONValue.parse(value.serialized()) == value)
    }

    @Test("decodes \\u escapes, surrogate pairs included")
    func unicodeEscapes() throws {
        #expect(try JSONValue.parse(#""\u00e9\ud83d\ude00\/""#) == "é😀/")
        #expect(throws: JSONParseError.self) { try JSONValue.parse(#""\ud83d""#) }
    }

    @Test("accepts nesting up to the limit and refuses one level deeper")
    func depthLimit() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try JSONValue.parse(ok) }
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(throws: JSONParseError(reason: .tooDeep(limit: 512), offset: 512)) { try JSONValue.parse(deep) }
    }

    @Test("a depth bomb a million levels deep fails without exhausting the stack")
    func depthBomb() {
        let bomb = Array(repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(bomb) }
    }

    @Test("reports malformed input with the reason and offset", arguments: [
        (#"{"a":1,}"#, JSONParseError(reason: .unexpectedByte(UInt8(ascii: "}")), offset: 7)),
        (#"{"a" 1}"#, JSONParseError(reason: .unexpectedByte(UInt8(ascii: "1")), offset: 5)),
        ("[01]", JSONParseError(reason: .unexpectedByte(UInt8(ascii: "1")), offset: 2)),
        ("{} x", JSONParseError(reason: .trailingData, offset: 3)),
        (#"{"a":1,"a":2}"#, JSONParseError(reason: .duplicateKey("a"), offset: 7)),
        ("\"a\u{1}\"", JSONParseError(reason: .controlCharacterInString, offset: 2)),
        ("tru", JSONParseError(reason: .unexpectedEnd, offset: 3)),
        ("1.", JSONParseError(reason: .invalidNumber, offset: 2)),
    ])
    func malformed(text: String, expected: JSONParseError) {
        #expect(throws: expected) { try JSONValue.parse(text) }
    }

    @Test("rejects invalid UTF-8 inside strings")
    func invalidUTF8() {
        #expect(throws: JSONParseError(reason: .invalidUTF8, offset: 1)) {
            try JSONValue.parse([UInt8(ascii: "\""), 0xFF, UInt8(ascii: "\"")])
        }
    }

    @Test("serializes objects with sorted keys and escapes control characters")
    func serialization() {
        let value: JSONValue = ["b": 1, "a": "x\u{1}y", "c": 2.5]
        #expect(value.description == #"{"a":"x\u0001y","b":1,"c":2.5}"#)
    }

    @Test("decoding parameters into a struct names the offending parameter")
    func decodeParameters() throws {
        let good: JSONValue = ["a": ["x": 1, "y": 2], "b": ["x": 3, "y": 4]]
        let decoded: AddParameters = try good.decodeParameters()
        #expect(decoded.b == Point(x: 3, y: 4))

        let missing: JSONValue = ["a": ["x": 1, "y": 2]]
        #expect(throws: VarlinkError.invalidParameter("b")) { try missing.decodeParameters(AddParameters.self) }
        let nested: JSONValue = ["a": ["x": "one", "y": 2], "b": ["x": 3, "y": 4]]
        #expect(throws: VarlinkError.invalidParameter("a")) { try nested.decodeParameters(AddParameters.self) }
    }

    @Test("encodes Encodable values, leaving out nil optionals")
    func encoding() throws {
        #expect(try JSONValue(encoding: EchoParameters(text: "t", count: nil)) == ["text": "t"])
    }

    @Test("reply parameters encoded from Codable values must be objects")
    func encodedParametersMustBeObjects() throws {
        #expect(try encodeParameters(Point(x: 1, y: 2)).first == UInt8(ascii: "{"))
        #expect(throws: EncodingError.self) { try encodeParameters([1, 2]) }
        let message = VarlinkReply.message(encodedParameters: Array(#"{"a":1}"#.utf8), continues: true)
        #expect(try VarlinkReply(message: message) == VarlinkReply(parameters: ["a": 1], continues: true))
    }
}
