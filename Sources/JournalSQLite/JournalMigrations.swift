import BridgeCore
import BridgeJournal
import GRDB
import InterApp

/// The journal's migrations, in the order they apply: the one home of their names. The bridge applies
/// them at start; the bridge and every operator command refuse a journal that has one this build does
/// not know (a newer vivabridge wrote it).
package enum JournalMigrations {
    /// Every migration, oldest first. A shipped migration is never edited or removed (docs/JOURNAL.md).
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: JournalSQL.schema)
        }
        migrator.registerMigration("v1.1-sales-by-client-transaction-id") { db in
            try db.execute(sql: JournalSQL.salesByClientTransactionId)
        }
        migrator.registerMigration("v1.1-automatic-batches") { db in
            try db.execute(sql: "ALTER TABLE batches ADD COLUMN automatic INTEGER NOT NULL DEFAULT 0")
        }
        migrator.registerMigration("v1.1-command-client") { db in
            try db.execute(sql: JournalSQL.commandClientColumn)
        }
        migrator.registerMigration(replyColumns) { db in
            try db.execute(sql: JournalSQL.replyColumns)
            try fillReplyColumns(db)
        }
        migrator.registerMigration("v1.1-callbacks-by-command") { db in
            try db.execute(sql: JournalSQL.callbacksByCommand)
        }
        migrator.registerMigration("v1.1-late-by-client-transaction-id") { db in
            try db.execute(sql: JournalSQL.lateByClientTransactionId)
        }
        migrator.registerMigration("v1.1-pre-auths-by-order-code") { db in
            try db.execute(sql: JournalSQL.preAuthsByOrderCode)
        }
        migrator.registerMigration("v1.1-drop-sales-by-client-transaction-id") { db in
            // `commands_late_by_client_transaction_id` (lane, clientTransactionId, action) answers every query
            // this one did: one index fewer to write per command.
            try db.execute(sql: "DROP INDEX IF EXISTS commands_sales_by_client_transaction_id")
        }
        migrator.registerMigration("v1.1-fewer-index-writes") { db in
            // Each index on a random key costs every sale a page of WAL (issue 17: two of them were a third of the
            // journal writer's time). Late callbacks look only among commands that did not succeed; retention finds
            // callbacks by age (`seq` order) rather than by command.
            try db.execute(sql: "DROP INDEX IF EXISTS commands_late_by_client_transaction_id")
            try db.execute(sql: JournalSQL.lateCandidates)
            try db.execute(sql: "DROP INDEX IF EXISTS callbacks_matched")
        }
        migrator.registerMigration("v1.2-journal-log") { db in
            try db.execute(sql: JournalSQL.journalLog)
        }
        migrator.registerMigration("v1.3-callback-relay-seq") { db in
            try db.execute(sql: JournalSQL.callbackRelaySeq)
        }
        return migrator
    }

    /// Applies every migration to `database`: the benchmark's journals get the bridge's exact schema.
    package static func migrate(_ database: DatabaseQueue) throws { try migrator.migrate(database) }

    /// Applies the migrations up to and including `last`: a journal as an older vivabridge left it.
    package static func migrate(_ database: DatabaseQueue, upTo last: String) throws {
        try migrator.migrate(database, upTo: last)
    }

    /// The last migration of v1.1: a journal written by v1.1 has had every migration up to it.
    package static let lastOfVersionOnePointOne = "v1.1-fewer-index-writes"

    /// The migration that gave the journal its reply columns; a journal without it is read from the
    /// stored replies.
    static let replyColumns = "v1.1-reply-columns"

    /// Fills the reply columns (and `client`, when the reply names one) of every finished row, from its
    /// stored reply, as the bridge fills them for a row it finishes.
    private static func fillReplyColumns(_ db: Database) throws {
        let update = try db.makeStatement(
            sql: """
                UPDATE commands SET \(JournalSQL.replyColumnNames.map { "\($0) = ?" }.joined(separator: ", ")),
                client = COALESCE(client, ?) WHERE rowid = ?
                """)
        // A thousand rows at a time, so that a journal of millions is filled in bounded memory.
        typealias Columns = StoredCommand.Columns
        let select = try db.makeStatement(
            sql: """
                SELECT rowid, \(Columns.fingerprint.name), \(Columns.reply.name) FROM commands
                WHERE \(Columns.reply.name) IS NOT NULL AND rowid > ? ORDER BY rowid LIMIT 1000
                """)
        let rowidAt = try select.position(of: Column.rowID)
        let fingerprintAt = try select.position(of: Columns.fingerprint)
        let replyAt = try select.position(of: Columns.reply)
        var after: Int64 = 0
        while true {
            let rows = try Row.fetchAll(select, arguments: [after])
            guard let last = rows.last else { return }
            after = last[rowidAt]
            for row in rows {
                let reply: String? = row[replyAt]
                let object = reply.flatMap { try? JSONValue.parse($0).objectValue } ?? JSONObject()
                let summary = ReplySummary(storedReply: object, fingerprint: row[fingerprintAt])
                let rowid: Int64 = row[rowidAt]
                try update.run {
                    summary.bindColumns(into: &$0)
                    $0.text(object["client"]?.stringValue)
                    $0.integer(rowid)
                }
            }
        }
    }

    /// Whether the journal has had ``replyColumns``.
    package static func hasReplyColumns(_ db: Database) throws -> Bool {
        guard try db.tableExists("grdb_migrations") else { return false }
        return try Bool.fetchOne(
            db, sql: "SELECT COUNT(*) > 0 FROM grdb_migrations WHERE identifier = ?", arguments: [replyColumns])
            ?? false
    }

    /// The names of the migrations this build knows, oldest first.
    static let known = migrator.migrations

    /// The migrations applied to the journal that this build does not know, in name order; empty for
    /// a journal this build (or an older one) wrote.
    static func unknown(in db: Database) throws -> [String] {
        guard try db.tableExists("grdb_migrations") else { return [] }
        let applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
        return applied.filter { !known.contains($0) }
    }

    /// Throws when a newer vivabridge wrote the journal: its rows may mean what this build cannot know,
    /// and writing them could break that newer version's data.
    ///
    /// - Throws: ``JournalError`` (``JournalError/isFromNewerVersion``) naming the unknown migrations.
    static func refuseNewer(_ db: Database, path: String) throws {
        let unknown = try unknown(in: db)
        guard !unknown.isEmpty else { return }
        throw JournalError(
            path: path,
            "was written by a newer vivabridge: it has the migration\(unknown.count == 1 ? "" : "s") "
                + "\(unknown.joined(separator: ", ")), which this vivabridge (schema \(known.last ?? "-")) does not "
                + "know. Run the newer vivabridge, or restore the backup taken before the upgrade (docs/JOURNAL.md, "
                + "Backup and restore); no row of it was changed",
            code: .fromNewerVersion)
    }
}
