import Foundation
import InterApp
import TerminalSimulator
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// The `today` counts of a `lanes` snapshot through the loop: after the day's first snapshot, a late result
/// or a resolve moves a command from `unknown` to its outcome without a new count of the journal.
@Suite("Today's counts: late results and resolves move a command's outcome")
struct TodayCountsTests {
    /// A bridge whose one lane holds a sale `slow` answered `unknown` (its host never answered in time), with
    /// the day's first snapshot taken after it; returns the snapshot's `seq`.
    private static func bridgeWithUnknownSale() throws -> (BridgeHarness, TapReader, Int) {
        var behaviour = LaneBehaviour()
        behaviour.host = .manual
        let harness = try BridgeHarness(
            lanes: [SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)],
            clock: ManualBridgeClock())
        try harness.send(saleJSON(id: "slow", lane: "lane-1", amount: 4200, extra: #","timeoutMs":1000"#))
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .host, timeout: .seconds(5)))
        harness.advance(byMs: 1001)
        #expect(try harness.reply(to: "slow").string("outcome") == "unknown")
        let tap = try TapReader(harness.bridge)
        let first = try tap.today(after: -1)
        #expect(first.counts == ["sale": ["unknown": 1]], "the journal's count: \(first.counts)")
        return (harness, tap, first.seq)
    }

    @Test("a late result moves the sale from unknown to its outcome")
    func lateResult() throws {
        let (harness, tap, seq) = try Self.bridgeWithUnknownSale()
        defer { tap.close() }
        harness.simulator.release(lane: "lane-1")
        try harness.event("lane-1.sale.late_result") { $0.string("id") == "slow" }
        #expect(try tap.today(after: seq).counts == ["sale": ["success": 1]])
    }

    @Test("a resolve moves the sale from unknown to the outcome given")
    func resolve() throws {
        let (harness, tap, seq) = try Self.bridgeWithUnknownSale()
        defer { tap.close() }
        let answer = try harness.call(#"{"id":"r-1","action":"resolve","ref":"slow","outcome":"failure"}"#)
        #expect(answer.string("outcome") == "success", "\(answer)")
        #expect(try tap.today(after: seq).counts == ["sale": ["failure": 1]])
    }

    @Test("past local midnight the counts start again from the journal: yesterday's sale is not today's")
    func midnight() throws {
        let midnight = Calendar.current.startOfDay(for: Date().addingTimeInterval(86_400))
        let beforeMidnightMs = Int64(midnight.timeIntervalSince1970 * 1000) - 2000
        let harness = try BridgeHarness.lanes(.ios, clock: ManualBridgeClock(startMs: beforeMidnightMs))
        let tap = try TapReader(harness.bridge)
        defer { tap.close() }
        #expect(
            try harness.call(saleJSON(id: "late-evening", lane: "lane-1", amount: 100)).string("outcome") == "success")
        let evening = try tap.today(after: -1)
        #expect(evening.counts == ["sale": ["success": 1]], "\(evening.counts)")
        harness.advance(byMs: 3000)
        let morning = try tap.today(after: evening.seq)
        #expect(morning.counts.isEmpty, "a new day, counted from the journal: \(morning.counts)")
        #expect(try harness.call(saleJSON(id: "early", lane: "lane-1", amount: 100)).string("outcome") == "success")
        #expect(try tap.today(after: morning.seq).counts == ["sale": ["success": 1]])
    }
}
