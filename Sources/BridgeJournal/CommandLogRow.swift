import BridgeCore
import InterApp

/// A row of `command_log`: a command accepted, under the sequence the bridge gave it.
///
/// The writer appends it with a prepared statement whose text (``append``) and bound values (``bind(into:)``)
/// both follow ``Columns``, so they cannot drift apart; GRDB's own `insert` would box every value on the sale's
/// path (docs/PERFORMANCE.md 6.12).
@usableFromInline package struct CommandLogRow {
    @usableFromInline package static let databaseTableName = "command_log"

    @usableFromInline package enum Columns: String, JournalColumns {
        case seq, id, lane, action, fingerprint
        case clientTransactionId = "client_transaction_id"
        case deadlineMs = "deadline_ms"
        case createdMs = "created_ms"
        case client

        package var kind: ColumnKind {
            switch self {
            case .seq, .deadlineMs, .createdMs: .integer
            case .id, .lane, .action, .fingerprint, .clientTransactionId, .client: .text
            }
        }
    }

    /// Its place in the log; nil lets SQLite give the next one.
    @usableFromInline package var seq: Int64?
    @usableFromInline package var id: String
    @usableFromInline package var lane: String?
    @usableFromInline package var action: TerminalAction
    @usableFromInline package var fingerprint: String
    @usableFromInline package var clientTransactionId: String?
    @usableFromInline package var deadlineMs: Int64?
    @usableFromInline package var createdMs: Int64
    @usableFromInline package var client: String?

    /// The row of a command as it was accepted.
    @inlinable @inline(__always) package init(_ command: StoredCommand) {
        seq = command.seq
        id = command.id
        lane = command.lane
        action = command.action
        fingerprint = command.fingerprint
        clientTransactionId = command.clientTransactionId
        deadlineMs = command.deadlineMs
        createdMs = command.createdMs
        client = command.client
    }

    /// The columns in the order of ``append``.
    package static let columns = Columns.allCases
    /// The statement that appends one.
    package static let append = JournalSQL.insert(into: databaseTableName, columns)

    /// What it holds in `column`.
    @inlinable @inline(__always) package func value(_ column: Columns) -> ColumnValue {
        switch column {
        case .seq: .integer(seq)
        case .id: .text(id)
        case .lane: .text(lane)
        case .action: .text(action.rawValue)
        case .fingerprint: .text(fingerprint)
        case .clientTransactionId: .text(clientTransactionId)
        case .deadlineMs: .integer(deadlineMs)
        case .createdMs: .integer(createdMs)
        case .client: .text(client)
        }
    }

    /// Its values in the order of ``columns``.
    package var values: [ColumnValue] { Self.columns.map(value) }
}
