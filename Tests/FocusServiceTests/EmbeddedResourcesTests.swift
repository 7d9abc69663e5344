import Foundation
import Testing

@testable import FocusService

/// The daemon serves its interface files and demo scene from its binary
/// (scripts/embed-resources); these keep them equal to the files and to the contract.
@Suite("Embedded resources")
struct EmbeddedResourcesTests {
    static let resources = ServiceTestPaths.root + "/Sources/FocusService/Resources/"

    @Test("the embedded interface texts and demo scene equal Sources/FocusService/Resources (run scripts/embed-resources)")
    func embeddedEqualsFiles() throws {
        let pairs = [
            ("io.focusd.Focus.varlink", EmbeddedResources.focusInterface),
            ("io.focusd.Input.varlink", EmbeddedResources.inputInterface),
            ("io.focusd.Inspect.varlink", EmbeddedResources.inspectInterface),
            ("demo-scene.json", EmbeddedResources.demoScene),
        ]
        for (file, embedded) in pairs {
            #expect(embedded == (try String(contentsOfFile: Self.resources + file, encoding: .utf8)), "\(file)")
        }
    }

    @Test("the package's interface files equal the contract's in ../shared/spec")
    func filesEqualContract() throws {
        let spec = ServiceTestPaths.sharedSpec
        try #require(FileManager.default.fileExists(atPath: spec), "\(spec) is missing: CI places shared/ beside the checkout")
        for file in ["io.focusd.Focus.varlink", "io.focusd.Input.varlink"] {
            let contract = try String(contentsOfFile: spec + "/" + file, encoding: .utf8)
            #expect((try String(contentsOfFile: Self.resources + file, encoding: .utf8)) == contract, "\(file)")
        }
    }
}
