/// The columns of a table the bridge writes, named once for both stores: SQLite's statements (``JournalSQL``)
/// and PostgreSQL's (``PostgresJournalSQL``) list them from here, in the order of `allCases`, and a row's
/// values are taken by column (``ColumnValue``), never by position. A column's name is its `rawValue`; no store's
/// library is named here: SQLite's code makes them GRDB columns where it reads rows (`JournalColumns+GRDB.swift`).
package protocol JournalColumns: RawRepresentable<String>, CaseIterable, Sendable where AllCases == [Self] {
    /// What the column holds.
    var kind: ColumnKind { get }
}

/// What a journal column holds.
@usableFromInline package enum ColumnKind: Sendable {
    /// A 64-bit integer (a sequence, a time in milliseconds, an amount in cents).
    case integer
    /// 0 or 1.
    case flag
    /// Text.
    case text
}

/// The value a row gives one of its columns.
@usableFromInline package enum ColumnValue: Sendable, Equatable {
    case integer(Int64?)
    case flag(Bool)
    case text(String?)

    @inlinable package static func integer(_ value: Int?) -> ColumnValue { .integer(value.map(Int64.init)) }
}

/// A statement of the bridge's own does not select a column it reads: a bug of this build, not of the journal.
package struct JournalSchemaError: Error, Sendable, CustomStringConvertible {
    /// The column looked for.
    let column: String
    /// The statement's text.
    let sql: String

    /// The error of `sql`, which does not select `column`.
    package init(column: String, sql: String) {
        self.column = column
        self.sql = sql
    }

    package var description: String {
        "vivabridge's statement `\(sql)` has no column `\(column)`: a bug of this build; please report it"
    }
}
