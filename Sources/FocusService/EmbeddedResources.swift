/// Files focusd carries inside its binary: its interface files (served verbatim), the demo scene,
/// and the web module and demo page it serves. Their texts are generated at build time from the
/// files themselves (the Codegen plugin, `focusd-codegen embed`: Package.swift), so no copy is
/// committed: `focusInterface`, `inputInterface`, `inspectInterface` (Resources/*.varlink),
/// `demoScene` (Resources/demo-scene.json), `webModule` (web/focusd.js), `webDemoPage`
/// (web/demo.html).
public enum EmbeddedResources {}
