import FocusEngine
import FoundationEssentials

/// Reads scenes from files: a `Scene` object, or an example file of ../shared/examples (an object
/// with a `scene` member), so `focusd simulate` and `focusctl set-scene` take either.
public enum SceneFile {
    public struct LoadError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Loads and decodes `path`; errors name the file and, for JSON errors, the failing field.
    public static func load(_ path: String) throws(LoadError) -> Scene {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let error as CocoaError {
            let reason =
                switch error.code {
                case .fileReadNoSuchFile, .fileNoSuchFile: "no such file"
                case .fileReadNoPermission: "permission denied"
                default: "cannot read it (error \(error.code.rawValue))"
                }
            throw LoadError(description: "\(path): \(reason)")
        } catch {
            throw LoadError(description: "\(path): cannot read it (\(error))")
        }
        return try decode(data, source: path)
    }

    /// Decodes a scene from JSON text (a Scene, or an object with a `scene` member).
    public static func decode(_ data: Data, source: String) throws(LoadError) -> Scene {
        struct Wrapped: Decodable { var scene: Scene }
        let decoder = JSONDecoder()
        do {
            return try decoder.decode(Scene.self, from: data)
        } catch let sceneError {
            if let wrapped = try? decoder.decode(Wrapped.self, from: data) { return wrapped.scene }
            throw LoadError(description: "\(source): not a scene: \(describe(sceneError))")
        }
    }

    /// A decoding error in words: what was wrong and at which field path.
    public static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ keys: [any CodingKey]) -> String {
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.isEmpty ? "the top level" : String(text.drop { $0 == "." })
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field '\(key.stringValue)' at \(path(context.codingPath))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(context.debugDescription) at \(path(context.codingPath))"
        case .dataCorrupted(let context):
            return "\(context.debugDescription) at \(path(context.codingPath))"
        @unknown default:
            return "\(error)"
        }
    }
}
