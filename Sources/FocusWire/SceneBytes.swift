import FocusEngine

/// `SetScene` parameters read straight from their JSON text into a ``Scene``, and `UpdateScene`
/// parameters into their patches, without building a JSON tree first: a 100,000-node scene's
/// tree (a dictionary per node and per frame, each key and value hashed and boxed, then freed)
/// cost more than reading the bytes, and so did a reflow's 1,000 leaf patches' tree.
///
/// It takes what ``SceneDecoding`` takes from the tree, no more: an object of exactly `scene`,
/// whose members are `name`, `root`, `persist` and `sequentialWrap` (`SetScene`), or of `scene`,
/// `upsert` and `remove` (`UpdateScene`, ``updateScene(_:depth:depthLimit:)``), and nodes of every field of
/// ``NodeField`` but those its switch leaves to `Codable` (`defaultFocus`, `bindings`,
/// `accessibilityBindings`, `collection`): `frame` (exactly `x`, `y`, `width`, `height`,
/// numbers), `scroll` (its fields, each once), the flags, the strings, `wrap`, `index` (an
/// integer written without fraction or exponent), `interactions`, the string maps `values`,
/// `sceneValues` and `next`, and `children`. It accepts only text the general JSON parser accepts
/// and reads it to the same values: strings without escapes (valid UTF-8, no control
/// characters), numbers by JSON's grammar (an integer that fits `Int64` converts to `Double`
/// as `Decodable` converts it; others as `Double(text)`), no key twice, nesting no deeper than
/// `depthLimit` counted as the general parser counts it. Anything else (an escape, a `null`,
/// another field, a wrong type, malformed text) is nil, and the caller goes the general way,
/// whose result and errors are the contract's; so both ways always agree
/// (`SceneBytesTests` and `Tests/Fuzz/scenebytes` hold them to it).
public enum SceneBytes {
    /// The scene of the `SetScene` parameters object at the start of `bytes` and the bytes the
    /// object took (what follows is the caller's), or nil: decode them the general way.
    ///
    /// - Parameters:
    ///   - depth: the nesting depth of the parameters object itself (2 in a Varlink call: the
    ///     message object is 1).
    ///   - depthLimit: the deepest nesting the general parser accepts.
    public static func setScene(_ bytes: UnsafeRawBufferPointer, depth: Int = 1, depthLimit: Int) -> (scene: Scene, length: Int)? {
        var reader = Reader(bytes: bytes, depthLimit: depthLimit)
        guard let scene = reader.parameters(depth: depth) else { return nil }
        return (scene, reader.index)
    }

    /// The scene of a whole JSON text of `SetScene` parameters (whitespace around it allowed),
    /// or nil.
    public static func setScene(document bytes: UnsafeRawBufferPointer, depthLimit: Int) -> Scene? {
        document(bytes) { setScene($0, depthLimit: depthLimit) }
    }

    /// What `UpdateScene` parameters hold: the scene's name, the patches and the ids to remove
    /// (nil when absent), as ``SceneDecoding/patches(parameters:)`` reads them from the tree.
    public typealias Update = (scene: String, upsert: [NodePatch]?, remove: [String]?)

    /// The `UpdateScene` parameters object at the start of `bytes` (an object of `scene`, a
    /// string, and optionally `upsert`, patches of exactly `parent`, `node` and optionally
    /// `index`, and `remove`, strings; each member once) and the bytes the object took, or nil:
    /// decode them the general way. Its nodes are read as ``setScene(_:depth:depthLimit:)``
    /// reads them.
    ///
    /// - Parameters:
    ///   - depth: the nesting depth of the parameters object itself (2 in a Varlink call).
    ///   - depthLimit: the deepest nesting the general parser accepts.
    public static func updateScene(_ bytes: UnsafeRawBufferPointer, depth: Int = 1, depthLimit: Int) -> (update: Update, length: Int)? {
        var reader = Reader(bytes: bytes, depthLimit: depthLimit)
        guard let update = reader.update(depth: depth) else { return nil }
        return (update, reader.index)
    }

    /// The patches of a whole JSON text of `UpdateScene` parameters (whitespace around it
    /// allowed), or nil.
    public static func updateScene(document bytes: UnsafeRawBufferPointer, depthLimit: Int) -> Update? {
        document(bytes) { updateScene($0, depthLimit: depthLimit) }
    }

