import Bridge
import Foundation
import GRDB
import InterApp
import TerminalSimulator
import Testing

/// The journal commit off the loop (issue 17): what a turn sends, replies and publishes leaves only once the
/// journal writer has committed the turn.
@Suite("Journal pipeline: nothing leaves before its commit")
struct JournalPipelineTests {
    private static let lane = SimulatedLane(
        id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: .zeroDelay)

    /// Holds the journal's write lock from another connection until `release()`: the writer's commit waits.
    private final class WriteLock {
        private let queue: DatabaseQueue

        init(journal: String) throws {
            var unsafe = Configuration()
            unsafe.allowsUnsafeTransactions = true
            queue = try DatabaseQueue(path: journal, configuration: unsafe)
            try queue.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        }

        func release() throws {
            try queue.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
            try queue.close()
        }
    }

    @Test("a sale's URL and reply wait for its commit; then it goes through once, journaled")
    func urlWaitsForCommit() throws {
        let harness = try BridgeHarness(lanes: [Self.lane])
        let lock = try WriteLock(journal: harness.configuration.journal)
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
        let lock = try WriteLock(journal: harness.configuration.journal)
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
}
