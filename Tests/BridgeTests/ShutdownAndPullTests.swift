import Bridge
import InterApp
import TerminalSimulator
import Testing
import ZeroMQ

@Suite("Graceful shutdown and fire-and-forget commands")
struct ShutdownAndPullTests {
    @Test("the loop reports itself responsive while it runs (idle too) and not once it has ended")
    func responsiveness() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios)
        ])
        #expect(try harness.call(#"{"id":"p","action":"ping"}"#).string("outcome") == "success")
        #expect(harness.bridge.isResponsive(withinMilliseconds: 2000))
        harness.bridge.halt()
        #expect(!harness.bridge.isResponsive(withinMilliseconds: 60_000))
    }

    @Test("shutdown refuses new commands with shutting_down and lets the one in flight finish")
    func gracefulShutdown() throws {
        var behaviour = LaneBehaviour()
        behaviour.cardPresentment = .manual
        let harness = try BridgeHarness(
            lanes: [SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)])
        try harness.send(saleJSON(id: "inflight", lane: "lane-1", amount: 100))
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .cardPresentment, timeout: .seconds(5)))
        harness.bridge.shutdown()
        // The shutdown is taken in order with commands on the loop: keep asking until it shows.
        var refused: JSONObject?
        for attempt in 0..<50 {
            let reply = try harness.call(saleJSON(id: "late-\(attempt)", lane: "lane-2", amount: 1))
            if reply.object("error")?.string("code") == "shutting_down" {
                refused = reply
                break
            }
        }
        #expect(refused != nil)
        harness.simulator.release(lane: "lane-1")
        #expect(try harness.reply(to: "inflight").string("outcome") == "success")
        harness.bridge.wait()
    }

    @Test("commands on the PULL socket answer only as events")
    func pullCommands() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios)
        ]) {
            $0.commandPull = "tcp://127.0.0.1:*"
        }
        let push = try Socket(harness.context, .push)
        defer { push.close() }
        try push.connect(try #require(harness.bound.commandPull))
        try push.send([saleJSON(id: "pushed", lane: "lane-1", amount: 250)])
        let result = try harness.event("lane-1.sale.result") { $0.string("id") == "pushed" }
        #expect(result.string("outcome") == "success")
        try push.send([#"{"id":"bad","lane":"lane-1","action":"sale"}"#])
        let rejected = try harness.event("lane-1.sale.result") { $0.string("id") == "bad" }
        #expect(rejected.object("error")?.string("code") == "missing_field")
        try harness.expectNoReply(withinMs: 100)
    }
}
