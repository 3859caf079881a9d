import InterApp
import TerminalSimulator
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

@Suite("Deadlines: unknown, never failure; then the late result")
struct UnknownAndLateTests {
    @Test("a sale past its deadline is unknown; its late callback completes it and status returns it")
    func unknownThenLate() throws {
        let clock = ManualBridgeClock()
        var behaviour = LaneBehaviour()
        behaviour.host = .manual
        let harness = try BridgeHarness(
            lanes: [SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)],
            clock: clock)
        try harness.send(saleJSON(id: "slow", lane: "lane-1", amount: 4200, extra: #","timeoutMs":1000"#))
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .host, timeout: .seconds(5)))
        harness.advance(byMs: 1001)
        let reply = try harness.reply(to: "slow")
        #expect(reply.string("outcome") == "unknown")
        try harness.event("lane-1.sale.unknown") { $0.string("id") == "slow" }
        harness.simulator.release(lane: "lane-1")
        let late = try harness.event("lane-1.sale.late_result") { $0.string("id") == "slow" }
        #expect(late.string("outcome") == "success")
        #expect(late["late"] == .bool(true))
        let status = try harness.call(#"{"id":"st","action":"status","ref":"slow"}"#)
        let result = try #require(status.object("result"))
        #expect(result.string("state") == "final")
        #expect(result.string("outcome") == "success")
        #expect(result.object("reply")?["late"] == .bool(true))
        #expect(result.object("reply")?.object("result")?.int("amount") == 4200)
    }

    /// An Android lane whose sale `id` of `amount` reached the terminal (recorded in its history) but
    /// whose callback never came: the sale is answered `unknown`, and the lane then answers look-ups.
    private static func unknownAndroidSale(id: String, amount: Int) throws -> BridgeHarness {
        var behaviour = LaneBehaviour()
        behaviour.fault = .neverAnswer
        let harness = try BridgeHarness(
            lanes: [SimulatedLane(id: "a", endpoint: "tcp://127.0.0.1:*", platform: .android, behaviour: behaviour)],
            clock: ManualBridgeClock())
        try harness.send(saleJSON(id: id, lane: "a", amount: amount, extra: #","timeoutMs":1000"#))
        #expect(harness.simulator.waitForURLs(lane: "a", count: 1, timeout: .seconds(5)))
        try harness.event("a.sale.delivered") { $0.string("id") == id }
        var healthy = LaneBehaviour()
        healthy.fault = nil
        harness.simulator.setBehaviour(healthy, lane: "a")
        harness.advance(byMs: 1001)
        #expect(try harness.reply(to: id).string("outcome") == "unknown")
        return harness
    }

    @Test("an unknown Android sale is looked up with transactionDetails once the lane is idle")
    func androidLookup() throws {
        let harness = try Self.unknownAndroidSale(id: "lost", amount: 990)
        let late = try harness.event("a.sale.late_result") { $0.string("id") == "lost" }
        #expect(late.string("outcome") == "success")
        #expect(harness.simulator.openedURLs(lane: "a").last?.contains("action=transactionDetails") == true)
    }

    @Test("an unknown sale the look-up shows declined stays unknown, with the details in its status")
    func androidLookupOfADecline() throws {
        // Amounts ending in 51 are declined by the simulated host.
        let harness = try Self.unknownAndroidSale(id: "declined", amount: 1251)
        #expect(harness.simulator.waitForURLs(lane: "a", count: 2, timeout: .seconds(5)))
        try harness.awaitLane("a") { $0["inFlight"] == .null }
        let status = try harness.call(#"{"id":"st","action":"status","ref":"declined"}"#)
        let result = try #require(status.object("result"))
        #expect(result.string("outcome") == "unknown")
        let lookup = try #require(result.object("reply")?.object("lookup"), "no look-up details kept")
        #expect(lookup.string("authorisationCode") == "")
        #expect(lookup.int("amount") == 1251)
        #expect(harness.events.allSatisfy { !$0.topic.hasSuffix(".late_result") })
    }

    @Test("a duplicate callback completes nothing twice: the second is an orphan")
    func duplicateCallback() throws {
        var behaviour = LaneBehaviour()
        behaviour.fault = .answerTwice
        let harness = try BridgeHarness(
            lanes: [SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)])
        #expect(try harness.call(saleJSON(id: "twice", lane: "lane-1", amount: 300)).string("outcome") == "success")
        try harness.event("lane-1.sale.orphan")
        try harness.expectNoReply(withinMs: 200)
        let results = harness.events.filter { $0.topic == "lane-1.sale.result" && $0.body.string("id") == "twice" }
        #expect(results.count == 1)
    }

    @Test("a callback that matches nothing is published as orphan and kept")
    func orphan() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios)
        ])
        harness.simulator.injectCallback(
            lane: "lane-1",
            url: "interapp-callback://result?status=success&action=sale&clientTransactionId=nobody&amount=5")
        let orphan = try harness.event("lane-1.sale.orphan")
        #expect(orphan.object("result")?.string("clientTransactionId") == "nobody")
        harness.simulator.injectCallback(lane: "lane-1", url: "not a callback at all")
        let raw = try harness.event("lane-1.unknown.orphan")
        #expect(raw.string("raw") == "not a callback at all")
    }
}

@Suite("A clientTransactionId the app echoes without encoding still correlates")
struct UnencodedEchoTests {
    @Test("an id holding & comes back cut at the &: the lane's sale in flight still completes")
    func cutAtAmpersand() throws {
        var behaviour = LaneBehaviour()
        behaviour.cardPresentment = .manual
        let harness = try BridgeHarness(
            lanes: [SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)])
        try harness.send(
            saleJSON(id: "amp", lane: "lane-1", amount: 800, extra: #","clientTransactionId":"order 7&8""#))
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .cardPresentment, timeout: .seconds(5)))
        harness.simulator.injectCallback(
            lane: "lane-1",
            url:
                "interapp-callback://result?status=success&message=Transaction%20successful.&action=sale&clientTransactionId=order 7&8&amount=800"
        )
        let reply = try harness.reply(to: "amp")
        #expect(reply.string("outcome") == "success")
        #expect(reply.object("result")?.int("amount") == 800)
    }

    @Test("ids of unreserved characters only ever match exactly")
    func exactForPlainIds() {
        #expect(!Correlator.echoedWithoutEncoding(received: "pos-1", sent: "pos-10"))
        #expect(!Correlator.echoedWithoutEncoding(received: "", sent: "a&b"))
        #expect(Correlator.echoedWithoutEncoding(received: "a", sent: "a&b"))
        #expect(Correlator.echoedWithoutEncoding(received: "a%26b", sent: "a&b"))
        #expect(!Correlator.echoedWithoutEncoding(received: "b", sent: "a&b"))
    }
}
