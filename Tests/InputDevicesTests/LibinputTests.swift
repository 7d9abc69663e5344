import Foundation
import SystemCalls
import Testing

@testable import InputDevices

@Suite("libinput, loaded on first use")
struct LibinputTests {
    @Test("the first context loads libinput and gives a descriptor to wait on")
    func loadsOnFirstUse() throws {
        let context = try LibinputContext()
        #expect(context.fd >= 0)
        #expect(try Self.mappedFiles().contains { $0.contains("/libinput.so") })
    }

    /// The files mapped into this process (/proc/self/maps, read to its end).
    static func mappedFiles() throws -> [String] {
        let maps = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps")).readToEnd() ?? Data()
        return String(decoding: maps, as: UTF8.self).split(separator: "\n").compactMap { line in
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
