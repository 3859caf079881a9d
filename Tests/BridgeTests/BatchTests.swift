import Bridge
import InterApp
import TerminalSimulator
import Testing

@Suite("Batch state per lane")
struct BatchTests {
    @Test("open, open again (the old one is replaced), close by command")
    func openReplaceClose() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios)
        ])
        let first = try harness.call(
            #"{"id":"b1","lane":"lane-1","action":"batch","command":"open","batchName":"morning"}"#)
        #expect(first.string("outcome") == "success")
        let opened = try harness.event("lane-1.batch.opened")
        #expect(opened.string("batchName") == "morning")
        _ = try harness.call(#"{"id":"b2","lane":"lane-1","action":"batch","command":"open","batchName":"evening"}"#)
        let replaced = try harness.event("lane-1.batch.closed") { $0.string("reason") == "replaced" }
        #expect(replaced.string("batchName") == "morning")
        let lanes = try harness.call(#"{"id":"q","action":"lanes"}"#)
        let entry = try #require(lanes.object("result")?["lanes"]?.arrayValue?.first?.objectValue)
        #expect(entry.object("openBatch")?.string("name") == "evening")
        _ = try harness.call(#"{"id":"b3","lane":"lane-1","action":"batch","command":"close"}"#)
        let closed = try harness.event("lane-1.batch.closed") { $0.string("reason") == "command" }
        #expect(closed.string("batchName") == "evening")
    }

    @Test("a batch open for 48 hours is closed with reason expired, and the app's automatic one is reported")
    func expiry() throws {
        let clock = ManualBridgeClock()
        let harness = try BridgeHarness(
            lanes: [SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .android)], clock: clock)
        _ = try harness.call(#"{"id":"b1","lane":"lane-1","action":"batch","command":"open","batchName":"day"}"#)
        harness.advance(byMs: 47 * 3_600_000)
        _ = try harness.call(#"{"id":"p","action":"ping"}"#)
        try harness.drainEvents()
        #expect(!harness.events.contains { $0.topic == "lane-1.batch.closed" })
        harness.advance(byMs: 3_600_000)
        let closed = try harness.event("lane-1.batch.closed")
        #expect(closed.string("reason") == "expired")
        #expect(closed.string("batchName") == "day")
        let opened = try harness.event("lane-1.batch.opened") { $0["automatic"] != nil }
        #expect(opened["automatic"] == .bool(true))
        #expect(opened["batchName"] == .null)
        let lanes = try harness.call(#"{"id":"q","action":"lanes"}"#)
        let batch = lanes.object("result")?["lanes"]?.arrayValue?.first?.objectValue?.object("openBatch")
        #expect(batch?["automatic"] == .bool(true))
        #expect(batch?["name"] == .null)
    }
}
