import Bridge
import InterApp
import TerminalSimulator
import Testing
import ZeroMQ

@Suite("Foreground end to end (v1.1)")
struct ForegroundEndToEndTests {
    @Test(
        "success once the relay says opened, on each platform: its own topic, status, idempotent",
        arguments: [Platform.ios, .android])
    func success(platform: Platform) throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: platform == .ios ? .ios : .android)
        ])
        let command = #"{"id":"fg-1","lane":"lane-1","action":"foreground"}"#
        let reply = try harness.call(command)
        #expect(reply.string("outcome") == "success")
        #expect(reply.string("action") == "foreground")
        #expect(reply["result"] == nil)
        #expect(harness.simulator.openedURLs(lane: "lane-1").last?.contains("&action=foreground&callback=") == true)
        for event in ["accepted", "forwarded", "delivered"] {
            #expect(try harness.event("lane-1.foreground.\(event)").string("id") == "fg-1")
        }
        #expect(try harness.event("lane-1.foreground.result").string("outcome") == "success")
        let status = try harness.call(#"{"id":"st","action":"status","ref":"fg-1"}"#)
        #expect(status.object("result")?.string("state") == "final")
        #expect(status.object("result")?.string("outcome") == "success")
        let opened = harness.simulator.openedURLCount(lane: "lane-1")
        #expect(try harness.call(command) == reply)
        #expect(harness.simulator.openedURLCount(lane: "lane-1") == opened, "a repeat never reaches the terminal")
        #expect(harness.simulator.foregroundCount(lane: "lane-1") == 1)
        // The lane is free at once: the app sends nothing more for it.
        #expect(try harness.call(saleJSON(id: "sale-1", lane: "lane-1", amount: 100)).string("outcome") == "success")
    }

    @Test("lane_busy while a sale waits for its card")
    func busy() throws {
        var behaviour = LaneBehaviour()
        behaviour.cardPresentment = .manual
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .android, behaviour: behaviour)
        ])
        try harness.send(saleJSON(id: "sale-1", lane: "lane-1", amount: 100))
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .cardPresentment, timeout: .seconds(5)))
        let busy = try harness.call(#"{"id":"fg-1","lane":"lane-1","action":"foreground"}"#)
        #expect(busy.object("error")?.string("code") == "lane_busy")
        harness.simulator.release(lane: "lane-1")
        #expect(try harness.reply(to: "sale-1").string("outcome") == "success")
    }

    @Test("no reply before the relay's opened; not_opened is undeliverable")
    func drivenRelay() throws {
        let context = try Context()
        defer { context.terminate() }
        let relay = try HostileRelay(context: context)
        let harness = try BridgeHarness.driving(relay, as: "driven", platform: .android)
        try harness.send(#"{"id":"fg-1","lane":"driven","action":"foreground"}"#)
        let first = try relay.awaitOpen()
        try harness.event("driven.foreground.forwarded")
        let waiting = try harness.call(#"{"id":"st-1","action":"status","ref":"fg-1"}"#)
        #expect(waiting.object("result")?.string("state") == "forwarded", "no outcome before opened")
        try relay.send(.opened(ref: Array(first.ref.utf8)))
        #expect(try harness.reply(to: "fg-1").string("outcome") == "success")

        try harness.send(#"{"id":"fg-2","lane":"driven","action":"foreground"}"#)
        let second = try relay.awaitOpen()
        try relay.send(.notOpened(ref: Array(second.ref.utf8), reason: Array("app missing".utf8)))
        let refused = try harness.reply(to: "fg-2")
        #expect(refused.string("outcome") == "undeliverable")
        #expect(refused.string("message")?.contains("app missing") == true)
    }
}
