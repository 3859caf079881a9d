import Foundation
import InterApp
import TerminalSimulator
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite
@testable import JournalTools

/// A day's export (issue 16) set beside what the bridge answered: every outcome, a late result and a
/// resolved unknown, field by field.
@Suite("Journal export of a day with every outcome, field by field")
struct JournalDayExportTests {
    private static func lane(
        _ id: String, card: PhaseDuration = .milliseconds(0), host: PhaseDuration = .milliseconds(0)
    )
        -> SimulatedLane
    {
        SimulatedLane(
            id: id, endpoint: "tcp://127.0.0.1:*", platform: .ios,
            behaviour: LaneBehaviour(cardPresentment: card, host: host))
    }

    @Test("every field exported is what the last reply said: each outcome, a late result, a resolved unknown")
    func everyOutcomeFieldByField() throws {
        let harness = try BridgeHarness(
            lanes: [
                Self.lane("ok"), Self.lane("ab", card: .manual), Self.lane("late", host: .manual),
                Self.lane("res", host: .manual), Self.lane("still", host: .manual),
            ],
            clock: ManualBridgeClock()
        ) { configuration in
            configuration.abortGraceMs = 0
            configuration.lanes.append(LaneConfiguration(id: "gone", endpoint: "tcp://127.0.0.1:1", platform: .ios))
        }
        // What the bridge said last about each id, and the amount and tip each command asked.
        var replies: [String: JSONObject] = [:]
        var asked: [String: (amount: Int?, tip: Int?)] = [:]
        func sale(_ id: String, _ lane: String, _ amount: Int, tip: Int? = nil, timeoutMs: Int? = nil) -> String {
            asked[id] = (amount, tip)
            let extra = (tip.map { #","tipAmount":\#($0)"# } ?? "") + (timeoutMs.map { #","timeoutMs":\#($0)"# } ?? "")
            return saleJSON(id: id, lane: lane, amount: amount, extra: extra)
        }

        replies["paid"] = try harness.call(sale("paid", "ok", 1200, tip: 200))
        replies["declined"] = try harness.call(sale("declined", "ok", 1251))
        replies["morning"] = try harness.call(
            #"{"id":"morning","lane":"ok","action":"batch","command":"open","batchName":"morning"}"#)
        try harness.send(sale("stopped", "ab", 700))
        #expect(harness.simulator.waitForPhase(lane: "ab", .cardPresentment, timeout: .seconds(5)))
        replies["stop"] = try harness.call(#"{"id":"stop","lane":"ab","action":"abort"}"#)
        replies["stopped"] = try harness.reply(to: "stopped")
        replies["idle-abort"] = try harness.call(#"{"id":"idle-abort","lane":"ok","action":"abort"}"#)
        replies["lost"] = try harness.call(sale("lost", "gone", 300))
        for (id, lane, amount) in [("came-late", "late", 4100), ("resolved", "res", 4200), ("unknown", "still", 4300)] {
            try harness.send(sale(id, lane, amount, timeoutMs: 1000))
            #expect(harness.simulator.waitForPhase(lane: lane, .host, timeout: .seconds(5)))
        }
        harness.advance(byMs: 1001)
        var first: [String: JSONObject] = [:]
        for id in ["came-late", "resolved", "unknown"] {
            first[id] = try harness.reply(to: id)
            #expect(first[id]?.string("outcome") == "unknown", "\(id)")
            replies[id] = first[id]
        }
        // The late result: the terminal answers after the deadline; the event carries the new reply.
        harness.simulator.release(lane: "late")
        replies["came-late"] = try harness.event("late.sale.late_result") { $0.string("id") == "came-late" }
        // The resolved unknown: its reply is the one the resolve's answer holds.
        let resolve = try harness.call(
            #"{"id":"fix-1","action":"resolve","ref":"resolved","outcome":"failure","note":"declined, back office"}"#)
        #expect(resolve.string("outcome") == "success", "\(resolve)")
        replies["resolved"] = try #require(resolve.object("result")?.object("reply"))
        // Still in flight: never exported.
        var holding = LaneBehaviour()
        holding.cardPresentment = .manual
        harness.simulator.setBehaviour(holding, lane: "ok")
        try harness.send(sale("pending", "ok", 999))
        try harness.event("ok.sale.delivered") { $0.string("id") == "pending" }

        var rows: [ExportedCommand] = []
        _ = try JournalExport.forEachFinished(path: harness.configuration.journal) { rows.append($0) }
        // Every finished command, once; not the one in flight, nor the resolve (a query of the bridge).
        #expect(Set(rows.map(\.id)) == Set(replies.keys), "\(rows.map(\.id))")
        #expect(rows.count == Set(rows.map(\.id)).count)
        #expect(zip(rows, rows.dropFirst()).allSatisfy { $0.createdMs <= $1.createdMs }, "not oldest first")
        let outcomes = replies.mapValues { $0.string("outcome") ?? "-" }
        #expect(
            outcomes == [
                "paid": "success", "declined": "failure", "morning": "success", "stop": "success",
                "stopped": "aborted", "idle-abort": "nothing_to_abort", "lost": "undeliverable",
                "came-late": "success", "resolved": "failure", "unknown": "unknown",
            ])

        for row in rows where replies[row.id] != nil {
            let reply = try #require(replies[row.id])
            let result = reply.object("result") ?? JSONObject()
            let status = try harness.call(#"{"id":"st-\#(row.id)","action":"status","ref":"\#(row.id)"}"#)
            let what = "\(row.id)"
            #expect(row.lane == reply.string("lane"), "\(what)")
            #expect(row.action == reply.string("action"), "\(what)")
            #expect(row.outcome == reply.string("outcome"), "\(what)")
            #expect(row.amount == (result.int("amount") ?? asked[row.id]?.amount), "\(what)")
            #expect(row.tip == (result.int("tipAmount") ?? asked[row.id]?.tip), "\(what)")
            #expect(row.errorCode == reply.object("error")?.string("code"), "\(what)")
            #expect(row.failureReason == reply.string("reason"), "\(what)")
            #expect(row.referenceNumber == result.string("referenceNumber"), "\(what)")
            #expect(row.orderCode == result.string("orderCode"), "\(what)")
            #expect(row.card == result.string("accountNumber"), "\(what)")
            #expect(row.batch == (result.string("batchId") ?? result.string("batchName")), "\(what)")
            #expect(row.client == status.object("result")?.string("client"), "\(what)")
            #expect(row.resolved == reply.object("resolved")?.string("at"), "\(what)")
            #expect(row.resolvedBy == reply.object("resolved")?.string("by"), "\(what)")
            #expect(row.note == reply.object("resolved")?.string("note"), "\(what)")
            #expect(status.object("result")?.string("outcome") == row.outcome, "\(what): status disagrees")
            #expect(row.updatedMs >= row.createdMs, "\(what)")
        }
        // The fields the comparison above relies on are there to compare.
        let byId = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
        let paid = try #require(byId["paid"])
        #expect(paid.amount == 1200 && paid.tip == 200 && paid.referenceNumber != nil && paid.orderCode != nil)
        #expect(paid.card?.contains("*") == true)
        #expect(byId["declined"]?.failureReason == "declined")
        #expect(byId["morning"]?.batch != nil)
        let late = try #require(byId["came-late"])
        #expect(late.amount == 4100 && late.referenceNumber != nil && late.orderCode != nil && late.card != nil)
        #expect(late.updatedMs > late.createdMs, "the late result did not change the row's time")
        #expect(replies["came-late"]?["late"] == .bool(true))
        let resolved = try #require(byId["resolved"])
        #expect(resolved.amount == 4200 && resolved.note == "declined, back office" && resolved.resolved != nil)
        #expect(resolved.resolvedBy == nil, "plain sockets name no client")
        #expect(byId["unknown"]?.amount == 4300 && byId["unknown"]?.resolved == nil)
        #expect(byId["lost"]?.amount == 300)
    }
}
