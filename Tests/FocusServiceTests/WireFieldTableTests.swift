import FocusEngine
import Testing
import Varlink

@testable import FocusService
@testable import FocusWire

/// The one table of Node's fields (`NodeField`) against the interface file, and the codecs against
/// the table: a field added to the interface and not to the table, to `Codable` or to the byte
/// reader's key lookup fails here (the fast readers' exhaustive switches fail to compile).
@Suite("Wire field tables against the interface")
struct WireFieldTableTests {
    static let focusTypes = Result { try VarlinkInterface.typeFields(of: EmbeddedResources.focusInterface) }

    @Test("NodeField lists the interface's Node fields in their order, and every Codable conformance its type's fields")
    func tablesEqualInterface() throws {
        let typeFields = try Self.focusTypes.get()
        #expect(NodeField.allCases.map(\.stringValue) == typeFields["Node"])
        let conformances: [(String, [String])] = [
            ("Rect", Rect.CodingKeys.allCases.map(\.stringValue)),
            ("Binding", Binding.CodingKeys.allCases.map(\.stringValue)),
            ("BindingState", BindingState.CodingKeys.allCases.map(\.stringValue)),
            ("DefaultFocus", DefaultFocus.CodingKeys.allCases.map(\.stringValue)),
            ("Scroll", Scroll.CodingKeys.allCases.map(\.stringValue)),
            ("Collection", Collection.CodingKeys.allCases.map(\.stringValue)),
            ("ScrollOffset", ScrollOffset.CodingKeys.allCases.map(\.stringValue)),
            ("Node", Node.CodingKeys.allCases.map(\.stringValue)),
            ("Scene", Scene.CodingKeys.allCases.map(\.stringValue)),
            ("NodePatch", NodePatch.CodingKeys.allCases.map(\.stringValue)),
            ("Cause", Cause.CodingKeys.allCases.map(\.stringValue)),
            ("FocusState", FocusState.CodingKeys.allCases.map(\.stringValue)),
            ("Event", Event.CodingKeys.allCases.map(\.stringValue)),
            ("Problem", Problem.CodingKeys.allCases.map(\.stringValue)),
        ]
        for (type, keys) in conformances {
            #expect(typeFields[type] == keys, "\(type)")
        }
    }

    @Test("the byte reader's key lookup finds every Node field by its name, and nothing else")
    func keyLookupFindsEveryField() {
        for field in NodeField.allCases {
            #expect(Array(field.rawValue.utf8).withUnsafeBytes { NodeField(key: $0) } == field, "\(field)")
            // One byte changed, first or last: no field.
            for position in [0, field.rawValue.utf8.count - 1] {
                var bytes = Array(field.rawValue.utf8)
                bytes[position] ^= 0x01
                #expect(bytes.withUnsafeBytes { NodeField(key: $0) } == nil, "\(field) changed at \(position)")
            }
        }
        #expect([UInt8]().withUnsafeBytes { NodeField(key: $0) } == nil)
    }

    /// A node with every field of the interface set (a field added to `Node` and not here fails
    /// `everyFieldRoundTrips`).
    static let fullNode = Node(
        id: "n", frame: Rect(x: 1, y: 2.5, width: 30, height: 40), focusable: true, disabled: false,
        interactions: [.activate, .edit], section: true, scope: "s", prefersDefaultFocus: "p",
        defaultFocus: DefaultFocus(binding: "b", value: "v", priority: .userInitiated),
        bindings: [Binding(name: "b", value: "v")], accessibilityBindings: [Binding(name: "a")],
        values: ["k": "v"], sceneValues: ["sk": "sv"], focusEffectDisabled: true, role: "text",
        remembersLastFocus: true, wrap: .vertical, next: ["left": "x", "up": ""], modal: false,
        scroll: Scroll(axis: .both, contentWidth: 100, contentHeight: 200, offsetX: 3, offsetY: 4, policy: .center, margin: 8),
        collection: Collection(count: 10, layout: .grid, itemWidth: 10, itemHeight: 20, spacing: 2, columns: 3),
        index: 7, children: [Node(id: "c")])

    @Test("a node with every field set encodes every NodeField and decodes back to itself")
    func everyFieldRoundTrips() throws {
        let json = try JSONValue(encoding: Self.fullNode)
        guard case .object(let members) = json else {
            Issue.record("not an object")
            return
        }
        #expect(Set(members.keys) == Set(NodeField.allCases.map(\.rawValue)))
        #expect(try json.decode(Node.self, strict: true) == Self.fullNode)
    }

    @Test("both fast readers take every field they do not leave to Codable, and leave the others")
    func fastReadersTakeTheirFields() throws {
        var full = try JSONValue(encoding: Self.fullNode)
        for field in [NodeField.defaultFocus, .bindings, .accessibilityBindings, .collection] {
            guard case .object(var members) = full else { return }
            let value = members.removeValue(forKey: field.rawValue)
            full = .object(members)
            // With the field the fast readers leave to `Codable`, each gives up.
            var with = members
            with[field.rawValue] = value
            #expect(SceneDecoding.node(.object(with)) == nil, "\(field)")
            #expect(Self.bytesNode(.object(with)) == nil, "\(field)")
        }
        let reference = try full.decode(Node.self, strict: true)
        #expect(reference.scroll != nil && reference.values != nil && reference.index == 7)
        #expect(SceneDecoding.node(full) == reference)
        #expect(Self.bytesNode(full) == reference)
    }

    /// The node read by `SceneBytes` from `node`'s text as a scene's root.
    static func bytesNode(_ node: JSONValue) -> Node? {
        let parameters: JSONValue = ["scene": ["name": "s", "root": node]]
        return parameters.serialized().withUnsafeBytes { SceneBytes.setScene(document: $0, depthLimit: 64) }?.root
    }
}
