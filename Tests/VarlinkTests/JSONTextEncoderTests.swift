import Testing
@testable import Varlink

private struct Tile: Codable, Equatable {
    enum Kind: String, Codable { case poster, button }
    struct Frame: Codable, Equatable { var x, y, width, height: Double }
    var id: String
    var kind: Kind
    var frame: Frame?
    var tags: [String]
    var values: [String: Int]
    var count: UInt8
    var extra: JSONValue?
}

/// Writes a nested keyed container, a nested unkeyed one, then a plain member: the nested ones
/// must be closed before the member that follows them.
private struct Nesting: Encodable {
    enum Key: String, CodingKey { case first, list, last, sup }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        var first = container.nestedContainer(keyedBy: Key.self, forKey: .first)
        try first.encode(1, forKey: .last)
        var list = container.nestedUnkeyedContainer(forKey: .list)
        try list.encode("a")
        var inner = list.nestedUnkeyedContainer()
        try inner.encodeNil()
        try list.encode(true)
        _ = container.superEncoder(forKey: .sup)
        try container.encode("end", forKey: .last)
    }
}

/// Keeps a nested container and writes to it after its parent moved on.
private struct StaleContainer: Encodable {
    enum Key: String, CodingKey { case a, b }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        var nested = container.nestedContainer(keyedBy: Key.self, forKey: .a)
        try container.encode(1, forKey: .b)
        try nested.encode(2, forKey: .b)
    }
}

private struct Wrapper<T: Encodable>: Encodable { var value: T }

@Suite("Encoding Codable types straight to JSON text")
struct JSONTextEncoderTests {
    private func text(_ value: some Encodable) throws -> String {
        String(decoding: try JSONTextEncoder().encode(value), as: UTF8.self)
    }

    @Test("members come out in declaration order, nil optionals are left out")
    func declarationOrder() throws {
        let tile = Tile(id: "t\"1", kind: .poster, frame: .init(x: 0, y: 1.5, width: 100, height: 1e-5), tags: ["a", "b\n"],
                        values: ["k": -3], count: 255, extra: nil)
        #expect(try text(tile) == #"{"id":"t\"1","kind":"poster","frame":{"x":0.0,"y":1.5,"width":100.0,"height":1e-05},"tags":["a","b\n"],"values":{"k":-3},"count":255}"#)
    }

    @Test("the text parses back to what the JSON value decoder reads as the same value")
    func roundTrip() throws {
        let tiles = [
            Tile(id: "x", kind: .button, frame: nil, tags: [], values: [:], count: 0, extra: ["nested": [1, 2.5, nil, "s", false]]),
            Tile(id: "ü – \u{1}", kind: .poster, frame: .init(x: -1, y: 2, width: 3, height: 4), tags: ["\\"], values: ["a": 1, "b": 2],
                 count: 7, extra: .string("e")),
        ]
        let bytes = try JSONTextEncoder().encode(tiles)
        #expect(try JSONValue.parse(bytes).decode([Tile].self) == tiles)
        #expect(try JSONValue.parse(bytes) == JSONValue(encoding: tiles))
    }

    @Test("a JSON value encodes as its own text")
    func jsonValue() throws {
        let value: JSONValue = ["b": [1, 2.5, nil, true, "x"], "a": ["c": [:]]]
        #expect(try JSONTextEncoder().encode(value) == value.serialized())
        #expect(try text(Wrapper(value: value)) == #"{"value":"# + value.description + "}")
    }

    @Test("nested containers are closed before the next member of their parent")
    func nestedContainers() throws {
        #expect(try text(Nesting()) == #"{"first":{"last":1},"list":["a",[null],true],"sup":{},"last":"end"}"#)
    }

    @Test("writing into a nested container after its parent moved on throws instead of corrupting the text")
    func staleContainer() {
        #expect(throws: EncodingError.self) { try JSONTextEncoder().encode(StaleContainer()) }
    }

    @Test("non-finite doubles throw: JSON cannot carry them", arguments: [Double.nan, .infinity, -.infinity])
    func nonFinite(number: Double) {
        #expect(throws: EncodingError.self) { try JSONTextEncoder().encode(Wrapper(value: number)) }
        #expect(throws: EncodingError.self) { try JSONTextEncoder().encode(Wrapper(value: JSONValue.double(number))) }
    }

    @Test("top-level scalars and optionals encode as bare JSON values")
    func topLevelScalars() throws {
        #expect(try text(42) == "42")
        #expect(try text("s") == #""s""#)
        #expect(try text(Int?.none) == "null")
        #expect(try text([Int64.min, 0]) == "[-9223372036854775808,0]")
        #expect(try text(Float(0.5)) == "0.5")
    }
}
