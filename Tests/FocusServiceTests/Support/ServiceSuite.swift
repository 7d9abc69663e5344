import Testing
import Varlink

/// Every socket-level test of the daemon. Serialized: each test runs its own `focusd` and some
/// measure latency, so they do not compete with each other for the two cores.
@Suite("focusd over its socket", .serialized, .timeLimit(.minutes(1)))
struct ServiceSocketTests {}

/// Scenes for the tests, as `io.focusd.Focus` JSON.
enum TestScenes {
    /// A root with `count` focusable tiles in one row, ids `tile0`…, 100 px apart.
    static func row(_ name: String, count: Int = 3, persist: Bool? = nil) -> JSONValue {
        var children: [JSONValue] = []
        for index in 0..<count {
            children.append(tile("tile\(index)", x: Double(index) * 100, y: 0))
        }
        var scene: [String: JSONValue] = [
            "name": .string(name),
            "root": ["id": "root", "frame": frame(0, 0, Double(max(count, 1)) * 100, 100), "children": .array(children)],
        ]
        if let persist { scene["persist"] = .bool(persist) }
        return .object(scene)
    }

    /// A grid of `columns` × `rows` tiles (ids `t<row>_<column>`), 60 px apart.
    static func grid(_ name: String, columns: Int, rows: Int) -> JSONValue {
        var children: [JSONValue] = []
        children.reserveCapacity(columns * rows)
        for row in 0..<rows {
            for column in 0..<columns {
                children.append(tile("t\(row)_\(column)", x: Double(column) * 60, y: Double(row) * 60, size: 50))
            }
        }
        return [
            "name": .string(name),
            "root": ["id": "root", "frame": frame(0, 0, Double(columns) * 60, Double(rows) * 60), "children": .array(children)],
        ]
    }

    static func tile(_ id: String, x: Double, y: Double, size: Double = 80) -> JSONValue {
        ["id": .string(id), "frame": frame(x, y, size, size), "focusable": true]
    }

    static func frame(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> JSONValue {
        ["x": .double(x), "y": .double(y), "width": .double(width), "height": .double(height)]
    }
}
