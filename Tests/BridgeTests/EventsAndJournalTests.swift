import Bridge
import BridgeClient
import Foundation
import InterApp
import TerminalSimulator
import Testing
import ZeroMQ

@Suite("Events reach exactly their subscribers; the journal checkpoints off the loop")
struct EventsAndJournalTests {
    @Test("a subscriber to everything sees seq without gaps; a lane-prefix subscriber sees only its lane")
    func seqAndPrefixes() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios),
            SimulatedLane(id: "lane-2", endpoint: "tcp://127.0.0.1:*", platform: .android),
        ])
        let laneTwo = try Socket(harness.context, .sub)
        defer { laneTwo.close() }
        try laneTwo.subscribe("lane-2.")
        try laneTwo.connect(harness.bound.events)
        // Probe until lane-2's subscription is in place (an orphan on lane-2 reaches it).
        let subscribed = try SubscriptionProbe.await(on: laneTwo, lane: "lane-2", attempts: 100) {
            harness.simulator.injectCallback(lane: "lane-2", url: SubscriptionProbe.callbackURL)
        }
        try #require(subscribed)
        try harness.forgetEvents()
        _ = try harness.call(saleJSON(id: "one", lane: "lane-1", amount: 100))
        _ = try harness.call(saleJSON(id: "two", lane: "lane-2", amount: 200))
        try harness.event("lane-2.sale.result") { $0.string("id") == "two" }
        let seqs = harness.events.compactMap { $0.body.int("seq") }
        #expect(seqs.count >= 8)
        #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $1 == $0 + 1 }, "seq has a gap: \(seqs)")
        try laneTwo.setReceiveTimeout(5000)
        var laneTwoTopics: [String] = []
        while !laneTwoTopics.contains("lane-2.sale.result"), let frames = try laneTwo.receive() {
            laneTwoTopics.append(String(decoding: frames[0], as: UTF8.self))
        }
        #expect(laneTwoTopics.contains("lane-2.sale.result"))
        #expect(laneTwoTopics.allSatisfy { $0.hasPrefix("lane-2.") })
    }

    @Test("the WAL is checkpointed by the journal's own thread and empty after a clean stop")
    func checkpointed() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios)
        ])
        for index in 0..<20 {
            #expect(
                try harness.call(saleJSON(id: "w-\(index)", lane: "lane-1", amount: 100 + index)).string("outcome")
                    == "success")
        }
        harness.bridge.halt()
        let wal = harness.configuration.journal + "-wal"
        let size = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
        #expect(size == 0, "the WAL still holds \(size) bytes after the journal closed")
        let journal = try String(contentsOfFile: harness.configuration.journal, encoding: .isoLatin1)
        #expect(journal.contains("w-19"), "the last sale is in the database file itself")
    }
}
