import Bridge
import InterApp
import NIOCore
import Testing

@testable import BridgeHTTP

/// One gathering window of `/events`, cut for each kind of viewer.
@Suite("HTTP listener: batches by viewer filter")
struct ViewerBatchesTests {
    @Test(
        "unfiltered viewers get every event; each filter its own and the bridge's; a filter shown nothing gets no write"
    )
    func batches() throws {
        let lane1 = TopicPrefixes(["lane-1."])
        let lane3 = TopicPrefixes(["lane-3."])
        var batches = ViewerBatches(filters: [nil, lane1, lane1, lane3, nil])
        for topic in ["lane-1.sale.result", "lane-2.sale.result", "bridge.heartbeat.beat"] {
            batches.add(topic: Array(topic.utf8)[...], body: Array(#"{"seq":1}"#.utf8)[...])
        }
        let buffers = try #require(batches.buffers())
        #expect(Self.topics(buffers[nil]) == ["lane-1.sale.result", "lane-2.sale.result", "bridge.heartbeat.beat"])
        #expect(Self.topics(buffers[lane1]) == ["lane-1.sale.result", "bridge.heartbeat.beat"])
        #expect(Self.topics(buffers[lane3]) == ["bridge.heartbeat.beat"])
        var quiet = ViewerBatches(filters: [lane3])
        quiet.add(topic: Array("lane-1.sale.result".utf8)[...], body: Array(#"{"seq":2}"#.utf8)[...])
        #expect(quiet.buffers() == nil)
    }

    @Test("a filtered viewer's snapshot has only the lanes its prefixes may take, and no today")
    func snapshot() throws {
        let body = Array(
            #"{"lanes":[{"lane":"lane-1"},{"lane":"lane-10"},{"lane":"lane-2"}],"epoch":3,"seq":9,"today":{"success":4}}"#
                .utf8)
        let object = try #require(try JSONValue.parse(body).objectValue)
        let topic = Array("lanes".utf8)[...]
        let whole = EventHub.snapshot(topic: topic, object, body: body[...], for: nil)
        #expect(String(buffer: whole).contains(#""today":{"success":4}"#))
        let cut = String(
            buffer: EventHub.snapshot(topic: topic, object, body: body[...], for: TopicPrefixes(["lane-1."])))
        #expect(cut == #"data: {"topic":"lanes","lanes":[{"lane":"lane-1"}],"epoch":3,"seq":9}"# + "\n\n")
    }

    private static func topics(_ buffer: ByteBuffer?) -> [String] {
        guard let buffer else { return [] }
        return String(buffer: buffer).split(separator: "\n").compactMap { line in
            line.split(separator: "\"").dropFirst(3).first.map(String.init)
        }
    }
}
