import BridgeCore
import Foundation

extension Journal {
    /// The journal's files (database, `-wal`, `-shm`) that users other than the owner may read or write (a
    /// journal made before files were created 0600, or copied by hand), each with its mode in octal, e.g.
    /// `("/var/lib/vivabridge/journal.sqlite", "0644")`. Empty when only the owner can. The folder is not
    /// judged: it may be shared (`/tmp`), and its listing shows names only.
    package static func exposedFiles(of path: String) -> [(path: String, mode: String)] {
        [path, path + "-wal", path + "-shm"].compactMap { candidate in
            var info = stat()
            guard stat(candidate, &info) == 0, info.st_mode & 0o077 != 0 else { return nil }
            let octal = String(info.st_mode & 0o7777, radix: 8)
            return (candidate, String(repeating: "0", count: max(0, 4 - octal.count)) + octal)
        }
    }
}
