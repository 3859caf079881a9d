import Bridge
import Foundation
import InterApp
import TerminalSimulator
import Testing

/// The journal commit off the loop (issue 17): what a turn sends, replies and publishes leaves only once the
/// journal writer has committed the turn.
@Suite("Journal pipeline: nothing leaves before its commit")
struct JournalPipelineTests {
    private static let lane = SimulatedLane(
        id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: .zeroDelay)

    @Test("a sale's URL and reply wait for its commit; then it goes through once, journaled")
    func urlWaitsForCommit() throws {
        let harness = try BridgeHarness(lanes: [Self.lane])
        let lock = try JournalWriteLock(journal: harness.configuration.journal)
        try harness.send(saleJSON(id: "held", lane: "lane-1", amount: 700))
        try harness.expectNoReply(withinMs: 400)
        #expect(harness.simulator.openedURLs(lane: "lane-1").isEmpty, "the URL left before its turn was committed")
        try lock.release()
        #expect(try harness.reply(to: "held").string("outcome") == "success")
        #expect(harness.simulator.openedURLs(lane: "lane-1").count == 1)
        let status = try harness.call(#"{"id":"st","action":"status","ref":"held"}"#)
        #expect(status.object("result")?.string("outcome") == "success")
    }

    @Test("a repeat of an id whose first turn is still being committed joins it: one URL, one outcome")
    func repeatWhileCommitting() throws {
        let harness = try BridgeHarness(lanes: [Self.lane])
        let lock = try JournalWriteLock(journal: harness.configuration.journal)
        try harness.send(saleJSON(id: "twice", lane: "lane-1", amount: 900))
        try harness.send(saleJSON(id: "twice", lane: "lane-1", amount: 900))
        try harness.expectNoReply(withinMs: 300)
        try lock.release()
        let first = try harness.reply(to: "twice")
        let second = try harness.reply(to: "twice")
        #expect(first.string("outcome") == "success")
        #expect(second.string("outcome") == "success")
        #expect(harness.simulator.openedURLs(lane: "lane-1").count == 1, "one id reached the terminal twice")
    }

    @Test("an answer that writes nothing waits behind a turn still being committed: effects leave in order")
    func answersKeepTheirOrder() throws {
        let harness = try BridgeHarness(lanes: [Self.lane])
        let lock = try JournalWriteLock(journal: harness.configuration.journal)
        try harness.send(saleJSON(id: "first", lane: "lane-1", amount: 500))
        try harness.send(#"{"id":"then","action":"status","ref":"first"}"#)
        try harness.expectNoReply(withinMs: 400)
        try lock.release()
        let status = try harness.reply(to: "then")
        #expect(status.object("result")?.string("state") != nil, "\(status)")
        #expect(try harness.reply(to: "first").string("outcome") == "success")
    }

    @Test("a sale whose deadline passes while its commit waits ends unknown, and its URL is never sent")
    func deadlineDuringCommit() throws {
        let harness = try BridgeHarness(lanes: [Self.lane])
        let lock = try JournalWriteLock(journal: harness.configuration.journal)
        try harness.send(saleJSON(id: "late-commit", lane: "lane-1", amount: 600, extra: #","timeoutMs":1000"#))
        try harness.expectNoReply(withinMs: 1600)
        try lock.release()
        #expect(try harness.reply(to: "late-commit").string("outcome") == "unknown")
        // The next sale on the lane goes through: this one's URL was dropped, not queued before it.
        #expect(try harness.call(saleJSON(id: "next", lane: "lane-1", amount: 700)).string("outcome") == "success")
        #expect(harness.simulator.openedURLs(lane: "lane-1").count == 1, "the ended sale's URL reached the terminal")
    }
}
