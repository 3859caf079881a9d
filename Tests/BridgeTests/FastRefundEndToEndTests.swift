import Bridge
import InterApp
import TerminalSimulator
import Testing

@Suite("Fast refund end to end (v1.1, Android only)")
struct FastRefundEndToEndTests {
    @Test("money sent back by fast refund stands out: refund {fast} in the reply, the result event, status; own topic")
    func refund() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .android)
        ])
        let sale = try harness.call(saleJSON(id: "sale-1", lane: "lane-1", amount: 1200))
        let reference = try #require(sale.object("result")?.string("referenceNumber"))
        let command =
            #"{"id":"fr-1","lane":"lane-1","action":"fast_refund","amount":500,"referenceNumber":"\#(reference)"}"#
        let reply = try harness.call(command)
        #expect(reply.string("outcome") == "success")
        #expect(reply.string("action") == "fast_refund")
        #expect(reply.object("refund")?["fast"] == .bool(true))
        #expect(reply.object("refund")?.int("amount") == 500)
        #expect(reply.object("result")?.string("clientTransactionId") == "fr-1")
        #expect(harness.simulator.openedURLs(lane: "lane-1").last?.contains("action=send_money_fast_refund") == true)
        for event in ["accepted", "forwarded", "delivered"] {
            #expect(try harness.event("lane-1.fast_refund.\(event)").string("id") == "fr-1")
        }
        #expect(try harness.event("lane-1.fast_refund.result").object("refund")?["fast"] == .bool(true))
        let status = try harness.call(#"{"id":"st","action":"status","ref":"fr-1"}"#)
        #expect(status.object("result")?.string("action") == "fast_refund")
        #expect(status.object("result")?.object("reply")?.object("refund")?.int("amount") == 500)
        #expect(harness.logs.hasLine(containingAll: ["money given back to a card", #""refund": fast"#]))
        let opened = harness.simulator.openedURLCount(lane: "lane-1")
        #expect(try harness.call(command) == reply, "idempotent by id")
        #expect(harness.simulator.openedURLCount(lane: "lane-1") == opened)
    }

    @Test("a payment the app does not know, and a decline by amount: failures with no refund marker")
    func failures() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .android)
        ])
        let unknown = try harness.call(
            #"{"id":"fr-1","lane":"lane-1","action":"fast_refund","amount":500,"referenceNumber":"999999"}"#)
        #expect(unknown.string("outcome") == "failure")
        #expect(unknown["refund"] == nil)
        let declined = try harness.call(#"{"id":"fr-2","lane":"lane-1","action":"fast_refund","amount":151}"#)
        #expect(declined.string("outcome") == "failure")
        #expect(declined.string("reason") == "declined")
        #expect(declined["refund"] == nil)
    }

    @Test("lane_busy while one waits for its card; an iOS lane refuses it as unsupported_on_platform")
    func busyAndIOS() throws {
        var behaviour = LaneBehaviour()
        behaviour.cardPresentment = .manual
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .android, behaviour: behaviour),
            SimulatedLane(id: "lane-2", endpoint: "tcp://127.0.0.1:*", platform: .ios),
        ])
        try harness.send(#"{"id":"fr-1","lane":"lane-1","action":"fast_refund","amount":500}"#)
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .cardPresentment, timeout: .seconds(5)))
        let busy = try harness.call(saleJSON(id: "sale-1", lane: "lane-1", amount: 100))
        #expect(busy.object("error")?.string("code") == "lane_busy")
        harness.simulator.release(lane: "lane-1")
        #expect(try harness.reply(to: "fr-1").string("outcome") == "success")

        let ios = try harness.call(#"{"id":"fr-3","lane":"lane-2","action":"fast_refund","amount":500}"#)
        #expect(ios.string("outcome") == "rejected")
        #expect(ios.object("error")?.string("code") == "unsupported_on_platform")
        #expect(ios.object("error")?["platforms"] == .array([.string("android")]))
        #expect(harness.simulator.openedURLs(lane: "lane-2").isEmpty)
    }
}
