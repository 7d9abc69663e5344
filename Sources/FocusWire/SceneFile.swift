import FocusEngine
import Varlink

/// Reads scenes from files: a `Scene` object, or an example file of ../shared/examples (an object
/// with a `scene` member), so `focusd simulate`, `focusd lint` and `focusctl set-scene` take either.
///
/// The JSON is parsed and decoded exactly as a scene arriving over the socket is (Varlink's parser
/// and decoder), so a file that loads here is a file the daemon accepts.
public enum SceneFile {
    public struct LoadError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Files larger than this are refused before they are read (a scene is capped at 100,000 nodes).
    public static let maximumBytes = 256 << 20

    /// Loads and decodes `path`; errors name the file and what is wrong with it: the line and
    /// column of a JSON syntax error, the field path of a value that is not a scene's.
    public static func load(_ path: String) throws(LoadError) -> Scene {
        let bytes: [UInt8]
        do {
            bytes = try readFile(path, limit: maximumBytes)
        } catch {
            throw LoadError(description: "\(path): \(error.description)")
        }
        return try decode(bytes, source: path)
    }

    /// Decodes a scene from JSON text (a Scene, or an object with a `scene` member).
    static func decode(_ bytes: [UInt8], source: String) throws(LoadError) -> Scene {
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            throw LoadError(description: "\(source): not JSON: \(describe(error, in: bytes))")
        }
        let value = document["root"] == nil ? document["scene"] ?? document : document
        do {
            return try value.decode(Scene.self, strict: true)  // unknown fields rejected, as calls do
        } catch {
            throw LoadError(description: "\(source): not a scene: \(describe(error))")
        }
    }

    /// A JSON syntax error with the line and column (1-based, in bytes) of its offset.
    static func describe(_ error: JSONParseError, in bytes: [UInt8]) -> String {
        let before = bytes.prefix(min(error.offset, bytes.count))
        let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let column = before.count - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
        return "line \(line), column \(column): \(error)"
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
