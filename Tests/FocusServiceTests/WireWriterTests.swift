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

    /// Mostly short (ids, names), one in nine long enough (past 64 bytes) for the writer's other way.
    static func string(_ g: inout SplitMix) -> String {
        let count = Int.random(in: 0...8, using: &g) == 0 ? Int.random(in: 13...60, using: &g) : Int.random(in: 0...12, using: &g)
        return (0..<count).map { _ in pieces.randomElement(using: &g)! }.joined()
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

    /// A random tree under `root`: frames on a grid, focusable leaves and sections, bindings
    /// (Bool and valued, on both tracks, some shared), values and scene values, disabled
    /// focus effects and scroll containers, ids with every kind of character.
    static func scene(_ g: inout SplitMix) -> Scene {
        var made = 0
        // A name is either a Bool binding or a value binding throughout a scene.
        func binding(_ g: inout SplitMix) -> Binding {
            switch Int.random(in: 0...3, using: &g) {
            case 0: return Binding(name: "isOn")
            case 1: return Binding(name: "sel\"ected")
            case 2: return Binding(name: "field", value: ["a", "b", string(&g)].randomElement(using: &g)!)
            default: return Binding(name: "v" + string(&g), value: string(&g))
            }
        }
        func node(_ g: inout SplitMix, depth: Int, x: Double, y: Double) -> Node {
            made += 1
            let id = "\(made)" + string(&g)
            let frame = Rect(x: x, y: y, width: 100, height: 60)
            let branch = depth < 3 && Int.random(in: 0...2, using: &g) > 0
            var children: [Node]?
            if branch {
                children = (0..<Int.random(in: 1...4, using: &g)).map { index in
                    node(&g, depth: depth + 1, x: x + Double(index) * 120, y: y + Double(depth + 1) * 80)
                }
            }
            let scrolls = branch && Int.random(in: 0...3, using: &g) == 0
            return Node(
                id: id, frame: frame, focusable: branch ? nil : Int.random(in: 0...4, using: &g) > 0,
                section: branch ? Bool.random(using: &g) : nil,
                bindings: maybe(&g) { g in (0..<Int.random(in: 1...2, using: &g)).map { _ in binding(&g) } },
                accessibilityBindings: Int.random(in: 0...3, using: &g) == 0 ? [binding(&g)] : nil,
                values: Int.random(in: 0...2, using: &g) == 0 ? values(&g) : nil,
                sceneValues: Int.random(in: 0...4, using: &g) == 0 ? values(&g) : nil,
                focusEffectDisabled: Int.random(in: 0...3, using: &g) == 0 ? Bool.random(using: &g) : nil,
                scroll: scrolls ? Scroll(axis: .both, contentWidth: 2000, contentHeight: 2000, offsetX: [0, 10.5, 1e-3].randomElement(using: &g)!) : nil,
                children: children)
        }
        return Scene(name: string(&g), root: node(&g, depth: 0, x: 0, y: 0))
    }

    /// Every node id of `node`'s tree.
    static func ids(_ node: Node) -> [String] { [node.id] + (node.children ?? []).flatMap(ids) }

    @Test("a session's state and Move reply, written from the session, are the bytes Codable writes of its FocusState, over random scenes and changes")
    func sessionStates() throws {
        var g = SplitMix(state: 31)
        var compared = 0, orderedAlike = 0
        var reached: Set<String> = []
        for _ in 0..<250 {
            let scene = Self.scene(&g)
            guard var session = try? SceneSession(scene: scene) else { continue }
            let ids = Self.ids(scene.root)
            for _ in 0..<12 {
                switch Int.random(in: 0...5, using: &g) {
                case 0, 1: _ = try? session.move([Direction.up, .down, .left, .right, .next, .previous].randomElement(using: &g)!)
                case 2: _ = try? session.focus(Self.maybe(&g) { ids.randomElement(using: &$0)! }, track: .main)
                case 3: _ = try? session.focus(Self.maybe(&g) { ids.randomElement(using: &$0)! }, track: .accessibility)
                case 4:
                    if Bool.random(using: &g) {
                        _ = try? session.setBinding(name: "isOn", isTrue: Bool.random(using: &g), value: nil)
                    } else {
                        _ = try? session.setBinding(name: "field", isTrue: nil, value: ["a", "b"].randomElement(using: &g)!)
                    }
                default: _ = try? session.scrollTo(ids.randomElement(using: &g)!, offsetX: Self.double(&g), offsetY: 7)
                }
                let active = Bool.random(using: &g), moved = Bool.random(using: &g)
                let state = session.state(active: active)
                let written = try Self.written { try ReplyWriter.state(session, active: active, into: &$0) }
                let movedWritten = try Self.written { try ReplyWriter.moved(moved, session, active: active, into: &$0) }
                let reference = try Self.encoded(StateReply(state: state)), movedReference = try Self.encoded(MovedReply(moved: moved, state: state))
                // The two value dictionaries are built anew for each writer, and a dictionary's
                // order is its own (per instance): with two keys or more only the members match.
                if state.focusedValues.count < 2 && state.sceneValues.count < 2 {
                    #expect(written == reference)
                    #expect(movedWritten == movedReference)
                    orderedAlike += 1
                } else {
                    #expect(try JSONValue.parse(written) == JSONValue.parse(reference))
                    #expect(try JSONValue.parse(movedWritten) == JSONValue.parse(movedReference))
                }
                compared += 1
                reached.insert(state.path.count > 1 ? "path" : state.path.isEmpty ? "no path" : "root")
                if !state.bindings.isEmpty { reached.insert("bindings") }
                if !state.accessibilityBindings.isEmpty { reached.insert("accessibilityBindings") }
                if state.accessibilityFocused != nil { reached.insert("accessibilityFocused") }
                if !state.focusedValues.isEmpty { reached.insert("focusedValues") }
                if !state.sceneValues.isEmpty { reached.insert("sceneValues") }
                if !state.focusEffectEnabled { reached.insert("effect off") }
                if state.scroll.count > 1 { reached.insert("scroll") }
            }
        }
        // The random scenes reach every part of a state (not just empty ones).
        #expect(compared > 2900 && orderedAlike > 800, "\(compared) states, \(orderedAlike) compared byte for byte")
        #expect(reached == ["path", "no path", "root", "bindings", "accessibilityBindings", "accessibilityFocused", "focusedValues", "sceneValues", "effect off", "scroll"])
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

    @Test("a non-finite fraction throws, as Codable does, instead of writing invalid JSON; a session holds no non-finite scroll offset")
    func nonFinite() throws {
        let event = Event(kind: .edit, scene: "s", revision: 1, fraction: .infinity)
        #expect(throws: EncodingError.self) { try Self.written { try ReplyWriter.event(event, into: &$0) } }
        #expect(throws: EncodingError.self) { try Self.encoded(EventReply(event: event)) }
        // A state's offsets come from the session, which refuses non-finite ones (the writer
        // would throw for one, as Codable does).
        let list = Node(id: "list", frame: Rect(x: 0, y: 0, width: 100, height: 100), scroll: Scroll(axis: .vertical, contentWidth: 100, contentHeight: 1000),
                        children: [Node(id: "item", frame: Rect(x: 0, y: 0, width: 100, height: 50), focusable: true)])
        var session = try SceneSession(scene: Scene(name: "s", root: Node(id: "root", frame: Rect(x: 0, y: 0, width: 100, height: 100), children: [list])))
        #expect(throws: FocusError.self) { try session.scrollTo("list", offsetX: 0, offsetY: .nan) }
        #expect(throws: FocusError.self) { try session.scrollTo("list", offsetX: .infinity, offsetY: 0) }
        var infinite = list
        infinite.scroll?.offsetY = .infinity
        #expect(throws: FocusError.self) { try SceneSession(scene: Scene(name: "s", root: Node(id: "root", frame: Rect(x: 0, y: 0, width: 100, height: 100), children: [infinite]))) }
    }
}
