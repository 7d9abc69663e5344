import FocusEngine
import FocusWire
import Foundation
import Testing
import Varlink

@testable import AdapterKit

/// The patches an adapter that read only what changed sends (`ScenePatch`, written by
/// `PatchText`), checked against a real focusd: after them, focusd's scene is exactly the new tree.
@Suite("ScenePatch against focusd")
struct ScenePatchTests {
    /// Own fields without scroll offsets (those travel as offsets).
    static func own(_ node: Node) -> Node {
        var node = node
        node.children = nil
        node.scroll?.offsetX = nil
        node.scroll?.offsetY = nil
        return node
    }

    /// The patch a page agent would send for `old` → `new`: children lists where they changed
    /// (new and changed children sent whole), frames of nodes whose frame alone changed, offsets.
    static func derive(_ old: Node, _ new: Node, into patch: inout ScenePatch) {
        if let scroll = new.scroll, old.scroll?.offsetX != scroll.offsetX {
            patch.offsets.append(ScrollOffset(node: new.id, offsetX: scroll.offsetX ?? 0, offsetY: scroll.offsetY ?? 0))
        }
        let oldChildren = old.children ?? [], newChildren = new.children ?? []
        let oldById = Dictionary(uniqueKeysWithValues: oldChildren.map { ($0.id, $0) })
        var sent: [Node] = []
        for child in newChildren {
            guard let before = oldById[child.id] else {
                sent.append(child)
                continue
            }
            var frameless = own(child), oldFrameless = own(before)
            frameless.frame = nil
            oldFrameless.frame = nil
            if own(child) == own(before) {
                derive(before, child, into: &patch)
            } else if frameless == oldFrameless, (child.children ?? []).map(\.id) == (before.children ?? []).map(\.id), Bool.random() {
                patch.frames.append((child.id, child.frame!))
                derive(before, child, into: &patch)
            } else {
                sent.append(child)
            }
        }
        if !sent.isEmpty || oldChildren.map(\.id) != newChildren.map(\.id) {
            patch.children.append(ScenePatch.Children(parent: new.id, ids: newChildren.map(\.id), nodes: sent))
        }
    }

    @Test("random changes applied as hand-written UpdateScene patches give focusd exactly the new tree")
    func patchesReproduceTheNewTree() throws {
        let updates = try SceneDiffTests.editRounds(100) { client, name, old, new in
            var patch = ScenePatch()
            Self.derive(old, new, into: &patch)
            var applied = old
            let requests = try patch.apply(to: &applied)
            #expect(Self.shapeWithOffsets(applied) == Self.shapeWithOffsets(new), "the copy is the new tree")
            guard !requests.upsert.isEmpty || !requests.remove.isEmpty else { return false }
            var json = JSONBytes()
            try PatchText.write(requests.upsert, into: &json)
            let upsert = try JSONValue.parse(String(decoding: json.bytes, as: UTF8.self))
            #expect(try upsert.decode([NodePatch].self) == requests.upsert, "the hand-written text decodes to the patches")
            try client.call("io.focusd.Focus.UpdateScene", [
                "scene": .string(name), "upsert": upsert, "remove": .array(requests.remove.map { .string($0) }),
            ])
            return true
        }
        #expect(updates > 100)
    }

    static func shapeWithOffsets(_ node: Node) -> String { SceneDiffTests.shape(node) }

    @Test("a patch naming a node the scene does not have is a mismatch (the adapter then asks for the whole scene)")
    func mismatches() {
        var root = Node(id: "root", children: [Node(id: "a", frame: Rect(x: 0, y: 0, width: 1, height: 1))])
        var frames = ScenePatch()
        frames.frames = [("b", Rect(x: 0, y: 0, width: 1, height: 1))]
        #expect(throws: ScenePatch.Mismatch.self) { try frames.apply(to: &root) }
        var kept = ScenePatch()
        kept.children = [ScenePatch.Children(parent: "root", ids: ["a", "z"], nodes: [])]
        #expect(throws: ScenePatch.Mismatch.self) { try kept.apply(to: &root) }
    }

    @Test("the hand writer covers the fields an adapter infers; any other field goes through Codable, and both decode the same")
    func handWriting() throws {
        var node = Node(id: "n\"1", frame: Rect(x: 1.5, y: -2, width: 3, height: 4.25), focusable: true, interactions: [.activate, .edit],
                        section: true, role: "text", remembersLastFocus: true, modal: false,
                        scroll: Scroll(axis: .horizontal, contentWidth: 900, contentHeight: 40, offsetX: 12, offsetY: 0, policy: .center, margin: 8))
        node.children = [Node(id: "c", frame: Rect(x: 0, y: 0, width: 1, height: 1), disabled: true)]
        #expect(PatchText.handWritable(node))
        // Every field of Node is either written by hand or checked by `handWritable`: a new field
        // must be added to one of them.
        let known: Set<String> = ["id", "frame", "focusable", "disabled", "interactions", "section", "role", "remembersLastFocus", "modal",
                                  "scroll", "children", "scope", "prefersDefaultFocus", "defaultFocus", "bindings", "accessibilityBindings",
                                  "values", "sceneValues", "focusEffectDisabled", "wrap", "next", "collection", "index"]
        #expect(Set(Mirror(reflecting: Node(id: "x")).children.compactMap(\.label)) == known)
        var marked = node
        marked.bindings = [Binding(name: "play")]
        #expect(!PatchText.handWritable(marked))
        for candidate in [node, marked] {
            var json = JSONBytes()
            try PatchText.write([NodePatch(parent: "p", index: 2, node: candidate)], into: &json)
            let decoded = try JSONValue.parse(String(decoding: json.bytes, as: UTF8.self)).decode([NodePatch].self)
            #expect(decoded == [NodePatch(parent: "p", index: 2, node: candidate)])
        }
    }
}
