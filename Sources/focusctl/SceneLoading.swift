import FocusEngine
import FoundationEssentials
import Varlink

/// Reads a scene file: a `Scene` object, or an example file with a `scene` member (the format of
/// the shared examples), checked against the wire types before anything is sent.
enum SceneLoading {
    /// Loads `path`; a failure is a ``CommandFailure/input(_:)`` naming the file and what is wrong.
    static func load(_ path: String) throws(CommandFailure) -> Scene {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile {
            throw .input("\(path): no such file")
        } catch let error as CocoaError where error.code == .fileReadNoPermission {
            throw .input("\(path): permission denied")
        } catch {
            throw .input("\(path): cannot read it (\(error))")
        }
        let document: JSONValue
        do {
            document = try JSONValue.parse(Array(data))
        } catch {
            throw .input("\(path): not JSON: \(error)")
        }
        let value = document["root"] == nil ? document["scene"] ?? document : document
        do {
            return try value.decode(Scene.self)
        } catch {
            throw .input("\(path): not a scene: \(describe(error))")
        }
    }

    /// A decoding error in words: what was wrong and at which field path.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ keys: [any CodingKey]) -> String {
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.isEmpty ? "the top level" : String(text.drop { $0 == "." })
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field '\(key.stringValue)' at \(path(context.codingPath))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(context.debugDescription) at \(path(context.codingPath))"
        @unknown default:
            return "\(error)"
        }
    }
}
