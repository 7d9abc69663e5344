// libFuzzer harness: SDL gamepad mapping strings (Sources/InputMapping/GamepadMapping.swift).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSDL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? GamepadMapping.parse(text)
    return 0
}
