import BridgeCore
import BridgeJournal
import JournalPostgres
import PostgresNIO

/// `vivabridge journal export` on a journal in PostgreSQL: the finished commands from the `commands` view's
/// reply columns, as ``JournalExport`` reads a file's, page by page.
public enum PostgresJournalExport {
    /// One page: the finished commands after the last key read (`$1` created, `$2` seq), up to the last
    /// sequence when the export started (`$3`), within the time bounds (`$4`, `$5`), `$6` rows.
    static let page = """
        SELECT seq, id, client, lane, action, outcome, client_transaction_id,
            \(JournalSQL.replyColumnNames.joined(separator: ", ")), created_ms, updated_ms
        FROM commands WHERE (created_ms, seq) > ($1, $2) AND seq <= $3 AND state = 'final'
            AND created_ms >= $4 AND created_ms < $5
        ORDER BY created_ms, seq LIMIT $6
        """

    /// Calls `body` with every finished command created in `fromMs..<toMs` (either end open when nil), oldest
    /// first (by the time the bridge accepted them, then their sequence), and returns how many there were.
    ///
    /// Pages of `rowsPerRead` rows (2000, as on a file), each one statement: a long export holds neither a long transaction nor
    /// the whole result. Commands journaled after the export started are left out.
    ///
    /// - Throws: ``JournalError`` when the journal cannot be reached or read; whatever `body` throws.
    public static func forEachFinished(
        address: PostgresAddress, fromMs: Int64? = nil, toMs: Int64? = nil, rowsPerRead: Int = 2000,
        _ body: (ExportedCommand) throws -> Void
    ) throws -> Int {
        let link = try PostgresJournalTools.open(address)
        defer { link.close() }
        func rows(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws -> [PostgresRow] {
            do {
                return try link.query(sql, binds)
            } catch {
                throw JournalError(path: address.location, "cannot be read: \(error)")
            }
        }
        let last = try rows("SELECT COALESCE(MAX(seq), 0) FROM command_log").first?.decode(Int64.self) ?? 0
        var after = (createdMs: Int64.min, seq: Int64(0))
        var count = 0
        while true {
            var binds = PostgresBindings(capacity: 6)
            binds.append(after.createdMs)
            binds.append(after.seq)
            binds.append(last)
            binds.append(fromMs ?? Int64.min)
            binds.append(toMs ?? Int64.max)
            binds.append(Int64(rowsPerRead))
            let read = try rows(page, binds)
            for row in read {
                let command = try exported(row, address: address)
                after = (command.createdMs, try row.makeRandomAccess()["seq"].decode(Int64.self))
                try body(command)
            }
            count += read.count
            guard read.count == rowsPerRead else { return count }
        }
    }

    private static func exported(_ row: PostgresRow, address: PostgresAddress) throws -> ExportedCommand {
        let row = row.makeRandomAccess()
        do {
            func text(_ name: String) throws -> String? { try row[name].decode(String?.self) }
            func integer(_ name: String) throws -> Int? { try row[name].decode(Int64?.self).map(Int.init) }
            var command = ExportedCommand(
                id: try row["id"].decode(String.self), client: try text("client"), lane: try text("lane"),
                action: try row["action"].decode(String.self), outcome: try text("outcome"),
                summary: ReplySummary(
                    amount: try integer("amount"), tip: try integer("tip"), errorCode: try text("error_code"),
                    failureReason: try text("failure_reason"), referenceNumber: try text("reference_number"),
                    orderCode: try text("order_code"), card: try text("card"), batch: try text("batch"),
                    resolvedAt: try text("resolved_at"), resolvedBy: try text("resolved_by"),
                    resolvedNote: try text("resolved_note")),
                createdMs: try row["created_ms"].decode(Int64.self), updatedMs: try row["updated_ms"].decode(Int64.self)
            )
            command.clientTransactionId = try text("client_transaction_id")
            return command
        } catch {
            throw JournalError(path: address.location, "cannot be read: \(error)")
        }
    }
}
