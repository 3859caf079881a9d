import BridgeCore
import BridgeJournal
import GRDB

// SQLite's reads take the store-neutral columns (``JournalColumns``) as GRDB's, by name.

extension BatchRow.Columns: ColumnExpression {}
extension CallbackRow.Columns: ColumnExpression {}
extension CommandLogRow.Columns: ColumnExpression {}
extension OutcomeLogRow.Columns: ColumnExpression {}
extension ReplySummary.Columns: ColumnExpression {}
extension StoredCommand.Columns: ColumnExpression {}

// The rows as GRDB's records: their tables by name, and a batch read and written through GRDB.

extension CallbackRow: TableRecord {}
extension CommandLogRow: TableRecord {}
extension OutcomeLogRow: TableRecord {}

extension BatchRow: FetchableRecord, PersistableRecord {
    package init(row: Row) throws {
        self.init(
            lane: try row.decode(forColumn: Columns.lane),
            batch: OpenBatch(
                name: try row.decode(forColumn: Columns.name), id: try row.decode(forColumn: Columns.batchId),
                openedAtMs: try row.decode(forColumn: Columns.openedMs),
                automatic: try row.decode(forColumn: Columns.automatic)))
    }

    package func encode(to container: inout PersistenceContainer) throws {
        for column in Self.columns {
            switch value(column) {
            case .integer(let value): container[column] = value
            case .flag(let value): container[column] = value
            case .text(let value): container[column] = value
            }
        }
    }
}

extension JournalSQL {
    /// The column that orders the commands a reader sees: `seq` in the log (`v1.2-journal-log`), the table's
    /// `rowid` in a journal no bridge of this version has opened yet (the operator's commands never migrate).
    package static func commandKey(_ db: Database) throws -> String {
        try db.tableExists("command_log") ? "seq" : "rowid"
    }
}

extension Statement {
    /// Where `column` is among the statement's results, found once by name: each row is then read at that
    /// position, typed by the column and as fast as a read by position (GRDB's read by name lowercases the
    /// name at every row).
    ///
    /// - Throws: ``JournalSchemaError`` when the statement selects no such column.
    func position(of column: some ColumnExpression) throws -> Int {
        guard let position = index(ofColumn: column.name) else {
            throw JournalSchemaError(column: column.name, sql: sql)
        }
        return position
    }
}
