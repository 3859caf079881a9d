import BridgeCore
import BridgeJournal
import PostgresNIO

/// The journal's migrations on PostgreSQL, under the names SQLite's have (JournalSQLite's `JournalMigrations`), recorded in a
/// table of the name and shape GRDB gives SQLite's (`grdb_migrations(identifier)`), so that one list of names
/// says what a journal has had, whichever database holds it.
///
/// A PostgreSQL journal begins at the log (`v1.2-journal-log`): the migrations of v1.1 are recorded with it,
/// their schema being the log's. Every migration added to SQLite's gets its PostgreSQL step here,
/// under the same name (a test compares the two lists).
package enum PostgresMigrations {
    /// Every migration, oldest first: its name and its statements (none for one the log's schema holds).
    static let steps: [(name: String, statements: [String])] =
        [
            "v1", "v1.1-sales-by-client-transaction-id", "v1.1-automatic-batches", "v1.1-command-client",
            "v1.1-reply-columns", "v1.1-callbacks-by-command", "v1.1-late-by-client-transaction-id",
            "v1.1-pre-auths-by-order-code", "v1.1-drop-sales-by-client-transaction-id", "v1.1-fewer-index-writes",
        ].map { ($0, []) }
        + [
            ("v1.2-journal-log", PostgresJournalSQL.journalLog),
            ("v1.3-callback-relay-seq", PostgresJournalSQL.callbackRelaySeq),
        ]

    /// The names this build knows, oldest first.
    static var known: [String] { steps.map(\.name) }

    /// Two bridges starting on one database migrate it one after the other (`pg_advisory_xact_lock`).
    private static let migrationLock: Int64 = 0x7669_7661_6d69_6772  // "vivamigr"

    /// Refuses a journal with a migration this build does not know, then applies the ones it has not had, and
    /// creates the lease's row (``PostgresLeaseSQL/create``) when it is missing, in one transaction.
    ///
    /// - Throws: ``JournalError`` (``JournalError/Code/fromNewerVersion``) naming the unknown migrations, the
    ///   database untouched; ``PostgresProblem`` when PostgreSQL refuses a statement.
    package static func migrate(_ link: PostgresLink) throws {
        try link.query("BEGIN")
        do {
            var lock = PostgresBindings()
            lock.append(migrationLock)
            try link.query("SELECT pg_advisory_xact_lock($1)", lock)
            try link.query("CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            let applied = try refuseNewer(link)
            for step in steps where !applied.contains(step.name) {
                for statement in step.statements { try link.query(statement) }
                var name = PostgresBindings()
                name.append(step.name)
                try link.query("INSERT INTO grdb_migrations(identifier) VALUES ($1)", name)
            }
            // Not a named step: SQLite has no lease, and a database made before the lease existed gets it too.
            for statement in PostgresLeaseSQL.create { try link.query(statement) }
            try link.query("COMMIT")
        } catch {
            _ = try? link.query("ROLLBACK")
            throw error
        }
    }

    /// The migrations the journal has had (none when it has no `grdb_migrations` table), once it is known to
    /// hold none this build does not know.
    ///
    /// - Throws: ``JournalError`` (``JournalError/Code/fromNewerVersion``) naming the unknown migrations;
    ///   ``PostgresProblem`` when PostgreSQL refuses the statement.
    @discardableResult
    package static func refuseNewer(_ link: PostgresLink) throws -> [String] {
        let present = try link.query("SELECT to_regclass('grdb_migrations') IS NOT NULL").first?.decode(Bool.self)
        guard present == true else { return [] }
        let applied = try link.query("SELECT identifier FROM grdb_migrations ORDER BY identifier").map {
            try $0.decode(String.self)
        }
        let unknown = applied.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            throw JournalError(
                path: link.address.location,
                "was written by a newer vivabridge: it has the migration\(unknown.count == 1 ? "" : "s") "
                    + "\(unknown.joined(separator: ", ")), which this vivabridge (schema \(known.last ?? "-")) "
                    + "does not know. Run the newer vivabridge, or restore the database as it was before the "
                    + "upgrade (docs/JOURNAL.md); no row of it was changed",
                code: .fromNewerVersion)
        }
        return applied
    }
}
