import InterApp

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Records every reply and event a client receives, as JSON Lines, when the environment variable
/// `VIVABRIDGE_CONTRACT_RECORD` names a file: CI sets it while the tests and the tour run, then
/// `scripts/check-contract` validates each line against the schemas under `schema/` (a message the bridge
/// sent that a schema rejects fails CI).
///
/// A line is `{"kind":"reply","body":{…}}` or `{"kind":"event","topic":"…","body":{…}}` (or, from a test's
/// relay, `{"kind":"bridgeHello","body":{…}}`), the body exactly as received. Lines are appended with one `write` each to a file opened with `O_APPEND`, so the test
/// processes and the `vivabridge` processes they start can share one file. Without the variable nothing
/// is written: each call reads one constant, set once from the environment.
public enum ContractRecorder {
    /// The variable naming the file.
    public static let variable = "VIVABRIDGE_CONTRACT_RECORD"

    private static let path: String? = {
        guard let value = getenv(variable) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }()

    /// Whether recording is on.
    public static var isRecording: Bool { path != nil }

    /// Records a reply frame as received (skipped unless it is a JSON object).
    public static func reply(_ bytes: some Collection<UInt8>) {
        guard let path, looksLikeObject(bytes) else { return }
        var line = Array(#"{"kind":"reply","body":"#.utf8)
        line.append(contentsOf: bytes)
        line.append(contentsOf: "}\n".utf8)
        append(line, to: path)
    }

    /// Records an event as received: its topic frame and its body frame (skipped unless the body is a
    /// JSON object).
    public static func event(topic: some Collection<UInt8>, body: some Collection<UInt8>) {
        guard let path, looksLikeObject(body) else { return }
        var line = Array(#"{"kind":"event","topic":"#.utf8)
        JSONValue.string(String(decoding: Array(topic), as: UTF8.self)).write(into: &line)
        line.append(contentsOf: #","body":"#.utf8)
        line.append(contentsOf: body)
        line.append(contentsOf: "}\n".utf8)
        append(line, to: path)
    }

    /// Records the JSON part of a bridge's `hello` on the terminal link, as a relay received it
    /// (`{"kind":"bridgeHello","body":{…}}`).
    public static func bridgeHello(_ body: some Collection<UInt8>) {
        guard let path, looksLikeObject(body) else { return }
        var line = Array(#"{"kind":"bridgeHello","body":"#.utf8)
        line.append(contentsOf: body)
        line.append(contentsOf: "}\n".utf8)
        append(line, to: path)
    }

    /// A cheap guard: the line stays one JSON object only when the body is one (a frame that is not JSON
    /// would break the file for every later line).
    private static func looksLikeObject(_ bytes: some Collection<UInt8>) -> Bool {
        (try? JSONValue.parse(Array(bytes)))?.objectValue != nil
    }

    private static func append(_ line: [UInt8], to path: String) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
