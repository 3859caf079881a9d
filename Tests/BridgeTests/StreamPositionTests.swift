import Bridge
import InterApp
import TerminalSimulator
import Testing

/// A dashboard tells "bridge gone" from "quiet" by `bridge.heartbeat`, and joins the `lanes` snapshot
/// with the event stream by the `epoch` and `seq` the snapshot carries (docs/PROTOCOL.md §4).
@Suite("Heartbeat events and the lanes snapshot's place in the stream")
struct StreamPositionTests {
    @Test("bridge.heartbeat.beat comes every heartbeatEventMs, stamped, with commands in flight and lanes up")
    func heartbeat() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios),
            SimulatedLane(id: "lane-2", endpoint: "tcp://127.0.0.1:*", platform: .android),
        ]) { $0.heartbeatEventMs = 1000 }
        try harness.forgetEvents()
        let first = try harness.event("bridge.heartbeat.beat", timeoutMs: 5000)
        let second = try harness.event("bridge.heartbeat.beat", timeoutMs: 5000) { $0["seq"] != first["seq"] }
        #expect(first["lanesUp"]?.intValue == 2)
        #expect(first["inFlight"]?.intValue == 0)
        #expect(first["epoch"] == second["epoch"])
        let firstSeq = try #require(first["seq"]?.intValue)
        let secondSeq = try #require(second["seq"]?.intValue)
        #expect(secondSeq > firstSeq)
        #expect(second["time"]?.stringValue != nil)
        #expect(Topic(parsing: "bridge.heartbeat.beat")?.isHeartbeat == true)
        #expect(Topic(parsing: "bridge.heartbeat.beat")?.commandEvent == nil)
    }

    @Test("the lanes reply carries the epoch and the seq of the last event published before it")
    func lanesSnapshotPosition() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios)
        ]) { $0.heartbeatEventMs = 60_000 }
        try harness.send(saleJSON(id: "s-1", lane: "lane-1", amount: 100))
        let result = try harness.event("lane-1.sale.result")
        #expect(try harness.reply(to: "s-1").string("outcome") == "success")
        let reply = try harness.call(#"{"id":"q-1","action":"lanes"}"#)
        let snapshot = try #require(reply.object("result"))
        #expect(snapshot["epoch"] == result["epoch"])
        #expect(
            snapshot["seq"] == result["seq"], "no event was published after the result, so the snapshot stands there")
        let before = try #require(snapshot["seq"]?.intValue)
        try harness.send(saleJSON(id: "s-2", lane: "lane-1", amount: 100))
        let accepted = try harness.event("lane-1.sale.accepted") { $0["id"]?.stringValue == "s-2" }
        #expect((accepted["seq"]?.intValue ?? 0) > before)
    }
}
