import FocusEngine
import Varlink

// Hand-written JSON for the messages of every focus change: the event each monitor gets and the
// state in the caller's reply. Through `Codable` these cost more than the move itself (keyed
// containers and their generic metadata lookups, per member: callgrind). Each writer writes the
// members in declaration order and omits nil optionals, as the synthesized conformance does with
// `JSONTextEncoder`; `WireWriterTests` checks them byte for byte against it over random values.
// `Codable` stays the reference: change a type, and its writer here with it.

extension BindingState {
    package func write(into json: inout JSONBytes) {
        json.raw(#"{"name":"#)
        json.string(name)
        if let isTrue {
            json.raw(#","isTrue":"#)
            json.bool(isTrue)
        }
        json.member(#","value":"#, value)
        json.byte(UInt8(ascii: "}"))
    }
}

extension ScrollOffset {
    package func write(into json: inout JSONBytes) throws {
        json.raw(#"{"node":"#)
        json.string(node)
        json.raw(#","offsetX":"#)
        try json.double(offsetX)
        json.raw(#","offsetY":"#)
        try json.double(offsetY)
        json.byte(UInt8(ascii: "}"))
    }
}

extension Cause {
    package func write(into json: inout JSONBytes) {
        json.raw(#"{"kind":"#)
        json.string(kind.rawValue)
        if let direction {
            json.raw(#","direction":"#)
            json.string(direction.rawValue)
        }
        json.member(#","device":"#, device)
        json.byte(UInt8(ascii: "}"))
    }
}

extension JSONBytes {
    package mutating func write(_ strings: [String]) {
        guard !strings.isEmpty else { return raw("[]") }
        byte(UInt8(ascii: "["))
        for (position, text) in strings.enumerated() {
            if position > 0 { byte(UInt8(ascii: ",")) }
            string(text)
        }
        byte(UInt8(ascii: "]"))
    }

    package mutating func write(_ bindings: [BindingState]) {
        guard !bindings.isEmpty else { return raw("[]") }
        byte(UInt8(ascii: "["))
        for (position, binding) in bindings.enumerated() {
            if position > 0 { byte(UInt8(ascii: ",")) }
            binding.write(into: &self)
        }
        byte(UInt8(ascii: "]"))
    }

    /// In the dictionary's own order, as its `Encodable` conformance iterates it.
    package mutating func write(_ values: [String: String]) {
        guard !values.isEmpty else { return raw("{}") }
        byte(UInt8(ascii: "{"))
        var first = true
        for (key, value) in values {
            if !first { byte(UInt8(ascii: ",")) }
            first = false
            string(key)
            byte(UInt8(ascii: ":"))
            string(value)
        }
        byte(UInt8(ascii: "}"))
    }
}

extension SceneSession {
    /// `state(active:)` as JSON, written straight from the session: the text of that
    /// `FocusState`'s `Encodable` conformance (its members in declaration order), without
    /// building the state (its path array, and a copy of each of its strings, arrays and
    /// dictionaries made and destroyed for every `Move` and `Focus` reply: 2.9k instructions of
    /// a `Move`, callgrind). Each part is read as `state(active:)` reads it.
    package func writeState(active: Bool, into json: inout JSONBytes) throws {
        let focus = slot(.main)
        json.raw(#"{"scene":"#)
        json.string(name)
        json.raw(#","active":"#)
        json.bool(active)
        json.member(#","focused":"#, focused(on: .main))
        json.raw(#","path":["#)
        if var node = focus {
            json.string(nodeID(node))
            node = parentSlot(node)
            while node >= 0 {
                json.byte(UInt8(ascii: ","))
                json.string(nodeID(node))
                node = parentSlot(node)
            }
        }
        json.raw(#"],"bindings":"#)
        json.write(orderedReads(.main, focus: focus))
        json.raw(#","focusedValues":"#)
        json.write(focusedValues(focus))
        json.raw(#","sceneValues":"#)
        json.write(sceneValues())
        json.raw(#","focusEffectEnabled":"#)
        json.bool(effectEnabled(focus))
        json.member(#","accessibilityFocused":"#, focused(on: .accessibility))
        json.raw(#","accessibilityBindings":"#)
        json.write(orderedReads(.accessibility, focus: slot(.accessibility)))
        json.raw(#","scroll":["#)
        for (position, offset) in scrollOffsets().enumerated() {
            if position > 0 { json.byte(UInt8(ascii: ",")) }
            try offset.write(into: &json)
        }
        json.raw(#"],"revision":"#)
        json.int(revision)
        json.byte(UInt8(ascii: "}"))
    }
}

extension Event {
    package func write(into json: inout JSONBytes) throws {
        json.raw(#"{"kind":"#)
        json.string(kind.rawValue)
        json.raw(#","scene":"#)
        json.string(scene)
        json.raw(#","revision":"#)
        json.int(revision)
        json.member(#","from":"#, from)
        json.member(#","to":"#, to)
        if let cause {
            json.raw(#","cause":"#)
            cause.write(into: &json)
        }
        if let track {
            json.raw(#","track":"#)
            json.string(track.rawValue)
        }
        json.member(#","detents":"#, detents)
        try json.member(#","fraction":"#, fraction)
        try json.member(#","velocity":"#, velocity)
        json.member(#","command":"#, command)
        json.member(#","device":"#, device)
        if let bindings {
            json.raw(#","bindings":"#)
            json.write(bindings)
        }
        if let values {
            json.raw(#","values":"#)
            json.write(values)
        }
        json.member(#","node":"#, node)
        try json.member(#","offsetX":"#, offsetX)
        try json.member(#","offsetY":"#, offsetY)
        json.member(#","index":"#, index)
        json.byte(UInt8(ascii: "}"))
    }
}

/// The parameters of the replies of a focus change, written by hand (the `Encodable` reply
/// structs of `FocusInterface` are the reference).
package enum ReplyWriter {
    /// `{"event":EVENT}`
    package static func event(_ event: Event, into json: inout JSONBytes) throws {
        json.raw(#"{"event":"#)
        try event.write(into: &json)
        json.byte(UInt8(ascii: "}"))
    }

    /// `{"state":STATE}`, the session's state (``SceneSession/writeState(active:into:)``).
    package static func state(_ session: SceneSession, active: Bool, into json: inout JSONBytes) throws {
        json.raw(#"{"state":"#)
        try session.writeState(active: active, into: &json)
        json.byte(UInt8(ascii: "}"))
    }

    /// `{"moved":BOOL,"state":STATE}`
    package static func moved(_ moved: Bool, _ session: SceneSession, active: Bool, into json: inout JSONBytes) throws {
        json.raw(#"{"moved":"#)
        json.bool(moved)
        json.raw(#","state":"#)
        try session.writeState(active: active, into: &json)
        json.byte(UInt8(ascii: "}"))
    }
}
