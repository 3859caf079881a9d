import BridgeCore
import BridgeJournal
import GRDB

/// What operators run on a journal file beside (or without) a bridge.
public enum JournalMaintenance {
    /// SQLite's full `PRAGMA integrity_check` of the journal at `path`, read-only: `["ok"]` when it is
    /// intact, else the problems (at most `limit`).
    ///
    /// - Throws: ``JournalError`` when the file cannot be opened at all, or when it is intact but a newer
    ///   vivabridge wrote it (``JournalError/isFromNewerVersion``).
    public static func integrityProblems(path: String, limit: Int = 100) throws -> [String] {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        do {
            let database = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? database.close() }
            return try database.read { db in
                let problems = try integrityProblems(db, limit: limit)
                if problems == ["ok"] { try JournalMigrations.refuseNewer(db, path: path) }
                return problems
            }
        } catch let error as JournalError {
            throw error
        } catch {
            throw JournalError(path: path, "cannot be read: \(error)")
        }
    }

    /// SQLite's full `PRAGMA integrity_check` on an open connection: `["ok"]`, or at most `limit` problems.
    /// `journal check` and the bridge's start run this same check (`quick_check` misses an index that no
    /// longer matches its table, which makes a journaled command `not_found`).
    static func integrityProblems(_ db: Database, limit: Int) throws -> [String] {
        try String.fetchAll(db, sql: "PRAGMA integrity_check(\(limit))")
    }
}
