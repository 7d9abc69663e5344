import FocusEngine
import FocusWire
import InputMapping
import Testing
import Varlink

@testable import FocusService

/// The hand-written writers of the hot wire types against their `Codable` encoding (the
/// reference), byte for byte, over random values from a fixed seed.
@Suite("Hand-written wire writers")
struct WireWriterTests {
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

    static let pieces: [String] = ["a", "Z", "0", "_", "-", "#", " ", "\"", "\\", "\n", "\r", "\t", "\u{1}", "\u{1F}", "/", "é", "→", "😀", "\u{7F}"]

    static func string(_ g: inout SplitMix) -> String {
        (0..<Int.random(in: 0...12, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()
    }
    static func maybe<T>(_ g: inout SplitMix, _ make: (inout SplitMix) -> T) -> T? {
        Bool.random(using: &g) ? make(&g) : nil
    }
    static func int(_ g: inout SplitMix) -> Int {
        switch Int.random(in: 0...3, using: &g) {
        case 0: return 0
        case 1: return Int.random(in: -1000...1000, using: &g)
        case 2: return [Int.min, Int.max, -1, 10, 100][Int.random(in: 0...4, using: &g)]
        default: return Int.random(in: Int.min...Int.max, using: &g)
        }
    }
    static func double(_ g: inout SplitMix) -> Double {
        switch Int.random(in: 0...3, using: &g) {
        case 0: return Double(Int.random(in: -5000...5000, using: &g))
        case 1: return Double.random(in: -1e4...1e4, using: &g)
        case 2: return [0, -0.0, 1e300, 5e-324, .greatestFiniteMagnitude, 0.1, 1e16][Int.random(in: 0...6, using: &g)]
        default: return Double(bitPattern: g.next() & 0x7FEF_FFFF_FFFF_FFFF)
        }
    }
    static func bindings(_ g: inout SplitMix) -> [BindingState] {
        (0..<Int.random(in: 0...3, using: &g)).map { _ in
            BindingState(name: string(&g), isTrue: maybe(&g) { Bool.random(using: &$0) }, value: maybe(&g, string))
        }
    }
    static func values(_ g: inout SplitMix) -> [String: String] {
        var values: [String: String] = [:]
        for _ in 0..<Int.random(in: 0...4, using: &g) { values[string(&g)] = string(&g) }
        return values
    }
    static func state(_ g: inout SplitMix) -> FocusState {
        FocusState(
            scene: string(&g), active: Bool.random(using: &g), focused: maybe(&g, string),
            path: (0..<Int.random(in: 0...4, using: &g)).map { _ in string(&g) }, bindings: bindings(&g),
            focusedValues: values(&g), sceneValues: values(&g), focusEffectEnabled: Bool.random(using: &g),
            accessibilityFocused: maybe(&g, string), accessibilityBindings: bindings(&g),
            scroll: (0..<Int.random(in: 0...2, using: &g)).map { _ in ScrollOffset(node: string(&g), offsetX: double(&g), offsetY: double(&g)) },
            revision: int(&g))
    }
    static func event(_ g: inout SplitMix) -> Event {
        Event(
            kind: [Event.Kind.focus, .blocked, .activate, .edit, .command, .bindings, .values, .scene, .scroll, .materialize].randomElement(using: &g)!,
            scene: string(&g), revision: int(&g), from: maybe(&g, string), to: maybe(&g, string),
            cause: maybe(&g) { g in
                Cause(kind: [Cause.Kind.directional, .sequential, .crown, .programmatic, .binding, .defaultFocus, .reset, .removed, .search, .materialized, .virtualized].randomElement(using: &g)!,
                      direction: maybe(&g) { [Direction.up, .down, .left, .right, .next, .previous].randomElement(using: &$0)! }, device: maybe(&g, string))
            },
            track: maybe(&g) { [Track.main, .accessibility].randomElement(using: &$0)! }, detents: maybe(&g, int),
            fraction: maybe(&g, double), velocity: maybe(&g, double), command: maybe(&g, string), device: maybe(&g, string),
            bindings: maybe(&g, bindings), values: maybe(&g, values), node: maybe(&g, string),
            offsetX: maybe(&g, double), offsetY: maybe(&g, double), index: maybe(&g, int))
    }

    struct EventReply: Encodable { var event: Event }
    struct StateReply: Encodable { var state: FocusState }
    struct MovedReply: Encodable {
        var moved: Bool
        var state: FocusState
    }

    static func written(_ write: (inout JSONBytes) throws -> Void) throws -> String {
        var json = JSONBytes()
        try write(&json)
        return String(decoding: json.bytes, as: UTF8.self)
    }
    static func encoded(_ value: some Encodable) throws -> String {
        String(decoding: try JSONTextEncoder().encode(value), as: UTF8.self)
    }

    @Test("the event writer writes the bytes Codable writes, for 3,000 random events")
    func events() throws {
        var g = SplitMix(state: 13)
        for _ in 0..<3000 {
            let event = Self.event(&g)
            #expect(try Self.written { try ReplyWriter.event(event, into: &$0) } == Self.encoded(EventReply(event: event)))
        }
    }

    @Test("the state and Move reply writers write the bytes Codable writes, for 3,000 random states")
    func states() throws {
        var g = SplitMix(state: 31)
        for _ in 0..<3000 {
            let state = Self.state(&g)
            let moved = Bool.random(using: &g)
            #expect(try Self.written { try ReplyWriter.state(state, into: &$0) } == Self.encoded(StateReply(state: state)))
            #expect(try Self.written { try ReplyWriter.moved(moved, state, into: &$0) } == Self.encoded(MovedReply(moved: moved, state: state)))
        }
    }

    struct CommandReply: Encodable { var command: InputInterface.WireCommand }

    @Test("the Input Monitor command writer writes the bytes Codable writes, for 3,000 random commands")
    func commands() throws {
        var g = SplitMix(state: 47)
        for _ in 0..<3000 {
            let mapped = MappedCommand(
                command: Self.string(&g), phase: [CommandPhase.press, .repeat, .release, .rotate].randomElement(using: &g)!,
                detents: Self.maybe(&g, Self.int), fraction: Self.maybe(&g, Self.double), velocity: Self.maybe(&g, Self.double),
                eventTimeUsec: Int64(Self.int(&g)))
            let command = InputInterface.WireCommand(device: Self.string(&g), mapped)
            #expect(try Self.written(command.writeReply) == Self.encoded(CommandReply(command: command)))
        }
    }

    @Test("a non-finite scroll offset or fraction throws, as Codable does, instead of writing invalid JSON")
    func nonFinite() {
        var state = FocusState(scene: "s", active: true, focused: nil, path: [], bindings: [], focusedValues: [:], sceneValues: [:],
                               focusEffectEnabled: true, accessibilityFocused: nil, accessibilityBindings: [], revision: 1)
        state.scroll = [ScrollOffset(node: "n", offsetX: .nan, offsetY: 0)]
        #expect(throws: EncodingError.self) { try Self.written { try ReplyWriter.state(state, into: &$0) } }
        #expect(throws: EncodingError.self) { try Self.encoded(StateReply(state: state)) }
        let event = Event(kind: .edit, scene: "s", revision: 1, fraction: .infinity)
        #expect(throws: EncodingError.self) { try Self.written { try ReplyWriter.event(event, into: &$0) } }
    }
}
