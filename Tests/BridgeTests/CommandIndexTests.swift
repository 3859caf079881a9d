import Foundation
import TerminalSimulator
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// Where each id sits in the journal's log, from memory (issues 17 and 34: no read and no random-key write on the
/// hot path).
@Suite("Command index: new ids need no journal read, a known id is found by its place, never taken for new")
struct CommandIndexTests {
    @Test("every id inserted is found at its place, across growth; ids never inserted are absent")
    func findsEveryId() {
        var index = CommandIndex(capacity: 1024)
        let ids = (0..<50_000).map { "pos7-\($0)" }
        for (place, id) in ids.enumerated() { index.insert(id, at: Int64(place + 1)) }
        #expect(index.count == 50_000)
        #expect(ids.enumerated().allSatisfy { index.candidates(for: $1).contains(Int64($0 + 1)) })
        // 28-bit tags: two of 50,000 ids share one about 5 times, and an absent id shares one with some id about
        // once in 5,000 tries; each costs a read of a row whose id then differs, never a wrong answer.
        let sharing = ids.filter { index.candidates(for: $0).count > 1 }.count
        #expect(sharing < 60, "\(sharing) ids share a tag")
        let absent = (0..<50_000).filter { index.mayContain("other-\($0)") }.count
        #expect(absent < 100, "\(absent) absent ids share a tag")
    }

    @Test("an id journaled again (a retry after a failed commit) has both places, newest first")
    func repeatedIdNewestFirst() {
        var index = CommandIndex()
        index.insert("again", at: 7)
        index.insert("other", at: 8)
        index.insert("again", at: 9)
        #expect(index.candidates(for: "again") == [9, 7])
    }

    @Test("memory: 8 bytes a slot, at most three quarters full: between 10.7 and 21.4 bytes an id")
    func bytesPerId() {
        var index = CommandIndex(capacity: 1024)
        for place in 1...100_000 {
            index.insert("sale-\(place)", at: Int64(place))
            let perId = Double(index.bytes) / Double(index.count)
            if place >= 1024 { #expect(perId >= 10.6 && perId <= 21.4, "\(perId) bytes an id at \(place) ids") }
        }
    }

    @Test("a journal reopened knows the ids it holds, and learns the ids it commits")
    func journalKnowsItsIds() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("known-ids-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("journal.sqlite").path
        do {
            let journal = try Journal(path: path, sync: .normal)
            defer { journal.close() }
            #expect(!journal.mayHold(id: "before-restart"))
            try journal.commit([.insert(Self.row(id: "before-restart"))])
            #expect(journal.mayHold(id: "before-restart"))
        }
        let reopened = try Journal(path: path, sync: .normal)
        defer { reopened.close() }
        #expect(reopened.mayHold(id: "before-restart"))
        #expect(try reopened.command(id: "before-restart") != nil)
        #expect(!reopened.mayHold(id: "never-sent"))
    }

    @Test("a repeated id after a restart still gets its stored reply, never a second terminal request")
    func repeatAfterRestart() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("known-ids-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let lanes = [SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: .zeroDelay)]
        // The first harness stays alive (its end removes the folder); only its bridge stops.
        let first = try BridgeHarness(lanes: lanes, journalFolder: folder)
        #expect(try first.call(saleJSON(id: "once", lane: "lane-1", amount: 700)).string("outcome") == "success")
        #expect(first.simulator.openedURLs(lane: "lane-1").count == 1)
        first.bridge.stop()
        let again = try BridgeHarness(lanes: lanes, journalFolder: folder)
        let reply = try again.call(saleJSON(id: "once", lane: "lane-1", amount: 700))
        #expect(reply.string("outcome") == "success")
        #expect(again.simulator.openedURLs(lane: "lane-1").isEmpty)
    }

    private static func row(id: String) -> StoredCommand {
        StoredCommand(
            id: id, lane: "lane-1", action: .sale, fingerprint: "f", clientTransactionId: id, state: .accepted,
            outcome: nil, reply: nil, deadlineMs: nil, createdMs: 1)
    }
}
