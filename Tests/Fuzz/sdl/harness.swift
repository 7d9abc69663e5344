// libFuzzer harness: SDL gamepad mapping strings (Sources/InputMapping/GamepadMapping.swift) and
// whole database texts read in place (Sources/InputMapping/GamepadDatabase.swift), with a lookup.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSDL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? GamepadMapping.parse(text)
    var database = GamepadDatabase()
    database.add(text, source: "fuzz")
    if let first = database.entries.first { _ = database.entry(for: first.guid) }
    return 0
}
