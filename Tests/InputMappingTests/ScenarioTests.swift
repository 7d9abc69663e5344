// Mapping scenarios as text (Scenarios/*.scenario, the format in Scenarios/README.md): device
// events in, commands out, each file one test. The devices are data beside them (Scenarios/devices).
import FocusConfig
import FocusWire
import Foundation
import Testing

@testable import InputMapping

/// One scenario file, read and run against a `DeviceMapper` through the `Rig`.
struct Scenario: CustomTestStringConvertible, Sendable {
    static let directory = "/" + String(#filePath).split(separator: "/").dropLast().joined(separator: "/") + "/Scenarios/"

    var file: String
    var testDescription: String { file }

    /// Every `.scenario` file of the directory, by name.
    static var all: [Scenario] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".scenario") }.sorted().map { Scenario(file: $0) }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs the scenario; the mismatches, each with its line number.
    func run() throws -> [String] {
        let text = String(decoding: try readFile(Self.directory + file, limit: 1 << 20), as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { ($0.offset + 1, String($0.element)) }
        var identity: DeviceIdentity?
        var config = ""
        var rig: Rig?
        var problems: [String] = []
        // The step whose commands the `=>` lines after it list: its line and what it produced.
        var pending: (line: Int, produced: [String], expected: [String])?

        func settle() {
            guard let step = pending else { return }
            if step.produced != step.expected {
                problems.append("\(file):\(step.line): expected \(step.expected), got \(step.produced)")
            }
            pending = nil
        }
        func fail(_ line: Int, _ message: String) -> Failure { Failure(description: "\(file):\(line): \(message)") }

        while !lines.isEmpty {
            let (number, raw) = lines.removeFirst()
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0].trimmingSpaces
            if line.isEmpty { continue }
            if line.hasPrefix("=>") {
                guard pending != nil else { throw fail(number, "'=>' with no step before it") }
                pending!.expected.append(String(line.dropFirst(2)).trimmingSpaces)
                continue
            }
            settle()
            let words = line.split(separator: " ").map(String.init)
            switch words[0] {
            case "device":
                guard words.count == 2 else { throw fail(number, "device NAME") }
                let devices = try DeviceDescription.load(Self.directory + "devices/" + words[1] + ".json")
                guard devices.count == 1 else { throw fail(number, "devices/\(words[1]).json holds \(devices.count) devices") }
                identity = devices[0]
            case "config":
                config += String(line.dropFirst("config".count)).trimmingSpaces + "\n"
            case "wait":
                guard words.count == 2, let ms = Int64(words[1]) else { throw fail(number, "wait MILLISECONDS") }
                rig = try rig ?? start(identity, config, number)
                pending = (number, rig!.advance(ms: ms), [])
            default:
                // One frame: NAME VALUE, NAME VALUE, ... (SYN_REPORT added).
                var events: [(UInt16, UInt16, Int32)] = []
                for part in line.split(separator: ",") {
                    let fields = part.split(separator: " ")
                    guard fields.count == 2, let named = EventCode.named(String(fields[0])), let value = Int32(fields[1]),
                        named.type != EventCode.PROPERTY
                    else { throw fail(number, "'\(part.trimmingSpaces)' is not an event (CODE_NAME VALUE)") }
                    events.append((named.type, named.code, value))
                }
                rig = try rig ?? start(identity, config, number)
                pending = (number, rig!.frame(events), [])
            }
        }
        settle()
        return problems
    }

    /// The rig for the device, with the profile the configuration gives it (if any).
    private func start(_ identity: DeviceIdentity?, _ config: String, _ line: Int) throws -> Rig {
        guard let identity else { throw Failure(description: "\(file):\(line): no 'device' before the first step") }
        let matcher = ProfileMatcher(configuration: try Configuration.parse(config))
        return Rig(identity, settings: matcher.settings(for: identity))
    }
}

@Suite("Mapping scenarios (Scenarios/*.scenario)")
struct ScenarioTests {
    @Test("the scenario's commands are exactly the ones it lists", arguments: Scenario.all)
    func scenario(_ scenario: Scenario) throws {
        for problem in try scenario.run() {
            Issue.record(Comment(rawValue: problem))
        }
    }

    @Test("the scenarios are found")
    func found() {
        #expect(Scenario.all.count >= 10)
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String { String(self).trimmingCharacters(in: " \t") }
}
