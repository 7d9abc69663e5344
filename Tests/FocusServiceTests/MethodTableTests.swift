import FocusConfig
import FocusWire
import Testing
import Varlink

@testable import FocusService

/// The method tables (FocusWire's `FocusMethod`, `InputMethod`, `InspectMethod`) are the one list
/// of methods the daemon dispatches, the access policy grants and focusctl calls.
@Suite("Method tables")
struct MethodTableTests {
    static func methods(_ description: String) throws -> Set<String> {
        Set(try VarlinkInterface(description: description).methods.keys)
    }

    @Test("each interface's method table lists exactly the methods of its interface file")
    func tablesEqualInterfaces() throws {
        let focus = try VarlinkInterface(description: EmbeddedResources.focusInterface)
        let input = try VarlinkInterface(description: EmbeddedResources.inputInterface)
        let inspect = try VarlinkInterface(description: EmbeddedResources.inspectInterface)
        #expect(focus.name == FocusMethod.interface && Set(focus.methods.keys) == Set(FocusMethod.allCases.map(\.rawValue)))
        #expect(input.name == InputMethod.interface && Set(input.methods.keys) == Set(InputMethod.allCases.map(\.rawValue)))
        #expect(inspect.name == InspectMethod.interface && Set(inspect.methods.keys) == Set(InspectMethod.allCases.map(\.rawValue)))
    }

    @Test("a read-only peer may call the methods the tables mark read-only and no other")
    func readOnlyFollowsTables() {
        let policy = AccessPolicy(settings: AccessSettings(readOnlyUids: [1234]), daemonUID: 999, socketGID: nil)
        let peer = PeerCredentials(pid: 1, uid: 1234, gid: 1234)
        func allowed(_ names: [String]) -> [String] { names.filter { policy.check($0, peer: peer) == nil } }
        #expect(allowed(FocusMethod.allCases.map(\.qualified)) == ["io.focusd.Focus.ListScenes", "io.focusd.Focus.GetState", "io.focusd.Focus.Monitor"])
        #expect(allowed(InputMethod.allCases.map(\.qualified)) == ["io.focusd.Input.ListDevices", "io.focusd.Input.Monitor"])
        #expect(allowed(InspectMethod.allCases.map(\.qualified)) == [
            "io.focusd.Inspect.GetScene", "io.focusd.Inspect.ExplainMove", "io.focusd.Inspect.PlanPath",
        ])
    }
}
