import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// Today's outcomes for the `lanes` snapshot: the journal counted once a day, the rest kept as outcomes
/// are carried out (a count of a busy day's journal held the loop for every viewer that joined).
@Suite("Today's outcomes: the journal counted once a day, then kept in memory")
struct TodayOutcomesTests {
    static let monday: Int64 = 1_795_651_200_000
    static let tuesday = monday + 86_400_000
    /// Received on Monday morning.
    static let morning = monday + 9 * 3_600_000

    static func change(
        _ id: String, _ outcome: String, from earlier: String? = nil, action: String = "sale",
        receivedMs: Int64 = morning
    ) -> TodayOutcomes.Change {
        TodayOutcomes.Change(id: id, action: action, receivedMs: receivedMs, outcome: outcome, earlier: earlier)
    }

    /// Sales' counts only.
    static func sales(_ counts: [String: Int]) -> TodayOutcomes.Counts { counts.isEmpty ? [:] : ["sale": counts] }

    /// A journal count that answers `counts` and remembers each day it was asked for.
    final class Journal {
        var counts: TodayOutcomes.Counts?
        var asked: [Int64] = []
        init(_ counts: [String: Int]?) { self.counts = counts.map(TodayOutcomesTests.sales) }
        func count(_ midnight: Int64) -> TodayOutcomes.Counts? {
            asked.append(midnight)
            return counts
        }
    }

    @Test("the journal is counted at the day's first snapshot only; outcomes after it are added in memory")
    func countedOncePerDay() {
        var today = TodayOutcomes()
        let journal = Journal(["success": 2, "failure": 1])
        #expect(
            today.counts(sinceMidnight: Self.monday, countJournal: journal.count)
                == Self.sales(["success": 2, "failure": 1]))
        today.record(Self.change("s-3", "success"))
        today.record(Self.change("s-4", "unknown"))
        journal.counts = Self.sales(["success": 99])  // read again, it would say otherwise
        #expect(
            today.counts(sinceMidnight: Self.monday, countJournal: journal.count)
                == Self.sales(["success": 3, "failure": 1, "unknown": 1]))
        #expect(journal.asked == [Self.monday])
    }

    @Test("a late result or a resolve moves a command received today from its earlier outcome, never below zero")
    func moves() {
        var today = TodayOutcomes()
        _ = today.counts(sinceMidnight: Self.monday) { _ in Self.sales(["unknown": 2]) }
        today.record(Self.change("s-1", "success", from: "unknown"))
        #expect(today.counts(sinceMidnight: Self.monday) { _ in nil } == Self.sales(["success": 1, "unknown": 1]))
        today.record(Self.change("s-2", "failure", from: "unknown"))
        today.record(Self.change("s-3", "success", from: "unknown"))
        #expect(today.counts(sinceMidnight: Self.monday) { _ in nil } == Self.sales(["success": 2, "failure": 1]))
    }

    @Test("a command received before midnight is not the day's: neither its outcome nor the one it leaves")
    func receivedYesterday() {
        var today = TodayOutcomes()
        _ = today.counts(sinceMidnight: Self.monday) { _ in Self.sales(["unknown": 1]) }
        // Sunday's unknown resolved on Monday; a sale received at 23:59 that ends after midnight.
        today.record(Self.change("sunday", "success", from: "unknown", receivedMs: Self.monday - 3_600_000))
        today.record(Self.change("late-night", "failure", receivedMs: Self.monday - 60_000))
        #expect(today.counts(sinceMidnight: Self.monday) { _ in nil } == Self.sales(["unknown": 1]))
    }

    @Test("a new day is counted from the journal again; outcomes before any count are left to it")
    func newDay() {
        var today = TodayOutcomes()
        today.record(Self.change("early", "success"))
        let journal = Journal(["success": 1])
        #expect(today.counts(sinceMidnight: Self.monday, countJournal: journal.count) == Self.sales(["success": 1]))
        today.record(Self.change("s-2", "success"))
        journal.counts = Self.sales(["declined": 1])
        #expect(today.counts(sinceMidnight: Self.tuesday, countJournal: journal.count) == Self.sales(["declined": 1]))
        #expect(journal.asked == [Self.monday, Self.tuesday])
    }

    @Test("each action is counted apart: an abort, a batch or a reprint is no sale, a late result moves its own action")
    func byAction() {
        var today = TodayOutcomes()
        _ = today.counts(sinceMidnight: Self.monday) { _ in ["sale": ["success": 1], "cancel": ["unknown": 1]] }
        today.record(Self.change("a-1", "success", action: "abort"))
        today.record(Self.change("b-1", "success", action: "batch"))
        today.record(Self.change("r-1", "success", action: "reprint"))
        today.record(Self.change("c-1", "success", from: "unknown", action: "cancel"))
        #expect(
            today.counts(sinceMidnight: Self.monday) { _ in nil } == [
                "sale": ["success": 1], "cancel": ["success": 1], "abort": ["success": 1], "batch": ["success": 1],
                "reprint": ["success": 1],
            ])
    }

    @Test("an unreadable journal gives no counts now and is asked again at the next snapshot")
    func unreadable() {
        var today = TodayOutcomes()
        let journal = Journal(nil)
        #expect(today.counts(sinceMidnight: Self.monday, countJournal: journal.count).isEmpty)
        today.record(Self.change("s-1", "success"))
        journal.counts = Self.sales(["success": 1])
        #expect(today.counts(sinceMidnight: Self.monday, countJournal: journal.count) == Self.sales(["success": 1]))
        #expect(journal.asked == [Self.monday, Self.monday])
    }
}
