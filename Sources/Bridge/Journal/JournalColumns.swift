import GRDB

/// The columns of a table the bridge writes, named once for both stores: SQLite's statements (``JournalSQL``)
/// and PostgreSQL's (``PostgresJournalSQL``) list them from here, in the order of `allCases`, and a row's
/// values are taken by column (``ColumnValue``), never by position.
protocol JournalColumns: ColumnExpression, CaseIterable, Sendable where AllCases == [Self] {
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
