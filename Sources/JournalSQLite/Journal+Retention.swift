import BridgeCore
import BridgeJournal
import GRDB

extension Journal {
    /// Removes up to `limit` of the commands `vivabridge journal prune` would remove at `cutoffMs` (finished,
    /// not `unknown`, last changed before it), oldest first, in one short transaction on the bridge's own
    /// connection; returns how many it removed.
    ///
    /// The candidates are found along the `command_log_created` index (a command last changed before the cutoff
    /// was accepted before it), so a batch costs the same in a journal of a thousand commands or of millions.
    package func pruneCommands(cutoffMs: Int64, limit: Int) throws -> Int {
        try database.write { db in
            let seqs = try Int64.fetchAll(
                db,
                sql: """
                    SELECT seq FROM commands WHERE created_ms < ?1 AND \(JournalPrune.removable)
                    ORDER BY created_ms LIMIT ?2
                    """,
                arguments: [cutoffMs, limit])
            guard !seqs.isEmpty else { return 0 }
            let marks = databaseQuestionMarks(count: seqs.count)
            try JournalPosition.notePruning(db)
            try db.execute(
                sql: "DELETE FROM outcome_log WHERE command_seq IN (\(marks))", arguments: StatementArguments(seqs))
            try db.execute(sql: "DELETE FROM command_log WHERE seq IN (\(marks))", arguments: StatementArguments(seqs))
            return db.changesCount
        }
    }

    /// Looks at the next `limit` callbacks after `seq` `after`, in arrival order, and removes those `journal
    /// prune` would remove at `cutoffMs` (received before it, unless their command stays), in one short
    /// transaction, each asking its command by sequence.
    ///
    /// - Returns: how many it removed, and where the walk goes on: the last `seq` it looked at, or nil when it
    ///   is over (it reached the last callback, or `limit` in a row were all received after the cutoff: the
    ///   callbacks still to come are newer. One stamped by a clock running ahead does not end the walk).
    package func pruneCallbacks(cutoffMs: Int64, after: Int64, limit: Int) throws -> (removed: Int, next: Int64?) {
        try database.write { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT seq, received_ms < ?1, \(JournalPrune.removableCallback) FROM callbacks
                    WHERE seq > ?2 ORDER BY seq LIMIT ?3
                    """,
                arguments: [cutoffMs, after, limit])
            let removable: [Int64] = rows.filter { $0[2] as Bool }.map { $0[0] }
            let older = rows.contains { $0[1] as Bool }
            let next: Int64? = rows.count < limit || !older ? nil : rows.last?[0]
            guard !removable.isEmpty else { return (0, next) }
            try db.execute(
                sql: "DELETE FROM callbacks WHERE seq IN (\(databaseQuestionMarks(count: removable.count)))",
                arguments: StatementArguments(removable))
            return (db.changesCount, next)
        }
    }
}
