import BridgeCore
import BridgeJournal
import GRDB
import GRDBSQLite

/// The values of one run of a prepared statement, bound straight to SQLite in the order of its `?`.
///
/// The journal writer's statements run for every sale (an insert, a callback, a final update); GRDB's
/// `execute(arguments:)` boxes each value into a `DatabaseValue` and checks the statement against
/// observers and regions the journal does not use, about a quarter of the writer's time
/// (docs/PERFORMANCE.md 6.12). ``Statement/run(_:)`` binds instead.
package struct StatementBinder {
    private let statement: SQLiteStatement
    private(set) var count: Int32 = 0
    /// The first bind SQLite refused (`SQLITE_TOOBIG`, `SQLITE_NOMEM`: the slot is then NULL), if any.
    private(set) var refused: (index: Int32, code: Int32)?

    fileprivate init(_ statement: SQLiteStatement) { self.statement = statement }

    /// Binds text, or NULL for nil. As GRDB binds it (a C string: text ends at a NUL character), so that
    /// GRDB's look-ups find what this stored; SQLite copies the bytes.
    mutating func text(_ value: String?) {
        count += 1
        guard let value else {
            check(sqlite3_bind_null(statement, count))
            return
        }
        let (statement, index) = (statement, count)
        check(value.withCString { sqlite3_bind_text(statement, index, $0, -1, Self.transient) })
    }

    /// Binds an integer, or NULL for nil.
    mutating func integer(_ value: Int64?) {
        count += 1
        if let value {
            check(sqlite3_bind_int64(statement, count, value))
        } else {
            check(sqlite3_bind_null(statement, count))
        }
    }

    /// Binds an integer, or NULL for nil.
    mutating func integer(_ value: Int?) { integer(value.map(Int64.init)) }

    /// Binds 1 or 0, as GRDB stores a `Bool`.
    mutating func boolean(_ value: Bool) { integer(Int64(value ? 1 : 0)) }

    private mutating func check(_ code: Int32) {
        if code != SQLITE_OK, refused == nil { refused = (count, code) }
    }

    /// SQLite's `SQLITE_TRANSIENT`: it copies the bytes before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

extension Statement {
    /// Binds what `bind` binds, in the order of the statement's `?`, and runs the statement to its end,
    /// in the transaction the caller is in. Only for statements that return no rows.
    ///
    /// - Throws: a `DatabaseError` when SQLite refused a value, when `bind` binds another number of values
    ///   than the statement has parameters, or when SQLite fails the statement (it is reset either way,
    ///   ready for the next run).
    func run(_ bind: (inout StatementBinder) -> Void) throws {
        let statement = sqliteStatement
        sqlite3_reset(statement)
        var binder = StatementBinder(statement)
        bind(&binder)
        if let refused = binder.refused {
            sqlite3_clear_bindings(statement)
            throw DatabaseError(
                resultCode: ResultCode(rawValue: refused.code), message: "value \(refused.index) could not be bound",
                sql: sql)
        }
        guard binder.count == sqlite3_bind_parameter_count(statement) else {
            sqlite3_clear_bindings(statement)
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "\(binder.count) values bound, \(sqlite3_bind_parameter_count(statement)) expected",
                sql: sql)
        }
        var code = sqlite3_step(statement)
        while code == SQLITE_ROW { code = sqlite3_step(statement) }
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else {
            let message = String(cString: sqlite3_errmsg(sqlite3_db_handle(statement)))
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
        }
    }
}

extension CommandLogRow {
    /// Binds its values in the order of ``append``.
    func bind(into binder: inout StatementBinder) {
        for column in Self.columns { binder.bind(value(column)) }
    }
}

extension CallbackRow {
    /// Binds its values in the order of ``append``.
    func bind(into binder: inout StatementBinder) {
        for column in Self.columns { binder.bind(value(column)) }
    }
}

extension OutcomeLogRow {
    /// Binds its values in the order of ``append``.
    func bind(into binder: inout StatementBinder) {
        for column in Self.columns { binder.bind(value(column)) }
        summary.bindColumns(into: &binder)
    }
}
