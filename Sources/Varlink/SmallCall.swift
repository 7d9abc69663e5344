#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension VarlinkCall {
    /// The call in `bytes` when it is small and plain, read without building a ``JSONValue``
    /// tree for the message (a remote's `Move` is parsed once per key press): an object of
    /// `method` (a string), `parameters` (an object of at most ``maxMembers`` members, strings, `true`, `false` or
    /// `null`) and the `oneway`/`more`/`upgrade` flags (`true`, `false`), each once, strings of
    /// printable ASCII without escapes, JSON whitespace anywhere between tokens. Anything else,
    /// including anything malformed, is nil and goes the general way, which decides what it
    /// means and what its error is; `SmallCallTests` holds the two to the same calls.
    ///
    /// `knownMethod`: a method name the caller holds (the last call's); a call naming it shares
    /// that string instead of making and checking its own (a heap string for most names).
    static func small(_ bytes: UnsafeBufferPointer<UInt8>, knownMethod: String? = nil) -> VarlinkCall? {
        var reader = Reader(bytes: bytes)
        guard reader.take(UInt8(ascii: "{")) else { return nil }
        var method: String?
        var parameters: [Member]?
        var flags = CallFlags()
        if !reader.take(UInt8(ascii: "}")) {
            repeat {
                // The message's own keys are compared as bytes, not made into strings first.
                guard let key = reader.stringBytes(), reader.take(UInt8(ascii: ":")) else { return nil }
                switch MessageKey(key) {
                case .method?:
                    guard method == nil, let name = reader.stringBytes() else { return nil }
                    if let knownMethod, Self.equal(name, knownMethod) {
                        method = knownMethod
                    } else {
                        method = String(decoding: name, as: UTF8.self)
                    }
                case .parameters?:
                    guard parameters == nil, reader.take(UInt8(ascii: "{")) else { return nil }
                    // The members as a list, not a dictionary (see `VarlinkCall.members`); a
                    // duplicate name is refused (the general way decides what it means). Past
                    // `maxMembers` the list's duplicate check would grow with its square: the
                    // general way reads those.
                    var members: [Member] = []
                    if !reader.take(UInt8(ascii: "}")) {
                        members.reserveCapacity(4)
                        repeat {
                            guard members.count < Self.maxMembers, let name = reader.string(), reader.take(UInt8(ascii: ":")),
                                let value = reader.scalar(), !members.contains(where: { $0.name == name })
                            else { return nil }
                            members.append(Member(name: name, value: value))
                        } while reader.take(UInt8(ascii: ","))
                        guard reader.take(UInt8(ascii: "}")) else { return nil }
                    }
                    parameters = members
                case .flag(let flag)?:
                    guard case .bool(let value)? = reader.scalar(), flags.take(flag, value) else { return nil }
                case nil:
                    return nil
                }
            } while reader.take(UInt8(ascii: ","))
            guard reader.take(UInt8(ascii: "}")) else { return nil }
        }
        guard reader.atEnd, let method else { return nil }
        return VarlinkCall(
            method: method, members: parameters ?? [], oneway: flags.oneway ?? false,
            more: flags.more ?? false, upgrade: flags.upgrade ?? false)
    }

    /// The most parameters a small call has.
    static var maxMembers: Int { 16 }

    /// A field of the message.
    enum MessageKey {
        case method, parameters
        case flag(CallFlags.Flag)

        /// The field `key` names, or nil for any other.
        init?(_ key: UnsafeBufferPointer<UInt8>) {
            func named(_ name: StaticString) -> Bool {
                key.count == name.utf8CodeUnitCount && memcmp(key.baseAddress!, name.utf8Start, key.count) == 0
            }
            if named("method") {
                self = .method
            } else if named("parameters") {
                self = .parameters
            } else if named("oneway") {
                self = .flag(.oneway)
            } else if named("more") {
                self = .flag(.more)
            } else if named("upgrade") {
                self = .flag(.upgrade)
            } else {
                return nil
            }
        }
    }

    /// Whether `bytes` are `text`'s UTF-8.
    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { known in
            known.count == bytes.count && (known.isEmpty || memcmp(known.baseAddress!, bytes.baseAddress!, known.count) == 0)
        } ?? false
    }

    struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        mutating func skipSpace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        /// Takes `byte` (after any whitespace) if it is next.
        mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        var atEnd: Bool {
            mutating get {
                skipSpace()
                return position == bytes.count
            }
        }

        /// A string of printable ASCII without escapes.
        mutating func string() -> String? {
            stringBytes().map { String(decoding: $0, as: UTF8.self) }
        }

        /// The bytes of a string of printable ASCII without escapes (without its quotes).
        mutating func stringBytes() -> UnsafeBufferPointer<UInt8>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    position += 1
                    return UnsafeBufferPointer(rebasing: bytes[start..<position - 1])
                }
                guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
                position += 1
            }
            return nil
        }

        /// A string, `true`, `false` or `null`.
        mutating func scalar() -> JSONValue? {
            skipSpace()
            guard position < bytes.count else { return nil }
            func word(_ text: StaticString, _ value: JSONValue) -> JSONValue? {
                let count = text.utf8CodeUnitCount
                guard position + count <= bytes.count else { return nil }
                for index in 0..<count where bytes[position + index] != text.utf8Start[index] { return nil }
                position += count
                return value
            }
            switch bytes[position] {
            case UInt8(ascii: "\""): return string().map { .string($0) }
            case UInt8(ascii: "t"): return word("true", .bool(true))
            case UInt8(ascii: "f"): return word("false", .bool(false))
            case UInt8(ascii: "n"): return word("null", .null)
            default: return nil
            }
        }
    }
}

/// A call's `oneway`, `more` and `upgrade` as the fast readers find them (each at most once).
struct CallFlags {
    var oneway: Bool?
    var more: Bool?
    var upgrade: Bool?

    /// The three flags.
    enum Flag {
        case oneway, more, upgrade
    }

    /// Sets the flag named `key` (one of the three); false when it was already given.
    mutating func take(_ key: String, _ value: Bool) -> Bool {
        take(key == "oneway" ? .oneway : key == "more" ? .more : .upgrade, value)
    }

    /// Sets `flag`; false when it was already given.
    mutating func take(_ flag: Flag, _ value: Bool) -> Bool {
        switch flag {
        case .oneway:
            guard oneway == nil else { return false }
            oneway = value
        case .more:
            guard more == nil else { return false }
            more = value
        case .upgrade:
            guard upgrade == nil else { return false }
            upgrade = value
        }
        return true
    }
}
