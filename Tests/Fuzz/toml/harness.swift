// libFuzzer harness: the TOML parser and the configuration schema (Sources/FocusConfig).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTOML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let configuration = try? Configuration.parse(text) {
        _ = ProfileMatcher(configuration: configuration).settings(for: DeviceIdentity(name: "fuzz keyboard"))
    }
    return 0
}
