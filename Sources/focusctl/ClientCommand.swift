import ArgumentParser
import FocusEngine
import FocusWire
import Varlink

/// Why a command failed, and so its exit code: 1 for the client's side, 2 for the daemon's answer.
enum CommandFailure: Error {
    /// focusd could not be reached or the exchange broke off (exit 1).
    case connection(String)
    /// The command's own input is wrong, e.g. an unreadable scene file (exit 1).
    case input(String)
    /// The daemon answered with an error (exit 2).
    case daemon(VarlinkError)
    /// The command ran and found what it reports by exit code 1 (lint problems); already printed.
    case findings

    var exitCode: ExitCode {
        switch self {
        case .connection, .input, .findings: ExitCode(1)
        case .daemon: ExitCode(2)
        }
    }

    /// The message for standard error, if any.
    var message: String? {
        switch self {
        case .connection(let text), .input(let text): text
        case .daemon(let error): Self.describe(error)
        case .findings: nil
        }
    }

    /// A daemon error as `name: key=value ...`, values in JSON.
    static func describe(_ error: VarlinkError) -> String {
        guard let members = error.parameters.objectValue, !members.isEmpty else { return error.name }
        let parameters = members.keys.sorted().map { "\($0)=\(members[$0]!.compactText)" }
        return "\(error.name): \(parameters.joined(separator: " "))"
    }

    /// Classifies anything a call threw.
    static func from(_ error: any Error, socket: String) -> CommandFailure {
        switch error {
        case let failure as CommandFailure: return failure
        case let error as VarlinkError: return .daemon(error)
        case let error as VarlinkClientError:
            switch error {
            case .timedOut: return .connection("focusd at \(socket) did not answer in time")
            case .connectionClosed:
                return .connection("focusd at \(socket) closed the connection (see its log; it may have stopped)")
            default: return .connection(GlobalOptions.explain(error, path: socket))
            }
        case let error as DecodingError:
            return .connection("focusd sent a reply this focusctl does not understand (\(error)); are both the same version?")
        default:
            return .connection("\(error)")
        }
    }
}

/// A command that talks to focusd: it gets the global options and a way to report failures with
/// the right exit code.
protocol ClientCommand: ParsableCommand {
    var global: GlobalOptions { get }

    /// Does the work; anything thrown is reported by ``CommandFailure`` rules.
    func execute(_ output: Output) throws
}

extension ClientCommand {
    func run() throws {
        let output = global.output
        do {
            try execute(output)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            let failure = CommandFailure.from(error, socket: global.socketPath ?? "the default socket")
            if let message = failure.message { output.message(message) }
            throw failure.exitCode
        }
    }

    /// Connects to focusd, calls `method` and returns the reply's parameters.
    func call(_ method: String, _ parameters: [String: JSONValue?] = [:]) throws -> JSONValue {
        let client = try global.connect()
        defer { client.close() }
        return try client.call(method, .object(parameters.compactMapValues { $0 }))
    }
}

extension JSONValue {
    /// The member `key` decoded as `T`.
    func member<T: Decodable>(_ key: String, as type: T.Type = T.self) throws -> T {
        try (self[key] ?? .null).decode(T.self)
    }
}

extension FocusState {
    /// The focused node's id, or `(none)`.
    var focusedText: String { focused ?? "(none)" }
}
