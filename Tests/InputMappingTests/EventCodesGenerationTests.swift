import Foundation
import Testing

@testable import InputMapping

/// `EventCodes.swift` is generated from `scripts/event-codes.tsv` (every code written once) by
/// `scripts/generate-event-codes`; the committed file must be exactly the generator's output.
@Suite("Generated event codes")
struct EventCodesGenerationTests {
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs the generator with `argument`; its standard output and exit status.
    static func generator(_ argument: String) throws -> (output: String, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appending(path: "scripts/generate-event-codes").path, argument]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), process.terminationStatus)
    }

    @Test("the committed EventCodes.swift is the generator's output of scripts/event-codes.tsv")
    func committedFileIsGenerated() throws {
        let generated = try Self.generator("--stdout")
        #expect(generated.status == 0)
        let committed = try TextFile.read(Self.root.appending(path: "Sources/InputMapping/EventCodes.swift").path)
        #expect(committed == generated.output, "run scripts/generate-event-codes after editing scripts/event-codes.tsv")
    }

    @Test("every row of the table has the value the installed kernel headers give")
    func tableMatchesKernelHeaders() throws {
        let checked = try Self.generator("--check-header")
        #expect(checked.status == 0, "\(checked.output)")
    }

    @Test("a code is named by its first name, aliases and *_MAX still resolve, event types are no names")
    func namesAndAliases() {
        #expect(EventCode.name(type: EventCode.EV_KEY, code: EventCode.BTN_SOUTH) == "BTN_SOUTH")
        #expect(EventCode.name(type: EventCode.EV_KEY, code: EventCode.BTN_0) == "BTN_0")
        #expect(EventCode.named("BTN_MISC") == .init(type: EventCode.EV_KEY, code: 0x100))
        #expect(EventCode.named("BTN_A") == .init(type: EventCode.EV_KEY, code: EventCode.BTN_SOUTH))
        #expect(EventCode.named("KEY_BRIGHTNESS_MAX") == .init(type: EventCode.EV_KEY, code: 0x251))
        #expect(EventCode.named("SW_LID") == .init(type: EventCode.EV_SW, code: 0))
        #expect(EventCode.named("KEY_MAX") == .init(type: EventCode.EV_KEY, code: 0x2ff) && EventCode.named("EV_KEY") == nil)
        #expect(EventCode.BUS_USB == 3)
    }
}
