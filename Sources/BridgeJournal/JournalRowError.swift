import BridgeCore
import GRDB

/// A journal row holds, in a column vivabridge fills from a fixed set (an action, an outcome, a state, a
/// disposition), a value this build does not know: the row was changed by hand or by another program.
struct JournalRowError: Error, Sendable, CustomStringConvertible {
    /// The column read.
    let column: String
    /// What it holds.
    package let value: String

    package var description: String {
        "the journal's column `\(column)` holds '\(value)', which vivabridge never writes there: the row was changed "
            + "by hand or by another program. Correct or remove that row, or restore the journal from a backup "
            + "(docs/JOURNAL.md, Backup and restore)"
    }
}

extension Row {
    /// The value of `column`, stored by its raw value (the journal's enums are).
    ///
    /// - Throws: ``JournalRowError`` when the column holds a raw value `Value` has no case for; GRDB's decoding
    ///   error when it holds no text.
    func decodeRaw<Value: RawRepresentable>(_ type: Value.Type = Value.self, forColumn column: some ColumnExpression)
        throws -> Value where Value.RawValue == String
    {
        try Value(journal: try decode(forColumn: column), column: column)
    }

    /// The value of `column`, stored by its raw value, or nil for NULL.
    ///
    /// - Throws: ``JournalRowError`` when the column holds a raw value `Value` has no case for.
    func decodeRawIfPresent<Value: RawRepresentable>(
        _ type: Value.Type = Value.self, forColumn column: some ColumnExpression
    ) throws -> Value? where Value.RawValue == String {
        guard let raw: String = try decode(forColumn: column) else { return nil }
        return try Value(journal: raw, column: column)
    }
}

extension RawRepresentable where RawValue == String {
    /// The case whose raw value the journal's `column` holds.
    ///
    /// - Throws: ``JournalRowError`` when there is none.
    package init(journal raw: String, column: some ColumnExpression) throws {
        guard let value = Self(rawValue: raw) else { throw JournalRowError(column: column.name, value: raw) }
        self = value
    }
}
