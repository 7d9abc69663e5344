import FoundationEssentials

/// Reads a text file for tests (the sources stay free of file I/O).
enum TextFile {
    static func read(_ path: String) throws -> String {
        let data = try Data(contentsOf: URL(filePath: path))
        return String(decoding: data, as: UTF8.self)
    }
}
