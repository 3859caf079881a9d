import BridgeCore
import InterApp

/// A row of `outcome_log`: an outcome given to a command (its final one, then any late result, look-up or
/// resolve), with its reply columns (``ReplySummary``).
///
/// Appended as ``CommandLogRow`` is: ``append`` and ``bind(into:)`` both follow ``Columns`` then
/// ``ReplySummary/Columns``.
@usableFromInline package struct OutcomeLogRow {
    @usableFromInline package static let databaseTableName = "outcome_log"

    /// Its columns before the reply columns (not `seq`, the store's).
    @usableFromInline package enum Columns: String, JournalColumns {
        case commandSeq = "command_seq"
        case lane, action
        case clientTransactionId = "client_transaction_id"
        case outcome, reply, late
        case atMs = "at_ms"

        package var kind: ColumnKind {
            switch self {
            case .commandSeq, .atMs: .integer
            case .late: .flag
            case .lane, .action, .clientTransactionId, .outcome, .reply: .text
            }
        }
    }

    /// The sequence of the command it ends.
    @usableFromInline package var commandSeq: Int64
    @usableFromInline package var lane: String?
    @usableFromInline package var action: TerminalAction
    @usableFromInline package var clientTransactionId: String?
    /// Never nil for an outcome the store made; the column's NOT NULL refuses one that is.
    @usableFromInline package var outcome: Outcome?
    /// The reply's JSON text.
    @usableFromInline package var reply: String
    /// A late result (a callback after the command was answered).
    @usableFromInline package var late: Bool
    @usableFromInline package var atMs: Int64
    @usableFromInline package var summary: ReplySummary

    /// The row of `command`'s outcome; nil for a command the journal does not hold (no `seq`: the bridge's own
    /// look-ups).
    @inlinable @inline(__always) package init?(_ command: StoredCommand, summary: ReplySummary, late: Bool, atMs: Int64)
    {
        guard let seq = command.seq else { return nil }
        commandSeq = seq
        lane = command.lane
        action = command.action
        clientTransactionId = command.clientTransactionId
        outcome = command.outcome
        reply = command.reply ?? ""
        self.late = late
        self.atMs = atMs
        self.summary = summary
    }

    /// Its own columns in the order of ``append`` (the reply columns follow).
    package static let columns = Columns.allCases
    /// The names of every column it writes, in the order of ``append``.
    static let columnNames = columns.map(\.rawValue) + ReplySummary.columns.map(\.rawValue)
    /// The statement that appends one.
    package static let append = JournalSQL.insert(into: databaseTableName, columnNames)

    /// What it holds in `column`.
    @inlinable @inline(__always) package func value(_ column: Columns) -> ColumnValue {
        switch column {
        case .commandSeq: .integer(commandSeq)
        case .lane: .text(lane)
        case .action: .text(action.rawValue)
        case .clientTransactionId: .text(clientTransactionId)
        case .outcome: .text(outcome?.rawValue)
        case .reply: .text(reply)
        case .late: .flag(late)
        case .atMs: .integer(atMs)
        }
    }

    /// Its values in the order of ``columnNames``.
    package var values: [ColumnValue] { Self.columns.map(value) + ReplySummary.columns.map(summary.value) }
}
