// Name <-> code lookups over `EventCode.table`, for config files and diagnostics.

extension EventCode {
    /// Pseudo event type for `INPUT_PROP_*` names (device properties are not events).
    public static let PROPERTY: UInt16 = 0xFFFF

    /// An event code with its event type, as a config file names it.
    public struct Named: Hashable, Sendable {
        public var type: UInt16
        public var code: UInt16
        public init(type: UInt16, code: UInt16) {
            self.type = type
            self.code = code
        }
    }

    private static let byName: [String: Named] = {
        var result: [String: Named] = [:]
        for entry in table where result[entry.name] == nil {
            result[entry.name] = Named(type: entry.type, code: entry.code)
        }
        return result
    }()

    private static let byCode: [Named: String] = {
        var result: [Named: String] = [:]
        for entry in table where result[Named(type: entry.type, code: entry.code)] == nil {
            result[Named(type: entry.type, code: entry.code)] = entry.name
        }
        return result
    }()

    /// The type and code of a kernel name such as `KEY_ENTER`, `BTN_SOUTH`, `REL_DIAL`,
    /// `ABS_HAT0X` or `INPUT_PROP_POINTER` (type `PROPERTY`); nil when the kernel has no such name.
    public static func named(_ name: String) -> Named? {
        byName[name]
    }

    /// The kernel's name of a code of an event type (`EV_KEY`, `EV_REL`, `EV_ABS`, `EV_SYN`,
    /// `EV_SW`, `EV_MSC`, `EV_LED`, `EV_FF`, `PROPERTY`), the first one the header gives when there are aliases.
    public static func name(type: UInt16, code: UInt16) -> String? {
        byCode[Named(type: type, code: code)]
    }

    /// Every name the table knows, for diagnostics and documentation.
    public static var allNames: [String] { table.map(\.name) }
}
