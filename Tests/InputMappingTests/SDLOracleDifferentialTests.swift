import Foundation
import Testing

@testable import InputMapping

/// The whole committed SDL_GameControllerDB (`Gamepads/gamecontrollerdb.txt`, updated by
/// `scripts/update-gamecontrollerdb`) against an independent reading of SDL3's rules in Python
/// (`SDLOracle/sdl_oracle.py`, written from SDL_gamepad.c's parsing and matching rules, SDL's GUID
/// and its Linux backend): every Linux line is accepted by both or skipped by both, each accepted
/// line binds the same elements to the same sources (button, axis with half and inversion, hat
/// bit), and a pad described from each line (bus, vendor, product, version, name) gets the same
/// GUID and the same line. `FOCUSD_SDL_COUNTS=1` prints the counts for the issue's closing note.
@Suite("SDL_GameControllerDB against an independent reading of SDL's rules")
struct SDLOracleDifferentialTests {
    static let here = URL(filePath: #filePath).deletingLastPathComponent()
    static let databasePath = here.appending(path: "Gamepads/gamecontrollerdb.txt").path
    static let oraclePath = here.appending(path: "SDLOracle/sdl_oracle.py").path

    /// The oracle's output lines for a database file.
    static func oracle(_ path: String) throws -> [Substring] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", oraclePath, path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
    }

    /// A focusd binding in the oracle's terms (see `sdl_oracle.py`).
    static func sdlTerms(_ binding: GamepadMapping.Binding) -> String {
        let buttons = Dictionary(uniqueKeysWithValues: GamepadMapping.buttonTargets.map { ($0.value, $0.key) })
        let axes = Dictionary(uniqueKeysWithValues: GamepadMapping.axisTargets.map { ($0.value, $0.key) })
        let triggers = Dictionary(uniqueKeysWithValues: GamepadMapping.triggerButtons.map { ($0.value, $0.key) })
        func range(_ half: GamepadMapping.Half?) -> String { half == .positive ? "+" : half == .negative ? "-" : "full" }
        let target: String
        switch binding.target {
        case .button(let code):
            if let trigger = triggers[code] { target = "axis:\(trigger):+" } else { target = "button:\(buttons[code] ?? "?\(code)")" }
        case .axis(let code, let half):
            let name = axes[code] ?? "?\(code)"
            target = "axis:\(name):" + (half == nil && (code == EventCode.ABS_Z || code == EventCode.ABS_RZ) ? "+" : range(half))
        }
        let source: String
        switch binding.source {
        case .button(let index): source = "b\(index)"
        case .hat(let hat, let mask): source = "h\(hat).\(mask)"
        case .axis(let index, let half, let inverted): source = "a\(index):\(range(half))" + (inverted ? "~" : "")
        }
        return "\(target)=\(source)"
    }

    struct Differences {
        var lines: [String] = []
        var accepted = 0, skipped = 0, bindingsEqual = 0, bindingsTotal = 0, pads = 0, padsMatched = 0
    }

