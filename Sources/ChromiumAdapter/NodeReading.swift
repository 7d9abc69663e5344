import FocusEngine
import FocusWire
import Varlink

/// Reads the page agent's nodes straight from their JSON tree: the fields the agent infers are
/// read by hand (Codable's keyed decoding of every optional field of every node cost ~20 ms for
/// 1,000 nodes, most of a mutation's budget); a node carrying anything else (a page's own
/// data-focus bindings, values, defaults) is decoded by Codable, field for field as focusd would.
enum NodeReading {
    private static let handRead: Set<String> = [
        "id", "frame", "focusable", "disabled", "interactions", "section", "role", "remembersLastFocus", "modal", "scroll", "children",
    ]

    static func node(_ value: JSONValue) throws -> Node {
        guard let members = value.objectValue, let id = members["id"]?.stringValue else {
            throw ReadError(description: "a node without an id")
        }
        if members.keys.contains(where: { !handRead.contains($0) }) {
            var copy = members
            copy["children"] = nil
            var node = try JSONValue.object(copy).decode(Node.self)
            node.children = try members["children"]?.arrayValue?.map(self.node)
            return node
        }
        var node = Node(id: id)
        if let frame = members["frame"] { node.frame = try rect(frame) }
        node.focusable = members["focusable"]?.boolValue
        node.disabled = members["disabled"]?.boolValue
        node.section = members["section"]?.boolValue
        node.role = members["role"]?.stringValue
        node.remembersLastFocus = members["remembersLastFocus"]?.boolValue
        node.modal = members["modal"]?.boolValue
        if let interactions = members["interactions"]?.arrayValue {
            node.interactions = try interactions.map {
                guard let name = $0.stringValue, let interaction = Interaction(rawValue: name) else { throw ReadError(description: "an unknown interaction") }
                return interaction
            }
        }
        if let scroll = members["scroll"] { node.scroll = try scroll.decode(Scroll.self) }
        if let children = members["children"]?.arrayValue { node.children = try children.map(self.node) }
        return node
    }

    private static func rect(_ value: JSONValue) throws -> Rect {
        guard let x = value["x"]?.doubleValue, let y = value["y"]?.doubleValue, let width = value["width"]?.doubleValue,
            let height = value["height"]?.doubleValue
        else { throw ReadError(description: "a frame without x, y, width and height") }
        return Rect(x: x, y: y, width: width, height: height)
    }

    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }
}
