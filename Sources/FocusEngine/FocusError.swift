/// The errors of `io.focusd.Focus`, one case per interface error, plus `invalidParameter` for
/// calls whose parameters are well-typed but not allowed (a directional move on the accessibility
/// track), which the service answers with `org.varlink.service.InvalidParameter`.
public enum FocusError: Error, Hashable, Sendable {
    case noSuchScene(scene: String)
    case noSuchNode(id: String)
    case noSuchBinding(name: String, value: String?)
    case noSuchScope(scope: String)
    case notFocusable(id: String)
    case invalidScene(reason: String, node: String?)
    case sceneOwned(scene: String)
    case permissionDenied(method: String)
    case tooManyNodes(limit: Int)
    /// `org.varlink.service.InvalidParameter` naming `parameter`.
    case invalidParameter(parameter: String)

    /// The qualified Varlink error name.
    public var varlinkName: String {
        switch self {
        case .noSuchScene: "io.focusd.Focus.NoSuchScene"
        case .noSuchNode: "io.focusd.Focus.NoSuchNode"
        case .noSuchBinding: "io.focusd.Focus.NoSuchBinding"
        case .noSuchScope: "io.focusd.Focus.NoSuchScope"
        case .notFocusable: "io.focusd.Focus.NotFocusable"
        case .invalidScene: "io.focusd.Focus.InvalidScene"
        case .sceneOwned: "io.focusd.Focus.SceneOwned"
        case .permissionDenied: "io.focusd.Focus.PermissionDenied"
        case .tooManyNodes: "io.focusd.Focus.TooManyNodes"
        case .invalidParameter: "org.varlink.service.InvalidParameter"
        }
    }

    /// The error's parameters, as the interface names them (string values only, except `limit`).
    public var parameters: [String: ParameterValue] {
        switch self {
        case .noSuchScene(let scene), .sceneOwned(let scene): ["scene": .string(scene)]
        case .noSuchNode(let id), .notFocusable(let id): ["id": .string(id)]
        case .noSuchBinding(let name, let value): ["name": .string(name), "value": value.map { .string($0) } ?? .null]
        case .noSuchScope(let scope): ["scope": .string(scope)]
        case .invalidScene(let reason, let node): ["reason": .string(reason), "node": node.map { .string($0) } ?? .null]
        case .permissionDenied(let method): ["method": .string(method)]
        case .tooManyNodes(let limit): ["limit": .int(limit)]
        case .invalidParameter(let parameter): ["parameter": .string(parameter)]
        }
    }

    /// A value of an error's parameters on the wire: a string, an int, or null for an absent `?` field.
    public enum ParameterValue: Hashable, Sendable {
        case string(String)
        case int(Int)
        case null
    }
}

extension FocusError: CustomStringConvertible {
    /// The error in words, for a person: the log, focusctl, warnings.
    public var description: String {
        switch self {
        case .noSuchScene(let scene): "no scene named '\(scene)'"
        case .noSuchNode(let id): "no node with id '\(id)'"
        case .noSuchBinding(let name, let value):
            value.map { "no node is bound to \(name) = '\($0)'" } ?? "no node has the Bool binding '\(name)'"
        case .noSuchScope(let scope): "no node declares the scope '\(scope)'"
        case .notFocusable(let id): "node '\(id)' cannot take focus (not focusable, disabled or without a frame)"
        case .invalidScene(let reason, let node): node.map { "invalid scene at node '\($0)': \(reason)" } ?? "invalid scene: \(reason)"
        case .sceneOwned(let scene): "scene '\(scene)' is owned by another connection"
        case .permissionDenied(let method): "permission denied for \(method)"
        case .tooManyNodes(let limit): "the scene has more than \(limit) nodes"
        case .invalidParameter(let parameter): "invalid parameter '\(parameter)'"
        }
    }
}
