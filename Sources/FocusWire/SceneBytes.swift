import FocusEngine

/// `SetScene` parameters read straight from their JSON text into a ``Scene``, without building a
/// JSON tree first: a 100,000-node scene's tree (a dictionary per node and per frame, each
/// key and value hashed and boxed, then freed) cost more than reading the bytes.
///
/// It takes what `SceneDecoding` (in FocusService) takes from the tree, no more: an object of
/// exactly `scene`, whose members are `name`, `root`, `persist` and `sequentialWrap`, nodes of
/// `id`, `frame` (exactly `x`, `y`, `width`, `height`, numbers), the flags, `role`, `scope`,
/// `prefersDefaultFocus` and `children`. It accepts only text the general JSON parser accepts
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
        var reader = Reader(bytes: bytes, depthLimit: depthLimit)
        reader.skipSpace()
        guard reader.index < bytes.count else { return nil }
        let start = reader.index
        guard let (scene, length) = setScene(UnsafeRawBufferPointer(rebasing: bytes[start...]), depthLimit: depthLimit)
        else { return nil }
        reader.index = start + length
        reader.skipSpace()
        return reader.index == bytes.count ? scene : nil
    }

    private struct Reader {
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

        /// A number by JSON's grammar, as the general parser and `Decodable` read it into a
        /// `Double`; nil when it is not a number or not finite.
        mutating func number() -> Double? {
            let start = index
            var negative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
                negative = true
                index += 1
            }
            guard index < bytes.count else { return nil }
            let integerStart = index
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else if bytes[index] &- UInt8(ascii: "1") < 9 {
                _ = digits()
            } else {
                return nil
            }
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

        /// The fields of a node this reader takes, one bit each (a key seen twice is refused).
        private enum Field: UInt16 {
            case id, frame, focusable, disabled, section, focusEffectDisabled, remembersLastFocus, modal
            case role, scope, prefersDefaultFocus, children

            var bit: UInt16 { 1 << rawValue }

            /// The field a key names, by its length first (one comparison for most keys).
            init?(_ key: UnsafeRawBufferPointer) {
                let field: Field
                switch key.count {
                case 2: field = .id
                case 4: field = .role
                case 5: field = key[0] == UInt8(ascii: "s") ? .scope : key[0] == UInt8(ascii: "m") ? .modal : .frame
                case 7: field = .section
                case 8: field = key[0] == UInt8(ascii: "d") ? .disabled : .children
                case 9: field = .focusable
                case 18: field = .remembersLastFocus
                case 19: field = key[0] == UInt8(ascii: "f") ? .focusEffectDisabled : .prefersDefaultFocus
                default: return nil
                }
                guard Reader.equal(key, field.name) else { return nil }
                self = field
            }

            var name: StaticString {
                switch self {
                case .id: "id"
                case .frame: "frame"
                case .focusable: "focusable"
                case .disabled: "disabled"
                case .section: "section"
                case .focusEffectDisabled: "focusEffectDisabled"
                case .remembersLastFocus: "remembersLastFocus"
                case .modal: "modal"
                case .role: "role"
                case .scope: "scope"
                case .prefersDefaultFocus: "prefersDefaultFocus"
                case .children: "children"
                }
            }
        }

        static func equal(_ key: UnsafeRawBufferPointer, _ name: StaticString) -> Bool {
            let count = name.utf8CodeUnitCount
            guard key.count == count else { return false }
            for offset in 0..<count where key[offset] != name.utf8Start[offset] { return false }
            return true
        }

        /// One node and its subtree at `depth`.
        mutating func node(depth: Int) -> Node? {
            var node = Node(id: "")
            var seen: UInt16 = 0
            let ok = object(depth: depth) { reader, key in
                guard let field = Field(key), seen & field.bit == 0 else { return false }
                seen |= field.bit
                switch field {
                case .id:
                    guard let text = reader.string() else { return false }
                    node.id = text
                case .frame:
                    guard let frame = reader.frame(depth: depth + 1) else { return false }
                    node.frame = frame
                case .focusable, .disabled, .section, .focusEffectDisabled, .remembersLastFocus, .modal:
                    guard let flag = reader.bool() else { return false }
                    switch field {
                    case .focusable: node.focusable = flag
                    case .disabled: node.disabled = flag
                    case .section: node.section = flag
                    case .focusEffectDisabled: node.focusEffectDisabled = flag
                    case .remembersLastFocus: node.remembersLastFocus = flag
                    default: node.modal = flag
                    }
                case .role, .scope, .prefersDefaultFocus:
                    guard let text = reader.string() else { return false }
                    switch field {
                    case .role: node.role = text
                    case .scope: node.scope = text
                    default: node.prefersDefaultFocus = text
                    }
                case .children:
                    guard let children = reader.children(depth: depth + 1) else { return false }
                    node.children = children
                }
                return true
            }
            guard ok, seen & Field.id.bit != 0 else { return nil }
            return node
        }

        /// An array of nodes at `depth` (the nodes one deeper).
        mutating func children(depth: Int) -> [Node]? {
            guard depth <= depthLimit, take(UInt8(ascii: "[")) else { return nil }
            var children: [Node] = []
            if take(UInt8(ascii: "]")) { return children }
            repeat {
                skipSpace()
                guard let child = node(depth: depth + 1) else { return nil }
                children.append(child)
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
