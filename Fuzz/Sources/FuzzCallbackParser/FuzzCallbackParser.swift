import FuzzSupport
import InterApp

/// libFuzzer entry: the callback parser (iOS and Android dialects) on arbitrary bytes.
///
/// Any input must parse or throw `CallbackParseError`; a parsed callback's outcome, failure reason and
/// result must be computed without trapping, and the result must serialize to JSON that parses back. Neither
/// the message nor a field's name or value (but `clientTransactionId`'s, the bridge's own id, kept whole)
/// may hold track data: `Masking.cutTrackData` must find nothing left to cut.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCallbackParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let callback = try? CallbackParser.parse(bytes) else { return 0 }
    _ = callback.baseOutcome
    _ = callback.failureReason
    _ = callback.summary
    let texts =
        [callback.message]
        + callback.fields.filter { $0.name != "clientTransactionId" }.flatMap { [$0.name, $0.value] }
    if let left = texts.first(where: { Masking.cutTrackData($0) != $0 }) {
        fatalError("track data left in a callback: \(left)")
    }
    let result = JSONValue.object(callback.result).serialized()
    guard (try? JSONValue.parse(result)) != nil else {
        fatalError("a callback's result is not JSON: \(String(decoding: result, as: UTF8.self))")
    }
    return 0
}

@main
enum FuzzCallbackParser {
    static func main() { runFuzzer(fuzzCallbackParser) }
}
