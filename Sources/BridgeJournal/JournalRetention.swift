import BridgeCore

/// `journalRetentionDays` inside the bridge: a pass at start, then one a day, each removing the finished
/// commands and the callbacks older than the retention by `journal prune`'s rule, a batch a tick on the loop
/// thread, once no turn waits for the journal writer (a batch never removes a row a turn is about to change),
/// so that no turn of the loop waits for more than a batch of each. A pass removes the commands first, then walks
/// the callbacks: a callback goes once its command has gone (or stays, with a command that stays).
package struct JournalRetention {
    /// Commands removed, or callbacks looked at, per batch (docs/JOURNAL.md, Retention).
    static let batchSize = 1000
    static let dayMs: Int64 = 86_400_000

    /// Finished commands are kept this many days.
    package let days: Int
    /// When the next pass starts.
    private var nextPassMs: Int64
    /// What a pass is doing: removing commands, then walking the callbacks from a `seq` on.
    private enum Phase {
        case commands
        case callbacks(after: Int64)
    }

    /// The pass under way: its cutoff, its phase, and what it removed so far.
    private var pass: (cutoffMs: Int64, phase: Phase, removed: PruneResult)?

    /// The first pass starts at `startMs` (the bridge's start).
    package init(days: Int, startMs: Int64) {
        self.days = days
        nextPassMs = startMs
    }

    /// Whether ``tick(journal:nowMs:)`` would remove a batch now: a pass is under way or due.
    package func isDue(nowMs: Int64) -> Bool { pass != nil || nowMs >= nextPassMs }

    /// Once a tick: starts a pass when one is due, and removes one batch of the pass under way.
    ///
    /// - Returns: what the pass removed, when this batch ended it; nil otherwise.
    /// - Throws: what the journal throws; the pass is then abandoned until the next day's.
    package mutating func tick(journal: any JournalStore, nowMs: Int64) throws -> PruneResult? {
        if pass == nil {
            guard nowMs >= nextPassMs else { return nil }
            pass = (nowMs - Int64(days) * Self.dayMs, .commands, PruneResult(commands: 0, callbacks: 0))
            nextPassMs = nowMs + Self.dayMs
        }
        guard var current = pass else { return nil }
        pass = nil
        var after: Int64 = 0
        switch current.phase {
        case .commands:
            let removed = try journal.pruneCommands(cutoffMs: current.cutoffMs, limit: Self.batchSize)
            current.removed.commands += removed
            guard removed < Self.batchSize else {
                pass = current
                return nil
            }
        // The commands are done: the walk through the callbacks starts in the same tick.
        case .callbacks(let next):
            after = next
        }
        let batch = try journal.pruneCallbacks(cutoffMs: current.cutoffMs, after: after, limit: Self.batchSize)
        current.removed.callbacks += batch.removed
        guard let next = batch.next else { return current.removed }
        current.phase = .callbacks(after: next)
        pass = current
        return nil
    }
}
