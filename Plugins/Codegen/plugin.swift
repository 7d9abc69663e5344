// The Codegen build-tool plugin: the Swift that is generated, not committed (issue 25). It runs
// focusd-codegen (Sources/focusd-codegen) before a target compiles, into the plugin's work
// directory under .build; SwiftPM reruns it when an input changes.
//
//   FocusWire        the Codable conformances of the wire types, from the `.varlink` files that
//                    Sources/FocusWire/WireTypes.txt names (and that table)
//   FocusService     EmbeddedResources: the interfaces, the demo scene, web/focusd.js, web/demo.html
//   ChromiumAdapter  PageScript.source: the page agent, Page/page.js

import Foundation
import PackagePlugin

@main
struct Codegen: BuildToolPlugin {
    /// What each target embeds: the type the constants extend, whether they are public, and each
    /// constant's name and file (relative to the package).
    static let embedded: [String: (type: String, isPublic: Bool, files: [(name: String, path: String)])] = [
        "FocusService": (
            "EmbeddedResources", true,
            [
                ("focusInterface", "Sources/FocusService/Resources/io.focusd.Focus.varlink"),
                ("inputInterface", "Sources/FocusService/Resources/io.focusd.Input.varlink"),
                ("inspectInterface", "Sources/FocusService/Resources/io.focusd.Inspect.varlink"),
                ("demoScene", "Sources/FocusService/Resources/demo-scene.json"),
                ("webModule", "web/focusd.js"),
                ("webDemoPage", "web/demo.html"),
            ]
        ),
        "ChromiumAdapter": ("PageScript", false, [("source", "Sources/ChromiumAdapter/Page/page.js")]),
    ]

    static let wireTable = "Sources/FocusWire/WireTypes.txt"

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let tool = try context.tool(named: "focusd-codegen").url
        if target.name == "FocusWire" {
            let output = context.pluginWorkDirectoryURL.appending(path: "WireConformances.swift")
            // The interfaces the table names are inputs too (read here only for their paths, as
            // focusd-codegen reads the table: `#` starts a comment, words split at blanks).
            let table = try String(contentsOf: root.appending(path: Self.wireTable), encoding: .utf8)
            let interfaces = table.split(separator: "\n").compactMap { line -> String? in
                let words = line.prefix { $0 != "#" }.split(whereSeparator: { $0 == " " || $0 == "\t" })
                return words.count == 2 && words[0] == "interface" ? String(words[1]) : nil
            }
            return [
                .buildCommand(
                    displayName: "Generating FocusWire's Codable conformances from the interfaces",
                    executable: tool,
                    arguments: ["wire", "--root", root.path, "--table", Self.wireTable, "--output", output.path],
                    inputFiles: ([Self.wireTable] + interfaces).map { root.appending(path: $0) },
                    outputFiles: [output])
            ]
        }
        guard let embed = Self.embedded[target.name] else { return [] }
        let output = context.pluginWorkDirectoryURL.appending(path: "\(embed.type)+Texts.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(embed.files.map(\.path).joined(separator: ", ")) in \(target.name)",
                executable: tool,
                arguments: ["embed", "--root", root.path, "--output", output.path, "--type", embed.type]
                    + (embed.isPublic ? ["--public"] : []) + embed.files.map { "\($0.name)=\($0.path)" },
                inputFiles: embed.files.map { root.appending(path: $0.path) },
                outputFiles: [output])
        ]
    }
}
