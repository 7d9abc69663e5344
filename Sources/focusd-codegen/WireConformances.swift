import VarlinkIDL

/// The generator's input beside the interfaces (Sources/FocusWire/WireTypes.txt): which
/// interfaces, and where the engine's Swift types differ from them. One entry a line, `#` starts a
/// comment:
///
///     interface PATH            read the `type` declarations of this `.varlink` file
///     name TYPE SWIFT           the interface's TYPE is the Swift type SWIFT
///     skip TYPE                 no conformance for TYPE (a type whose Swift form is written elsewhere)
///     enum TYPE.FIELD SWIFT     the inline enum of TYPE's FIELD is the Swift enum SWIFT
///     keys TYPE SWIFT           TYPE's coding keys are the package enum SWIFT (a fast reader switches over it)
struct WireTable {
    var interfaces: [String] = []
    var names: [String: String] = [:]
    var skipped: Set<String> = []
    var enums: [String: String] = [:]
    var keys: [String: String] = [:]
    /// Where each entry stands (`table:line`), for errors about it.
    var lines: [String: String] = [:]

    /// Each entry's form: its words.
    static let forms = [
        "interface": "interface PATH", "name": "name TYPE SWIFT", "skip": "skip TYPE", "enum": "enum TYPE.FIELD SWIFT",
        "keys": "keys TYPE SWIFT",
    ]

    init(text: String, path: String) throws(CodegenError) {
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words = line.prefix { $0 != "#" }.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let verb = words.first else { continue }
            let place = "\(path):\(number + 1)"
            guard let form = Self.forms[verb] else {
                throw CodegenError("\(place): unknown entry '\(verb)' (interface, name, skip, enum or keys)")
            }
            guard words.count == form.split(separator: " ").count else { throw CodegenError("\(place): expected '\(form)'") }
            switch verb {
            case "interface": interfaces.append(words[1])
            case "name": names[words[1]] = words[2]
            case "skip": skipped.insert(words[1])
            case "enum": enums[words[1]] = words[2]
            default: keys[words[1]] = words[2]
            }
            guard lines[verb + " " + words[1]] == nil else { throw CodegenError("\(place): '\(verb) \(words[1])' again") }
            lines[verb + " " + words[1]] = place
        }
        guard !interfaces.isEmpty else { throw CodegenError("\(path): no 'interface' entry") }
    }
}

/// The `Codable` conformances of the engine's wire types, generated from the `.varlink` files:
/// each is what the compiler synthesizes for a type in its own file (the conformances live in
/// FocusWire, away from the engine's types, where the compiler cannot synthesize them). Coding keys
/// are the interface's fields in its order; a `?T` field is decoded with `decodeIfPresent` (absent
/// and `null` both nil) and left out when nil on encode; the others are required. A named enum
/// type or an inline enum field (mapped by the table) is a `String` raw-value enum whose
/// conformance is the standard library's.
///
/// Every struct type of every interface gets one unless the table skips it; a type declared in
/// two interfaces must be the same in both. An inline enum the table does not map, an `object`
/// field, a table entry nothing uses, or two enums mapped to one Swift enum with different values
/// is an error: the generated code never guesses.
struct WireConformances {
    /// One struct type to generate.
    struct StructType {
        var wireName: String
        var swiftName: String
        var fields: [VarlinkField]
        /// The interface file that declares it.
        var path: String
    }

    let table: WireTable
    let tablePath: String
    var structs: [StructType] = []
    /// The Swift enums to conform, in order of first use, with their wire values.
    var enums: [(swift: String, values: [String])] = []
    var usedEntries: Set<String> = []

    init(table: WireTable, tablePath: String, interfaces: [(path: String, text: String)]) throws(CodegenError) {
        self.table = table
        self.tablePath = tablePath
        var declared: [String: (path: String, type: VarlinkType)] = [:]
        for (path, text) in interfaces {
            let declarations: [(name: String, type: VarlinkType)]
            do {
                declarations = try VarlinkInterface.typeDeclarations(of: text)
            } catch {
                throw CodegenError("\(path): \(error)")
            }
            for (name, type) in declarations {
                if let earlier = declared[name] {
                    guard earlier.type == type else {
                        throw CodegenError("\(path): type \(name) differs from its declaration in \(earlier.path)")
                    }
                    continue
                }
                declared[name] = (path, type)
                if table.skipped.contains(name) {
                    usedEntries.insert("skip " + name)
                    continue
                }
                switch type {
                case .enumeration(let values):
                    try addEnum(swift: swiftName(name), values: values, at: "\(path): type \(name)")
                case .structure(let fields):
                    structs.append(StructType(wireName: name, swiftName: swiftName(name), fields: fields, path: path))
                default:
                    throw CodegenError("\(path): type \(name) is neither a struct nor an enum")
                }
            }
        }
        for type in structs {
            for field in type.fields {
                _ = try swiftType(of: Self.unwrapped(field.type), in: type, field: field.name)
            }
        }
        for type in structs where table.keys[type.wireName] != nil {
            usedEntries.insert("keys " + type.wireName)
        }
        for (entry, place) in table.lines where !entry.hasPrefix("interface ") && !usedEntries.contains(entry) {
            throw CodegenError("\(place): '\(entry)' names nothing the interfaces declare")
        }
    }

