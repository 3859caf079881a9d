import InterApp
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

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

    @Test("a reply's body is its members after the stamp, as serialized; an empty one gives the stamp alone")
    func replyBody() throws {
        let reply: JSONObject = ["id": "s-1", "result": .object(["amount": 1200, "note": "a\nb"])]
        var stamper = EventStamper(epoch: 3)
        let text = Self.text(.reply(id: "s-1", JSONValue.object(reply).serialized()), stamper: &stamper)
        let time = Timestamp.iso8601(ms: Self.nowMs)
        #expect(text == #"{"seq":1,"epoch":3,"time":"\#(time)","id":"s-1","result":{"amount":1200,"note":"a\nb"}}"#)
        let parsed = try #require(try JSONValue.parse(Array(text.utf8)).objectValue)
        #expect(parsed["result"]?.objectValue?["note"]?.stringValue == "a\nb")
        #expect(
            Self.text(.reply(id: nil, Array("{}".utf8)), stamper: &stamper) == #"{"seq":2,"epoch":3,"time":"\#(time)"}"#
        )
    }

    @Test("each kind of body writes its members in the contract's order (event.schema.json)")
    func typedBodies() throws {
        var stamper = EventStamper(epoch: 1)
        let stamp = #"{"seq":1,"epoch":1,"time":"\#(Timestamp.iso8601(ms: Self.nowMs))""#
        func members(_ body: EventBody) throws -> String {
            stamper = EventStamper(epoch: 1)
            let text = Self.text(body, stamper: &stamper)
            _ = try JSONValue.parse(Array(text.utf8))
            #expect(text.hasPrefix(stamp) && text.hasSuffix("}"))
            return String(text.dropFirst(stamp.count).dropLast())
        }
        #expect(
            try members(.mismatch(id: "s", lane: "l", action: "sale", amountMismatch: ["requested": 5, "approved": 6]))
                == #","id":"s","lane":"l","action":"sale","amountMismatch":{"requested":5,"approved":6}"#)
        #expect(
            try members(.orphan(lane: "l", action: "sale", .read(status: "success", message: "m", result: ["a": 1])))
                == #","lane":"l","action":"sale","status":"success","message":"m","result":{"a":1}"#)
        #expect(
            try members(.orphan(lane: "l", action: "unknown", .unparsable(raw: "x", problem: "p")))
                == #","lane":"l","action":"unknown","raw":"x","problem":"p""#)
        #expect(try members(.lane("l", .connected(endpoint: "tcp://e"))) == #","lane":"l","endpoint":"tcp://e""#)
        #expect(try members(.lane("l", .removed(endpoint: "tcp://e"))) == #","lane":"l","endpoint":"tcp://e""#)
        #expect(try members(.lane("l", .returned(inFlight: nil))) == #","lane":"l","inFlight":null"#)
        #expect(try members(.lane("l", .returned(inFlight: "s"))) == #","lane":"l","inFlight":"s""#)
        #expect(
            try members(
                .lane("l", .changed(endpoint: "tcp://e", platform: .android, transport: .relay(endpoint: "tcp://e"))))
                == #","lane":"l","endpoint":"tcp://e","platform":"android","transport":"relay""#)
        let device = CloudTerminal(terminalId: "16000004", cashRegisterId: "till-4")
        #expect(
            try members(
                .lane("l", .added(endpoint: "viva-cloud:16000004", platform: .android, transport: .cloud(device))))
                == #","lane":"l","endpoint":"viva-cloud:16000004","platform":"android","transport":"cloud""#)
        #expect(
            try members(.batch("l", .opened(name: "b", id: nil, automatic: false)))
                == #","lane":"l","batchName":"b","batchId":null"#)
        #expect(
            try members(.batch("l", .opened(name: nil, id: nil, automatic: true)))
                == #","lane":"l","batchName":null,"batchId":null,"automatic":true"#)
        #expect(
            try members(.batch("l", .closed(name: "b", id: "7", reason: .expired)))
                == #","lane":"l","batchName":"b","batchId":"7","reason":"expired""#)
        #expect(
            try members(.journal(location: "/j", reason: "disk full"))
                == #","lane":"bridge","journal":"/j","reason":"disk full""#)
        #expect(try members(.journal(location: "/j", reason: nil)) == #","lane":"bridge","journal":"/j""#)
        #expect(try members(.heartbeat(inFlight: 2, lanesUp: 3)) == #","inFlight":2,"lanesUp":3"#)
        #expect(try members(.roleActive(instance: "i")) == #","instance":"i""#)
    }

    @Test("each event carries its own millisecond, whether the one before had the same or another")
    func timeOfEach() throws {
        var stamper = EventStamper(epoch: 1)
        var times: [String] = []
        for ms in [Self.nowMs, Self.nowMs, Self.nowMs + 1, Self.nowMs + 86_400_000, Self.nowMs + 1] {
            let body = stamper.stamped(.heartbeat(inFlight: 0, lanesUp: 0), nowMs: ms)
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
        #expect(Self.text(.roleActive(instance: "i"), stamper: &stamper).hasPrefix(#"{"seq":2,"#))
    }
}
