import BridgeCore
import BridgeJournal
import GRDB

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

extension ReplySummary {
    /// Binds its values in the order of ``columns`` (``JournalSQL/replyColumnNames``).
    func bindColumns(into binder: inout StatementBinder) {
        for column in Self.columns { binder.bind(value(column)) }
    }

    /// The summary a row's reply columns hold.
    package init(row: Row) throws {
        self.init(
            amount: try row.decode(forColumn: Columns.amount), tip: try row.decode(forColumn: Columns.tip),
            errorCode: try row.decode(forColumn: Columns.errorCode),
            failureReason: try row.decode(forColumn: Columns.failureReason),
            referenceNumber: try row.decode(forColumn: Columns.referenceNumber),
            orderCode: try row.decode(forColumn: Columns.orderCode), card: try row.decode(forColumn: Columns.card),
            batch: try row.decode(forColumn: Columns.batch), resolvedAt: try row.decode(forColumn: Columns.resolvedAt),
            resolvedBy: try row.decode(forColumn: Columns.resolvedBy),
            resolvedNote: try row.decode(forColumn: Columns.resolvedNote))
    }
}
