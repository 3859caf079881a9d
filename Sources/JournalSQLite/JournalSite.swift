import BridgeCore
import BridgeJournal
import Foundation

/// What a state folder says about the journal that belongs at a path, read before the bridge creates
/// anything there: whether a journal file is there, and the files a journal leaves beside itself.
///
/// A journal that existed must never silently become a new one: an empty journal answers `not_found`
/// for every command it had, and a retry under an acknowledged id would open a second sale on the
/// terminal. The companions tell that a journal lived here: SQLite's `-wal` and `-shm`, the bridge's
/// `.lock`, and `.identity`, which holds the id written into the journal when it was created.
package struct JournalSite {
    /// What is at the journal's own path.
    package enum File: Equatable {
        case missing
        /// A file of zero bytes: no SQLite database, whatever it was before.
        case empty
        case present
    }

    /// The journal's path.
    let path: String
    package let file: File
    /// The companion files that exist, by suffix (`-wal`, `-shm`, `.lock`, `.identity`, `.position`).
    let companions: [String]
    /// The id in the `.identity` file, when there is one.
    let recordedIdentity: String?

    /// The suffixes of the files a journal leaves beside itself.
    static let companionSuffixes = [
        "-wal", "-shm", ".lock", JournalIdentityFile.suffix, JournalPositionFile.suffix,
    ]

    /// Looks at `path` and its companions; reads nothing but the identity file.
    package static func inspect(_ path: String) -> JournalSite {
        var info = stat()
        let file: File
        if stat(path, &info) != 0 {
            file = .missing
        } else {
            file = info.st_size == 0 ? .empty : .present
        }
        let companions = companionSuffixes.filter { FileManager.default.fileExists(atPath: path + $0) }
        return JournalSite(
            path: path, file: file, companions: companions, recordedIdentity: JournalIdentityFile.read(journal: path))
    }

    /// Why no journal may be begun or opened here as it is, or nil when the file is a journal to open
    /// (its identity is compared once it is open) or when no journal ever lived here.
    var refusal: String? {
        switch file {
        case .present:
            return nil
        case .empty:
            return "is an empty file (0 bytes): no journal. \(Self.wasHere(companions))"
                + "A bridge that began a new journal here would answer `not_found` for every command the old one "
                + "held, and a till retrying an acknowledged sale would charge it again. \(restoreOrStartAnew)"
        case .missing:
            guard !companions.isEmpty else { return nil }
            return
                "is missing, but its \(companions.map { "\((path as NSString).lastPathComponent)\($0)" }.joined(separator: ", ")) "
                + "\(companions.count == 1 ? "is" : "are") still there: a journal lived here. A bridge that began a new "
                + "one would answer `not_found` for every command the old one held, and a till retrying an "
                + "acknowledged sale would charge it again. \(restoreOrStartAnew)"
        }
    }

    private static func wasHere(_ companions: [String]) -> String {
        companions.isEmpty ? "" : "Its \(companions.joined(separator: ", ")) files show a journal lived here. "
    }

    /// The two ways on, named for the operator.
    var restoreOrStartAnew: String {
        "Restore the journal from a backup (docs/JOURNAL.md, Backup and restore), or, to start a new journal on "
            + "purpose, run `vivabridge journal new --journal \(path)`: it sets whatever is left of the old one "
            + "aside and begins a new journal"
    }
}

/// The `.identity` file beside a journal: the id written into the journal's `meta` table when it was
/// created. A journal whose id differs is not the one this state folder had.
package enum JournalIdentityFile {
    /// The file's suffix after the journal's path.
    package static let suffix = ".identity"

    /// The id recorded beside the journal at `journal`, or nil when there is no such file (or no id in it).
    package static func read(journal: String) -> String? {
        guard let text = try? String(contentsOfFile: journal + suffix, encoding: .utf8) else { return nil }
        let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return id.isEmpty ? nil : id
    }

    /// Writes `id` beside the journal at `journal`, durably (a temporary file synced, then renamed over).
    static func write(_ id: String, journal: String) throws(JournalError) {
        try replace(journal + suffix, with: id, journal: journal, durably: true)
    }

    /// Replaces the file `target` beside the journal at `journal` with one line, `text`: a temporary file
    /// (synced first when `durably`), renamed over, so that a reader sees the old line or the new one.
    static func replace(_ target: String, with text: String, journal: String, durably: Bool) throws(JournalError) {
        let temporary = target + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw JournalError(path: journal, "cannot write \(target): \(String(cString: strerror(errno)))")
        }
        let bytes = Array("\(text)\n".utf8)
        let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        let synced = !durably || fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced, rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw JournalError(path: journal, "cannot write \(target): \(reason)")
        }
        if durably { syncFolder(of: target) }
    }

    private static func syncFolder(of path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
