/// Today's final commands per action and outcome: the `today` of a `lanes` snapshot (docs/OPERATIONS.md,
/// "`/events` and the lanes page"), the commands received since local midnight that ended, by action then
/// outcome (`{"sale":{"success":6,"failure":1},"abort":{"success":2}}`), so that a reader tells the money
/// (sales approved, refunds) from aborts, batches and reprints. The journal counts them at the day's first
/// snapshot; after that the loop keeps them from each outcome it carries out (after its commit, in order
/// with its event), so that no other snapshot of the day reads the journal. A count over a busy day's
/// commands held the loop for tens of milliseconds, for every viewer that joined (docs/PERFORMANCE.md 6.14).
package struct TodayOutcomes {
    /// Counts by action, then by outcome.
    package typealias Counts = [String: [String: Int]]

    /// A command's outcome recorded, or moved from `earlier` (a late result, a resolve).
    package struct Change: Equatable {
        package let id: String
        /// The command's action (`sale`, `cancel`, `abort`, …).
        let action: String
        /// When the bridge received the command: one received before the day's midnight is not the day's.
        let receivedMs: Int64
        let outcome: String
        let earlier: String?
    }

    /// Local midnight of the day the counts are of (ms since 1970); nil until the first count.
    private var midnightMs: Int64?
    private var counts: Counts = [:]

    /// No count yet.
    package init() {}

    /// Counts `change`: one more of its action's outcome, one less of its earlier one (never below zero).
    /// Nothing before the day's count, which will hold it, nor for a command received before the day began.
    package mutating func record(_ change: Change) {
        guard let midnightMs, change.receivedMs >= midnightMs else { return }
        counts[change.action, default: [:]][change.outcome, default: 0] += 1
        if let earlier = change.earlier, let count = counts[change.action]?[earlier], count > 0 {
            counts[change.action]?[earlier] = count - 1
        }
    }

    /// The counts of the day that began at `midnightMs` (outcomes and actions with none left out). The first
    /// time a day is asked for, they come from `countJournal`; nil from it (the journal cannot be read) gives
    /// none now and a count again next time.
    package mutating func counts(sinceMidnight midnightMs: Int64, countJournal: (Int64) -> Counts?) -> Counts {
        if self.midnightMs != midnightMs {
            guard let counted = countJournal(midnightMs) else { return [:] }
            counts = counted
            self.midnightMs = midnightMs
        }
        return counts.mapValues { $0.filter { $0.value > 0 } }.filter { !$0.value.isEmpty }
    }
}
