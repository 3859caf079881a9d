import Bridge
import InterApp
import TerminalSimulator
import Testing

@Suite("Abort, both dialects (PROTOCOL.md section 6)")
struct AbortTests {
    static func lane(
        _ platform: SimulatorPlatform, card: PhaseDuration = .manual, host: PhaseDuration = .milliseconds(0)
    )
        -> SimulatedLane
    {
        var behaviour = LaneBehaviour()
        behaviour.cardPresentment = card
        behaviour.host = host
        return SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: platform, behaviour: behaviour)
    }

    @Test("before the card is read: the abort succeeds and the sale is aborted", arguments: SimulatorPlatform.allCases)
    func abortBeforeCard(platform: SimulatorPlatform) throws {
        let harness = try BridgeHarness(lanes: [Self.lane(platform)])
        try harness.send(saleJSON(id: "sale-1", lane: "lane-1", amount: 1000))
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .cardPresentment, timeout: .seconds(5)))
        try harness.send(#"{"id":"abort-1","lane":"lane-1","action":"abort"}"#)
        let abort = try harness.reply(to: "abort-1")
        let sale = try harness.reply(to: "sale-1")
        #expect(abort.string("outcome") == "success")
        #expect(sale.string("outcome") == "aborted")
        let lanes = try harness.call(#"{"id":"q","action":"lanes"}"#)
        #expect(lanes.object("result")?["lanes"]?.arrayValue?.first?.objectValue?["inFlight"] == .null)
    }

    @Test(
        "after the card is read: no abort answer, the sale completes and the abort is superseded",
        arguments: SimulatorPlatform.allCases)
    func abortAfterCard(platform: SimulatorPlatform) throws {
        let harness = try BridgeHarness(lanes: [Self.lane(platform, card: .milliseconds(0), host: .manual)])
        try harness.send(saleJSON(id: "sale-1", lane: "lane-1", amount: 1000))
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .host, timeout: .seconds(5)))
        try harness.send(#"{"id":"abort-1","lane":"lane-1","action":"abort"}"#)
        #expect(harness.simulator.waitForURLs(lane: "lane-1", count: 2, timeout: .seconds(5)))
        harness.simulator.release(lane: "lane-1")
        let sale = try harness.reply(to: "sale-1")
        let abort = try harness.reply(to: "abort-1")
        #expect(sale.string("outcome") == "success")
        #expect(abort.string("outcome") == "superseded")
        #expect(abort.string("ref") == "sale-1")
    }

    @Test("when idle: nothing_to_abort", arguments: SimulatorPlatform.allCases)
    func nothingToAbort(platform: SimulatorPlatform) throws {
        let harness = try BridgeHarness(lanes: [Self.lane(platform)])
        let abort = try harness.call(#"{"id":"abort-1","lane":"lane-1","action":"abort"}"#)
        #expect(abort.string("outcome") == "nothing_to_abort")
    }

    @Test("a failed sale callback within the grace period is kept in the aborted sale's result")
    func saleCallbackInGrace() throws {
        var lane = Self.lane(.android)
        lane.behaviour.saleCallbackAfterAbort = true
        let harness = try BridgeHarness(lanes: [lane]) { $0.abortGraceMs = 5000 }
        try harness.send(saleJSON(id: "sale-1", lane: "lane-1", amount: 1000))
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .cardPresentment, timeout: .seconds(5)))
        try harness.send(#"{"id":"abort-1","lane":"lane-1","action":"abort"}"#)
        let sale = try harness.reply(to: "sale-1")
        #expect(sale.string("outcome") == "aborted")
        #expect(sale.object("result")?.string("clientTransactionId") == "sale-1")
        #expect(try harness.reply(to: "abort-1").string("outcome") == "success")
    }

    @Test("a successful sale callback within the grace period overrules the abort")
    func successOverrulesAbort() throws {
        let harness = try BridgeHarness(lanes: [Self.lane(.ios)]) { $0.abortGraceMs = 5000 }
        try harness.send(saleJSON(id: "sale-1", lane: "lane-1", amount: 1000))
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .cardPresentment, timeout: .seconds(5)))
        try harness.send(#"{"id":"abort-1","lane":"lane-1","action":"abort"}"#)
        try harness.event("lane-1.abort.delivered")
        // The terminal's abort answer comes first; then, within the grace, the sale's own approval.
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .idle, timeout: .seconds(5)))
        harness.simulator.injectCallback(
            lane: "lane-1",
            url:
                "interapp-callback://result?status=success&message=Transaction%20successful.&action=sale&clientTransactionId=sale-1&amount=1000&tipAmount=0&rrn=123456833121&referenceNumber=833121"
        )
        let sale = try harness.reply(to: "sale-1")
        let abort = try harness.reply(to: "abort-1")
        #expect(sale.string("outcome") == "success")
        #expect(abort.string("outcome") == "superseded")
        #expect(abort.string("ref") == "sale-1")
    }
}

