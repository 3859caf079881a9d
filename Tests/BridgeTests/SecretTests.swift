import Bridge
import Foundation
import InterApp
import TerminalSimulator
import Testing

@Suite("Secrets and card numbers never leave unmasked")
struct SecretTests {
    @Test("events, replies, journal and logs hold no merchantKey, no ISV_clientSecret, no full card number")
    func noSecrets() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios)
        ])
        let secret = "TOP-SECRET-ISV-9876"
        let sale = saleJSON(
            id: "isv", lane: "lane-1", amount: 1000,
            extra: #","ISV_amount":10,"ISV_clientId":"client.apps.vivapayments.com","ISV_clientSecret":"\#(secret)""#)
        var replies = [try harness.call(sale)]
        replies.append(try harness.call(sale))
        replies.append(try harness.call(#"{"id":"st","action":"status","ref":"isv"}"#))
        harness.simulator.injectCallback(
            lane: "lane-1",
            url:
                "interapp-callback://result?status=success&action=sale&clientTransactionId=zzz&accountNumber=4792751234569999&amount=1"
        )
        try harness.event("lane-1.sale.orphan")
        harness.simulator.injectCallback(lane: "lane-1", url: "junk 4792751234569999 junk")
        try harness.event("lane-1.unknown.orphan")
        let url = try #require(harness.simulator.openedURLs(lane: "lane-1").first)
        #expect(url.contains(secret), "the terminal itself must get the secret")
        let everything =
            replies.map { JSONValue.object($0).serializedString }.joined()
            + harness.events.map { $0.topic + JSONValue.object($0.body).serializedString }.joined()
            + harness.logs.text
        for forbidden in [secret, harness.configuration.terminal.merchantKey, "4792751234569999"] {
            #expect(!everything.contains(forbidden), "\(forbidden) leaked")
        }
        harness.bridge.halt()
        let journal =
            try String(contentsOfFile: harness.configuration.journal, encoding: .isoLatin1)
            + ((try? String(contentsOfFile: harness.configuration.journal + "-wal", encoding: .isoLatin1)) ?? "")
        for forbidden in [secret, harness.configuration.terminal.merchantKey, "4792751234569999"] {
            #expect(!journal.contains(forbidden), "\(forbidden) reached the journal")
        }
    }
}
