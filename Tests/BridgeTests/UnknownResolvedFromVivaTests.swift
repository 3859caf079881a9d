import Bridge
import Foundation
import InterApp
import TerminalSimulator
import Testing

/// docs/CLOUD.md, "Unknown results resolved from Viva's records": a real bridge, simulated relay lanes that
/// record their sales in the simulated back office's ledger, and the back office on loopback.
@Suite("Unknown results resolved from Viva's records")
struct UnknownResolvedFromVivaTests {
    /// An iOS lane whose app runs the sale (the ledger records it) but whose callback never comes.
    private static let callbackLost: LaneBehaviour = {
        var behaviour = LaneBehaviour.zeroDelay
        behaviour.fault = .neverAnswer
        return behaviour
    }()

    /// An iOS lane whose sale never reaches the host: nothing is recorded at Viva.
    private static let neverAtHost: LaneBehaviour = {
        var behaviour = LaneBehaviour.zeroDelay
        behaviour.host = .manual
        return behaviour
    }()

    private static func harness(
        _ viva: SimulatedVivaCloud, behaviour: LaneBehaviour, journalFolder: URL? = nil, cloud: Bool = true
    ) throws -> BridgeHarness {
        let configuration = try viva.configuration()
        return try BridgeHarness(
            lanes: [SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)],
            clock: ManualBridgeClock(), journalFolder: journalFolder, ledger: viva.ledger,
            configure: { if cloud { $0.vivaCloud = configuration } })
    }

    /// Sends sale `id` (deadline 1 s) and moves the clock past its deadline: it is answered `unknown`.
    private static func unknownSale(
        _ harness: BridgeHarness, id: String, amount: Int, clientTransactionId: String? = nil, recorded: Bool
    ) throws {
        let ctid = clientTransactionId.map { #","clientTransactionId":"\#($0)""# } ?? ""
        try harness.send(saleJSON(id: id, lane: "lane-1", amount: amount, extra: #","timeoutMs":1000"# + ctid))
        if recorded {
            #expect(harness.simulator.waitForHistory(lane: "lane-1", count: 1, timeout: .seconds(10)))
        } else {
            #expect(harness.simulator.waitForPhase(lane: "lane-1", .host, timeout: .seconds(10)))
        }
        harness.advance(byMs: 1001)
        #expect(try harness.reply(to: id).string("outcome") == "unknown")
    }

    /// `status` of `ref` once `until` holds of its result (asked again while it does not).
    private static func status(
        _ harness: BridgeHarness, _ ref: String, until: (JSONObject) -> Bool
    ) throws -> JSONObject {
        for attempt in 0..<500 {
            let answer = try harness.call(#"{"id":"st-\#(ref)-\#(attempt)","action":"status","ref":"\#(ref)"}"#)
            let result = try #require(answer.object("result"))
            if until(result) { return result }
            usleep(10_000)
        }
        Issue.record("the status of \(ref) never became what was awaited")
        throw HarnessError.timeout("status of \(ref)")
    }

    /// The value of the sample of `name` whose labels hold each of `labels`.
    private static func sample(_ metrics: String, _ name: String, _ labels: [String]) -> String? {
        metrics.split(separator: "\n").first { line in
            line.hasPrefix(name + "{") && labels.allSatisfy { line.contains($0) }
        }.flatMap { $0.split(separator: " ").last.map(String.init) }
    }

    @Test("a sale Viva records F for the amount asked is resolved success, by viva, and repeats get the resolution")
    func resolvedSuccess() async throws {
        let viva = SimulatedVivaCloud()
        try await viva.start()
        defer { Task { await viva.stop() } }
        let harness = try Self.harness(viva, behaviour: Self.callbackLost)
        try Self.unknownSale(harness, id: "lost", amount: 1200, recorded: true)
        let entry = try #require(viva.ledger.entries.first)
        #expect(entry.statusId == "F")
        harness.advance(byMs: 1000)
        let resolved = try harness.event("lane-1.sale.resolved") { $0.string("id") == "lost" }
        #expect(resolved.string("outcome") == "success")
        #expect(resolved.object("resolved")?.string("by") == "viva")
        #expect(resolved.object("resolved")?.string("transactionId") == entry.transactionId)
        #expect(resolved.object("resolved")?.string("orderCode") == entry.orderCode)
        #expect(resolved.object("earlier")?.string("outcome") == "unknown")
        #expect(resolved.object("result")?.int("amount") == 1200)
        let repeated = try harness.call(
            saleJSON(id: "lost", lane: "lane-1", amount: 1200, extra: #","timeoutMs":1000"#))
        #expect(repeated.string("outcome") == "success")
        #expect(repeated.object("resolved")?.string("by") == "viva")
        #expect(harness.simulator.openedURLs(lane: "lane-1").count == 1)
        #expect(viva.dayLists == 3, "one list a day: the sale's UTC day and the days either side")
        let metrics = harness.bridge.metrics.render()
        #expect(
            Self.sample(metrics, "vivabridge_cloud_requests_total", [#"call="listTransactions""#, #"code="200""#])
                == "3")
        #expect(Self.sample(metrics, "vivabridge_cloud_lookups_total", [#"result="success""#]) == "1")
        #expect(harness.logs.hasLine(containingAll: ["resolved from Viva's records", "lost"]))
        let everything = harness.logs.text + metrics + harness.events.map { "\($0.body)" }.joined()
        #expect(!everything.contains("CLIENT-SECRET-VALUE") && !everything.contains("API-KEY-VALUE"))
    }

    @Test("a sale Viva records E is resolved failure, by viva")
    func resolvedFailure() async throws {
        let viva = SimulatedVivaCloud()
        try await viva.start()
        defer { Task { await viva.stop() } }
        let harness = try Self.harness(viva, behaviour: Self.callbackLost)
        // Amounts ending in 51 are declined by the simulated host, and recorded E.
        try Self.unknownSale(harness, id: "declined", amount: 1251, recorded: true)
        #expect(viva.ledger.entries.first?.statusId == "E")
        harness.advance(byMs: 1000)
        let resolved = try harness.event("lane-1.sale.resolved") { $0.string("id") == "declined" }
        #expect(resolved.string("outcome") == "failure")
        #expect(resolved.object("resolved")?.string("by") == "viva")
        let status = try Self.status(harness, "declined") { $0.string("outcome") == "failure" }
        #expect(status.object("reply")?.object("resolved")?.string("by") == "viva")
    }

    @Test("a sale Viva has no record of stays unknown across look-ups, with found false")
    func notFoundStaysUnknown() async throws {
        let viva = SimulatedVivaCloud()
        try await viva.start()
        defer { Task { await viva.stop() } }
        let harness = try Self.harness(viva, behaviour: Self.neverAtHost)
        try Self.unknownSale(harness, id: "nowhere", amount: 800, recorded: false)
        harness.advance(byMs: 1000)
        let first = try Self.status(harness, "nowhere") { $0.object("reply")?.object("viva") != nil }
        #expect(first.string("outcome") == "unknown")
        #expect(first.object("reply")?.object("viva")?["found"] == .bool(false))
        let checked = try #require(first.object("reply")?.object("viva")?.string("checkedAt"))
        harness.advance(byMs: 1000)
        let second = try Self.status(harness, "nowhere") {
            $0.object("reply")?.object("viva")?.string("checkedAt") != checked
        }
        #expect(second.string("outcome") == "unknown")
        #expect(viva.dayLists == 6)
        try harness.drainEvents()
        #expect(harness.events.allSatisfy { !$0.topic.hasSuffix(".resolved") })
    }

    @Test("a record with another amount keeps the sale unknown and publishes a disagreement")
    func amountMismatch() async throws {
        let viva = SimulatedVivaCloud()
        try await viva.start()
        defer { Task { await viva.stop() } }
        let harness = try Self.harness(viva, behaviour: Self.neverAtHost)
        try Self.unknownSale(harness, id: "odd", amount: 1200, clientTransactionId: "order-77", recorded: false)
        viva.ledger.recordSale(amount: 1000, merchantTrns: "order-77", terminalId: "16016684")
        harness.advance(byMs: 1000)
        let disagreement = try harness.event("lane-1.sale.disagreement") { $0.string("id") == "odd" }
        #expect(disagreement.string("source") == "viva")
        #expect(disagreement.object("viva")?.int("amount") == 1000)
        #expect(disagreement.object("bridge")?.int("amount") == 1200)
        let status = try Self.status(harness, "odd") { $0.object("reply")?.object("viva") != nil }
        #expect(status.string("outcome") == "unknown")
        #expect(status.object("reply")?.object("viva")?["found"] == .bool(true))
        #expect(status.object("reply")?.object("viva")?.string("statusId") == "F")
    }

    @Test("two records carrying the sale's id keep it unknown, both kept for a person")
    func twoMatches() async throws {
        let viva = SimulatedVivaCloud()
        try await viva.start()
        defer { Task { await viva.stop() } }
        let harness = try Self.harness(viva, behaviour: Self.neverAtHost)
        try Self.unknownSale(harness, id: "twice", amount: 1200, clientTransactionId: "order-78", recorded: false)
        viva.ledger.recordSale(amount: 1200, merchantTrns: "order-78", terminalId: "16016684")
        viva.ledger.recordSale(amount: 1200, merchantTrns: "order-78", terminalId: "16016684")
        harness.advance(byMs: 1000)
        let status = try Self.status(harness, "twice") { $0.object("reply")?.object("viva") != nil }
        #expect(status.string("outcome") == "unknown")
        guard case .array(let matches)? = status.object("reply")?.object("viva")?["matches"] else {
            Issue.record("no matches kept: \(status)")
            return
        }
        #expect(matches.count == 2)
        try harness.drainEvents()
        #expect(harness.events.allSatisfy { !$0.topic.hasSuffix(".resolved") })
    }

    @Test("a late callback that disagrees with Viva's resolution is journaled and published as a disagreement")
    func lateCallbackDisagrees() async throws {
        let viva = SimulatedVivaCloud()
        try await viva.start()
        defer { Task { await viva.stop() } }
        let harness = try Self.harness(viva, behaviour: Self.callbackLost)
        try Self.unknownSale(harness, id: "argued", amount: 1200, recorded: true)
        let ctid = try #require(viva.ledger.entries.first?.merchantTrns)
        harness.advance(byMs: 1000)
        try harness.event("lane-1.sale.resolved") { $0.string("id") == "argued" }
        harness.simulator.injectCallback(
            lane: "lane-1",
            url:
                "interapp-callback://result?status=fail&message=Declined&action=sale&clientTransactionId=\(ctid)&amount=1200"
        )
        let disagreement = try harness.event("lane-1.sale.disagreement") { $0.string("id") == "argued" }
        #expect(disagreement.string("source") == "callback")
        #expect(disagreement.object("bridge")?.string("outcome") == "success")
        #expect(disagreement.object("callback")?.string("status") == "failure")
        let status = try Self.status(harness, "argued") { _ in true }
        #expect(status.string("outcome") == "success", "the resolution stands")
        #expect(harness.events.allSatisfy { !$0.topic.hasSuffix(".orphan") || $0.body.string("action") == "probe" })
    }

    @Test("a late failure after a restart still disagrees with the success Viva's records resolved in the last run")
    func lateCallbackDisagreesAfterRestart() async throws {
        let viva = SimulatedVivaCloud()
        try await viva.start()
        defer { Task { await viva.stop() } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("viva-argued-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try Self.harness(viva, behaviour: Self.callbackLost, journalFolder: folder)
        try Self.unknownSale(first, id: "argued", amount: 1200, recorded: true)
        let ctid = try #require(viva.ledger.entries.first?.merchantTrns)
        first.advance(byMs: 1000)
        try first.event("lane-1.sale.resolved") { $0.string("id") == "argued" }
        first.bridge.stop()

        let again = try Self.harness(viva, behaviour: Self.callbackLost, journalFolder: folder)
        again.simulator.injectCallback(
            lane: "lane-1",
            url:
                "interapp-callback://result?status=fail&message=Declined&action=sale&clientTransactionId=\(ctid)&amount=1200"
        )
        let disagreement = try again.event("lane-1.sale.disagreement") { $0.string("id") == "argued" }
        #expect(disagreement.object("bridge")?.string("outcome") == "success")
        #expect(disagreement.object("bridge")?.string("resolvedBy") == "viva")
        #expect(disagreement.object("callback")?.string("status") == "failure")
        let status = try Self.status(again, "argued") { _ in true }
        #expect(status.string("outcome") == "success", "the resolution stands")
    }

    @Test("a late success after Viva's records resolved failure completes the sale and publishes a disagreement")
    func lateSuccessAgainstResolvedFailure() async throws {
        let viva = SimulatedVivaCloud()
        try await viva.start()
        defer { Task { await viva.stop() } }
        let harness = try Self.harness(viva, behaviour: Self.callbackLost)
        try Self.unknownSale(harness, id: "refused", amount: 1251, recorded: true)
        let ctid = try #require(viva.ledger.entries.first?.merchantTrns)
        harness.advance(byMs: 1000)
        let resolved = try harness.event("lane-1.sale.resolved") { $0.string("id") == "refused" }
        #expect(resolved.string("outcome") == "failure")
        harness.simulator.injectCallback(
            lane: "lane-1",
            url:
                "interapp-callback://result?status=success&message=Approved&action=sale&clientTransactionId=\(ctid)&amount=1251"
        )
        let late = try harness.event("lane-1.sale.late_result") { $0.string("id") == "refused" }
        #expect(late.string("outcome") == "success", "a late success still completes a sale resolved failure")
        let disagreement = try harness.event("lane-1.sale.disagreement") { $0.string("id") == "refused" }
        #expect(disagreement.string("source") == "callback")
        #expect(disagreement.object("bridge")?.string("outcome") == "failure")
        #expect(disagreement.object("bridge")?.string("resolvedBy") == "viva")
    }

    @Test("an unknown left by the last run is looked up after a restart")
    func restartWithUnknownPending() async throws {
        let viva = SimulatedVivaCloud()
        try await viva.start()
        defer { Task { await viva.stop() } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("viva-restart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The first harness stays alive (its end removes the folder); only its bridge stops.
        let first = try Self.harness(viva, behaviour: Self.neverAtHost, journalFolder: folder, cloud: false)
        try Self.unknownSale(first, id: "before", amount: 900, clientTransactionId: "order-79", recorded: false)
        viva.ledger.recordSale(amount: 900, merchantTrns: "order-79", terminalId: "16016684")
        first.bridge.stop()
        #expect(viva.dayLists == 0, "without vivaCloud nothing calls Viva")
        let again = try Self.harness(viva, behaviour: Self.neverAtHost, journalFolder: folder)
        again.advance(byMs: 1000)
        let resolved = try again.event("lane-1.sale.resolved") { $0.string("id") == "before" }
        #expect(resolved.string("outcome") == "success")
        #expect(resolved.object("resolved")?.string("by") == "viva")
    }
}
