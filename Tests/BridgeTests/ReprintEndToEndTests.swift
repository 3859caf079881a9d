import Bridge
import InterApp
import TerminalSimulator
import Testing
import ZeroMQ

@Suite("Reprint end to end (v1.1)")
struct ReprintEndToEndTests {
    @Test(
        "a sale's receipt reprinted by order code on each platform: correlated, its own topic, status, idempotent",
        arguments: [Platform.ios, .android])
    func byOrderCode(platform: Platform) throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: platform == .ios ? .ios : .android)
        ])
        let sale = try harness.call(saleJSON(id: "sale-1", lane: "lane-1", amount: 1200))
        let orderCode = try #require(sale.object("result")?.string("orderCode"))
        let command = #"{"id":"rp-1","lane":"lane-1","action":"reprint","orderCode":"\#(orderCode)"}"#
        let reply = try harness.call(command)
        #expect(reply.string("outcome") == "success")
        #expect(reply.string("action") == "reprint")
        #expect(reply.string("message") == (platform == .ios ? "Printing Success" : "Printing successful"))
        #expect(reply.object("result")?.string("orderCode") == orderCode)
        let url = try #require(harness.simulator.openedURLs(lane: "lane-1").last)
        #expect(
            url.contains(
                platform == .ios ? "&action=reprintTransaction&orderCode=" : "&action=print&command=reprint&orderCode=")
        )
        for event in ["accepted", "forwarded", "delivered"] {
            #expect(try harness.event("lane-1.reprint.\(event)").string("id") == "rp-1")
        }
        let result = try harness.event("lane-1.reprint.result")
        #expect(result.string("outcome") == "success")
        #expect(result.object("result")?.string("orderCode") == orderCode)

        let status = try harness.call(#"{"id":"st","action":"status","ref":"rp-1"}"#)
        #expect(status.object("result")?.string("state") == "final")
        #expect(status.object("result")?.string("action") == "reprint")
        #expect(status.object("result")?.string("outcome") == "success")

        let opened = harness.simulator.openedURLCount(lane: "lane-1")
        let repeated = try harness.call(command)
        #expect(repeated == reply)
        #expect(harness.simulator.openedURLCount(lane: "lane-1") == opened, "a repeat never reaches the terminal")
        let conflict = try harness.call(#"{"id":"rp-1","lane":"lane-1","action":"reprint"}"#)
        #expect(conflict.object("error")?.string("code") == "id_conflict")
        #expect(harness.simulator.history(lane: "lane-1").count == 1, "a reprint moves no money")
    }

    @Test("without an order code the last transaction is printed; an order code the app lacks is a failure")
    func lastAndUnknown() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .android)
        ])
        let empty = try harness.call(#"{"id":"rp-0","lane":"lane-1","action":"reprint"}"#)
        #expect(empty.string("outcome") == "failure")
        #expect(empty.string("reason") == "other")
        let sale = try harness.call(saleJSON(id: "sale-1", lane: "lane-1", amount: 500))
        let last = try harness.call(#"{"id":"rp-1","lane":"lane-1","action":"reprint"}"#)
        #expect(last.string("outcome") == "success")
        #expect(last.object("result")?.string("orderCode") == sale.object("result")?.string("orderCode"))
        let unknown = try harness.call(
            #"{"id":"rp-2","lane":"lane-1","action":"reprint","orderCode":"1020304050607080"}"#)
        #expect(unknown.string("outcome") == "failure")
        let bad = try harness.call(#"{"id":"rp-3","lane":"lane-1","action":"reprint","orderCode":"42"}"#)
        #expect(bad.object("error")?.string("code") == "invalid_value")
    }

    @Test("a reprint waits for a free lane (lane_busy)")
    func busyAndAbort() throws {
        var behaviour = LaneBehaviour()
        behaviour.cardPresentment = .manual
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)
        ])
        try harness.send(saleJSON(id: "sale-1", lane: "lane-1", amount: 100))
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .cardPresentment, timeout: .seconds(5)))
        let busy = try harness.call(#"{"id":"rp-1","lane":"lane-1","action":"reprint"}"#)
        #expect(busy.object("error")?.string("code") == "lane_busy")
        harness.simulator.release(lane: "lane-1")
        #expect(try harness.reply(to: "sale-1").string("outcome") == "success")
        #expect(try harness.call(#"{"id":"rp-1","lane":"lane-1","action":"reprint"}"#).string("outcome") == "success")
    }

    @Test("an abort's \"aborted\" answer does not end a reprint (not abortable): its own callback does")
    func notAbortable() throws {
        let context = try Context()
        defer { context.terminate() }
        let relay = try HostileRelay(context: context)
        let harness = try BridgeHarness.driving(relay, as: "driven", platform: .ios)
        try harness.send(#"{"id":"rp-1","lane":"driven","action":"reprint"}"#)
        let reprint = try relay.awaitOpen()
        #expect(reprint.url.contains("action=reprintTransaction"))
        try relay.send(.opened(ref: Array(reprint.ref.utf8)))
        try harness.send(#"{"id":"ab-1","lane":"driven","action":"abort"}"#)
        let abort = try relay.awaitOpen()
        try relay.send(.opened(ref: Array(abort.ref.utf8)))
        try relay.send(
            .callback(url: Array("interapp-callback://result?status=success&action=abort&message=aborted".utf8)))
        #expect(try harness.reply(to: "ab-1").string("outcome") == "success")
        try relay.send(
            .callback(
                url: Array(
                    "interapp-callback://result?status=success&message=Printing Success&action=reprintTransaction"
                        .utf8)))
        let reply = try harness.reply(to: "rp-1")
        #expect(reply.string("outcome") == "success")
        #expect(reply.string("message") == "Printing Success")
    }
}
