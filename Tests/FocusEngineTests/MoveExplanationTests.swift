// `SceneSession.explainMove` (focusctl why, io.focusd.Inspect.ExplainMove): what it names must be
// what the engine does, and its figures must be focus.md §2's, recomputed here from the frames.

import FocusEngine
import PropertyBased
import Testing

/// focus.md §2 written out for each direction (not the engine's mirrored form), as an oracle.
private func oracle(_ s: Rect, _ d: Rect, _ dir: Direction) -> (inDirection: Bool, inBeam: Bool, major: Double, minor: Double, score: Double) {
    let (sl, st, sr, sb) = (s.x, s.y, s.x + s.width, s.y + s.height)
    let (dl, dt, dr, db) = (d.x, d.y, d.x + d.width, d.y + d.height)
    let inDirection: Bool, inBeam: Bool, major: Double, minor: Double
    switch dir {
    case .left:
        inDirection = (sr > dr || sl >= dr) && sl > dl
        inBeam = db > st && dt < sb
        major = max(0, sl - dr)
        minor = abs((dt + db) / 2 - (st + sb) / 2)
    case .right:
        inDirection = (sl < dl || sr <= dl) && sr < dr
        inBeam = db > st && dt < sb
        major = max(0, dl - sr)
        minor = abs((dt + db) / 2 - (st + sb) / 2)
    case .up:
        inDirection = (sb > db || st >= db) && st > dt
        inBeam = dr > sl && dl < sr
        major = max(0, st - db)
        minor = abs((dl + dr) / 2 - (sl + sr) / 2)
    default:
        inDirection = (st < dt || sb <= dt) && sb < db
        inBeam = dr > sl && dl < sr
        major = max(0, dt - sb)
        minor = abs((dl + dr) / 2 - (sl + sr) / 2)
    }
    return (inDirection, inBeam, major, minor, 13 * major * major + minor * minor)
}