    /// Compares focusd with the oracle on a database text (the oracle reads the same file).
    static func compare(_ path: String) throws -> Differences {
        let text = try TextFile.read(path)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var database = GamepadDatabase()
        database.add(text, source: "db")
        var result = Differences()
        for row in try oracle(path) {
            let parts = row.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            guard parts.count >= 3, let number = Int(parts[1]) else { continue }
            let line = lines[number - 1].trimmingCharacters(in: " \t\r")
            if parts[0] == "L" {
                let ours = try? GamepadMapping.parse(line)
                if parts[2] == "skip" {
                    result.skipped += 1
                    if ours != nil { result.lines.append("line \(number): SDL skips it (\(parts.dropFirst(3).joined())), focusd accepts it") }
                    continue
                }
                result.accepted += 1
                guard let ours else {
                    result.lines.append("line \(number): SDL accepts it, focusd rejects it")
                    continue
                }
                let theirs = parts.count > 3 ? parts[3].split(separator: ";").map(String.init) : []
                let mine = Array(Set(ours.bindings.map(sdlTerms))).sorted()  // SDL keeps one of two equal bindings
                result.bindingsTotal += theirs.count
                result.bindingsEqual += theirs.filter { mine.contains($0) }.count
                if mine != theirs.sorted() {
                    let missing = Set(theirs).subtracting(mine).sorted(), extra = Set(mine).subtracting(theirs).sorted()
                    result.lines.append("line \(number): bindings differ: SDL only \(missing), focusd only \(extra)")
                }
            } else if parts[0] == "M" {
                let fields = row.split(separator: " ")
                guard fields.count == 9, let bus = Int(fields[2]), let vendor = Int(fields[3]), let product = Int(fields[4]),
                    let version = Int(fields[5])
                else { result.lines.append("bad oracle row \(row)"); continue }
                let nameBytes = fields[6] == "-" ? [] : stride(from: 0, to: fields[6].count, by: 2).map {
                    UInt8(fields[6].dropFirst($0).prefix(2), radix: 16)!
                }
                let name = String(decoding: nameBytes, as: UTF8.self)
                let guid = SDLGUID.linux(bus: bus, vendor: vendor, product: product, version: version, name: name)
                result.pads += 1
                let chosen = database.entry(for: guid).map { String($0.source.dropFirst(3)) } ?? "-"
                if guid.description != fields[7] {
                    result.lines.append("line \(number): pad GUID \(guid) but SDL's is \(fields[7])")
                } else if chosen != fields[8] {
                    result.lines.append("line \(number): pad gets line \(chosen), SDL picks \(fields[8])")
                } else {
                    result.padsMatched += 1
                }
            }
        }
        return result
    }

    @Test("every Linux line of the database: accepted or skipped as SDL does, with SDL's bindings and SDL's choice of line per pad")
    func wholeDatabaseAgreesWithSDL() throws {
        let result = try Self.compare(Self.databasePath)
        for line in result.lines.prefix(30) { Issue.record("\(line)") }
        #expect(result.accepted > 700 && result.pads > 700)
        if ProcessInfo.processInfo.environment["FOCUSD_SDL_COUNTS"] != nil {
            print("SDL differential: Linux lines accepted \(result.accepted), skipped \(result.skipped); bindings equal to SDL's \(result.bindingsEqual) of \(result.bindingsTotal); pads matched to SDL's line \(result.padsMatched) of \(result.pads); disagreements \(result.lines.count)")
        }
    }

    /// Lines the database does not hold yet but SDL reads: a stick on hat halves, the D-pad on axis
    /// halves (one inverted), element names in capitals, a source SDL cannot read (ignored, the rest
    /// kept), a trigger with a half, a space before `~`, an element bound twice.
    static let edgeLines = [
            "03000000790000000600000010010000,Edge one,a:b0,+leftx:h0.2,-leftx:h0.8,+lefty:h0.4,-lefty:h0.1,dpup:-a1,dpdown:+a1,dpleft:-a0~,dpright:+a0,platform:Linux,",
            "03000000790000000700000010010000,Edge two,A:b0,Start:b9,x:x5,y:b3,platform:Linux,",
            "03000000790000000800000010010000,Edge three,b:b1,-lefttrigger:a2,+righttrigger:b7,leftx:a0 ~,platform:Linux,",
            "03000000790000000900000010010000,Edge four,a:b0,a:b0,guide:b12,guide:b16,back:b2x,platform:Linux,",
    ]

    @Test("hat halves, axis halves, capitals, odd sources and triggers with halves: focusd binds what SDL binds")
    func edgeLinesAgreeWithSDL() throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "focusd-sdl-edge-\(UUID().uuidString).txt").path
        try Self.edgeLines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Self.compare(path)
        for line in result.lines { Issue.record("\(line)") }
        #expect(result.accepted == Self.edgeLines.count && result.pads == Self.edgeLines.count)
    }
}
