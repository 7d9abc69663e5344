import FocusEngine
import Varlink

/// `SetScene` and `UpdateScene` parameters read straight from the JSON tree, every ``NodeField``
/// but the four its switch leaves to `Codable`, in one pass over each object.
///
/// Decoding through `Decodable` looked every one of a node's 23 optional fields up by name,
/// hashing it twice, and built a coding path for each value: half of a 100,000-node
/// `SetScene`'s time (perf). Anything this reader does not take as it is (another field, a
/// null, a wrong type, a missing id) makes it give up, and the caller decodes with `Decodable`,
/// whose result and errors are the contract's; so both ways always agree.
package enum SceneDecoding {
    /// A `SetScene`'s scene read from the message's bytes by ``largeCalls``.
    package struct DecodedScene: Sendable {
        package var scene: Scene
    }

    /// An `UpdateScene`'s patches read from the message's bytes by ``largeCalls``.
    package struct DecodedUpdate: Sendable {
        package var scene: String
        package var upsert: [NodePatch]?
        package var remove: [String]?
        package init(scene: String, upsert: [NodePatch]?, remove: [String]?) {
            self.scene = scene
            self.upsert = upsert
            self.remove = remove
        }
    }

    /// The server's ``LargeCallDecoder``: a `SetScene` or `UpdateScene` read straight from its
    /// bytes (``SceneBytes``, which takes what ``scene(parameters:)`` and
    /// ``patches(parameters:)`` take, no more) without the JSON tree, on the parser thread for
    /// a large message, on the loop for one of `VarlinkServer.Configuration.decodeOnLoopThreshold`
    /// bytes or more (a reflow's thousand patches); its parameters show only the scene's name
    /// (what dispatch and the wait queues read). Anything else is parsed the general way.
    package static let largeCalls: LargeCallDecoder = { method, bytes, depthLimit in
        switch method {
        case "io.focusd.Focus.SetScene":
            guard let (scene, length) = SceneBytes.setScene(bytes, depth: 2, depthLimit: depthLimit) else { return nil }
            return DecodedParameters(length: length, parameters: ["scene": ["name": .string(scene.name)]], value: DecodedScene(scene: scene))
        case "io.focusd.Focus.UpdateScene":
            guard let (update, length) = SceneBytes.updateScene(bytes, depth: 2, depthLimit: depthLimit) else { return nil }
            return DecodedParameters(
                length: length, parameters: ["scene": .string(update.scene)],
                value: DecodedUpdate(scene: update.scene, upsert: update.upsert, remove: update.remove))
        default:
            return nil
        }
    }

    /// How many JSON values the parameters text of `scene` holds as ``SceneBytes`` takes it
    /// (`{"scene": {"name", "root", "persist"?, "sequentialWrap"?}}`), counted up to about
    /// `limit`: what the service's rule for building off the loop counts in the JSON tree.
    package static func valueCount(_ scene: Scene, limit: Int) -> Int {
        3 + (scene.persist == nil ? 0 : 1) + (scene.sequentialWrap == nil ? 0 : 1) + valueCount(scene.root, limit: limit)
    }

    /// How many JSON values the text of `node` holds as ``SceneBytes`` and ``node(_:)`` take it
    /// (the object, each field's value and what an object or array holds), counted up to
    /// about `limit` (a subtree stops being counted once the count reaches it).
    package static func valueCount(_ node: Node, limit: Int) -> Int {
        @inline(__always) func one<T>(_ value: T?) -> Int { value == nil ? 0 : 1 }
        var count = 2  // the object and its id
        if node.frame != nil { count += 5 }
        count += one(node.focusable) + one(node.disabled) + one(node.section) + one(node.focusEffectDisabled)
        count += one(node.remembersLastFocus) + one(node.modal) + one(node.role) + one(node.scope)
        count += one(node.prefersDefaultFocus) + one(node.wrap) + one(node.index)
        if let interactions = node.interactions { count += 1 + interactions.count }
        if let values = node.values { count += 1 + values.count }
        if let values = node.sceneValues { count += 1 + values.count }
        if let next = node.next { count += 1 + next.count }
        if let scroll = node.scroll {
            count += 4 + one(scroll.offsetX) + one(scroll.offsetY) + one(scroll.policy) + one(scroll.margin)
        }
        if let children = node.children {
            count += 1
            // Stops at the limit: a `where` clause here went on over every child (copying each
            // node) and cost the event loop 3-4 ms per `SetScene` of 100,000 nodes.
            for child in children {
                if count >= limit { break }
                count += valueCount(child, limit: limit - count)
            }
        }
        return count
    }

    /// The scene of `SetScene` parameters, or nil: decode them with `Decodable`.
    package static func scene(parameters: JSONValue) -> Scene? {
        guard case .object(let top) = parameters, top.count == 1, case .object(let members)? = top["scene"] else { return nil }
        var name: String?
        var root: Node?
        var scene = Scene(name: "", root: Node(id: ""))
        for (key, value) in members {
            switch key {
            case "name":
                guard case .string(let text) = value else { return nil }
                name = text
            case "root":
                guard let node = node(value) else { return nil }
                root = node
            case "persist":
                guard case .bool(let flag) = value else { return nil }
                scene.persist = flag
            case "sequentialWrap":
                guard case .bool(let flag) = value else { return nil }
                scene.sequentialWrap = flag
            default:
                return nil
            }
        }
        guard let name, let root else { return nil }
        scene.name = name
        scene.root = root
        return scene
    }

    /// The patches of `UpdateScene` parameters, or nil: decode them with `Decodable`.
    package static func patches(parameters: JSONValue) -> (scene: String, upsert: [NodePatch]?, remove: [String]?)? {
        guard case .object(let members) = parameters, case .string(let scene)? = members["scene"] else { return nil }
        var upsert: [NodePatch]?
        var remove: [String]?
        for (key, value) in members {
            switch key {
            case "scene":
                continue
            case "upsert":
                guard case .array(let elements) = value else { return nil }
                var patches: [NodePatch] = []
                patches.reserveCapacity(elements.count)
                for element in elements {
                    guard case .object(let fields) = element, case .string(let parent)? = fields["parent"],
                        let node = fields["node"].flatMap(node)
                    else { return nil }
                    var index: Int?
                    switch fields.count {
                    case 2:
                        break
                    case 3:
                        guard case .integer(let number)? = fields["index"], let exact = Int(exactly: number) else { return nil }
                        index = exact
                    default:
                        return nil
                    }
                    patches.append(NodePatch(parent: parent, index: index, node: node))
                }
                upsert = patches
            case "remove":
                guard case .array(let elements) = value else { return nil }
                var ids: [String] = []
                ids.reserveCapacity(elements.count)
                for element in elements {
                    guard case .string(let id) = element else { return nil }
                    ids.append(id)
                }
                remove = ids
            default:
                return nil
            }
        }
        return (scene, upsert, remove)
    }

    /// One node and its subtree, or nil when any of it is not a node as this reader takes it:
    /// every ``NodeField`` but those its switch leaves to `Codable`, as ``SceneBytes`` takes them.
    package static func node(_ value: JSONValue) -> Node? {
        guard case .object(let members) = value else { return nil }
        var node = Node(id: "")
        var hasId = false
        for (key, value) in members {
            guard let field = NodeField(rawValue: key) else { return nil }
            switch field {
            case .id:
                guard case .string(let text) = value else { return nil }
                node.id = text
                hasId = true
            case .frame:
                guard case .object(let fields) = value, fields.count == 4, let x = fields["x"]?.finiteOrAnyDouble,
                    let y = fields["y"]?.finiteOrAnyDouble, let width = fields["width"]?.finiteOrAnyDouble,
                    let height = fields["height"]?.finiteOrAnyDouble
                else { return nil }
                node.frame = Rect(x: x, y: y, width: width, height: height)
            case .focusable: guard let flag = value.flag else { return nil }; node.focusable = flag
            case .disabled: guard let flag = value.flag else { return nil }; node.disabled = flag
            case .section: guard let flag = value.flag else { return nil }; node.section = flag
            case .focusEffectDisabled: guard let flag = value.flag else { return nil }; node.focusEffectDisabled = flag
            case .remembersLastFocus: guard let flag = value.flag else { return nil }; node.remembersLastFocus = flag
            case .modal: guard let flag = value.flag else { return nil }; node.modal = flag
            case .role: guard let text = value.text else { return nil }; node.role = text
            case .scope: guard let text = value.text else { return nil }; node.scope = text
            case .prefersDefaultFocus: guard let text = value.text else { return nil }; node.prefersDefaultFocus = text
            case .wrap: guard let axis = value.text.flatMap(WrapAxis.init(rawValue:)) else { return nil }; node.wrap = axis
            case .index:
                guard case .integer(let number) = value, let exact = Int(exactly: number) else { return nil }
                node.index = exact
            case .interactions:
                guard case .array(let elements) = value else { return nil }
                var interactions: [Interaction] = []
                for element in elements {
                    guard let interaction = element.text.flatMap(Interaction.init(rawValue:)) else { return nil }
                    interactions.append(interaction)
                }
                node.interactions = interactions
            case .values: guard let map = value.stringMap else { return nil }; node.values = map
            case .sceneValues: guard let map = value.stringMap else { return nil }; node.sceneValues = map
            case .next: guard let map = value.stringMap else { return nil }; node.next = map
            case .scroll:
                guard let scroll = self.scroll(value) else { return nil }
                node.scroll = scroll
            case .children:
                guard case .array(let elements) = value else { return nil }
                var children: [Node] = []
                children.reserveCapacity(elements.count)
                for element in elements {
                    guard let child = self.node(element) else { return nil }
                    children.append(child)
                }
                node.children = children
            case .defaultFocus, .bindings, .accessibilityBindings, .collection:
                return nil  // left to `Codable`
            }
        }
        return hasId ? node : nil
    }

    /// A scroll container's object: its known fields, the three required ones present.
    static func scroll(_ value: JSONValue) -> Scroll? {
        guard case .object(let fields) = value, case .string(let axisName)? = fields["axis"],
            let axis = ScrollAxis(rawValue: axisName), let contentWidth = fields["contentWidth"]?.finiteOrAnyDouble,
            let contentHeight = fields["contentHeight"]?.finiteOrAnyDouble
        else { return nil }
        var scroll = Scroll(axis: axis, contentWidth: contentWidth, contentHeight: contentHeight)
        for (key, value) in fields {
            switch key {
            case "axis", "contentWidth", "contentHeight": continue
            case "offsetX": guard let number = value.finiteOrAnyDouble else { return nil }; scroll.offsetX = number
            case "offsetY": guard let number = value.finiteOrAnyDouble else { return nil }; scroll.offsetY = number
            case "margin": guard let number = value.finiteOrAnyDouble else { return nil }; scroll.margin = number
            case "policy":
                guard let policy = value.text.flatMap(ScrollPolicy.init(rawValue:)) else { return nil }
                scroll.policy = policy
            default: return nil
            }
        }
        return scroll
    }
}

extension JSONValue {
    /// A Bool, else nil (a null is left to `Codable`).
    fileprivate var flag: Bool? {
        guard case .bool(let flag) = self else { return nil }
        return flag
    }

    /// A string, else nil.
    fileprivate var text: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// An object of strings, else nil.
    fileprivate var stringMap: [String: String]? {
        guard case .object(let members) = self else { return nil }
        var map: [String: String] = [:]
        map.reserveCapacity(members.count)
        for (key, value) in members {
            guard case .string(let text) = value else { return nil }
            map[key] = text
        }
        return map
    }

    /// The number as `Decodable` reads a `Double` from it (an integer converts), else nil.
    fileprivate var finiteOrAnyDouble: Double? {
        switch self {
        case .double(let number): return number
        case .integer: return doubleValue
        default: return nil
        }
    }
}
