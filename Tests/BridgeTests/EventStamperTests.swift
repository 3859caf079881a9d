import InterApp
import Testing

@testable import Bridge

/// The bytes of a stamped event (docs/PROTOCOL.md §4): the stamp first, then the body's members in their
/// order, for each kind of body the correlator builds; every one is valid JSON.
@Suite("Event stamper: the stamp, then the body's members, as JSON")
struct EventStamperTests {
    /// 2026-11-26T04:50:00.123+00:00.
    static let nowMs: Int64 = 1_795_668_600_123

    static func text(_ body: EventBody, stamper: inout EventStamper) -> String {
        String(decoding: stamper.stamped(body, nowMs: nowMs), as: UTF8.self)
    }

    @Test("a progress event: seq, epoch, time, then id, lane, action and its client, as an object would write them")
    func progress() throws {
        var stamper = EventStamper(epoch: 7)
        let withClient = Self.text(
            .progress(ProgressBody(id: "s-1", lane: "lane-1", action: "sale", client: "till \"2\"")), stamper: &stamper)
        let time = Timestamp.iso8601(ms: Self.nowMs)
        #expect(
            withClient
                == #"{"seq":1,"epoch":7,"time":"\#(time)","id":"s-1","lane":"lane-1","action":"sale","client":"till \"2\""}"#
        )
        let withoutClient = Self.text(
            .progress(ProgressBody(id: "s-2", lane: "lane-1", action: "abort", client: nil)), stamper: &stamper)
        #expect(withoutClient == #"{"seq":2,"epoch":7,"time":"\#(time)","id":"s-2","lane":"lane-1","action":"abort"}"#)
        #expect(try JSONValue.parse(Array(withClient.utf8)).objectValue?["client"]?.stringValue == "till \"2\"")
    }

    @Test("an object body and a serialized one give the same bytes; an empty body gives the stamp alone")
    func objectAndSerialized() throws {
        let object: JSONObject = ["id": "s-1", "result": .object(["amount": 1200, "note": "a\nb"])]
        var first = EventStamper(epoch: 3)
        var second = EventStamper(epoch: 3)
        let fromObject = Self.text(.object(object), stamper: &first)
        let fromBytes = Self.text(.serialized(JSONValue.object(object).serialized()), stamper: &second)
        #expect(fromObject == fromBytes)
        let parsed = try #require(try JSONValue.parse(Array(fromObject.utf8)).objectValue)
        #expect(parsed.keys == ["seq", "epoch", "time", "id", "result"])
        #expect(parsed["result"]?.objectValue?["note"]?.stringValue == "a\nb")

        let empty = Self.text(.object(JSONObject()), stamper: &first)
        #expect(empty == #"{"seq":2,"epoch":3,"time":"\#(Timestamp.iso8601(ms: Self.nowMs))"}"#)
        #expect(Self.text(.serialized(Array("{}".utf8)), stamper: &first).hasSuffix("+00:00\"}"))
    }

    @Test("each event carries its own millisecond, whether the one before had the same or another")
    func timeOfEach() throws {
        var stamper = EventStamper(epoch: 1)
        var times: [String] = []
        for ms in [Self.nowMs, Self.nowMs, Self.nowMs + 1, Self.nowMs + 86_400_000, Self.nowMs + 1] {
            let body = stamper.stamped(.object(JSONObject()), nowMs: ms)
            times.append(try #require(try JSONValue.parse(body).objectValue?.string("time")))
        }
        #expect(
            times
                == [Self.nowMs, Self.nowMs, Self.nowMs + 1, Self.nowMs + 86_400_000, Self.nowMs + 1].map {
                    Timestamp.iso8601(ms: $0)
                })
    }

    @Test("a skipped event uses its seq: the next one built carries the one after")
    func skip() {
        var stamper = EventStamper(epoch: 1)
        stamper.skip()
        #expect(Self.text(.object(JSONObject()), stamper: &stamper).hasPrefix(#"{"seq":2,"#))
    }
}
