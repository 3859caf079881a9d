import BridgeCore
import InterApp

extension StoredCommand {
    /// The view's columns a stored command is read from (``JournalSQL/storedColumns`` selects them all).
    package enum Columns: String, CaseIterable, Sendable {
        case seq, id, lane, action, fingerprint
        case clientTransactionId = "client_transaction_id"
        case state, outcome, reply
        case deadlineMs = "deadline_ms"
        case createdMs = "created_ms"
        case client
    }

    /// A stored command from the `commands` view's values as another store reads them (PostgreSQL): its action,
    /// state and outcome by their raw values.
    ///
    /// - Throws: ``JournalRowError`` when the action, state or outcome is not one vivabridge writes.
    package init(
        seq: Int64, id: String, lane: String?, action: String, fingerprint: String, clientTransactionId: String?,
        state: String, outcome: String?, reply: String?, deadlineMs: Int64?, createdMs: Int64, client: String?
    ) throws {
        self.init(
            id: id, lane: lane, action: try TerminalAction(journal: action, column: Columns.action),
            fingerprint: fingerprint, clientTransactionId: clientTransactionId,
            state: try RecordState(journal: state, column: Columns.state),
            outcome: try outcome.map { try Outcome(journal: $0, column: Columns.outcome) }, reply: reply,
            deadlineMs: deadlineMs, createdMs: createdMs, client: client, seq: seq)
    }
}
