import Bridge
import Foundation
import InterApp
import TerminalSimulator
import Testing
import ZeroMQ

/// A lane is up only once its relay answered the bridge's `hello` (issue 44): a relay that ignores it (one that
/// saw a higher epoch, docs/RELAY.md) leaves the lane not up, its commands `undeliverable` and never sent.
@Suite("Relay hello: a lane is up only after its relay answered")
struct RelayHelloTests {
    /// The lanes `/readyz` shows, by id.
    private static func readiness(_ port: Int) async throws -> JSONObject? {
        let answer = try await HTTPProbe.get("/readyz", port: port)
        return try JSONValue.parse(Array(answer.body.utf8)).objectValue?.object("lanes")
    }

    /// Whether the `lanes` answer shows `lane` connected.
    private static func connected(_ harness: BridgeHarness, _ lane: String) throws -> Bool? {
        let reply = try harness.call(#"{"id":"lanes-\#(UUID().uuidString)","action":"lanes"}"#)
        let lanes = reply.object("result")?["lanes"]?.arrayValue?.compactMap(\.objectValue) ?? []
        return lanes.first { $0.string("lane") == lane }?["connected"]?.boolValue
    }

    @Test(
        "a relay that never answers hello: not up in /readyz nor the lanes answer, a sale is undeliverable and never sent, one warning after 5 s; once it answers, the lane is up and a sale goes through"
    )
    func unansweredHello() async throws {
        let context = try Context()
        defer { context.terminate() }
        let relay = try HostileRelay(context: context)
        let clock = ManualBridgeClock(startMs: 1_700_000_000_000)
        let harness = try BridgeHarness(
            lanes: [SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios)], clock: clock
        ) { configuration in
            configuration.lanes.append(LaneConfiguration(id: "silent", endpoint: relay.endpoint, platform: .ios))
        }
        let listener = try await RunningListener(bridge: harness.bridge)
        try relay.awaitHello(answer: false)

        #expect(try Self.connected(harness, "silent") == false)
        #expect(try Self.connected(harness, "lane-1") == true)
        let lanes = try await Self.readiness(listener.port)
        #expect(lanes == ["lane-1": .string("up"), "silent": .string("down")])
        #expect(!harness.bridge.awaitLanesUp(["silent"], timeout: .milliseconds(50)))

        let refused = try harness.call(saleJSON(id: "ignored-1", lane: "silent", amount: 100))
        #expect(refused.string("outcome") == "undeliverable")
        harness.advance(byMs: 5000)
        let warning = harness.logs.waitForLine(containingAll: ["relay did not answer hello", #""lane": silent"#])
        #expect(warning?.hasPrefix("warning") == true, "\(warning ?? "no warning")")
        #expect(!harness.logs.text.contains("SECRET-MERCHANT-KEY"))

        try relay.answerHello()
        #expect(harness.bridge.awaitLanesUp(["silent"], timeout: .seconds(10)))
        #expect(try Self.connected(harness, "silent") == true)
        #expect(try await Self.readiness(listener.port)?.string("silent") == "up")
        try harness.event("silent.lane.connected")
        try harness.send(saleJSON(id: "answered-1", lane: "silent", amount: 700))
        let open = try relay.awaitOpen()
        #expect(open.ref == "answered-1", "the first open the relay got: the undeliverable sale was never sent")
        #expect(!relay.received.contains { if case .open = $0 { true } else { false } })
        try relay.send(.opened(ref: Array(open.ref.utf8)))
        try relay.send(
            .callback(
                url: Array(
                    "interapp-callback://result?status=success&action=sale&clientTransactionId=answered-1&amount=700"
                        .utf8)))
        #expect(try harness.reply(to: "answered-1").string("outcome") == "success")
        #expect(
            harness.logs.text.split(separator: "\n").filter { $0.contains("relay did not answer hello") }.count == 1)
        await listener.stop()
    }
}
