import Foundation
import VivaCloudModels

/// A secret (Viva's client secret, an API key, an access token) that never prints itself: its description,
/// debug description and reflection all read `<redacted>`, so that interpolating it into a log line or an
/// error leaks nothing.
public struct Secret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The secret's value, for building a request; never log it.
    public let value: String

    /// Wraps a secret value.
    public init(_ value: String) {
        self.value = value
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    public var customMirror: Mirror { Mirror(self, children: []) }

    /// Reads a secret from `path`, which must be the owner's alone (mode 0600 or stricter) and hold one
    /// non-empty line; `key` names the setting in errors (`clientSecretFile`).
    public static func read(file path: String, key: String) throws(VivaCloudError) -> Secret {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw VivaCloudError(.secretFile, "\(key): cannot read \(path) (\(String(cString: strerror(errno))))")
        }
        guard info.st_mode & 0o077 == 0 else {
            let mode = String(info.st_mode & 0o777, radix: 8)
            throw VivaCloudError(
                .secretFile,
                "\(key): \(path) is readable by group or others (mode 0\(mode)); make it the owner's alone: chmod 600 \(path)"
            )
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else {
            throw VivaCloudError(.secretFile, "\(key): cannot read \(path) as UTF-8 text")
        }
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !value.isEmpty else { throw VivaCloudError(.secretFile, "\(key): \(path) is empty") }
        guard !value.contains(where: \.isNewline) else {
            throw VivaCloudError(.secretFile, "\(key): \(path) must hold one line, the secret alone")
        }
        return Secret(value)
    }
}
