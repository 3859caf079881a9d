import GRDB

extension Journal {
    /// Removes up to `limit` of the commands `vivabridge journal prune` would remove at `cutoffMs`
    /// (finished, not `unknown`, last changed before it), oldest first, with the callbacks matched to
    /// them, in one short transaction on the bridge's own connection.
    ///
    /// The candidates are found along the `created_ms` index (a command last changed before the cutoff
    /// was accepted before it) and their callbacks along `callbacks_matched`, so a batch costs the same
    /// in a journal of a thousand commands or of millions.
    func pruneBatch(cutoffMs: Int64, limit: Int) throws -> PruneResult {
        try database.write { db in
            let ids = try String.fetchAll(
                db,
                sql: """
                    SELECT id FROM commands WHERE created_ms < ?1 AND \(JournalPrune.removable)
                    ORDER BY created_ms LIMIT ?2
                    """,
                arguments: [cutoffMs, limit])
            guard !ids.isEmpty else { return PruneResult(commands: 0, callbacks: 0) }
            let marks = databaseQuestionMarks(count: ids.count)
            try db.execute(
                sql: "DELETE FROM callbacks WHERE matched_id IN (\(marks))", arguments: StatementArguments(ids))
            let callbacks = db.changesCount
            try db.execute(sql: "DELETE FROM commands WHERE id IN (\(marks))", arguments: StatementArguments(ids))
            return PruneResult(commands: db.changesCount, callbacks: callbacks)
        }
    }
}
