import FocusEngine
import FocusWire
import Testing
import Varlink

@testable import FocusService

/// The hand-written parameter readers of `Move` and `Focus` against strict `Decodable` decoding
/// (the reference) over random parameter objects, valid and not: the same value, or the same error.
@Suite("Hand-written call decoders")
struct CallDecoderTests {
    static func value(_ g: inout WireWriterTests.SplitMix, strings: [String]) -> JSONValue {
        switch Int.random(in: 0...8, using: &g) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &g))
        case 2: return .integer(Int64.random(in: -3...3, using: &g))
        case 3: return .double(1.5)
        case 4: return .array([.string("up")])
        case 5: return .object(["direction": .string("up")])
        default: return .string(strings.randomElement(using: &g)!)
        }
    }

    static func parameters(_ g: inout WireWriterTests.SplitMix, keys: [String]) -> JSONValue {
        if Int.random(in: 0...30, using: &g) == 0 { return [.string("up")] }
        // Every direction's name (the reader compares names by length), and names that are not.
        let strings = Direction.allCases.map(\.rawValue) + ["Up", "rightt", "lef", "", "main", "accessibility", "a", "é\"\\"]
        var members: [String: JSONValue] = [:]
        for key in keys + ["directon", "Scene", "a", "zz", "wrap ", "ids"] where Int.random(in: 0...9, using: &g) < (keys.contains(key) ? 6 : 1) {
            members[key] = value(&g, strings: strings)
        }
        return .object(members)
    }

    static func same<T: Decodable & Equatable>(_ parameters: JSONValue, _ fast: (JSONValue) throws(VarlinkError) -> T) {
        let reference = Result { () throws(VarlinkError) -> T in try parameters.decodeParameters(T.self) }
        let ours = Result { () throws(VarlinkError) -> T in try fast(parameters) }
        switch (reference, ours) {
        case (.success(let a), .success(let b)): #expect(a == b, "\(parameters)")
        case (.failure(let a), .failure(let b)): #expect(a.name == b.name && a.parameters == b.parameters, "\(parameters): \(a) against \(b)")
        default: Issue.record("\(parameters): reference \(reference), hand-written \(ours)")
        }
    }

    @Test("Move's parameters read by hand equal strict Decodable decoding, errors included, for 5,000 random objects, from the object and from a small call's members")
    func move() throws {
        var g = WireWriterTests.SplitMix(state: 7)
        var fromMembers = 0
        for _ in 0..<5000 {
            let parameters = Self.parameters(&g, keys: ["direction", "scene", "wrap", "track"])
            Self.same(parameters) { p throws(VarlinkError) in try MoveCall(parameters: p) }
            // The call as the server reads it from a message: a small one keeps its members as
            // a list (a message whose parameters are not an object is refused before any method).
            guard case .object = parameters else { continue }
            let call = try VarlinkCall(message: VarlinkCall(method: "io.focusd.Focus.Move", parameters: parameters).serialized())
            if call.members != nil { fromMembers += 1 }
            Self.same(parameters) { _ throws(VarlinkError) in try MoveCall(call: call) }
        }
        #expect(fromMembers > 500)
    }

    @Test("Focus's parameters read by hand equal strict Decodable decoding, errors included, for 5,000 random objects")
    func focus() {
        var g = WireWriterTests.SplitMix(state: 11)
        for _ in 0..<5000 {
            Self.same(Self.parameters(&g, keys: ["id", "scene", "track"])) { p throws(VarlinkError) in try FocusCall(parameters: p) }
        }
    }
}
