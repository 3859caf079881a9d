import FuzzSupport
import InterApp

/// libFuzzer entry: InterApp's strict JSON parser on arbitrary bytes.
///
/// Any input must either parse or throw `JSONParseError`; a value that parses must serialize to text that
/// parses back to the same value (sorted keys or not).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let value = try? JSONValue.parse(bytes) else { return 0 }
    for sorted in [false, true] {
        let text = value.serialized(sortedKeys: sorted)
        guard let again = try? JSONValue.parse(text) else {
            fatalError("serialized JSON does not parse again: \(String(decoding: text, as: UTF8.self))")
        }
        guard again == value else {
            fatalError("JSON changed through serialization: \(String(decoding: text, as: UTF8.self))")
        }
    }
    return 0
}

@main
enum FuzzJSONParser {
    static func main() { runFuzzer(fuzzJSONParser) }
}
