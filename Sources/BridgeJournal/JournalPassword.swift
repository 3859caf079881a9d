import BridgeCore
import Foundation

/// The password of a journal on PostgreSQL, read from the file `journalPasswordFile:` names: never shown,
/// whatever prints it (a log line, an error, a dump of the configuration shows `(hidden)`).
public struct JournalPassword: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The password itself; only the connection's start-up reads it.
    package let value: String

    init(_ value: String) { self.value = value }

    public var description: String { "(hidden)" }
    public var debugDescription: String { "(hidden)" }

    /// Reads the password in `file`, which only its owner may read (like the CURVE secret key files): its
    /// first line, without the line end.
    ///
    /// - Throws: ``ConfigurationError`` about `key` naming the file (never its content) and what to do.
    package static func read(file: String, key: String) throws(ConfigurationError) -> JournalPassword {
        var info = stat()
        guard stat(file, &info) == 0 else {
            throw ConfigurationError(
                key: key,
                "cannot read \(file): \(String(cString: strerror(errno))); give the file that holds the journal's "
                    + "password (one line, mode 600)")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw ConfigurationError(
                key: key, "\(file) is readable by group or others; make it the owner's alone: chmod 600 \(file)")
        }
        guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8)
        else {
            throw ConfigurationError(key: key, "cannot read \(file) as UTF-8 text (the journal's password, one line)")
        }
        var password = Substring(text)
        // "\r\n" is one Character: `isNewline` covers it, "\n" and "\r".
        while password.last?.isNewline == true { password = password.dropLast() }
        guard !password.isEmpty else {
            throw ConfigurationError(key: key, "\(file) is empty; write the journal's password in it (one line)")
        }
        guard !password.contains(where: \.isNewline) else {
            throw ConfigurationError(
                key: key, "\(file) holds more than one line; write only the journal's password in it (one line)")
        }
        return JournalPassword(String(password))
    }
}
