import BridgeCore
import BridgeJournal
import GRDB

extension Journal {
    /// The command journaled under `id`, if any: its candidates' rows, found by sequence from memory
    /// (``CommandIndex``), newest first, the first whose id is `id`.
    ///
    /// Asked for every repeated id, so it reads outside a transaction (`inDatabase`): GRDB's `read`
    /// switches the connection to read-only and back, which costs SQLite a re-preparation of the cached
    /// statements each time (docs/PERFORMANCE.md, lesson 6.1).
    package func command(id: String) throws -> StoredCommand? {
        // Read even when memory knows of none (a `status` of a new id): a journal that cannot be read must
        // throw rather than answer "none".
        let candidates = index.candidates(for: id)
        return try database.inDatabase { db in
            for seq in candidates.isEmpty ? [0] : candidates {
                if let command = try StoredCommand.fetchOne(
                    db.cachedStatement(sql: JournalSQL.commandBySeq), arguments: [seq]),
                    command.id == id
                {
                    return command
                }
            }
            return nil
        }
    }

    package func lateCommand(lane: String, action: String, clientTransactionId: String, success: Bool) throws
        -> StoredCommand?
    {
        try database.inDatabase { db in
            try StoredCommand.fetchOne(
                db.cachedStatement(sql: success ? JournalSQL.lateForSuccess : JournalSQL.lateForOther),
                arguments: [lane, clientTransactionId, action])
        }
    }

    package func preAuth(lane: String, orderCode: String) throws -> String? {
        try database.inDatabase { db in
            try String.fetchOne(
                db.cachedStatement(sql: JournalSQL.preAuthByOrderCodeInLog), arguments: [lane, orderCode])
        }
    }

    package func unknownCommands(lane: String, action: String) throws -> [StoredCommand] {
        try database.inDatabase { db in
            try StoredCommand.fetchAll(
                db.cachedStatement(sql: JournalSQL.unknownOfAction), arguments: [lane, action])
        }
    }

    package func outstanding() throws -> [StoredCommand] {
        try database.read { db in try StoredCommand.fetchAll(db, sql: JournalSQL.outstanding) }
    }

    package func recentRelayCallbacks(limit: Int) throws -> [(lane: String, key: RelayCallbackKey)] {
        try database.read { db in
            try Row.fetchAll(db, sql: JournalSQL.recentRelayCallbacks, arguments: [limit]).compactMap { row in
                RelayCallbackKey(seq: row[1], urlHash: row[2]).map { (row[0], $0) }
            }
        }
    }

    /// Every lane's open batch.
    package func openBatches() throws -> [String: OpenBatch] {
        try database.read { db in
            var batches: [String: OpenBatch] = [:]
            for row in try BatchRow.fetchAll(db) { batches[row.lane] = row.batch }
            return batches
        }
    }
}

extension Journal {
    /// How many commands are still `unknown` (the partial index `commands_unknown_sales` keeps it cheap).
    package func unknownCount() throws -> Int {
        try database.inDatabase { db in
            try Int.fetchOne(db.cachedStatement(sql: JournalSQL.unknownCount)) ?? 0
        }
    }

    /// How many final commands created since `sinceMs` ended with each outcome, by action.
    package func outcomeCounts(sinceMs: Int64) throws -> TodayOutcomes.Counts {
        try database.inDatabase { db in
            var counts: TodayOutcomes.Counts = [:]
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT action, outcome, COUNT(*) AS \(OutcomeCount.count.name) FROM commands
                    WHERE state = 'final' AND outcome IS NOT NULL AND created_ms >= ? GROUP BY action, outcome
                    """, arguments: [sinceMs])
            for row in rows {
                let action: String = try row.decode(forColumn: StoredCommand.Columns.action)
                let outcome: String = try row.decode(forColumn: StoredCommand.Columns.outcome)
                counts[action, default: [:]][outcome] = try row.decode(forColumn: OutcomeCount.count)
            }
            return counts
        }
    }
}

/// The column of ``Journal/outcomeCounts(sinceMs:)``'s count.
private enum OutcomeCount: String, ColumnExpression {
    case count = "n"
}
