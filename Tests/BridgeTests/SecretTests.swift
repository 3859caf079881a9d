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

    @Test("track data in a callback reaches no reply, event, journal row or log: only the masked card number")
    func noTrackData() throws {
        var behaviour = LaneBehaviour()
        behaviour.fault = .neverAnswer
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)
        ])
        let track1 = "%25B4222222222222222%5EDOE%2FJOHN%5E2512101773311000%3F"
        let track2 = ";4222222222222222=2512101773311?"
        try harness.send(saleJSON(id: "swiped", lane: "lane-1", amount: 1200))
        try harness.event("lane-1.sale.delivered") { $0.string("id") == "swiped" }
        harness.simulator.injectCallback(
            lane: "lane-1",
            url: "interapp-callback://result?status=success&action=sale&clientTransactionId=swiped&amount=1200"
                + "&accountNumber=4222222222222222=2512101773311&track1=\(track1)&track2=\(track2)&\(track2)"
                + "&message=read%20\(track2)")
        let reply = try harness.reply(to: "swiped")
        #expect(reply.string("outcome") == "success")
        let result = try #require(reply.object("result"))
        for field in ["accountNumber", "track1", "track2"] {
            #expect(result.string(field) == "422222******2222", "\(field): \(result)")
        }
        try harness.event("lane-1.sale.result") { $0.string("id") == "swiped" }
        // An orphan callback and one that is no callback at all carry track data too.
        harness.simulator.injectCallback(
            lane: "lane-1",
            url: "interapp-callback://result?status=success&action=sale&clientTransactionId=zzz&track2=\(track2)")
        try harness.event("lane-1.sale.orphan")
        harness.simulator.injectCallback(
            lane: "lane-1", url: "junk \(track2) %B4222222222222222^DOE/JOHN^2512101773311?")
        try harness.event("lane-1.unknown.orphan")
        let status = try harness.call(#"{"id":"st","action":"status","ref":"swiped"}"#)
        let everything =
            JSONValue.object(reply).serializedString + JSONValue.object(status).serializedString
            + harness.events.map { $0.topic + JSONValue.object($0.body).serializedString }.joined()
            + harness.logs.text
        #expect(everything.contains("422222******2222"))
        let forbidden = ["4222222222222222", "773311", "JOHN", "=2512", "^"]
        for text in forbidden {
            #expect(!everything.contains(text), "\(text) leaked")
        }
        harness.bridge.halt()
        let journal =
            try String(contentsOfFile: harness.configuration.journal, encoding: .isoLatin1)
            + ((try? String(contentsOfFile: harness.configuration.journal + "-wal", encoding: .isoLatin1)) ?? "")
        #expect(journal.contains("422222******2222"))
        for text in ["4222222222222222", "773311", "JOHN", "=2512"] {
            #expect(!journal.contains(text), "\(text) reached the journal")
        }
    }
}