    mutating func swiftName(_ wireName: String) -> String {
        guard let swift = table.names[wireName] else { return wireName }
        usedEntries.insert("name " + wireName)
        return swift
    }

    mutating func addEnum(swift: String, values: [String], at place: String) throws(CodegenError) {
        if let known = enums.first(where: { $0.swift == swift }) {
            guard known.values == values else {
                throw CodegenError("\(place): values \(values) differ from \(known.values), also mapped to \(swift)")
            }
            return
        }
        enums.append((swift, values))
    }

    /// The Swift type of a field (its optionality stripped: `decodeIfPresent` says it).
    mutating func swiftType(of type: VarlinkType, in owner: StructType, field: String) throws(CodegenError) -> String {
        let place = "\(owner.path): type \(owner.wireName), field \(field)"
        switch type {
        case .bool: return "Bool"
        case .int: return "Int"
        case .float: return "Double"
        case .string: return "String"
        case .object: throw CodegenError("\(place): an `object` field has no generated form")
        case .named(let name): return swiftName(name)
        case .enumeration(let values):
            let key = owner.wireName + "." + field
            guard let swift = table.enums[key] else {
                throw CodegenError("\(place): an inline enum needs 'enum \(key) SWIFT-ENUM' in \(tablePath)")
            }
            usedEntries.insert("enum " + key)
            try addEnum(swift: swift, values: values, at: place)
            return swift
        case .structure: throw CodegenError("\(place): an inline struct has no generated form (declare it as a type)")
        case .array(let element):
            guard case .optional = element else { return "[" + (try swiftType(of: element, in: owner, field: field)) + "]" }
            throw CodegenError("\(place): an array of optionals has no generated form")
        case .map(let element):
            guard case .optional = element else { return "[String: " + (try swiftType(of: element, in: owner, field: field)) + "]" }
            throw CodegenError("\(place): a map of optionals has no generated form")
        case .optional: throw CodegenError("\(place): '?' twice")
        }
    }

    mutating func swift() throws(CodegenError) -> String {
        var out = [
            "// GENERATED at build time by focusd-codegen (the Codegen plugin) from \(([tablePath] + table.interfaces).joined(separator: ", ")):",
            "// edit those, not this. The `Codable` conformances of the engine's wire types, each what the",
            "// compiler would synthesize: coding keys named as the interface's fields, in its order; `?T`",
            "// fields decoded with `decodeIfPresent` and left out when nil; enums by their raw values.",
            "",
            "import FocusEngine",
            "",
        ]
        out += enums.map { "extension \($0.swift): Codable {}" }
        for type in structs {
            out.append("")
            out += try conformance(type)
        }
        return out.joined(separator: "\n") + "\n"
    }

    mutating func conformance(_ type: StructType) throws(CodegenError) -> [String] {
        var out: [String] = []
        let cases = type.fields.map { "    case \(Self.identifier($0.name))" }
        if let keys = table.keys[type.wireName] {
            out += [
                "/// \(type.swiftName)'s fields, the interface's `\(type.wireName)` field for field and in its order: its",
                "/// coding keys, and the one table each fast reader switches over exhaustively (so a field added",
                "/// to the interface does not compile until each reader reads it or leaves it to `Codable`).",
                "package enum \(keys): String, CodingKey, CaseIterable, Sendable {",
            ]
            out += cases
            out += ["}", "", "extension \(type.swiftName): Codable {", "    typealias CodingKeys = \(keys)"]
        } else {
            out += ["extension \(type.swiftName): Codable {", "    enum CodingKeys: String, CodingKey, CaseIterable {"]
            out += cases.map { "    " + $0 }
            out.append("    }")
        }
        out += [
            "",
            "    public init(from decoder: any Decoder) throws {",
            "        let container = try decoder.container(keyedBy: CodingKeys.self)",
        ]
        // Each field decoded in the interface's order: the first that fails is the one reported.
        // (Straight into the arguments, so no local can shadow a field's name.)
        out.append("        try self.init(")
        for (index, field) in type.fields.enumerated() {
            let name = Self.identifier(field.name)
            let call = if case .optional = field.type { "decodeIfPresent" } else { "decode" }
            let swift = try swiftType(of: Self.unwrapped(field.type), in: type, field: field.name)
            out.append("            \(name): container.\(call)(\(swift).self, forKey: .\(name))" + (index == type.fields.count - 1 ? "" : ","))
        }
        out += [
            "        )",
            "    }",
            "",
            "    public func encode(to encoder: any Encoder) throws {",
            "        var container = encoder.container(keyedBy: CodingKeys.self)",
        ]
        for field in type.fields {
            let name = Self.identifier(field.name)
            let call = if case .optional = field.type { "encodeIfPresent" } else { "encode" }
            out.append("        try container.\(call)(self.\(name), forKey: .\(name))")
        }
        out += ["    }", "}"]
        return out
    }

    /// `T` of `?T`; any other type as it is.
    static func unwrapped(_ type: VarlinkType) -> VarlinkType {
        guard case .optional(let wrapped) = type else { return type }
        return wrapped
    }

    /// A field name as a Swift identifier: a keyword in backticks.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer",
        "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where",
        "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
    ]
}
