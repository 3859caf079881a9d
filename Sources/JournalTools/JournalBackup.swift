import BridgeCore
import BridgeJournal
import Foundation
import GRDB
import JournalSQLite

/// `vivabridge journal backup`: a consistent copy of a journal, taken while a bridge may be writing.
public enum JournalBackup {
    /// Copies the journal at `path` to `destination` with SQLite's online backup, in one step: the copy
    /// is the journal as of one committed transaction, whatever the bridge writes meanwhile.
    ///
    /// The copy is a single file (rollback journal mode, no `-wal` beside it), mode 0600, that a bridge
    /// can open as its journal. An existing `destination` is never overwritten; a failed copy is removed.
    ///
    /// - Returns: how many commands the copy holds.
    /// - Throws: ``JournalError`` naming the file and the cause.
    @discardableResult
    public static func copy(path: String, to destination: String) throws(JournalError) -> Int {
        let source = try JournalReader.open(path: path)
        defer { try? source.close() }
        let descriptor = open(destination, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let cause =
                errno == EEXIST
                ? "it already exists (a backup never overwrites a file)" : String(cString: strerror(errno))
            throw JournalError(path: path, "cannot back up to \(destination): \(cause)")
        }
        fchmod(descriptor, 0o600)
        close(descriptor)
        do {
            let copy = try DatabaseQueue(path: destination)
            defer { try? copy.close() }
            try source.backup(to: copy)
            try copy.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
            return try copy.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM commands") ?? 0 }
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(destination + suffix) }
            throw JournalError(path: path, "the backup to \(destination) failed: \(error); nothing was kept")
        }
    }
}
