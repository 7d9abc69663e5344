import Foundation
import Testing
import Varlink

private typealias Daemon = FocusctlTests.Daemon

/// `focusctl why` and `focusctl goto` against a real `focusd --demo --no-devices`
/// (io.focusd.Inspect.ExplainMove and PlanPath).
@Suite("focusctl why and goto")
struct InspectCommandTests {
    @Test("why explains the last directional move: source frame, containers, candidates with scores, the deciding rule")
    func whyExplainsLastMove() throws {
        let daemon = try Daemon()
        defer { daemon.stop() }
        let none = daemon.focusctl("why")
        #expect(none.status == 2 && none.errors.contains("io.focusd.Inspect.NoDirectionalMove"), "\(none)")
        #expect(daemon.focusctl("move", "right").lines == ["heroTrending"])
        let why = daemon.focusctl("why")
        #expect(why.status == 0, "\(why)")
        #expect(why.lines.first == "last move (revision 2): right from heroFeatured, policy tvos", "\(why)")
        #expect(why.lines.contains { $0.hasPrefix("source frame (") }, "\(why)")
        #expect(why.lines.contains { $0.hasPrefix("  heroTrending ") && $0.contains("in beam") && $0.contains("score ") }, "\(why)")
        #expect(why.lines.last == "focus → heroTrending, decided by search", "\(why)")
        let json = try JSONValue.parse(Array(daemon.focusctl("why", "-r").output.utf8))
        #expect(json["explanation"]?["result"] == "heroTrending" && json["revision"] == 2)
        // Entering the rail `continueRail` (a section that remembers, and a scroll container) for
        // the first time: the search winner is the rail, entering picks the item below heroTrending.
        // The move fills the section's memory and scrolls the rail (policy leading), and the
        // explanation must use the memory and the offsets from before the move.
        #expect(daemon.focusctl("move", "down").lines == ["tile02"])
        let down = daemon.focusctl("why")
        #expect(down.lines.contains { $0.hasPrefix("  tile02 (700, 520, ") }, "\(down)")
        #expect(down.lines.last == "focus → tile02, decided by entering: best in direction inside continueRail (search winner continueRail)", "\(down)")
    }

    @Test("why --direction explains a hypothetical move without moving focus, and says why a blocked one finds nothing")
    func whyHypothetical() throws {
        let daemon = try Daemon()
        defer { daemon.stop() }
        let up = daemon.focusctl("why", "--direction", "up")
        #expect(up.status == 0 && up.lines.first == "move: up from heroFeatured, policy tvos", "\(up)")
        #expect(up.lines.last?.hasPrefix("focus → tab") == true, "\(up)")
        #expect(daemon.focusctl("state").lines.contains("focused: heroFeatured"), "explaining must not move focus")
        #expect(daemon.focusctl("focus", "tabHome").status == 0)
        let blocked = daemon.focusctl("why", "--direction", "up")
        #expect(blocked.lines.last == "blocked: nothing in direction up in any container up to the root", "\(blocked)")
        #expect(daemon.focusctl("why", "--direction", "next").status == 1, "a sequential direction is a usage error")
    }

    @Test("goto prints the shortest commands without moving focus; --do sends them and lands on the node")
    func gotoPlansAndDoes() throws {
        let daemon = try Daemon()
        defer { daemon.stop() }
        let plan = daemon.focusctl("goto", "tile05")
        #expect(plan.status == 0, "\(plan)")
        #expect(!plan.lines.isEmpty && plan.lines.allSatisfy { ["up", "down", "left", "right", "next", "previous", "crown=1", "crown=-1"].contains($0) }, "\(plan)")
        #expect(daemon.focusctl("state").lines.contains("focused: heroFeatured"))
        let done = daemon.focusctl("goto", "tile05", "--do")
        #expect(done.status == 0 && done.lines == plan.lines + ["focused tile05"], "\(done)")
        #expect(daemon.focusctl("goto", "tile05").lines == ["(already focused)"])
        let missing = daemon.focusctl("goto", "nosuch")
        #expect(missing.status == 2 && missing.errors.contains("io.focusd.Inspect.NoSuchNode"), "\(missing)")
    }

    @Test("goto plans into a lazy collection: a virtual item is a target, and the plan crosses unbuilt items")
    func gotoVirtualItem() throws {
        let daemon = try Daemon()
        defer { daemon.stop() }
        // moviesItems builds items 0…7; item 12 and the items before it from 8 on are virtual.
        let plan = daemon.focusctl("goto", "moviesItems#12")
        #expect(plan.status == 0, "\(plan)")
        // Down twice and right twelve times gets there; the shortest plan is no longer (sequential
        // moves make shortcuts), and it ends by stepping right over unbuilt items 8…11.
        #expect(plan.lines.count <= 14 && plan.lines.suffix(5) == Array(repeating: "right", count: 5), "\(plan)")
        #expect(daemon.focusctl("state").lines.contains("focused: heroFeatured"), "planning must not move focus")
        let done = daemon.focusctl("goto", "moviesItems#12", "--do")
        #expect(done.status == 0 && done.lines == plan.lines + ["focused moviesItems#12"], "\(done)")
        #expect(daemon.focusctl("state").lines.contains("focused: moviesItems#12"))
        // Back to a built item across the rail's unbuilt items, and out of range is no such node.
        #expect(daemon.focusctl("goto", "movie7").lines == Array(repeating: "left", count: 5), "the plan starts from the virtual item")
        let past = daemon.focusctl("goto", "moviesItems#100000")
        #expect(past.status == 2 && past.errors.contains("io.focusd.Inspect.NoSuchNode"), "\(past)")
    }
}
