import Bridge
import InterApp
import TerminalSimulator
import Testing

/// The command socket's edges: every message gets an answer, and none takes the connection down.
@Suite("Command socket limits")
struct CommandSocketLimitsTests {
    @Test("a command a little over maxCommandBytes is too_large, and the connection keeps working")
    func tooLargeIsAnswered() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios)
        ]) {
            $0.maxCommandBytes = 1024
        }
        let padding = String(repeating: "x", count: 4096)
        try harness.send(#"{"id":"big","action":"ping","pad":"\#(padding)"}"#)
        let reply = try harness.nextReply()
        #expect(reply.string("outcome") == "rejected")
        #expect(reply.object("error")?.string("code") == "too_large")
        #expect(try harness.call(#"{"id":"after","action":"ping"}"#).string("outcome") == "success")
    }

    @Test("several frames with no empty delimiter before the last are refused, not echoed as an envelope")
    func multiFrameWithoutDelimiter() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios)
        ])
        try harness.client.send([
            Array(#"{"id":"one","action":"ping"}"#.utf8), Array(#"{"id":"two","action":"ping"}"#.utf8),
        ])
        try harness.client.setReceiveTimeout(10_000)
        let frames = try #require(try harness.client.receive())
        #expect(frames.count == 1, "the first JSON frame came back as an envelope")
        let reply = try BridgeHarness.object(frames[0])
        #expect(reply.string("outcome") == "rejected")
        #expect(reply.object("error")?.string("code") == "invalid_json")
        #expect(reply.object("error")?.string("message")?.contains("2 frames") == true)
        var delimited = try harness.call(#"{"id":"fine","action":"ping"}"#)
        #expect(delimited.string("outcome") == "success")
        try harness.client.send([[], Array(#"{"id":"req-style","action":"ping"}"#.utf8)])
        delimited = try harness.reply(to: "req-style")
        #expect(delimited.string("outcome") == "success")
    }

    @Test("a sender past the 1,024 waiting on one in-flight id is answered at once: unknown, ask status later")
    func waitersPastTheLimitAreAnswered() throws {
        var behaviour = LaneBehaviour()
        behaviour.fault = .neverAnswer
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)
        ])
        let sale = saleJSON(id: "popular", lane: "lane-1", amount: 100)
        for _ in 0..<1025 { try harness.send(sale) }
        let extra = try harness.nextReply()
        #expect(extra.string("id") == "popular")
        #expect(extra.string("outcome") == "unknown")
        #expect(extra.string("message")?.contains("ask status") == true)
        harness.simulator.injectCallback(
            lane: "lane-1",
            url: "interapp-callback://result?status=success&action=sale&clientTransactionId=popular&amount=100")
        for _ in 0..<1024 { #expect(try harness.nextReply().string("outcome") == "success") }
        #expect(harness.simulator.openedURLs(lane: "lane-1").count == 1)
    }
}
