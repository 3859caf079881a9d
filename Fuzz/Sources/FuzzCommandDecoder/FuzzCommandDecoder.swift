import FuzzSupport
import InterApp

/// libFuzzer entry: the command decoder (JSON, the action table, cross-field rules) on arbitrary bytes.
///
/// Any input must decode to a `Command` or throw a `Rejection`; a rejection's reply must serialize to JSON
/// that parses back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommandDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        let command = try CommandDecoder().decode(bytes)
        _ = String(describing: command)
    } catch {
        let reply = JSONValue.object(Reply(rejection: error).json).serialized()
        guard (try? JSONValue.parse(reply)) != nil else {
            fatalError("a rejection's reply is not JSON: \(String(decoding: reply, as: UTF8.self))")
        }
    }
    return 0
}

@main
enum FuzzCommandDecoder {
    static func main() { runFuzzer(fuzzCommandDecoder) }
}
