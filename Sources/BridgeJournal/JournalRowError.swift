import BridgeCore

/// A journal row holds, in a column vivabridge fills from a fixed set (an action, an outcome, a state, a
/// disposition), a value this build does not know: the row was changed by hand or by another program.
package struct JournalRowError: Error, Sendable, CustomStringConvertible {
    /// The column read.
    let column: String
    /// What it holds.
    let value: String

    package var description: String {
        "the journal's column `\(column)` holds '\(value)', which vivabridge never writes there: the row was changed "
            + "by hand or by another program. Correct or remove that row, or restore the journal from a backup "
            + "(docs/JOURNAL.md, Backup and restore)"
    }
}

extension RawRepresentable where RawValue == String {
    /// The case whose raw value the journal's `column` holds.
    ///
    /// - Throws: ``JournalRowError`` when there is none.
    package init(journal raw: String, column: some RawRepresentable<String>) throws {
        guard let value = Self(rawValue: raw) else { throw JournalRowError(column: column.rawValue, value: raw) }
        self = value
    }
}
