import BridgeCore
import BridgeJournal
import GRDB
import JournalSQLite

/// Reads the finished commands of a journal for `vivabridge journal export`, beside a running bridge.
public enum JournalExport {
    /// How many rows one read transaction covers: short snapshots, so a long export never holds back the
    /// bridge's checkpoints (a reader pins the WAL frames newer than its snapshot).
    static let rowsPerRead = 2000

    /// Calls `body` with every finished command (state `final`) created in `fromMs..<toMs` (either end
    /// open when nil), oldest first (by the time the bridge accepted them, then the order it journaled
    /// them), and returns how many there were.
    ///
    /// Streams: rows are read with a cursor, `rowsPerRead` per read-only transaction, and handed to
    /// `body` one at a time; nothing is gathered in memory. Commands the bridge journals after the export
    /// started are left out. A journal with reply columns (``JournalMigrations/replyColumns``) is read from
    /// them, along its `created_ms` index; an older one (not yet opened by a bridge of this version) from
    /// its stored replies, in the order it journaled them.
    ///
    /// - Throws: ``JournalError`` when the journal cannot be read; whatever `body` throws.
    public static func forEachFinished(
        path: String, fromMs: Int64? = nil, toMs: Int64? = nil, _ body: (ExportedCommand) throws -> Void
    ) throws -> Int {
        try forEachFinished(path: path, fromMs: fromMs, toMs: toMs, rowsPerRead: rowsPerRead, body)
    }

    /// ``forEachFinished(path:fromMs:toMs:_:)`` with `rowsPerRead` rows a read transaction (tests use few).
    static func forEachFinished(
        path: String, fromMs: Int64?, toMs: Int64?, rowsPerRead: Int, _ body: (ExportedCommand) throws -> Void
    ) throws -> Int {
        let database = try JournalReader.open(path: path)
        defer { try? database.close() }
        do {
            let (last, hasColumns, key) = try database.read { db in
                let key = try JournalSQL.commandKey(db)
                let last = try Int64.fetchOne(db, sql: "SELECT MAX(\(key)) FROM commands") ?? 0
                return (last, try JournalMigrations.hasReplyColumns(db), key)
            }
            let page = hasColumns ? Page.byColumns : Page.byReplies
            let sql = page.sql(key: key)
            var after = (createdMs: Int64.min, key: Int64(0))
            var count = 0
            while true {
                let (read, lastKey) = try database.read { db in
                    let cursor = try Row.fetchCursor(
                        db, sql: sql,
                        arguments: [
                            after.createdMs, after.key, last, fromMs ?? Int64.min, toMs ?? Int64.max, rowsPerRead,
                        ])
                    var read = 0
                    var lastKey = after
                    while let row = try cursor.next() {
                        read += 1
                        lastKey = (
                            try row.decode(forColumn: Page.Columns.createdMs),
                            try row.decode(forColumn: Page.Columns.key)
                        )
                        try body(try page.command(row))
                    }
                    return (read, lastKey)
                }
                count += read
                guard read == rowsPerRead else { return count }
                after = lastKey
            }
        } catch let error as DatabaseError {
            throw JournalError(path: path, "cannot be read: \(error)")
        }
    }

    /// How one read transaction selects its rows: the arguments are the last key read (?1 created, ?2
    /// rowid), ?3 the last rowid when the export started, ?4 and ?5 the time bounds, ?6 the row count.
    private enum Page {
        /// From the reply columns, along the `created_ms` index (its entries are ordered by created, rowid).
        case byColumns
        /// From the stored replies, in rowid order, in a journal without reply columns.
        case byReplies

        /// The columns a page reads besides the reply columns (``ReplySummary/Columns``).
        enum Columns: String, ColumnExpression {
            /// The command's place (`seq`, or `rowid` in an older journal).
            case key
            case id, client, lane, action, outcome, fingerprint, reply
            case clientTransactionId = "client_transaction_id"
            case createdMs = "created_ms"
            case updatedMs = "updated_ms"
        }

        /// The page's statement; `key` orders the commands (``JournalSQL/commandKey(_:)``).
        func sql(key: String) -> String {
            switch self {
            case .byColumns:
                """
                SELECT \(key) AS key, id, client, lane, action, outcome, client_transaction_id, \(JournalSQL.replyColumnNames.joined(separator: ", ")),
                created_ms, updated_ms FROM commands WHERE (created_ms, \(key)) > (?1, ?2) AND \(key) <= ?3
                AND state = 'final' AND created_ms >= ?4 AND created_ms < ?5 ORDER BY created_ms, \(key) LIMIT ?6
                """
            case .byReplies:
                """
                SELECT \(key) AS key, id, lane, action, fingerprint, outcome, reply, client_transaction_id, created_ms,
                updated_ms
                FROM commands WHERE \(key) > ?2 AND \(key) <= ?3 AND state = 'final'
                AND created_ms >= ?4 AND created_ms < ?5 ORDER BY \(key) LIMIT ?6
                """
            }
        }

        func command(_ row: Row) throws -> ExportedCommand {
            var command = try read(row)
            command.clientTransactionId = try row.decode(forColumn: Columns.clientTransactionId)
            return command
        }

        private func read(_ row: Row) throws -> ExportedCommand {
            switch self {
            case .byColumns:
                ExportedCommand(
                    id: try row.decode(forColumn: Columns.id), client: try row.decode(forColumn: Columns.client),
                    lane: try row.decode(forColumn: Columns.lane), action: try row.decode(forColumn: Columns.action),
                    outcome: try row.decode(forColumn: Columns.outcome), summary: try ReplySummary(row: row),
                    createdMs: try row.decode(forColumn: Columns.createdMs),
                    updatedMs: try row.decode(forColumn: Columns.updatedMs))
            case .byReplies:
                ExportedCommand(
                    id: try row.decode(forColumn: Columns.id), lane: try row.decode(forColumn: Columns.lane),
                    action: try row.decode(forColumn: Columns.action),
                    fingerprint: try row.decode(forColumn: Columns.fingerprint),
                    outcome: try row.decode(forColumn: Columns.outcome),
                    reply: try row.decode(forColumn: Columns.reply),
                    createdMs: try row.decode(forColumn: Columns.createdMs),
                    updatedMs: try row.decode(forColumn: Columns.updatedMs))
            }
        }
    }
}
