import GRDB

/// Reads the finished commands of a journal for `vivabridge journal export`, beside a running bridge.
public enum JournalExport {
    /// How many rows one read transaction covers: short snapshots, so a long export never holds back the
    /// bridge's checkpoints (a reader pins the WAL frames newer than its snapshot).
    static let rowsPerRead = 2000

    /// Calls `body` with every finished command (state `final`) created in `fromMs..<toMs` (either end
    /// open when nil), oldest first (the order the bridge journaled them), and returns how many there were.
    ///
    /// Streams: rows are read with a cursor, `rowsPerRead` per read-only transaction, and handed to
    /// `body` one at a time; nothing is gathered in memory. Commands the bridge journals after the export
    /// started are left out.
    ///
    /// - Throws: ``JournalError`` when the journal cannot be read; whatever `body` throws.
    public static func forEachFinished(
        path: String, fromMs: Int64? = nil, toMs: Int64? = nil, _ body: (ExportedCommand) throws -> Void
    ) throws -> Int {
        try forEachFinished(path: path, fromMs: fromMs, toMs: toMs, rowsPerRead: rowsPerRead, body)
    }

    /// ``forEachFinished(path:fromMs:toMs:_:)`` with `rowsPerRead` rows a read transaction (tests use few).
    static func forEachFinished(
        path: String, fromMs: Int64?, toMs: Int64?, rowsPerRead: Int, _ body: (ExportedCommand) throws -> Void
    ) throws -> Int {
        let database = try JournalReader.open(path: path)
        defer { try? database.close() }
        do {
            let last = try database.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(rowid) FROM commands") } ?? 0
            var after: Int64 = 0
            var count = 0
            while true {
                let (read, lastRowid) = try database.read { db in
                    let cursor = try Row.fetchCursor(
                        db,
                        sql: """
                            SELECT rowid, id, lane, action, fingerprint, outcome, reply, created_ms, updated_ms
                            FROM commands WHERE rowid > ? AND rowid <= ? AND state = 'final'
                            AND created_ms >= ? AND created_ms < ? ORDER BY rowid LIMIT ?
                            """,
                        arguments: [after, last, fromMs ?? Int64.min, toMs ?? Int64.max, rowsPerRead])
                    var read = 0
                    var lastRowid = after
                    while let row = try cursor.next() {
                        read += 1
                        lastRowid = row[0]
                        try body(
                            ExportedCommand(
                                id: row[1], lane: row[2], action: row[3], fingerprint: row[4], outcome: row[5],
                                reply: row[6], createdMs: row[7], updatedMs: row[8]))
                    }
                    return (read, lastRowid)
                }
                count += read
                guard read == rowsPerRead else { return count }
                after = lastRowid
            }
        } catch let error as DatabaseError {
            throw JournalError(path: path, "cannot be read: \(error)")
        }
    }
}
