import Foundation
import TerminalSimulator
import Testing

@testable import Bridge

/// The journal's in-memory answer to "was this id ever journaled?" (issue 17: no read on the hot path).
@Suite("Known ids: new ids need no journal read, and a known id is never taken for new")
struct KnownIdFilterTests {
    @Test("no id added is ever reported absent, across several layers of growth")
    func noFalseNegatives() {
        var filter = KnownIdFilter(capacity: 1024)
        let ids = (0..<50_000).map { "pos7-\($0)" }
        for id in ids { filter.insert(id) }
        #expect(filter.count == 50_000)
        #expect(ids.allSatisfy { filter.mightContain($0) })
    }

    @Test("ids never added are nearly always reported absent (false positives near 1%)")
    func fewFalsePositives() {
        var filter = KnownIdFilter(capacity: 1024)
        for index in 0..<50_000 { filter.insert("sale-\(index)") }
        let falsePositives = (0..<50_000).filter { filter.mightContain("other-\($0)") }.count
        #expect(falsePositives < 2_500, "\(falsePositives) of 50,000 absent ids reported as maybe present")
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
            id: id, lane: "lane-1", action: "sale", fingerprint: "f", clientTransactionId: id, state: .accepted,
            outcome: nil, reply: nil, deadlineMs: nil, createdMs: 1)
    }
}