    /// What `read` takes from the JSON text `bytes` after any whitespace, when only whitespace follows it.
    private static func document<T>(_ bytes: UnsafeRawBufferPointer, _ read: (UnsafeRawBufferPointer) -> (T, Int)?) -> T? {
        var reader = Reader(bytes: bytes, depthLimit: 0)
        reader.skipSpace()
        guard reader.index < bytes.count else { return nil }
        let start = reader.index
        guard let (value, length) = read(UnsafeRawBufferPointer(rebasing: bytes[start...])) else { return nil }
        reader.index = start + length
        reader.skipSpace()
        return reader.index == bytes.count ? value : nil
    }

    struct Reader {
        let bytes: UnsafeRawBufferPointer
        let depthLimit: Int
        var index = 0

        init(bytes: UnsafeRawBufferPointer, depthLimit: Int) {
            self.bytes = bytes
            self.depthLimit = depthLimit
        }

        mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        /// Takes `byte` (after any whitespace) if it is next.
        mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// The members of an object: `member` is called with each key's bytes (the reader at
        /// its value, after the colon) and reads the value; false stops. The object's opening
        /// brace is taken here; `depth` is the object's own depth.
        mutating func object(depth: Int, _ member: (inout Reader, UnsafeRawBufferPointer) -> Bool) -> Bool {
            guard depth <= depthLimit, take(UInt8(ascii: "{")) else { return false }
            if take(UInt8(ascii: "}")) { return true }
            repeat {
                guard let key = rawString(), take(UInt8(ascii: ":")) else { return false }
                skipSpace()
                guard member(&self, key) else { return false }
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}"))
        }

