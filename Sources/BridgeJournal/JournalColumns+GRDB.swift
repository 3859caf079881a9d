import BridgeCore
import GRDB

// SQLite's reads take the store-neutral columns (``JournalColumns``) as GRDB's, by name.

extension BatchRow.Columns: ColumnExpression {}
extension CallbackRow.Columns: ColumnExpression {}
extension CommandLogRow.Columns: ColumnExpression {}
extension OutcomeLogRow.Columns: ColumnExpression {}
extension ReplySummary.Columns: ColumnExpression {}

extension Statement {
    /// Where `column` is among the statement's results, found once by name: each row is then read at that
    /// position, typed by the column and as fast as a read by position (GRDB's read by name lowercases the
    /// name at every row).
    ///
    /// - Throws: ``JournalSchemaError`` when the statement selects no such column.
    package func position(of column: some ColumnExpression) throws -> Int {
        guard let position = index(ofColumn: column.name) else {
            throw JournalSchemaError(column: column.name, sql: sql)
        }
        return position
    }
}
