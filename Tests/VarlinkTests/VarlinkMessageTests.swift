import Testing
@testable import Varlink

@Suite("Message envelopes and framing")
struct VarlinkMessageTests {
    @Test("a call carries method, parameters and flags")
    func callFields() throws {
        let call = try VarlinkCall(message: Array(#"{"method":"a.b.C","parameters":{"x":1},"more":true,"oneway":false}"#.utf8))
        #expect(call == VarlinkCall(method: "a.b.C", parameters: ["x": 1], more: true))
        #expect(call.interface == "a.b")
        #expect(call.memberName == "C")
        #expect(try VarlinkCall(message: call.serialized()) == call)
    }

    @Test("a call with an unknown header field is a protocol violation")
    func unknownField() {
        #expect(throws: VarlinkProtocolError.unknownField("extra")) {
            try VarlinkCall(message: Array(#"{"method":"a.b.C","extra":1}"#.utf8))
        }
    }

    @Test("a call must be an object with a string method and object parameters", arguments: [
        ("[1]", VarlinkProtocolError.notAnObject),
        (#"{"parameters":{}}"#, .invalidField("method")),
        (#"{"method":1}"#, .invalidField("method")),
        (#"{"method":"a.b.C","parameters":[]}"#, .invalidField("parameters")),
        (#"{"method":"a.b.C","more":"yes"}"#, .invalidField("more")),
    ])
    func invalidCalls(text: String, expected: VarlinkProtocolError) {
        #expect(throws: expected) { try VarlinkCall(message: Array(text.utf8)) }
    }

    @Test("a reply omits absent fields and decodes back")
    func reply() throws {
        let reply = VarlinkReply(parameters: ["a": 1], continues: true)
        #expect(String(decoding: reply.serialized(), as: UTF8.self) == #"{"parameters":{"a":1},"continues":true}"#)
        #expect(try VarlinkReply(message: reply.serialized()) == reply)
        let error = VarlinkReply(parameters: [:], error: "x.y.Z")
        #expect(try VarlinkReply(message: error.serialized()) == error)
    }

    @Test("the framer splits on NUL across reads and enforces the size cap")
    func framer() throws {
        var framer = MessageFramer(maxMessageSize: 8)
        framer.append(ByteBuffer(bytes: Array("abc".utf8)))
        #expect(try framer.next() == nil)
        framer.append(ByteBuffer(bytes: Array("d\0ef\0g".utf8)))
        #expect(try framer.next().map { String(buffer: $0) } == "abcd")
        #expect(try framer.next().map { String(buffer: $0) } == "ef")
        #expect(try framer.next() == nil)
        #expect(framer.pendingBytes == 1)
        framer.append(ByteBuffer(bytes: Array("12345678".utf8)))
        #expect(throws: VarlinkProtocolError.messageTooLarge(limit: 8)) { try framer.next() }
    }

    @Test("the framer reassembles thousands of messages fed in odd-sized pieces")
    func framerPieces() throws {
        var stream: [UInt8] = []
        for index in 0..<5000 { stream += Array("message \(index)".utf8) + [0] }
        var framer = MessageFramer(maxMessageSize: 64)
        var received: [String] = []
        var offset = 0
        while offset < stream.count {
            let end = min(offset + 7, stream.count)
            framer.append(ByteBuffer(bytes: stream[offset..<end]))
            offset = end
            while let message = try framer.next() { received.append(String(buffer: message)) }
        }
        #expect(received.count == 5000)
        #expect(received.last == "message 4999")
        #expect(framer.pendingBytes == 0)
    }
}

import NIOCore
