import Bridge
import InterApp
import TerminalSimulator
import Testing

/// What the terminal reports is checked against what was asked, and a payment that comes after the
/// bridge gave up on it is never lost.
@Suite("Result integrity: amounts checked, late payments kept")
struct ResultIntegrityTests {
    private static func quietLane() -> SimulatedLane {
        var behaviour = LaneBehaviour()
        behaviour.fault = .neverAnswer
        return SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)
    }

    @Test("a sale approved for another amount is success with amountMismatch, and a mismatch event")
    func amountMismatch() throws {
        let harness = try BridgeHarness(lanes: [Self.quietLane()])
        try harness.send(saleJSON(id: "big", lane: "lane-1", amount: 10_000))
        try harness.event("lane-1.sale.delivered")
        harness.simulator.injectCallback(
            lane: "lane-1",
            url: "interapp-callback://result?status=success&action=sale&clientTransactionId=big&amount=1&tipAmount=0")
        let reply = try harness.reply(to: "big")
        #expect(reply.string("outcome") == "success")
        let mismatch = try #require(reply.object("amountMismatch"))
        #expect(mismatch.int("requested") == 10_000)
        #expect(mismatch.int("approved") == 1)
        #expect(mismatch["requestedTip"] == nil)
        let event = try harness.event("lane-1.sale.mismatch")
        #expect(event.string("id") == "big")
        #expect(try harness.faults(lane: "lane-1").int("amountMismatches") == 1)
    }

    @Test("a tip other than the one asked is a mismatch too; an equal amount and tip is not")
    func tipMismatch() throws {
        let harness = try BridgeHarness(lanes: [Self.quietLane()])
        try harness.send(saleJSON(id: "tip", lane: "lane-1", amount: 1200, extra: #","tipAmount":200"#))
        try harness.event("lane-1.sale.delivered") { $0.string("id") == "tip" }
        harness.simulator.injectCallback(
            lane: "lane-1",
            url:
                "interapp-callback://result?status=success&action=sale&clientTransactionId=tip&amount=1200&tipAmount=900"
        )
        let tipped = try harness.reply(to: "tip")
        #expect(tipped.object("amountMismatch")?.int("requestedTip") == 200)
        #expect(tipped.object("amountMismatch")?.int("approvedTip") == 900)
        try harness.send(saleJSON(id: "fine", lane: "lane-1", amount: 1200, extra: #","tipAmount":200"#))
        try harness.event("lane-1.sale.delivered") { $0.string("id") == "fine" }
        harness.simulator.injectCallback(
            lane: "lane-1",
            url:
                "interapp-callback://result?status=success&action=sale&clientTransactionId=fine&amount=1200&tipAmount=200"
        )
        let fine = try harness.reply(to: "fine")
        #expect(fine.string("outcome") == "success")
        #expect(fine["amountMismatch"] == nil)
    }

    @Test("a sale's success after the abort grace is its late_result, and status shows both outcomes")
    func successAfterAbortGrace() throws {
        let clock = ManualBridgeClock()
        let harness = try BridgeHarness(lanes: [Self.quietLane()], clock: clock)
        try harness.send(saleJSON(id: "paid", lane: "lane-1", amount: 3300))
        try harness.event("lane-1.sale.delivered") { $0.string("id") == "paid" }
        try harness.send(#"{"id":"stop","lane":"lane-1","action":"abort"}"#)
        try harness.event("lane-1.abort.delivered") { $0.string("id") == "stop" }
        harness.simulator.injectCallback(
            lane: "lane-1", url: "interapp-callback://result?action=abort&status=success&message=aborted")
        try harness.awaitLane("lane-1") { $0["inFlight"] == .null }
        harness.advance(byMs: 10_000)
        #expect(try harness.reply(to: "paid").string("outcome") == "aborted")
        harness.simulator.injectCallback(
            lane: "lane-1",
            url: "interapp-callback://result?status=success&action=sale&clientTransactionId=paid&amount=3300")
        let late = try harness.event("lane-1.sale.late_result") { $0.string("id") == "paid" }
        #expect(late.string("outcome") == "success")
        #expect(late.object("earlier")?.string("outcome") == "aborted")
        let status = try harness.call(#"{"id":"st","action":"status","ref":"paid"}"#)
        let result = try #require(status.object("result"))
        #expect(result.string("outcome") == "success")
        #expect(result.object("reply")?["late"] == .bool(true))
        #expect(result.object("reply")?.object("earlier")?.string("outcome") == "aborted")
        #expect(harness.events.allSatisfy { !$0.topic.hasSuffix(".orphan") })
    }
}
