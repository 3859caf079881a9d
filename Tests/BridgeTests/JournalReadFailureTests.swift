import Bridge
import Foundation
import GRDB
import InterApp
import TerminalSimulator
import Testing

/// A journal that cannot be read never makes the bridge treat an id as new (issue 18, item 4).
@Suite("Journal read failures")
struct JournalReadFailureTests {
    /// Breaks the bridge's journal from outside: its commands are gone, so every look-up and insert fails.
    private static func breakJournal(_ harness: BridgeHarness) throws {
        let queue = try DatabaseQueue(path: harness.configuration.journal)
        try queue.write { db in try db.execute(sql: "DROP VIEW commands; DROP TABLE command_log") }
        try queue.close()
    }

    @Test("a command whose id cannot be looked up is journal_unavailable and never reaches the terminal")
    func unreadableIdIsNotNew() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: .zeroDelay)
        ])
        try Self.breakJournal(harness)
        let reply = try harness.call(saleJSON(id: "maybe-old", lane: "lane-1", amount: 500))
        #expect(reply.string("outcome") == "rejected")
        #expect(reply.object("error")?.string("code") == "journal_unavailable")
        #expect(harness.simulator.openedURLs(lane: "lane-1").isEmpty)
    }

    @Test("status of an id the journal cannot read is journal_unavailable, never not_found")
    func statusIsNotNotFound() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: .zeroDelay)
        ])
        try Self.breakJournal(harness)
        let reply = try harness.call(#"{"id":"st","action":"status","ref":"anything"}"#)
        #expect(reply.string("outcome") == "rejected")
        #expect(reply.object("error")?.string("code") == "journal_unavailable")
        #expect(JSONValue.object(reply).serializedString.contains("not_found") == false)
    }
}
