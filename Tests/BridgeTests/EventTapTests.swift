import Foundation
import InterApp
import TerminalSimulator
import Testing
import ZeroMQ

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// The event tap (what `/events` reads): a turn's events go out as one message of one frame, each event's
/// topic and body after its length.
@Suite("Event tap: one message a turn")
struct EventTapTests {
    @Test("a turn's events travel in one tap message of one frame, each topic and body after its length, in seq order")
    func turnInOneMessage() throws {
        let harness = try Self.oneLane()
        let tap = try TapReader(harness.bridge)
        defer { tap.close() }
        _ = harness.bridge.tap.viewerJoined(filter: nil)
        defer { harness.bridge.tap.viewerLeft(filter: nil) }
        let topics = ["lane-1.sale.accepted", "lane-1.sale.forwarded", "lane-1.sale.delivered", "lane-1.sale.result"]
        var messages: [[[UInt8]]] = []
        var saleId = ""
        // A subscription takes effect some time after the connection: sell until one sale's events all arrive.
        for attempt in 0..<25 {
            saleId = "tap-\(attempt)"
            let reply = try harness.call(saleJSON(id: saleId, lane: "lane-1", amount: 100))
            #expect(reply.string("outcome") == "success")
            messages = []
            while let frames = try tap.socket.receive() { messages.append(frames) }
            if Self.events(in: messages, id: saleId).map(\.topic) == topics { break }
        }
        #expect(messages.allSatisfy { $0.count == 1 }, "every message is one frame: \(messages.map(\.count))")
        #expect(
            messages.allSatisfy { EventTap.forEachEvent(in: $0[0]) { _, _ in } }, "every frame is whole events")
        let sale = Self.events(in: messages, id: saleId)
        #expect(sale.map(\.topic) == topics)
        let seqs = sale.compactMap { $0.body.int("seq") }
        #expect(seqs.count == 4 && seqs == seqs.sorted() && Set(seqs).count == 4, "seq in order: \(seqs)")
        // `accepted` leaves when its commit is acknowledged and `forwarded` once its URL is sent, in the same turn.
        let together = messages.contains { frames in
            let names = TapReader.events(in: [frames]).map(\.topic)
            return names.contains("lane-1.sale.accepted") && names.contains("lane-1.sale.forwarded")
        }
        #expect(together, "accepted and forwarded of one turn in one message: \(messages.map(\.count))")
    }

    @Test("a lanes snapshot counts today's outcomes by action: the commands before it, then each after it as well")
    func snapshotCountsToday() throws {
        let harness = try Self.oneLane()
        let tap = try TapReader(harness.bridge)
        defer { tap.close() }
        for index in 0..<2 {
            #expect(
                try harness.call(saleJSON(id: "before-\(index)", lane: "lane-1", amount: 100)).string("outcome")
                    == "success")
        }
        let batch = #"{"id":"b-1","lane":"lane-1","action":"batch","command":"open","batchName":"morning"}"#
        #expect(try harness.call(batch).string("outcome") == "success")
        // The journal's count, at the day's first snapshot: a batch opened is no sale approved.
        let first = try tap.snapshot(after: -1)
        #expect(first.object("today")?.object("sale")?.int("success") == 2)
        #expect(first.object("today")?.object("batch")?.int("success") == 1)
        for index in 0..<3 {
            #expect(
                try harness.call(saleJSON(id: "after-\(index)", lane: "lane-1", amount: 100)).string("outcome")
                    == "success")
        }
        // Counted by the loop as each ended: the later snapshot has them all.
        let later = try tap.snapshot(after: first.int("seq") ?? 0)
        #expect(later.object("today")?.object("sale")?.int("success") == 5)
        #expect(later.object("today")?.object("sale")?.count == 1, "no other outcome: \(later)")
        #expect(later.object("today")?.count == 2, "no other action: \(later)")
    }

    @Test(
        "with only a filtered viewer, the tap carries the events its prefixes take and the bridge's heartbeat, no other"
    )
    func filteredViewerOnly() throws {
        let harness = try BridgeHarness(lanes: Self.twoLanes) { $0.heartbeatEventMs = 100 }
        let tap = try TapReader(harness.bridge)
        defer { tap.close() }
        let filter = TopicPrefixes(["lane-1.sale."])
        _ = harness.bridge.tap.viewerJoined(filter: filter)
        var topics: [String] = []
        // A subscription takes effect some time after the connection: sell on both lanes until lane-1's arrive.
        for attempt in 0..<25 {
            for lane in ["lane-2", "lane-1"] {
                let reply = try harness.call(saleJSON(id: "\(lane)-\(attempt)", lane: lane, amount: 100))
                #expect(reply.string("outcome") == "success")
            }
            var messages: [[[UInt8]]] = []
            while let frames = try tap.socket.receive() { messages.append(frames) }
            topics += TapReader.events(in: messages).map(\.topic)
            if topics.contains("lane-1.sale.result") { break }
        }
        // The heartbeat comes whatever the prefixes: a page knows the bridge is alive.
        for _ in 0..<25 where !topics.contains("bridge.heartbeat.beat") {
            if let frames = try tap.socket.receive() { topics += TapReader.events(in: [frames]).map(\.topic) }
        }
        #expect(topics.contains("lane-1.sale.result"))
        #expect(topics.contains("bridge.heartbeat.beat"))
        #expect(topics.allSatisfy { $0.hasPrefix("lane-1.sale.") || $0.hasPrefix("bridge.") }, "\(Set(topics))")
        // The filter's viewer left: nothing is built for the tap any more.
        harness.bridge.tap.viewerLeft(filter: filter)
        #expect(harness.bridge.tap.viewers == 0)
        #expect(try harness.call(saleJSON(id: "after", lane: "lane-1", amount: 100)).string("outcome") == "success")
        #expect(try tap.socket.receive() == nil, "no viewer: no tap message")
    }

    @Test("a viewer that joins learns the seq after which every event it is shown is built: none of its before")
    func joiningSeq() throws {
        let harness = try BridgeHarness.lanes(.ios, .ios)
        let tap = try TapReader(harness.bridge)
        defer { tap.close() }
        _ = harness.bridge.tap.viewerJoined(filter: TopicPrefixes(["lane-1."]))
        #expect(try harness.call(saleJSON(id: "unseen", lane: "lane-2", amount: 100)).string("outcome") == "success")
        // A snapshot taken now is older than the next viewer: lane-2's sale was decided without it.
        let older = try tap.snapshot(after: -1)
        let olderSeq = try #require(older.int("seq"))
        let startsAt = harness.bridge.tap.viewerJoined(filter: TopicPrefixes(["lane-2."]))
        #expect(startsAt >= olderSeq, "the events up to the older snapshot were decided before it joined")
        #expect(try harness.call(saleJSON(id: "seen", lane: "lane-2", amount: 100)).string("outcome") == "success")
        var seen: [(topic: String, body: JSONObject)] = []
        for _ in 0..<25 where !seen.contains(where: { $0.topic == "lane-2.sale.result" }) {
            if let frames = try tap.socket.receive() { seen += Self.events(in: [frames], id: "seen") }
        }
        #expect(seen.map(\.topic).filter { $0.hasPrefix("lane-2.sale.") }.count == 4, "\(seen.map(\.topic))")
        #expect(seen.allSatisfy { ($0.body.int("seq") ?? 0) > startsAt }, "built after the seq it was told")
    }

    private static let twoLanes = ["lane-1", "lane-2"].map {
        SimulatedLane(id: $0, endpoint: "tcp://127.0.0.1:*", platform: .ios)
    }

    /// A bridge with one iOS lane, `lane-1`.

    private static func oneLane() throws -> BridgeHarness {
        try BridgeHarness(lanes: [SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios)])
    }

    /// The events about `id`, in the order the messages carry them.
    private static func events(in messages: [[[UInt8]]], id: String) -> [(topic: String, body: JSONObject)] {
        TapReader.events(in: messages).filter { $0.body.string("id") == id }
    }

    @Test("a tap message reads back as the events appended to it; one cut short reads up to the cut")
    func messageFormat() {
        var message: [UInt8] = []
        EventTap.append(topic: Array("lane-1.sale.result".utf8), to: &message) {
            $0.append(contentsOf: #"{"seq":1}"#.utf8)
        }
        EventTap.append(topic: Array("lanes".utf8), to: &message) { _ in }
        var read: [(String, String)] = []
        #expect(
            EventTap.forEachEvent(in: message) {
                read.append((String(decoding: $0, as: UTF8.self), String(decoding: $1, as: UTF8.self)))
            })
        #expect(read.map(\.0) == ["lane-1.sale.result", "lanes"] && read.map(\.1) == [#"{"seq":1}"#, ""])
        var cut: [String] = []
        #expect(
            !EventTap.forEachEvent(in: Array(message.dropLast(3))) { topic, _ in
                cut.append(String(decoding: topic, as: UTF8.self))
            })
        #expect(cut == ["lane-1.sale.result"])
    }
}
