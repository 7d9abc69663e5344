import FocusEngine
import FocusWire

/// Reads a scene file with ``SceneFile`` (the format focusd's own commands take), checked against
/// the wire types before anything is sent.
enum SceneLoading {
    /// Loads `path`; a failure is a ``CommandFailure/input(_:)`` naming the file and what is wrong.
    static func load(_ path: String) throws(CommandFailure) -> Scene {
        do {
            return try SceneFile.load(path)
        } catch {
            throw .input(error.description)
        }
    }
}
