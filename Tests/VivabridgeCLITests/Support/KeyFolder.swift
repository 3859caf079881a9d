import Foundation

/// A temporary folder for a test's CURVE secret key files (0600, one Z85 line, as `vivabridge keygen`
/// writes them), removed with ``remove()``.
struct KeyFolder {
    let url: URL

    init(prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `secret` to `name` in the folder; returns its path.
    func keyFile(_ name: String, _ secret: String) -> String {
        let path = url.appendingPathComponent(name).path
        _ = FileManager.default.createFile(
            atPath: path, contents: Data((secret + "\n").utf8), attributes: [.posixPermissions: 0o600])
        return path
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}
