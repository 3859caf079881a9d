import Bridge
import InterApp
import TerminalSimulator
import Testing

/// Pre-auths and money given back, answered after their deadline: matched late by the sale's rule.
@Suite("Late results of the v1.1 money-moving actions")
struct LateMoneyActionTests {
    @Test(
        "past its deadline it is unknown; its late answer completes it: late_result, journaled, in status",
        arguments: [
            ("pre_auth", Platform.ios), ("pre_auth", .android), ("unreferenced_refund", .ios),
            ("unreferenced_refund", .android), ("fast_refund", .android),
        ])
    func late(action: String, platform: Platform) throws {
        let clock = ManualBridgeClock()
        var behaviour = LaneBehaviour()
        behaviour.host = .manual
        let harness = try BridgeHarness(
            lanes: [
                SimulatedLane(
                    id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: platform == .ios ? .ios : .android,
                    behaviour: behaviour)
            ],
            clock: clock)
        try harness.send(#"{"id":"slow","lane":"lane-1","action":"\#(action)","amount":4200,"timeoutMs":1000}"#)
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .host, timeout: .seconds(5)))
        harness.advance(byMs: 1001)
        #expect(try harness.reply(to: "slow").string("outcome") == "unknown")
        harness.simulator.release(lane: "lane-1")
        let late = try harness.event("lane-1.\(action).late_result") { $0.string("id") == "slow" }
        #expect(late.string("outcome") == "success")
        #expect(late["late"] == .bool(true))
        #expect(late.object("earlier")?.string("outcome") == "unknown")
        let status = try harness.call(#"{"id":"st","action":"status","ref":"slow"}"#)
        let result = try #require(status.object("result"))
        #expect(result.string("outcome") == "success")
        #expect(result.object("reply")?["late"] == .bool(true))
        #expect(result.object("reply")?.object("result")?.int("amount") == 4200)
        #expect(harness.events.allSatisfy { !$0.topic.hasSuffix(".orphan") })
        switch action {
        case "pre_auth":
            // Remembered for its capture, as an authorisation answered in time.
            let orderCode = try #require(late.object("result")?.string("orderCode"))
            let capture = try harness.call(
                #"{"id":"cap","lane":"lane-1","action":"capture_pre_auth","orderCode":"\#(orderCode)"}"#)
            harness.simulator.release(lane: "lane-1")
            #expect(capture.string("authorisation") == "slow")
        default:
            let key = action == "fast_refund" ? "fast" : "unreferenced"
            #expect(late.object("refund")?[key] == .bool(true), "money given back still stands out")
            #expect(result.object("reply")?.object("refund")?.int("amount") == 4200)
        }
    }

    @Test("a command that brought its own clientTransactionId is matched late by that one, not by its id")
    func otherId() throws {
        let clock = ManualBridgeClock()
        var behaviour = LaneBehaviour()
        behaviour.host = .manual
        let harness = try BridgeHarness(
            lanes: [
                SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .android, behaviour: behaviour)
            ],
            clock: clock)
        try harness.send(
            #"{"id":"slow","lane":"lane-1","action":"pre_auth","amount":4200,"clientTransactionId":"other","timeoutMs":1000}"#
        )
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .host, timeout: .seconds(5)))
        harness.advance(byMs: 1001)
        #expect(try harness.reply(to: "slow").string("outcome") == "unknown")
        harness.simulator.release(lane: "lane-1")
        let late = try harness.event("lane-1.pre_auth.late_result") { $0.string("id") == "slow" }
        #expect(late.string("outcome") == "success")
        #expect(late.object("result")?.string("clientTransactionId") == "other")
    }
}
