import CZeroMQ
import Foundation
import TerminalSimulator
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite
@testable import ZeroMQ

/// Replies the command socket could not deliver (docs/OPERATIONS.md, "Metrics"): a few log lines a minute,
/// then one summary, every one counted in `vivabridge_replies_undelivered_total`. A local client sending
/// pings and never reading used to write a log line per reply (87,000 a second, 185 MB in 26 s).
@Suite("Undelivered replies: a few log lines, the rest counted")
struct UndeliveredRepliesTests {
    static let pings = 30_000

    @Test("a client that sends 30,000 pings and never reads: ten lines a minute, then a summary with the count")
    func notReading() async throws {
        // The command socket on ipc: a Unix socket's buffers are fixed (net.core.wmem_default, about 200 KB), where
        // a TCP socket's grow with the load (up to 4 MB: room for every reply, some runs), so the replies always
        // overflow the bridge's queue for this client.
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-undelivered-\(UUID().uuidString.prefix(8)).sock"
        ).path
        defer { try? FileManager.default.removeItem(atPath: socket) }
        let harness = try BridgeHarness(
            lanes: [SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios)],
            clock: ManualBridgeClock(), configure: { $0.command = "ipc://\(socket)" })
        let silent = try Socket(harness.context, .dealer)
        defer { silent.close() }
        // What it does not read stays in the bridge's queue, not in this socket's buffers.
        try silent.setReceiveHighWaterMark(1)
        try silent.setInt32(ZMQ_RCVBUF, 4096, "ZMQ_RCVBUF")
        try silent.setSendTimeout(10_000)
        try silent.connect(harness.bound.command)
        for index in 0..<Self.pings { _ = try silent.send([Array(#"{"id":"p\#(index)","action":"ping"}"#.utf8)]) }
        let dropped = try await Self.settledCount(harness, reason: "not_reading", answered: Self.pings)
        try #require(dropped > Double(UndeliveredReplies.linesPerMinute), "the caller's queue never filled")

        #expect(Self.lines(harness, "reply dropped: the caller is not reading") == UndeliveredReplies.linesPerMinute)
        harness.advance(byMs: 61_000)
        let summary = harness.logs.waitForLine(containing: "were counted, not logged")
        let heldBack = Int(dropped) - UndeliveredReplies.linesPerMinute
        #expect(summary?.contains(#""count": \#(heldBack)"#) == true, "\(summary ?? "no summary")")
    }

    @Test("a client that sends 30,000 pings and goes: at most ten lines a minute, every loss counted")
    func gone() async throws {
        let harness = try BridgeHarness.lanes(.ios, clock: ManualBridgeClock())
        let leaving = try Socket(harness.context, .dealer)
        try leaving.setLinger(10_000)  // every ping reaches the bridge; most replies find the client gone
        try leaving.setSendTimeout(10_000)
        try leaving.connect(harness.bound.command)
        for index in 0..<Self.pings { _ = try leaving.send([Array(#"{"id":"g\#(index)","action":"ping"}"#.utf8)]) }
        leaving.close()
        let gone = try await Self.settledCount(harness, reason: "gone")
        let lines = Self.lines(harness, "reply not delivered: the caller is gone")
        #expect(lines == min(Int(gone), UndeliveredReplies.linesPerMinute), "\(Int(gone)) not delivered")
    }

    /// `vivabridge_replies_undelivered_total` for `reason` once the bridge answered at least `answered` pings
    /// and answers no more (every reply is counted in `vivabridge_commands_total`, delivered or not).
    static func settledCount(_ harness: BridgeHarness, reason: String, answered: Int = 0) async throws -> Double {
        let scrape = { Scrape(harness.bridge.metrics.render()) }
        let pings = { scrape().value("vivabridge_commands_total", ["action": "ping", "outcome": "success"]) }
        var last = -1.0
        for _ in 0..<100 {
            let now = pings()
            if now >= Double(answered), now == last { break }
            last = now
            try await Task.sleep(for: .milliseconds(300))
        }
        return scrape().value("vivabridge_replies_undelivered_total", ["reason": reason])
    }

    static func lines(_ harness: BridgeHarness, _ message: String) -> Int {
        harness.logs.text.split(separator: "\n").filter { $0.contains(message) }.count
    }
}
