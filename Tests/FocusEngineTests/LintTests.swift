// Lint (focus.md §10).
import Testing
@testable import FocusEngine

@Suite("Lint")
struct LintTests {
    static func kinds(_ children: [Node], root: Rect = Rect(x: 0, y: 0, width: 1920, height: 1080)) throws -> [Problem] {
        var s = scene(children)
        s.root.frame = root
        return try SceneSession.lint(s)
    }

    @Test("a clean column has no problems")
    func clean() throws {
        #expect(try Self.kinds([button("a", 0, 0), button("b", 0, 100), button("c", 0, 200)]).isEmpty)
    }

    @Test("unreachable, deadEnd and asymmetric moves are found")
    func graphProblems() throws {
        // "island" is outside every beam (tvos): unreachable and a dead end.
        let p = try Self.kinds([button("a", 0, 0), button("b", 0, 100), button("island", 900, 700)])
        #expect(p.contains { $0.kind == .unreachable && $0.node == "island" })
        #expect(p.contains { $0.kind == .deadEnd && $0.node == "island" })
        let q = try Self.kinds([button("a", 0, 0, next: ["down": "c"]), button("b", 0, 100), button("c", 0, 200)])
        #expect(q.contains { $0.kind == .asymmetric && $0.node == "a" && $0.other == "c" && $0.direction == .down })
    }

    @Test("ambiguous bindings, empty frames, overlaps and offscreen candidates are found")
    func otherProblems() throws {
        let p = try Self.kinds([
            button("a", 0, 0, bindings: [Binding(name: "f", value: "x")]), button("b", 0, 100, bindings: [Binding(name: "f", value: "x")]),
            Node(id: "empty", frame: Rect(x: 0, y: 0, width: 0, height: 10), focusable: true),
            button("o1", 500, 500), button("o2", 510, 505),
            button("edge", 1900, 0),
        ])
        #expect(p.contains { $0.kind == .ambiguousBinding && $0.node == "a" && $0.other == "b" })
        #expect(p.contains { $0.kind == .emptyFrame && $0.node == "empty" })
        #expect(p.contains { $0.kind == .overlap && $0.node == "o1" && $0.other == "o2" })
        #expect(p.contains { $0.kind == .offscreen && $0.node == "edge" })
        #expect(!p.contains { $0.kind == .overlap && $0.node == "a" })
    }

    @Test("coincident frames: overlaps are listed up to the bound per kind and the rest counted, without listing every pair")
    func overlapsBounded() throws {
        // 2,000 candidates on one frame are 1,999,000 overlapping pairs.
        let count = 2_000
        let p = try Self.kinds((0..<count).map { button("c\($0)", 100, 100) })
        let overlaps = p.filter { $0.kind == .overlap }
        #expect(overlaps.count == lintProblemsPerKind + 1)
        #expect(overlaps.first?.node == "c0" && overlaps.first?.other == "c1")
        #expect(overlaps[lintProblemsPerKind - 1].node == "c0" && overlaps[lintProblemsPerKind - 1].other == "c1000")
        let pairs = count * (count - 1) / 2
        #expect(overlaps.last?.message.hasPrefix("\(pairs - lintProblemsPerKind) more overlap problems not listed") == true,
                "\(overlaps.last?.message ?? "none")")
        // Every kind is bounded: 2,000 dead ends too.
        let deadEnds = p.filter { $0.kind == .deadEnd }
        #expect(deadEnds.count == lintProblemsPerKind + 1)
        #expect(deadEnds.last?.message.hasPrefix("\(count - lintProblemsPerKind) more deadEnd problems") == true)
    }

    @Test("overlaps between groups of coincident frames are counted pair by pair, in tree order")
    func overlapGroupsCounted() throws {
        // Three on one frame, two on a frame shifted by 10: all five overlap each other (10 pairs);
        // a sixth far away overlaps nothing.
        let p = try Self.kinds([
            button("a0", 100, 100), button("b0", 110, 100), button("a1", 100, 100), button("b1", 110, 100),
            button("a2", 100, 100), button("far", 900, 600),
        ])
        let pairs = p.filter { $0.kind == .overlap }.map { "\($0.node)-\($0.other ?? "")" }
        #expect(pairs == ["a0-b0", "a0-a1", "a0-b1", "a0-a2", "b0-a1", "b0-b1", "b0-a2", "a1-b1", "a1-a2", "b1-a2"])
    }

    @Test("lint refuses scenes above the candidate limit")
    func limit() {
        #expect(throws: FocusError.tooManyNodes(limit: 1)) {
            try SceneSession.lint(scene([button("a", 0, 0), button("b", 0, 100)]), limits: Limits(lintMaxCandidates: 1))
        }
    }

    @Test("offscreen is judged against a root with negative coordinates, in every direction")
    func offscreenAroundOrigin() throws {
        let p = try Self.kinds([
            button("inside", -400, -200), button("pastLeft", -520, 0), button("pastTop", 0, -320),
            button("pastRight", 450, 0), button("straddles", -50, -25),
        ], root: Rect(x: -500, y: -300, width: 1000, height: 600))
        let offscreen = Set(p.filter { $0.kind == .offscreen }.map(\.node))
        #expect(offscreen == ["pastLeft", "pastTop", "pastRight"])
    }
}