        /// The bytes of a string without escapes or control characters (not yet checked as
        /// UTF-8), the reader after its closing quote.
        mutating func rawString() -> UnsafeRawBufferPointer? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return UnsafeRawBufferPointer(rebasing: bytes[start..<index - 1])
                }
                guard byte >= 0x20, byte != UInt8(ascii: "\\") else { return nil }
                index += 1
            }
            return nil
        }

        /// A string value (valid UTF-8, without escapes). ASCII, the usual id, is made without
        /// `String(validating:)`, whose generic path looked its metadata up for every string.
        mutating func string() -> String? {
            guard let raw = rawString() else { return nil }
            return Self.text(raw)
        }

        /// The string of a string's bytes (``rawString()``): ASCII without validation, else
        /// validated UTF-8, else nil.
        static func text(_ raw: UnsafeRawBufferPointer) -> String? {
            var ascii = true
            for byte in raw where byte >= 0x80 {
                ascii = false
                break
            }
            return ascii ? String(decoding: raw, as: UTF8.self) : String(validating: raw, as: UTF8.self)
        }

        mutating func bool() -> Bool? {
            guard index < bytes.count else { return nil }
            func word(_ text: StaticString) -> Bool {
                let count = text.utf8CodeUnitCount
                guard index + count <= bytes.count else { return false }
                for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
                index += count
                return true
            }
            switch bytes[index] {
            case UInt8(ascii: "t"): return word("true") ? true : nil
            case UInt8(ascii: "f"): return word("false") ? false : nil
            default: return nil
            }
        }

        /// 1e0 … 1e22, each exact in a Double.
        private static let powersOfTen: [Double] = [
            1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
            1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
        ]

        private mutating func digits() -> Int {
            let start = index
            while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            return index - start
        }

        /// A number's sign and integer digits by JSON's grammar (`-`, then `0` or a digit 1-9 and
        /// digits): whether it is negative and where its digits start, the reader after them.
        @inline(__always)
        private mutating func integerPart() -> (negative: Bool, digitsStart: Int)? {
            var negative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
                negative = true
                index += 1
            }
            guard index < bytes.count else { return nil }
            let start = index
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else if bytes[index] &- UInt8(ascii: "1") < 9 {
                _ = digits()
            } else {
                return nil
            }
            return (negative, start)
        }

        /// A number by JSON's grammar, as the general parser and `Decodable` read it into a
        /// `Double`; nil when it is not a number or not finite.
        @inline(__always)
        mutating func number() -> Double? {
            let start = index
            guard let (negative, integerStart) = integerPart() else { return nil }
            let integerDigits = index - integerStart
            var fractionDigits = 0
            var isInteger = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                isInteger = false
                index += 1
                fractionDigits = digits()
                guard fractionDigits > 0 else { return nil }
            }
            var hasExponent = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                isInteger = false
                hasExponent = true
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { return nil }
            }
            // Up to 15 significant digits and no exponent: the digits as an integer are exact in
            // a Double, and so is the power of ten, so one division rounds the decimal correctly,
            // as `Double(text)` does; an integer of up to 18 digits is an exact `Int64`, whose
            // conversion is what `Decodable` does with the general parser's `.integer`.
            if !hasExponent, integerDigits + fractionDigits <= (isInteger ? 18 : 15) {
                var mantissa: Int64 = 0
                for position in integerStart..<index where bytes[position] != UInt8(ascii: ".") {
                    mantissa = mantissa * 10 + Int64(bytes[position] &- UInt8(ascii: "0"))
                }
                if isInteger { return Double(negative ? -mantissa : mantissa) }
                let magnitude = Double(mantissa) / Self.powersOfTen[fractionDigits]
                return negative ? -magnitude : magnitude
            }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            if isInteger, let exact = Int64(text) { return Double(exact) }
            guard let value = Double(text), value.isFinite else { return nil }
            return value
        }

        /// `{"scene": {…}}` and nothing else.
        mutating func parameters(depth: Int) -> Scene? {
            var scene: Scene?
            let ok = object(depth: depth) { reader, key in
                guard scene == nil, Self.equal(key, "scene") else { return false }
                scene = reader.scene(depth: depth + 1)
                return scene != nil
            }
            return ok ? scene : nil
        }

        /// `{"scene": "…", "upsert": […], "remove": […]}`, the last two optional, each once.
        mutating func update(depth: Int) -> Update? {
            var scene: String?
            var upsert: [NodePatch]?
            var remove: [String]?
            let ok = object(depth: depth) { reader, key in
                if Self.equal(key, "scene") { return reader.once(&scene) { $0.string() } }
                if Self.equal(key, "upsert") {
                    return reader.once(&upsert) { reader in
                        reader.array(depth: depth + 1) { $0.patch(depth: depth + 2) }
                    }
                }
                if Self.equal(key, "remove") {
                    return reader.once(&remove) { reader in reader.array(depth: depth + 1) { $0.string() } }
                }
                return false
            }
            guard ok, let scene else { return nil }
            return (scene, upsert, remove)
        }

        /// One patch at `depth`: `parent` and `node`, and `index` (an integer as a node's).
        mutating func patch(depth: Int) -> NodePatch? {
            var parent: String?
            var node: Node?
            var index: Int?
            let ok = object(depth: depth) { reader, key in
                if Self.equal(key, "parent") { return reader.once(&parent) { $0.string() } }
                if Self.equal(key, "node") { return reader.once(&node) { $0.node(depth: depth + 1) } }
                if Self.equal(key, "index") { return reader.once(&index) { $0.integer() } }
                return false
            }
            guard ok, let parent, let node else { return nil }
            return NodePatch(parent: parent, index: index, node: node)
        }

        mutating func scene(depth: Int) -> Scene? {
            var name: String?
            var root: Node?
            var persist: Bool?
            var sequentialWrap: Bool?
            let ok = object(depth: depth) { reader, key in
                if Self.equal(key, "name") {
                    guard name == nil, let text = reader.string() else { return false }
                    name = text
                } else if Self.equal(key, "root") {
                    guard root == nil, let node = reader.node(depth: depth + 1) else { return false }
                    root = node
                } else if Self.equal(key, "persist") {
                    guard persist == nil, let flag = reader.bool() else { return false }
                    persist = flag
                } else if Self.equal(key, "sequentialWrap") {
                    guard sequentialWrap == nil, let flag = reader.bool() else { return false }
                    sequentialWrap = flag
                } else {
                    return false
                }
                return true
            }
            guard ok, let name, let root else { return nil }
            var scene = Scene(name: name, root: root)
            scene.persist = persist
            scene.sequentialWrap = sequentialWrap
            return scene
        }

        @inline(__always)
        static func equal(_ key: UnsafeRawBufferPointer, _ name: StaticString) -> Bool {
            let count = name.utf8CodeUnitCount
            guard key.count == count else { return false }
            for offset in 0..<count where key[offset] != name.utf8Start[offset] { return false }
            return true
        }

        /// One node and its subtree at `depth`: each field once, by ``NodeField``.
        mutating func node(depth: Int) -> Node? {
            var node = Node(id: "")
            return read(into: &node, depth: depth) ? node : nil
        }

        /// ``node(depth:)`` read into `node` (a `Node(id: "")`), where it stands: a list of
        /// children reads each child in its own place in the array, not into a value copied there
        /// (a copy of every field of every node of a page, retains included). False: not a node
        /// this reader takes (`node` is then partly read, for the caller to drop).
        mutating func read(into node: inout Node, depth: Int) -> Bool {
            var hasId = false
            let ok = object(depth: depth) { reader, key in
                guard let field = NodeField(key: key) else { return false }
                switch field {
                case .id:
                    guard !hasId, let text = reader.string() else { return false }
                    node.id = text
                    hasId = true
                    return true
                case .frame:
                    guard node.frame == nil, let frame = reader.frame(depth: depth + 1) else { return false }
                    node.frame = frame
                    return true
                case .focusable: return reader.once(&node.focusable) { $0.bool() }
                case .disabled: return reader.once(&node.disabled) { $0.bool() }
                case .section: return reader.once(&node.section) { $0.bool() }
                case .focusEffectDisabled: return reader.once(&node.focusEffectDisabled) { $0.bool() }
                case .remembersLastFocus: return reader.once(&node.remembersLastFocus) { $0.bool() }
                case .modal: return reader.once(&node.modal) { $0.bool() }
                case .role: return reader.once(&node.role) { $0.string() }
                case .scope: return reader.once(&node.scope) { $0.string() }
                case .prefersDefaultFocus: return reader.once(&node.prefersDefaultFocus) { $0.string() }
                case .wrap: return reader.once(&node.wrap) { $0.string().flatMap(WrapAxis.init(rawValue:)) }
                case .index: return reader.once(&node.index) { $0.integer() }
                case .interactions:
                    return reader.once(&node.interactions) { reader in
                        reader.array(depth: depth + 1) { $0.string().flatMap(Interaction.init(rawValue:)) }
                    }
                case .values: return reader.once(&node.values) { $0.stringMap(depth: depth + 1) }
                case .sceneValues: return reader.once(&node.sceneValues) { $0.stringMap(depth: depth + 1) }
                case .next: return reader.once(&node.next) { $0.stringMap(depth: depth + 1) }
                case .scroll: return reader.once(&node.scroll) { $0.scroll(depth: depth + 1) }
                case .children:
                    guard node.children == nil, let children = reader.children(depth: depth + 1) else { return false }
                    node.children = children
                    return true
                case .defaultFocus, .bindings, .accessibilityBindings, .collection:
                    return false  // left to `Codable`
                }
            }
            return ok && hasId
        }

        /// Reads a field's value into `slot` unless the field was already read (a key twice is
        /// refused); false when it was, or when `read` finds no value.
        mutating func once<T>(_ slot: inout T?, _ read: (inout Reader) -> T?) -> Bool {
            guard slot == nil, let value = read(&self) else { return false }
            slot = value
            return true
        }

        /// An integer written as one (no fraction, no exponent) of up to 18 digits, which every
        /// reader converts exactly; anything else is nil (the general way decides).
        mutating func integer() -> Int? {
            guard let (negative, start) = integerPart(), index - start <= 18 else { return nil }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e") { return nil }
            var value = 0
            for position in start..<index { value = value * 10 + Int(bytes[position] &- UInt8(ascii: "0")) }
            return negative ? -value : value
        }

        /// An array at `depth` of what `element` reads.
        mutating func array<T>(depth: Int, _ element: (inout Reader) -> T?) -> [T]? {
            guard depth <= depthLimit, take(UInt8(ascii: "[")) else { return nil }
            var items: [T] = []
            if take(UInt8(ascii: "]")) { return items }
            repeat {
                skipSpace()
                guard let item = element(&self) else { return nil }
                items.append(item)
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]")) ? items : nil
        }

        /// An object at `depth` of string values (`values`, `sceneValues`, `next`); a key twice
        /// (as strings compare) is refused, as the general parser refuses it.
        mutating func stringMap(depth: Int) -> [String: String]? {
            var map: [String: String] = [:]
            let ok = object(depth: depth) { reader, key in
                guard let name = Self.text(key), let value = reader.string() else { return false }
                return map.updateValue(value, forKey: name) == nil
            }
            return ok ? map : nil
        }

        /// A scroll container's object at `depth`: each field once, the three required ones present.
        mutating func scroll(depth: Int) -> Scroll? {
            var axis: ScrollAxis?, policy: ScrollPolicy?
            var contentWidth: Double?, contentHeight: Double?, offsetX: Double?, offsetY: Double?, margin: Double?
            let ok = object(depth: depth) { reader, key in
                if Self.equal(key, "axis") { return reader.once(&axis) { $0.string().flatMap(ScrollAxis.init(rawValue:)) } }
                if Self.equal(key, "contentWidth") { return reader.once(&contentWidth) { $0.number() } }
                if Self.equal(key, "contentHeight") { return reader.once(&contentHeight) { $0.number() } }
                if Self.equal(key, "offsetX") { return reader.once(&offsetX) { $0.number() } }
                if Self.equal(key, "offsetY") { return reader.once(&offsetY) { $0.number() } }
                if Self.equal(key, "policy") { return reader.once(&policy) { $0.string().flatMap(ScrollPolicy.init(rawValue:)) } }
                if Self.equal(key, "margin") { return reader.once(&margin) { $0.number() } }
                return false
            }
            guard ok, let axis, let contentWidth, let contentHeight else { return nil }
            return Scroll(
                axis: axis, contentWidth: contentWidth, contentHeight: contentHeight, offsetX: offsetX, offsetY: offsetY,
                policy: policy, margin: margin)
        }

        /// An array of nodes at `depth` (the nodes one deeper).
        mutating func children(depth: Int) -> [Node]? {
            guard depth <= depthLimit, take(UInt8(ascii: "[")) else { return nil }
            var children: [Node] = []
            if take(UInt8(ascii: "]")) { return children }
            repeat {
                skipSpace()
                children.append(Node(id: ""))
                guard read(into: &children[children.count - 1], depth: depth + 1) else { return nil }
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]")) ? children : nil
        }

        /// `{"x": …, "y": …, "width": …, "height": …}`, each once, in any order.
        mutating func frame(depth: Int) -> Rect? {
            var values: (x: Double?, y: Double?, width: Double?, height: Double?) = (nil, nil, nil, nil)
            let ok = object(depth: depth) { reader, key in
                guard let number = reader.number() else { return false }
                switch key.count {
                case 1 where key[0] == UInt8(ascii: "x") && values.x == nil: values.x = number
                case 1 where key[0] == UInt8(ascii: "y") && values.y == nil: values.y = number
                case 5 where values.width == nil && Self.equal(key, "width"): values.width = number
                case 6 where values.height == nil && Self.equal(key, "height"): values.height = number
                default: return false
                }
                return true
            }
            guard ok, let x = values.x, let y = values.y, let width = values.width, let height = values.height else { return nil }
            return Rect(x: x, y: y, width: width, height: height)
        }
    }
}

