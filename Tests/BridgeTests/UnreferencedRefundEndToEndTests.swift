import Bridge
import InterApp
import TerminalSimulator
import Testing

@Suite("Unreferenced refund end to end (v1.1)")
struct UnreferencedRefundEndToEndTests {
    @Test(
        "money back to a card with no sale stands out: refund in the reply, the result event, status; own topic",
        arguments: [Platform.ios, .android])
    func refund(platform: Platform) throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: platform == .ios ? .ios : .android)
        ])
        let command = #"{"id":"ur-1","lane":"lane-1","action":"unreferenced_refund","amount":500}"#
        let reply = try harness.call(command)
        #expect(reply.string("outcome") == "success")
        #expect(reply.object("refund")?["unreferenced"] == .bool(true))
        #expect(reply.object("refund")?.int("amount") == 500)
        #expect(reply.object("result")?.string("clientTransactionId") == "ur-1")
        for event in ["accepted", "forwarded", "delivered"] {
            #expect(try harness.event("lane-1.unreferenced_refund.\(event)").string("id") == "ur-1")
        }
        let result = try harness.event("lane-1.unreferenced_refund.result")
        #expect(result.object("refund")?["unreferenced"] == .bool(true))
        let status = try harness.call(#"{"id":"st","action":"status","ref":"ur-1"}"#)
        #expect(status.object("result")?.string("action") == "unreferenced_refund")
        #expect(status.object("result")?.object("reply")?.object("refund")?.int("amount") == 500)
        #expect(harness.logs.hasLine(containingAll: ["money given back to a card", #""refund": unreferenced"#]))
        let opened = harness.simulator.openedURLCount(lane: "lane-1")
        #expect(try harness.call(command) == reply, "idempotent by id")
        #expect(harness.simulator.openedURLCount(lane: "lane-1") == opened)
    }

    @Test("a declined unreferenced refund carries no refund marker; lane_busy while one waits for its card")
    func declinedAndBusy() throws {
        var behaviour = LaneBehaviour()
        behaviour.cardPresentment = .manual
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .android, behaviour: behaviour)
        ])
        try harness.send(#"{"id":"ur-1","lane":"lane-1","action":"unreferenced_refund","amount":151}"#)
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .cardPresentment, timeout: .seconds(5)))
        let busy = try harness.call(saleJSON(id: "sale-1", lane: "lane-1", amount: 100))
        #expect(busy.object("error")?.string("code") == "lane_busy")
        harness.simulator.release(lane: "lane-1")
        let declined = try harness.reply(to: "ur-1")
        #expect(declined.string("outcome") == "failure")
        #expect(declined.string("reason") == "declined")
        #expect(declined["refund"] == nil)
    }
}
