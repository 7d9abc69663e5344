// libFuzzer harness: the Varlink interface definition parser (Sources/VarlinkIDL/VarlinkInterface.swift).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIDL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? VarlinkInterface(description: text)
    return 0
}
