import Bridge
import InterApp
import TerminalSimulator
import Testing

/// Why a sale failed (issue 12, items 1 and 2): `reason` beside `outcome: failure`, and a cardholder's
/// cancel never left waiting for its deadline.
@Suite("Failure reasons and cardholder cancels")
struct FailureReasonTests {
    @Test(
        "a failed sale's reply and result event say why, in both dialects",
        arguments: [
            (SimulatorPlatform.ios, 1251, "declined"), (.android, 1251, "declined"),
            (.ios, 1252, "cardholder_cancel"), (.android, 1252, "cardholder_cancel"),
            (.ios, 1253, "host_error"), (.android, 1253, "other"),
        ])
    func reasons(platform: SimulatorPlatform, amount: Int, reason: String) throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: platform, behaviour: .zeroDelay)
        ])
        let reply = try harness.call(saleJSON(id: "f", lane: "lane-1", amount: amount))
        #expect(reply.string("outcome") == "failure")
        #expect(reply.string("reason") == reason)
        let event = try harness.event("lane-1.sale.result") { $0.string("id") == "f" }
        #expect(event.string("reason") == reason)
    }

    @Test("iOS User_cancel ends the sale in flight as a cardholder cancel, with or without its id")
    func userCancel() throws {
        var behaviour = LaneBehaviour()
        behaviour.fault = .neverAnswer
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)
        ])
        for (id, query) in [("c1", "&clientTransactionId=c1"), ("c2", "")] {
            try harness.send(saleJSON(id: id, lane: "lane-1", amount: 900))
            try harness.event("lane-1.sale.delivered") { $0.string("id") == id }
            harness.simulator.injectCallback(
                lane: "lane-1", url: "interapp-callback://result?status=fail&action=User_cancel\(query)")
            let reply = try harness.reply(to: id)
            #expect(reply.string("outcome") == "failure")
            #expect(reply.string("reason") == "cardholder_cancel")
        }
        #expect(harness.events.allSatisfy { !$0.topic.hasSuffix(".orphan") })
    }

    @Test("an unknown action with no id never ends the sale in flight: it is an orphan")
    func unknownActionWithoutId() throws {
        var behaviour = LaneBehaviour()
        behaviour.fault = .neverAnswer
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)
        ])
        try harness.send(saleJSON(id: "s", lane: "lane-1", amount: 900))
        try harness.event("lane-1.sale.delivered") { $0.string("id") == "s" }
        harness.simulator.injectCallback(
            lane: "lane-1", url: "interapp-callback://result?status=success&action=mystery")
        try harness.event("lane-1.mystery.orphan")
        try harness.awaitLane("lane-1") { $0.object("inFlight")?.string("id") == "s" }
    }

    @Test(
        "decode says the reason too",
        arguments: [
            ("interapp-callback://result?status=fail&message=(-4)%20USER_CANCEL&action=sale", "cardholder_cancel"),
            (
                "interapp-callback://result?status=failed&message=Transaction%20declined%20by%20host.&action=sale",
                "declined"
            ),
            ("interapp-callback://result?status=fail&message=(-999)%20UNEXPECTED&action=sale", "other"),
            ("interapp-callback://result?status=fail&action=User_cancel", "cardholder_cancel"),
        ])
    func decodeReason(url: String, reason: String) throws {
        let callback = try CallbackParser.parse(url)
        #expect(callback.summary["outcome"]?.stringValue == "failure")
        #expect(callback.summary["reason"]?.stringValue == reason)
    }
}
