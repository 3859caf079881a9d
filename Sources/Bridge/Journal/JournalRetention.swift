/// `journalRetentionDays` inside the bridge: a pass at start, then one a day, each removing the finished
/// commands and the callbacks older than the retention by `journal prune`'s rule, a batch a tick on the loop thread, once no
/// turn waits for the journal writer (a batch never removes a row a turn is about to change), so that no
/// turn of the loop waits for more than one batch.
struct JournalRetention {
    /// Commands removed per batch: a batch takes a few milliseconds (docs/JOURNAL.md).
    static let batchSize = 1000
    static let dayMs: Int64 = 86_400_000

    /// Finished commands are kept this many days.
    let days: Int
    /// When the next pass starts.
    private var nextPassMs: Int64
    /// The pass under way: its cutoff, what it removed so far, and where its walk through the callbacks goes
    /// on (nil once it is over).
    private var pass: (cutoffMs: Int64, removed: PruneResult, callbacksAfter: Int64?)?

    /// The first pass starts at `startMs` (the bridge's start).
    init(days: Int, startMs: Int64) {
        self.days = days
        nextPassMs = startMs
    }

    /// Whether ``tick(journal:nowMs:)`` would remove a batch now: a pass is under way or due.
    func isDue(nowMs: Int64) -> Bool { pass != nil || nowMs >= nextPassMs }

    /// Once a tick: starts a pass when one is due, and removes one batch of the pass under way.
    ///
    /// - Returns: what the pass removed, when this batch ended it; nil otherwise.
    /// - Throws: what the journal throws; the pass is then abandoned until the next day's.
    mutating func tick(journal: Journal, nowMs: Int64) throws -> PruneResult? {
        if pass == nil {
            guard nowMs >= nextPassMs else { return nil }
            pass = (nowMs - Int64(days) * Self.dayMs, PruneResult(commands: 0, callbacks: 0), 0)
            nextPassMs = nowMs + Self.dayMs
        }
        guard var current = pass else { return nil }
        pass = nil
        let batch = try journal.pruneBatch(
            cutoffMs: current.cutoffMs, limit: Self.batchSize, callbacksAfter: current.callbacksAfter)
        current.removed.commands += batch.removed.commands
        current.removed.callbacks += batch.removed.callbacks
        current.callbacksAfter = batch.callbacksAfter
        guard batch.removed.commands == Self.batchSize || current.callbacksAfter != nil else { return current.removed }
        pass = current
        return nil
    }
}
