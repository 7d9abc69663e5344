/// A Varlink error reply: a fully qualified error name and its parameters.
///
/// Handlers throw it to answer a call with an error; the client throws it when a reply carries one.
public struct VarlinkError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The qualified error name, e.g. `org.varlink.service.MethodNotFound`.
    public var name: String
    /// The error's parameters (an object).
    public var parameters: JSONValue

    public init(_ name: String, parameters: JSONValue = [:]) {
        self.name = name
        self.parameters = parameters
    }

    public var description: String {
        if let members = parameters.objectValue, members.isEmpty { return name }
        return "\(name) \(parameters)"
    }

    /// Builds an error whose parameters are an `Encodable` value (a struct of the IDL's error fields).
    public init(_ name: String, encoding parameters: some Encodable) throws {
        self.init(name, parameters: try JSONValue(encoding: parameters))
    }
}

extension VarlinkError {
    /// The interface named in the call is not provided by this service.
    public static func interfaceNotFound(_ interface: String) -> VarlinkError {
        VarlinkError("org.varlink.service.InterfaceNotFound", parameters: ["interface": .string(interface)])
    }

    /// The interface is provided but has no such method.
    public static func methodNotFound(_ method: String) -> VarlinkError {
        VarlinkError("org.varlink.service.MethodNotFound", parameters: ["method": .string(method)])
    }

    /// The interface declares the method but the service does not implement it.
    public static func methodNotImplemented(_ method: String) -> VarlinkError {
        VarlinkError("org.varlink.service.MethodNotImplemented", parameters: ["method": .string(method)])
    }

    /// A parameter of the call (named) is missing, of the wrong type or has a bad value.
    public static func invalidParameter(_ parameter: String) -> VarlinkError {
        VarlinkError("org.varlink.service.InvalidParameter", parameters: ["parameter": .string(parameter)])
    }

    /// The caller may not call this method.
    public static let permissionDenied = VarlinkError("org.varlink.service.PermissionDenied")

    /// The method streams replies and must be called with `more`.
    public static let expectedMore = VarlinkError("org.varlink.service.ExpectedMore")

    /// For `org.varlink.service.InvalidParameter`, the parameter it names.
    public var invalidParameterName: String? {
        guard name == "org.varlink.service.InvalidParameter" else { return nil }
        return parameters["parameter"]?.stringValue
    }
}
