import Bridge
import BridgeClient
import InterApp
import TerminalSimulator
import Testing
import ZeroMQ

/// The client side's one home (the BridgeClient target), against a real bridge over tcp loopback: what
/// `vivabridge send`, `watch` and `demo` and the benchmark's load clients are built on.
@Suite("BridgeClient: commands and events as store middleware sends and reads them")
struct BridgeClientTests {
    private static func lanes() -> [SimulatedLane] {
        [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios),
            SimulatedLane(id: "lane-2", endpoint: "tcp://127.0.0.1:*", platform: .android),
        ]
    }

    @Test("request sends one command on a connection of its own and returns its reply, bytes and object alike")
    func request() throws {
        let harness = try BridgeHarness(lanes: Self.lanes())
        let frame = Array(saleJSON(id: "bc-1", lane: "lane-1", amount: 1250).utf8)
        let reply = try #require(
            try CommandConnection.request(frame, id: "bc-1", endpoint: harness.bound.command, waitMs: 10_000))
        #expect(reply.object.string("id") == "bc-1")
        #expect(reply.object.string("outcome") == "success")
        #expect(try JSONValue.parse(reply.bytes).objectValue == reply.object)
    }

    @Test("reply(to:) skips the replies to other commands on the same connection")
    func replyToSkipsOthers() throws {
        let harness = try BridgeHarness(lanes: Self.lanes())
        let connection = try CommandConnection(context: harness.context, endpoint: harness.bound.command)
        defer { connection.close() }
        // A command for a lane that does not exist is refused at once: its reply always comes first.
        try connection.send(Array(saleJSON(id: "first", lane: "no-such-lane", amount: 100).utf8))
        try connection.send(Array(saleJSON(id: "second", lane: "lane-2", amount: 200).utf8))
        let second = try #require(try connection.reply(to: "second", waitMs: 10_000))
        #expect(second.object.string("id") == "second")
        #expect(second.object.object("result")?.int("amount") == 200)
    }

    @Test("request gives nil when no reply comes in time: no bridge at the endpoint")
    func noBridge() throws {
        let reply = try CommandConnection.request(
            Array(saleJSON(id: "nobody", lane: "lane-1", amount: 100).utf8), id: "nobody",
            endpoint: "tcp://127.0.0.1:1", waitMs: 200)
        #expect(reply == nil)
    }

    @Test("a subscription with a lane prefix receives that lane's events and no other lane's")
    func laneSubscription() throws {
        let harness = try BridgeHarness(lanes: Self.lanes())
        let subscription = try EventSubscription(
            context: harness.context, endpoint: harness.bound.events, prefixes: ["lane-2."])
        defer { subscription.close() }
        let poller = Poller()
        poller.add(subscription.socket)
        // The subscription takes effect some time after the connection: probe until lane-2's probe arrives.
        let subscribed = try subscription.awaitProbe(lane: "lane-2") {
            harness.simulator.injectCallback(lane: "lane-2", url: SubscriptionProbe.callbackURL)
        }
        try #require(subscribed, "the subscription never took effect")
        _ = try harness.call(saleJSON(id: "on-1", lane: "lane-1", amount: 100), id: "on-1")
        _ = try harness.call(saleJSON(id: "on-2", lane: "lane-2", amount: 200), id: "on-2")
        var seen: [BridgeEvent] = []
        while !seen.contains(where: { $0.topic == "lane-2.sale.result" }) {
            try #require(try poller.poll(timeoutMilliseconds: 10_000) > 0, "no lane-2 result event")
            while let event = try subscription.nextEvent() { seen.append(event) }
        }
        #expect(seen.allSatisfy { $0.topic.hasPrefix("lane-2.") })
        let result = try #require(seen.first { $0.topic == "lane-2.sale.result" })
        #expect(result.body.string("id") == "on-2")
        #expect(result.parsedTopic?.lane == "lane-2")
    }

    @Test("an event is two frames, a topic and a JSON object; anything else is not an event")
    func eventFrames() {
        let event = BridgeEvent(frames: [Array("lane-1.sale.result".utf8), Array(#"{"id":"x"}"#.utf8)])
        #expect(event?.topic == "lane-1.sale.result")
        #expect(event?.body.string("id") == "x")
        #expect(BridgeEvent(frames: [Array("lane-1.sale.result".utf8)]) == nil)
        #expect(BridgeEvent(frames: [Array("t".utf8), Array("not json".utf8)]) == nil)
        #expect(BridgeEvent(frames: [Array("t".utf8), Array("[1]".utf8)]) == nil)
    }
}