extension NodeField {
    /// The field a key's bytes name, by its length and first byte (one comparison for most keys);
    /// `WireFieldTableTests` checks that every field is found by its name.
    @inline(__always)
    init?(key: UnsafeRawBufferPointer) {
        let first = key.first ?? 0
        let field: NodeField
        switch key.count {
        case 2: field = .id
        case 4: field = first == UInt8(ascii: "r") ? .role : first == UInt8(ascii: "w") ? .wrap : .next
        case 5:
            switch first {
            case UInt8(ascii: "f"): field = .frame
            case UInt8(ascii: "s"): field = .scope
            case UInt8(ascii: "m"): field = .modal
            default: field = .index
            }
        case 6: field = first == UInt8(ascii: "v") ? .values : .scroll
        case 7: field = .section
        case 8: field = first == UInt8(ascii: "d") ? .disabled : first == UInt8(ascii: "b") ? .bindings : .children
        case 9: field = .focusable
        case 10: field = .collection
        case 11: field = .sceneValues
        case 12: field = first == UInt8(ascii: "i") ? .interactions : .defaultFocus
        case 18: field = .remembersLastFocus
        case 19: field = first == UInt8(ascii: "f") ? .focusEffectDisabled : .prefersDefaultFocus
        case 21: field = .accessibilityBindings
        default: return nil
        }
        guard SceneBytes.Reader.equal(key, field.name) else { return nil }
        self = field
    }

    /// The field's name as a static string, compared byte for byte with a key without building a
    /// `String` (`WireFieldTableTests` checks each against `rawValue` through ``init(key:)``).
    var name: StaticString {
        switch self {
        case .id: "id"
        case .frame: "frame"
        case .focusable: "focusable"
        case .disabled: "disabled"
        case .interactions: "interactions"
        case .section: "section"
        case .scope: "scope"
        case .prefersDefaultFocus: "prefersDefaultFocus"
        case .defaultFocus: "defaultFocus"
        case .bindings: "bindings"
        case .accessibilityBindings: "accessibilityBindings"
        case .values: "values"
        case .sceneValues: "sceneValues"
        case .focusEffectDisabled: "focusEffectDisabled"
        case .role: "role"
        case .remembersLastFocus: "remembersLastFocus"
        case .wrap: "wrap"
        case .next: "next"
        case .modal: "modal"
        case .scroll: "scroll"
        case .collection: "collection"
        case .index: "index"
        case .children: "children"
        }
    }
}
