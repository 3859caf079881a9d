import BridgeCore
import BridgeJournal
import Foundation
import GRDB

/// A read-only connection to a journal file, for the operator's commands: it never writes, never
/// migrates, and reads beside a running bridge as a WAL reader (it sees the last committed state).
package enum JournalReader {
    /// Opens the journal at `path` read-only.
    ///
    /// - Throws: ``JournalError`` when there is no file, it cannot be opened as a journal, or a newer
    ///   vivabridge wrote it (``JournalError/isFromNewerVersion``).
    package static func open(path: String) throws(JournalError) -> DatabaseQueue {
        guard FileManager.default.fileExists(atPath: path) else {
            throw JournalError(
                path: path, "no such file; give the journal's path (the `journal` key of the configuration)")
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        let database: DatabaseQueue
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw JournalError(path: path, "cannot be read: \(error)")
        }
        do {
            let tables = try database.read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
            }
            guard tables.contains("commands") else {
                try? database.close()
                throw JournalError(path: path, "is not a vivabridge journal (it has no commands table)")
            }
            try database.read { db in try JournalMigrations.refuseNewer(db, path: path) }
        } catch let error as JournalError {
            try? database.close()
            throw error
        } catch {
            try? database.close()
            throw JournalError(path: path, "cannot be read: \(error)")
        }
        return database
    }
}
