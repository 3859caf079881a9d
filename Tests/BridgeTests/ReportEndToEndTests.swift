import Bridge
import InterApp
import TerminalSimulator
import Testing

@Suite("Report end to end (v1.1, iOS only)")
struct ReportEndToEndTests {
    @Test("the terminal's own totals come back as the reply's result; own topic; status; idempotent by id")
    func report() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios),
            SimulatedLane(id: "lane-2", endpoint: "tcp://127.0.0.1:*", platform: .android),
        ])
        let none = try harness.call(#"{"id":"rep-0","lane":"lane-1","action":"report"}"#)
        #expect(none.string("outcome") == "failure", "no active batch: the app's own failure answer")
        #expect(
            try harness.call(#"{"id":"b-1","lane":"lane-1","action":"batch","command":"open","batchName":"morning"}"#)
                .string("outcome") == "success")
        #expect(try harness.call(saleJSON(id: "sale-1", lane: "lane-1", amount: 1200)).string("outcome") == "success")
        let command = #"{"id":"rep-1","lane":"lane-1","action":"report","batchName":"morning"}"#
        let reply = try harness.call(command)
        #expect(reply.string("outcome") == "success")
        #expect(reply.string("action") == "report")
        #expect(reply.object("result")?.string("batchName") == "morning")
        #expect(reply.object("result")?.string("salesCount") == "1")
        #expect(reply.object("result")?.string("salesAmount") == "1200")
        #expect(
            harness.simulator.openedURLs(lane: "lane-1").last?.contains("action=getReport&command=summary&") == true)
        for event in ["accepted", "forwarded", "delivered", "result"] {
            #expect(
                try harness.event("lane-1.report.\(event)", where: { $0.string("id") == "rep-1" }).string("id")
                    == "rep-1")
        }
        let status = try harness.call(#"{"id":"st","action":"status","ref":"rep-1"}"#)
        #expect(status.object("result")?.object("reply")?.object("result")?.string("salesAmount") == "1200")
        let opened = harness.simulator.openedURLCount(lane: "lane-1")
        #expect(try harness.call(command) == reply, "idempotent by id")
        #expect(harness.simulator.openedURLCount(lane: "lane-1") == opened)

        let android = try harness.call(#"{"id":"rep-2","lane":"lane-2","action":"report"}"#)
        #expect(android.object("error")?.string("code") == "unsupported_on_platform")
        #expect(android.object("error")?["platforms"] == .array([.string("ios")]))
        #expect(harness.simulator.openedURLs(lane: "lane-2").isEmpty)
    }

    @Test("lane_busy while a sale waits for its card")
    func busy() throws {
        var behaviour = LaneBehaviour()
        behaviour.cardPresentment = .manual
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)
        ])
        try harness.send(saleJSON(id: "sale-1", lane: "lane-1", amount: 100))
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .cardPresentment, timeout: .seconds(5)))
        let busy = try harness.call(#"{"id":"rep-1","lane":"lane-1","action":"report"}"#)
        #expect(busy.object("error")?.string("code") == "lane_busy")
        harness.simulator.release(lane: "lane-1")
        #expect(try harness.reply(to: "sale-1").string("outcome") == "success")
    }
}
