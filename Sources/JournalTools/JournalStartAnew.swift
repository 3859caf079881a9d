import BridgeCore
import BridgeJournal
import Foundation
import GRDB
import JournalSQLite

/// `vivabridge journal new`: the operator's way to begin a new journal on purpose where the bridge refuses
/// what is left of the old one (an empty file, a missing file beside its companions, another journal).
public enum JournalStartAnew {
    /// What was done.
    public struct Result: Sendable {
        /// The files set aside, each with the name it has now.
        public let setAside: [(from: String, to: String)]
    }

    /// Sets aside whatever is left of the journal at `path` (the file, its `-wal`, `-shm` and `.identity`),
    /// renamed with `.set-aside-TIME` so that nothing is lost, then creates a new, empty journal there.
    ///
    /// Never sets aside a healthy journal of this folder (one the bridge would serve): moving that aside is a
    /// decision to make by hand. Takes the journal's lock, so it never runs beside a bridge.
    ///
    /// - Throws: ``JournalError``: ``JournalError/isInUse`` while a bridge holds the journal; a refusal when the
    ///   journal is healthy and this folder's; a file that cannot be moved.
    public static func begin(path: String, sync: JournalSync, now: Date = Date()) throws -> Result {
        let lock = try JournalLock(journal: path)
        let setAside: [(from: String, to: String)]
        do {
            defer { lock.release() }
            if let healthy = healthyJournal(at: path) {
                throw JournalError(
                    path: path,
                    "is this folder's journal and is healthy (\(healthy) commands); `journal new` only sets aside "
                        + "what the bridge refuses. To start anew regardless, stop the bridge and move the journal "
                        + "and its -wal, -shm and .identity files aside by hand",
                    code: .notThisFoldersJournal)
            }
            setAside = try moveAside(path, stamp: stamp(now))
        }
        let journal = try Journal(path: path, sync: sync, beginningAnew: true)
        journal.close()
        return Result(setAside: setAside)
    }

    /// How many commands the journal at `path` holds, if it is intact and the one recorded beside it.
    private static func healthyJournal(at path: String) -> Int? {
        guard JournalSite.inspect(path).file == .present,
            let problems = try? JournalMaintenance.integrityProblems(path: path, limit: 1), problems == ["ok"],
            let reader = try? JournalReader.open(path: path)
        else { return nil }
        defer { try? reader.close() }
        return try? reader.read { db in
            let stored = try String.fetchOne(
                db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [JournalIdentity.metaKey])
            guard stored == JournalIdentityFile.read(journal: path) || JournalIdentityFile.read(journal: path) == nil
            else { return nil }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM commands")
        }
    }

    private static func moveAside(_ path: String, stamp: String) throws(JournalError) -> [(from: String, to: String)] {
        var moved: [(from: String, to: String)] = []
        for suffix in ["", "-wal", "-shm", JournalIdentityFile.suffix, JournalPositionFile.suffix]
        where FileManager.default.fileExists(atPath: path + suffix) {
            let from = path + suffix
            let to = "\(path).set-aside-\(stamp)\(suffix)"
            guard rename(from, to) == 0 else {
                throw JournalError(
                    path: path, "cannot set \(from) aside as \(to): \(String(cString: strerror(errno)))")
            }
            moved.append((from, to))
        }
        return moved
    }

    private static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }
}
