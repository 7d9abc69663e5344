import Foundation
import Testing

@testable import FocusService

/// The daemon serves its interface files and demo scene from its binary; their texts are generated
/// at build time from the files (the Codegen plugin), and these keep them equal to the files and
/// to the contract.
@Suite("Embedded resources")
struct EmbeddedResourcesTests {
    static let resources = ServiceTestPaths.root + "/Sources/FocusService/Resources/"

    @Test("every embedded text (interfaces, demo scene, web/focusd.js, web/demo.html) equals its source file whole")
    func embeddedEqualsFiles() throws {
        let pairs = [
            ("Sources/FocusService/Resources/io.focusd.Focus.varlink", EmbeddedResources.focusInterface),
            ("Sources/FocusService/Resources/io.focusd.Input.varlink", EmbeddedResources.inputInterface),
            ("Sources/FocusService/Resources/io.focusd.Inspect.varlink", EmbeddedResources.inspectInterface),
            ("Sources/FocusService/Resources/demo-scene.json", EmbeddedResources.demoScene),
            ("web/focusd.js", EmbeddedResources.webModule),
            ("web/demo.html", EmbeddedResources.webDemoPage),
        ]
        for (file, embedded) in pairs {
            #expect(embedded == (try String(contentsOfFile: ServiceTestPaths.root + "/" + file, encoding: .utf8)), "\(file)")
        }
    }

    @Test("the generated file's header names each of its real sources")
    func headerNamesSources() throws {
        let generated = try String(contentsOfFile: EmbeddedResources.generatedFile, encoding: .utf8)
        let header = generated.prefix { $0 != "\n" }
        #expect(header.hasPrefix("// GENERATED at build time"), "\(header)")
        for source in [
            "Sources/FocusService/Resources/io.focusd.Focus.varlink", "Sources/FocusService/Resources/io.focusd.Input.varlink",
            "Sources/FocusService/Resources/io.focusd.Inspect.varlink", "Sources/FocusService/Resources/demo-scene.json",
            "web/focusd.js", "web/demo.html",
        ] {
            #expect(header.contains(source), "the header does not name \(source): \(header)")
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
