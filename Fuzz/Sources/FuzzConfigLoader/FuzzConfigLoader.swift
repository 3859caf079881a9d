import Bridge
import FuzzSupport

/// libFuzzer entry: the bridge's configuration loader on arbitrary YAML text.
///
/// Any input must load or throw `ConfigurationError`, never trap or hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfigLoader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: data == nil ? 0 : size), as: UTF8.self)
    _ = try? BridgeConfiguration.load(yaml: text)
    return 0
}

@main
enum FuzzConfigLoader {
    static func main() { runFuzzer(fuzzConfigLoader) }
}