@Suite("Abort of a cancel")
struct AbortCancelTests {
    @Test("a cancel waiting for its card (no referenceNumber) is aborted like a sale")
    func abortCancel() throws {
        let harness = try BridgeHarness(lanes: [AbortTests.lane(.ios, card: .milliseconds(0))])
        #expect(try harness.call(saleJSON(id: "sale-1", lane: "lane-1", amount: 1000)).string("outcome") == "success")
        var behaviour = LaneBehaviour()
        behaviour.cardPresentment = .manual
        harness.simulator.setBehaviour(behaviour, lane: "lane-1")
        try harness.send(#"{"id":"cancel-1","lane":"lane-1","action":"cancel"}"#)
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .cardPresentment, timeout: .seconds(5)))
        try harness.send(#"{"id":"abort-1","lane":"lane-1","action":"abort"}"#)
        #expect(try harness.reply(to: "cancel-1").string("outcome") == "aborted")
        #expect(try harness.reply(to: "abort-1").string("outcome") == "success")
    }

    @Test("a cancel's own success within the grace overrules the abort")
    func cancelCallbackInGrace() throws {
        let harness = try BridgeHarness(lanes: [AbortTests.lane(.ios)]) { $0.abortGraceMs = 5000 }
        try harness.send(#"{"id":"cancel-1","lane":"lane-1","action":"cancel"}"#)
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .cardPresentment, timeout: .seconds(5)))
        try harness.send(#"{"id":"abort-1","lane":"lane-1","action":"abort"}"#)
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .idle, timeout: .seconds(5)))
        try harness.event("lane-1.abort.delivered")
        harness.simulator.injectCallback(
            lane: "lane-1",
            url: "interapp-callback://result?status=success&message=Transaction%20successful.&action=cancel&amount=1000"
        )
        let cancel = try harness.reply(to: "cancel-1")
        let abort = try harness.reply(to: "abort-1")
        #expect(cancel.string("outcome") == "success")
        #expect(abort.string("outcome") == "superseded")
        #expect(abort.string("ref") == "cancel-1")
    }
}

@Suite("One outcome rule: the bridge answers what decode says")
struct OutcomeRuleAgreementTests {
    @Test(
        "an abort answer ends the abort as Callback.baseOutcome (vivabridge decode's outcome) says",
        arguments: [
            "interapp-callback://result?action=abort&status=success&message=nothing%20to%20abort",
            "interapp-callback://result?action=abort&status=success&message=could%20not%20abort",
            "interapp-callback://result?action=abort&status=success&message=",
        ])
    func abortAnswersAgree(url: String) throws {
        var behaviour = LaneBehaviour()
        behaviour.fault = .neverAnswer
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)
        ])
        try harness.send(#"{"id":"a","lane":"lane-1","action":"abort"}"#)
        try harness.event("lane-1.abort.delivered") { $0.string("id") == "a" }
        harness.simulator.injectCallback(lane: "lane-1", url: url)
        let reply = try harness.reply(to: "a")
        let decoded = try CallbackParser.parse(Array(url.utf8))
        #expect(reply.string("outcome") == decoded.baseOutcome.rawValue)
        #expect(decoded.summary["outcome"]?.stringValue == reply.string("outcome"))
    }
}
