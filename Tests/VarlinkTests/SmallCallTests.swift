import Testing

@testable import Varlink

/// The small-call reader against the general parse (through a `JSONValue` tree): over random
/// messages, plain and not, every call it reads is the call the general way reads, and a message
/// parsed as a whole gives the same call or the same error either way.
@Suite("Small calls read without a JSON tree")
struct SmallCallTests {
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func space(_ g: inout SplitMix) -> String {
        Int.random(in: 0...5, using: &g) == 0 ? [" ", "\n", "\t ", "\r\n", "\u{0C}"].randomElement(using: &g)! : ""
    }
    static func string(_ g: inout SplitMix) -> String {
        let words = ["io.focusd.Focus.Move", "up", "right", "bench", "", "a b", "é", "\\\"q\\\"", "x\\u0041", "\u{7F}", "\\n", "main"]
        return "\"" + words.randomElement(using: &g)! + "\""
    }
    static func value(_ g: inout SplitMix) -> String {
        ["true", "false", "null", "1", "-2.5", "[]", "{}", "[\"up\"]", "{\"a\":null}", "tru", "nul"].randomElement(using: &g)!
    }
    static func scalarOrOther(_ g: inout SplitMix) -> String {
        Int.random(in: 0...2, using: &g) == 0 ? value(&g) : string(&g)
    }

    static func message(_ g: inout SplitMix) -> String {
        var members: [String] = []
        for _ in 0..<Int.random(in: 0...5, using: &g) {
            let s = { (text: String, g: inout SplitMix) in space(&g) + text + space(&g) }
            switch Int.random(in: 0...9, using: &g) {
            case 0, 1: members.append(s("\"method\"", &g) + ":" + s(Int.random(in: 0...5, using: &g) == 0 ? value(&g) : string(&g), &g))
            case 2, 3, 4:
                var parameters: [String] = []
                for _ in 0..<Int.random(in: 0...4, using: &g) {
                    let key = ["\"direction\"", "\"scene\"", "\"wrap\"", "\"id\"", "\"\"", "\"a\\\"\""].randomElement(using: &g)!
                    parameters.append(s(key, &g) + ":" + s(scalarOrOther(&g), &g))
                }
                let object = Int.random(in: 0...9, using: &g) == 0 ? value(&g) : "{" + parameters.joined(separator: ",") + space(&g) + "}"
                members.append(s("\"parameters\"", &g) + ":" + s(object, &g))
            case 5, 6: members.append(s(["\"oneway\"", "\"more\"", "\"upgrade\""].randomElement(using: &g)!, &g) + ":" + s(value(&g), &g))
            case 7: members.append(s("\"other\"", &g) + ":" + s(value(&g), &g))
            default: members.append(s("\"method\"", &g) + ":" + s("\"io.focusd.Focus.Focus\"", &g))
            }
        }
        var text = space(&g) + "{" + members.joined(separator: ",") + space(&g) + "}" + space(&g)
        switch Int.random(in: 0...19, using: &g) {
        case 0: text.removeLast()
        case 1: text += ","
        case 2: text = "[" + text + "]"
        default: break
        }
        return text
    }

    @Test("every call the small-call reader reads from 20,000 random messages is the call the general parse reads, with or without a method name it may share, and every message fails or succeeds as it does")
    func sameCalls() throws {
        var g = SplitMix(state: 13)
        var taken = 0
        for _ in 0..<20_000 {
            let bytes = Array(Self.message(&g).utf8)
            let small = bytes.withUnsafeBufferPointer { VarlinkCall.small($0) }
            let general = Result { () throws(VarlinkProtocolError) in try VarlinkCall(parsing: bytes) }
            let either = Result { () throws(VarlinkProtocolError) in try VarlinkCall(message: bytes) }
            if let small {
                taken += 1
                #expect(try general.get() == small, "\(String(decoding: bytes, as: UTF8.self))")
                // Its members, read in place, are the general parse's object.
                var members: [String: JSONValue] = [:]
                #expect(small.members != nil && small.forEachParameter { members[$0] = $1 })
                #expect(try JSONValue.object(members) == general.get().parameters)
            }
            // A method name the server already holds changes which string the call shares, never the call.
            for known in ["io.focusd.Focus.Move", "up", ""] {
                let sharing = bytes.withUnsafeBufferPointer { VarlinkCall.small($0, knownMethod: known) }
                #expect(sharing == small, "\(String(decoding: bytes, as: UTF8.self)) knowing \(known)")
            }
            // Which error a message with several bad fields gets depends on the general parse's
            // dictionary order, which differs from one parse to the next: compare outcomes.
            switch (either, general) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(String(decoding: bytes, as: UTF8.self))")
            case (.failure, .failure): break
            default: Issue.record("\(String(decoding: bytes, as: UTF8.self)): \(either) against \(general)")
            }
        }
        #expect(taken > 500)  // the reader is exercised, not merely bypassed
    }

    @Test("a small call's parameters past 16 members go the general way, as does a duplicate name")
    func manyMembers() throws {
        func call(_ names: [String]) -> [UInt8] {
            Array(("{\"method\":\"a.B\",\"parameters\":{" + names.map { "\"\($0)\":\"v\"" }.joined(separator: ",") + "}}").utf8)
        }
        let sixteen = call((0..<16).map { "p\($0)" }), seventeen = call((0..<17).map { "p\($0)" })
        #expect(sixteen.withUnsafeBufferPointer { VarlinkCall.small($0) }?.members?.count == 16)
        #expect(seventeen.withUnsafeBufferPointer { VarlinkCall.small($0) } == nil)
        #expect(try VarlinkCall(message: seventeen).parameters.objectValue?.count == 17)
        // A duplicate name: the general parse decides (it refuses the message).
        let twice = call(["a", "b", "a"])
        #expect(twice.withUnsafeBufferPointer { VarlinkCall.small($0) } == nil)
        #expect(throws: VarlinkProtocolError.self) { try VarlinkCall(message: twice) }
    }

    @Test("a plain Move call is read by the small-call reader")
    func plainMove() {
        let bytes = Array(#"{"method":"io.focusd.Focus.Move","parameters":{"direction":"right","scene":"bench"}}"#.utf8)
        let call = bytes.withUnsafeBufferPointer { VarlinkCall.small($0) }
        #expect(call == VarlinkCall(method: "io.focusd.Focus.Move", parameters: ["direction": "right", "scene": "bench"]))
    }
}
