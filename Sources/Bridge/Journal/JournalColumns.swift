/// The columns of a table the bridge writes, named once for both stores: SQLite's statements (``JournalSQL``)
/// and PostgreSQL's (``PostgresJournalSQL``) list them from here, in the order of `allCases`, and a row's
/// values are taken by column (``ColumnValue``), never by position. A column's name is its `rawValue`; no store's
/// library is named here: SQLite's code makes them GRDB columns where it reads rows (`JournalColumns+GRDB.swift`).
protocol JournalColumns: RawRepresentable<String>, CaseIterable, Sendable where AllCases == [Self] {
    /// What the column holds.
    var kind: ColumnKind { get }
}

/// What a journal column holds.
enum ColumnKind: Sendable {
    /// A 64-bit integer (a sequence, a time in milliseconds, an amount in cents).
    case integer
    /// 0 or 1.
    case flag
    /// Text.
    case text
}

/// The value a row gives one of its columns.
enum ColumnValue: Sendable, Equatable {
    case integer(Int64?)
    case flag(Bool)
    case text(String?)

    static func integer(_ value: Int?) -> ColumnValue { .integer(value.map(Int64.init)) }
}

extension StatementBinder {
    /// Binds `value` as its kind is stored (a flag as 1 or 0, nil as NULL).
    mutating func bind(_ value: ColumnValue) {
        switch value {
        case .integer(let value): integer(value)
        case .flag(let value): boolean(value)
        case .text(let value): text(value)
        }
    }
}

/// A statement of the bridge's own does not select a column it reads: a bug of this build, not of the journal.
struct JournalSchemaError: Error, Sendable, CustomStringConvertible {
    /// The column looked for.
    let column: String
    /// The statement's text.
    let sql: String

    var description: String {
        "vivabridge's statement `\(sql)` has no column `\(column)`: a bug of this build; please report it"
    }
}
