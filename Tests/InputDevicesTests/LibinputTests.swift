import Glibc
import Testing

@testable import InputDevices

@Suite("libinput, loaded on first use")
struct LibinputTests {
    @Test("the first context loads libinput and gives a descriptor to wait on")
    func loadsOnFirstUse() throws {
        let context = try LibinputContext()
        #expect(context.fd >= 0)
        #expect(Self.mappedFiles().contains { $0.contains("/libinput.so") })
    }

    /// The files mapped into this process (/proc/self/maps, read to its end).
    static func mappedFiles() -> [String] {
        let fd = open("/proc/self/maps", O_RDONLY)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
            line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(5).first.map(String.init)
        }
    }

    @Test("a node that is not an input device is refused with the call named, and the context stays usable")
    func refusesNonDevices() throws {
        let context = try LibinputContext()
        #expect(throws: PosixError.self) { try context.add(node: "/dev/null") }
        #expect(try context.dispatch().isEmpty)
    }
}
