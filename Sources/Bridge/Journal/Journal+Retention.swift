import GRDB

/// One batch of a retention pass (``Journal/pruneBatch(cutoffMs:limit:callbacksAfter:)``).
struct PruneBatch: Equatable {
    /// What the batch removed.
    var removed: PruneResult
    /// Where the walk through the callbacks goes on (the last `seq` it looked at), or nil when it reached the
    /// callbacks received after the cutoff, or the last one.
    var callbacksAfter: Int64?
}

extension Journal {
    /// Removes up to `limit` of the commands `vivabridge journal prune` would remove at `cutoffMs`
    /// (finished, not `unknown`, last changed before it), oldest first, and looks at the next `limit`
    /// callbacks after `callbacksAfter` (in arrival order), removing those prune would remove, in one short
    /// transaction on the bridge's own connection.
    ///
    /// The commands are found along the `commands_created` index (a command last changed before the cutoff
    /// was accepted before it), the callbacks along their `seq`, each asking its command by id, so a batch
    /// costs the same in a journal of a thousand commands or of millions, and no index by command has to be
    /// written with every callback.
    func pruneBatch(cutoffMs: Int64, limit: Int, callbacksAfter: Int64?) throws -> PruneBatch {
        try database.write { db in
            var batch = PruneBatch(removed: PruneResult(commands: 0, callbacks: 0), callbacksAfter: nil)
            let ids = try String.fetchAll(
                db,
                sql: """
                    SELECT id FROM commands WHERE created_ms < ?1 AND \(JournalPrune.removable)
                    ORDER BY created_ms LIMIT ?2
                    """,
                arguments: [cutoffMs, limit])
            if !ids.isEmpty {
                try db.execute(
                    sql: "DELETE FROM commands WHERE id IN (\(databaseQuestionMarks(count: ids.count)))",
                    arguments: StatementArguments(ids))
                batch.removed.commands = db.changesCount
            }
            guard let after = callbacksAfter else { return batch }
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT seq, received_ms < ?1, \(JournalPrune.removableCallback) FROM callbacks
                    WHERE seq > ?2 ORDER BY seq LIMIT ?3
                    """,
                arguments: [cutoffMs, after, limit])
            var removable: [Int64] = []
            var walkEnded = rows.count < limit
            for row in rows {
                // Callbacks arrive in `seq` order: the first one received after the cutoff ends the walk.
                guard row[1] as Bool else {
                    walkEnded = true
                    break
                }
                if row[2] as Bool { removable.append(row[0]) }
                batch.callbacksAfter = row[0]
            }
            if walkEnded { batch.callbacksAfter = nil }
            if !removable.isEmpty {
                try db.execute(
                    sql: "DELETE FROM callbacks WHERE seq IN (\(databaseQuestionMarks(count: removable.count)))",
                    arguments: StatementArguments(removable))
                batch.removed.callbacks = db.changesCount
            }
            return batch
        }
    }
}
