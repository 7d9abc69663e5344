// libFuzzer harness: focusd's JSON parser and serializer (Sources/Varlink/JSON*.swift).
// Any input: parse never crashes; what parses serializes to text that parses to the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let value = try? JSONValue.parse(bytes) else { return 0 }
    let text = value.serialized()
    guard let again = try? JSONValue.parse(text) else { fatalError("serialized JSON does not parse: \(text)") }
    guard again == value else { fatalError("round trip changed the value: \(value) -> \(again)") }
    struct Anything: Decodable { var a: Int?; var b: [String: Double]?; var c: [JSONValue]? }
    _ = try? value.decode(Anything.self, strict: true)
    return 0
}