/// Explains then makes each move of `scripts` on `layout` under both policies and both strategies;
/// records an issue at the first disagreement.
private func checkExplanations(_ layout: RandomLayout, _ scripts: [MoveScript]) {
    let candidates = layout.candidates
    for policy in [SearchPolicy.tvos, .android] {
        for strategy in [SearchStrategy.spatialIndex, .bruteForce] {
            guard var base = try? SceneSession(scene: layout.scene(policy: policy)) else {
                Issue.record("a generated scene is rejected\n\(layout)")
                return
            }
            base.searchStrategy = strategy
            for script in scripts {
                var session = base
                let start = script.start.flatMap { candidates.isEmpty ? nil : candidates[$0 % candidates.count] }
                _ = try? session.focus(start)
                for direction in script.moves where direction.isDirectional {
                    let before = session.focused()
                    let revision = session.revision
                    guard let why = try? session.explainMove(direction, limit: 1000) else {
                        Issue.record("explainMove threw\n\(layout)")
                        return
                    }
                    let context = "policy \(policy.rawValue) \(strategy), \(direction.rawValue) from \(before ?? "nothing")\n\(layout)"
                    #expect(session.focused() == before && session.revision == revision, "explaining moved focus: \(context)")
                    let outcome = try? session.move(direction)
                    let after = session.focused()
                    #expect(why.result.map { $0 == after } ?? (outcome?.moved == false),
                            "explanation says \(why.result ?? "blocked") (\(why.decidedBy)), engine chose \(after ?? "nothing"): \(context)")
                    if why.result == nil { #expect(why.reason != nil, "a blocked move without a reason: \(context)") }
                    if let source = why.source {
                        for container in why.containers {
                            #expect(container.winner == container.candidates.first?.id, "winner not listed first: \(context)")
                            for c in container.candidates {
                                let o = oracle(container.source, c.frame, direction)
                                #expect(o.inDirection == c.inDirection && o.inBeam == c.inBeam && o.major == c.major
                                        && o.minor == c.minor && o.score == c.score,
                                        "\(c.id) measured \(c) but focus.md §2 gives \(o): \(context)")
                                if policy == .tvos { #expect(c.inBeam, "tvos lists \(c.id) out of beam: \(context)") }
                            }
                            if container.wrapped == false { #expect(container.source == source) }
                        }
                        // The last container searched holds the search's winner.
                        if let w = why.winner { #expect(why.containers.last?.winner == w, "\(context)") }
                    }
                    if why.result == nil { break }
                }
            }
        }
    }
}

@Suite("Explaining a directional move")
struct MoveExplanationTests {
    @Test("on random nested sections, the explanation names the node the engine then chooses, with focus.md's figures")
    func agreesWithTheEngineOnNestedSections() async {
        await propertyCheck(count: 300, input: LayoutGen.nested, LayoutGen.scripts) { layout, scripts in
            checkExplanations(layout, scripts)
        }
    }

    @Test("on random overlapping rectangles, the explanation names the node the engine then chooses")
    func agreesWithTheEngineOnOverlappingRectangles() async {
        await propertyCheck(count: 300, input: LayoutGen.overlapping, LayoutGen.scripts) { layout, scripts in
            checkExplanations(layout, scripts)
        }
    }

    @Test("a row: the nearer button wins by score, and the one behind is not considered")
    func rowDecidedByScore() throws {
        let s = try session(scene([button("a", 0, 0), button("b", 200, 0), button("c", 400, 0)]), focus: "b")
        let why = try s.explainMove(.right)
        #expect(why.from == "b" && why.result == "c" && why.decidedBy == "search")
        #expect(why.source == Rect(x: 200, y: 0, width: 100, height: 50))
        #expect(why.containers.count == 1 && why.containers[0].kind == "root")
        #expect(why.containers[0].candidates.map(\.id) == ["c"] && why.containers[0].rule == "only candidate")
        #expect(why.containers[0].notConsidered == 1)
        #expect(why.containers[0].candidates[0].score == 13 * 100 * 100)
    }

    @Test("android: an in-beam candidate beam-beats a nearer one out of beam")
    func beamBeats() throws {
        var sc = scene([button("s", 0, 0), button("near", 120, 60), button("far", 400, 0)], policy: .android)
        sc.name = "t"
        let s = try session(sc, focus: "s")
        let why = try s.explainMove(.right)
        #expect(why.result == "far")
        #expect(why.containers[0].candidates.map(\.id) == ["far", "near"])
        #expect(why.containers[0].rule == "beam beats")
    }

    @Test("a move that finds nothing says why, and a `next` override is named as the rule")
    func blockedAndOverride() throws {
        let s = try session(scene([button("a", 0, 0, next: ["up": "b", "left": ""]), button("b", 200, 0)]), focus: "a")
        let left = try s.explainMove(.left)
        #expect(left.result == nil && left.override == "" && left.reason?.hasPrefix("the focused node's `next` entry") == true)
        let up = try s.explainMove(.up)
        #expect(up.result == "b" && up.decidedBy == "override (next)")
        let down = try s.explainMove(.down)
        #expect(down.result == nil && down.reason == "nothing in direction down in any container up to the root")
        #expect(throws: FocusError.invalidParameter(parameter: "direction")) { try s.explainMove(.next) }
    }

    @Test("entering a section by its frame names the entering rule and the section searched first")
    func enteringRule() throws {
        let s = try session(scene([
            group("left", section: true, [button("a", 0, 0)]),
            group("right", frame: Rect(x: 300, y: 0, width: 400, height: 400), section: true,
                  [button("r1", 300, 300), button("r2", 300, 100)]),
        ]), focus: "a")
        let why = try s.explainMove(.right)
        #expect(why.containers.map(\.id) == ["left", "root"])
        #expect(why.containers[0].rule == "no candidate in direction and in beam (tvos)")
        #expect(why.winner == "right" && why.containers[1].candidates.first?.section == true)
        #expect(why.result == "r2" && why.decidedBy == "entering: best in direction inside right")
    }
}
