import BridgeCore
import BridgeJournal
import GRDB
import InterApp

/// A stored command as a row of the `commands` view (the log's commands with their latest outcome).
extension StoredCommand: FetchableRecord {
    /// - Throws: ``JournalRowError`` when the action, state or outcome is not one vivabridge writes.
    @usableFromInline package init(row: Row) throws {
        self.init(
            id: try row.decode(forColumn: Columns.id), lane: try row.decode(forColumn: Columns.lane),
            action: try row.decodeRaw(forColumn: Columns.action),
            fingerprint: try row.decode(forColumn: Columns.fingerprint),
            clientTransactionId: try row.decode(forColumn: Columns.clientTransactionId),
            state: try row.decodeRaw(forColumn: Columns.state),
            outcome: try row.decodeRawIfPresent(forColumn: Columns.outcome),
            reply: try row.decode(forColumn: Columns.reply), deadlineMs: try row.decode(forColumn: Columns.deadlineMs),
            createdMs: try row.decode(forColumn: Columns.createdMs), client: try row.decode(forColumn: Columns.client),
            seq: try row.decode(forColumn: Columns.seq))
    }
}
