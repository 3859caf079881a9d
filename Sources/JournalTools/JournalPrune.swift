import BridgeCore
import BridgeJournal
import Foundation
import GRDB
import JournalSQLite

extension JournalPrune {
    /// Removes the finished commands of the journal at `path` whose row last changed more than `olderThanDays`
    /// days before `nowMs`, and the callbacks received before then but for those of a command that stays, in one
    /// transaction.
    ///
    /// Takes the journal's lock for its duration (the one a bridge takes), so it never runs beside a bridge.
    ///
    /// - Parameter dryRun: count what would be removed, remove nothing.
    /// - Throws: ``JournalError`` (``JournalError/isInUse``, naming the bridge's pid) while a bridge holds
    ///   the journal; ``JournalError`` when it cannot be read or written.
    public static func prune(
        path: String, olderThanDays: Int, nowMs: Int64 = SystemBridgeClock().nowMs(), dryRun: Bool = false
    ) throws(JournalError) -> PruneResult {
        let reader = try JournalReader.open(path: path)  // refuses a file that is not a journal: creates nothing
        try? reader.close()
        let lock: JournalLock
        do {
            lock = try JournalLock(journal: path)
        } catch  where error.isInUse {
            throw JournalError(
                path: path, "\(error.message); prune never runs beside a bridge: stop it, prune, then start it again",
                code: .inUse)
        }
        defer { lock.release() }
        let cutoff = nowMs - Int64(olderThanDays) * 86_400_000
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(5)
            let database = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? database.close() }
            return try database.write { db in
                let commands =
                    try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM commands WHERE \(removable)", arguments: [cutoff]) ?? 0
                let callbacks =
                    try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM callbacks WHERE \(removableCallback)", arguments: [cutoff]) ?? 0
                if !dryRun {
                    try JournalPosition.notePruning(db)
                    try db.execute(sql: "DELETE FROM callbacks WHERE \(removableCallback)", arguments: [cutoff])
                    try db.execute(sql: "DELETE FROM commands WHERE \(removable)", arguments: [cutoff])
                }
                return PruneResult(commands: commands, callbacks: callbacks)
            }
        } catch {
            throw JournalError(path: path, "cannot be pruned: \(error); nothing was removed")
        }
    }
}
