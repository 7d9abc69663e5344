// The methods of focusd's three Varlink interfaces, listed once: the daemon dispatches on these
// enums (an exhaustive switch, so a method without a handler does not compile), the access policy
// takes the read-only ones from them, and focusctl calls them by them. A test checks each list
// against its interface file (io.focusd.*.varlink).

/// One interface's method table: each case is a method, by its Varlink name.
public protocol VarlinkMethodTable: CaseIterable, RawRepresentable, Hashable, Sendable where RawValue == String {
    /// The interface's name, e.g. `io.focusd.Focus`.
    static var interface: String { get }
    /// Whether a read-only peer may call it (service.md §1: reads, not changes).
    var isReadOnly: Bool { get }
}

extension VarlinkMethodTable {
    /// The fully qualified name a client calls, e.g. `io.focusd.Focus.Move`.
    public var qualified: String { "\(Self.interface).\(rawValue)" }

    /// The qualified names of the methods a read-only peer may call.
    public static var readOnlyNames: [String] { allCases.filter(\.isReadOnly).map(\.qualified) }
}

/// `io.focusd.Focus`.
public enum FocusMethod: String, VarlinkMethodTable {
    case setScene = "SetScene"
    case updateScene = "UpdateScene"
    case removeScene = "RemoveScene"
    case activateScene = "ActivateScene"
    case listScenes = "ListScenes"
    case getState = "GetState"
    case move = "Move"
    case focus = "Focus"
    case setBinding = "SetBinding"
    case resetFocus = "ResetFocus"
    case send = "Send"
    case scrollTo = "ScrollTo"
    case monitor = "Monitor"
    case lint = "Lint"

    public static let interface = "io.focusd.Focus"

    public var isReadOnly: Bool {
        switch self {
        case .getState, .listScenes, .monitor: true
        default: false
        }
    }
}

/// `io.focusd.Input`.
public enum InputMethod: String, VarlinkMethodTable {
    case listDevices = "ListDevices"
    case monitor = "Monitor"
    case reloadConfig = "ReloadConfig"
    case lend = "Lend"
    case reclaim = "Reclaim"

    public static let interface = "io.focusd.Input"

    /// Reloading and lending change what focusd does: full access only.
    public var isReadOnly: Bool {
        switch self {
        case .listDevices, .monitor: true
        case .reloadConfig, .lend, .reclaim: false
        }
    }
}

/// `io.focusd.Inspect`.
public enum InspectMethod: String, VarlinkMethodTable {
    case getScene = "GetScene"
    case explainMove = "ExplainMove"
    case planPath = "PlanPath"
    case record = "Record"

    public static let interface = "io.focusd.Inspect"

    /// Record reads raw device input (what is typed), so it needs full access.
    public var isReadOnly: Bool { self != .record }
}
