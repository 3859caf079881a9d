import Bridge
import Foundation
import InterApp
import LocalPostgres
import TerminalSimulator
import Testing

/// docs/CLOUD.md, "Cloud lanes": a real bridge with one simulated relay lane (`lane-1`) and one cloud lane
/// (`cloud-1`) driven through Viva's simulated back office on loopback.
@Suite("Cloud lanes")
struct CloudLaneTests {
    static let device = CloudTerminal(terminalId: "16000001", cashRegisterId: "till-1")

    /// A harness whose `cloud-1` is a cloud lane of `viva`, polled every 200 ms.
    static func harness(
        _ viva: SimulatedVivaCloud, journalFolder: URL? = nil, journal: String? = nil, timeoutMs: Int? = nil
    ) throws -> BridgeHarness {
        var cloud = try viva.configuration()
        cloud.pollMs = 200
        return try BridgeHarness(
            lanes: [
                SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .android, behaviour: .zeroDelay)
            ],
            journalFolder: journalFolder, journal: journal,
            configure: { configuration in
                configuration.vivaCloud = cloud
                var lane = LaneConfiguration(id: "cloud-1", transport: .cloud(Self.device), platform: .android)
                if let timeoutMs { lane.terminal.timeoutMs[.sale] = timeoutMs }
                configuration.lanes.append(lane)
            })
    }

    /// Viva's simulated back office on loopback, started, with `faults` set.
    static func startedViva(_ faults: (inout CloudFaults) -> Void = { _ in }) async throws -> SimulatedVivaCloud {
        let viva = SimulatedVivaCloud()
        var set = viva.backOffice.faults
        faults(&set)
        viva.backOffice.faults = set
        try await viva.start()
        return viva
    }

    /// The session ids the back office was posted, in order.
    static func postedSessions(_ viva: SimulatedVivaCloud) -> [String] {
        viva.backOffice.requests.filter { $0.method == "POST" && $0.path.hasSuffix("transactions:sale") }
            .compactMap { request in
                (try? JSONValue.parse(request.body))?.objectValue?["sessionId"]?.stringValue
            }
    }

    @Test("a sale on a cloud lane is posted once, confirmed by Viva's record, and answered success")
    func approvedSale() async throws {
        let viva = try await Self.startedViva()
        defer { Task { await viva.stop() } }
        let harness = try Self.harness(viva)
        let reply = try harness.call(saleJSON(id: "c1", lane: "cloud-1", amount: 1200))
        #expect(reply.string("outcome") == "success")
        let result = try #require(reply.object("result"))
        let entry = try #require(viva.ledger.entries.first)
        #expect(viva.ledger.entries.count == 1)
        #expect(entry.statusId == "F" && entry.amount == 1200 && entry.merchantTrns == "c1")
        #expect(result.string("transactionId") == entry.transactionId)
        #expect(result.int("amount") == 1200)
        #expect(result.string("eventId") == "0", "every field but the amounts is a string (callbackResult)")
        let card = try #require(result.string("accountNumber"))
        #expect(card.hasSuffix("9999") && Masking.maskCardNumber(card) == card, "at most the first 6 and last 4")
        let sessions = Self.postedSessions(viva)
        #expect(sessions.count == 1)
        #expect(result.string("sessionId") == sessions.first)
        #expect(viva.backOffice.count(path: "/checkout/v2/transactions/\(entry.transactionId)") >= 1)
        try harness.event("cloud-1.sale.accepted") { $0.string("id") == "c1" }
        try harness.event("cloud-1.sale.forwarded") { $0.string("id") == "c1" }
        try harness.event("cloud-1.sale.result") { $0.string("id") == "c1" }
        let repeated = try harness.call(saleJSON(id: "c1", lane: "cloud-1", amount: 1200))
        #expect(repeated.string("outcome") == "success")
        #expect(Self.postedSessions(viva).count == 1, "a repeat is answered from the journal, never posted")
        try harness.drainEvents()
        let everything =
            harness.logs.text + harness.bridge.metrics.render() + harness.events.map { "\($0.body)" }.joined()
            + "\(reply)"
        #expect(!everything.contains("CLIENT-SECRET-VALUE") && !everything.contains("API-KEY-VALUE"))
        #expect(!viva.backOffice.issuedTokens.contains { everything.contains($0) }, "no token either")
    }

    @Test("a cloud lane's link goes down while Viva does not answer, up once it does; the sale ends unknown, uncharged")
    func linkFollowsViva() async throws {
        let viva = try await Self.startedViva { $0.serverErrorRate = 1 }
        defer { Task { await viva.stop() } }
        let harness = try Self.harness(viva)
        try harness.send(saleJSON(id: "down", lane: "cloud-1", amount: 1800, extra: #","timeoutMs":1000"#))
        try harness.event("cloud-1.lane.disconnected", timeoutMs: 20_000) {
            $0.string("endpoint") == "viva-cloud:16000001"
        }
        let lanes = try harness.call(#"{"id":"l1","action":"lanes"}"#)
        let entry = lanes.object("result")?["lanes"]?.arrayValue?.compactMap(\.objectValue)
            .first { $0.string("lane") == "cloud-1" }
        #expect(entry?["connected"] == .bool(false))
        #expect(harness.bridge.metrics.render().contains(#"vivabridge_lane_up{lane="cloud-1",transport="cloud"} 0"#))
        var faults = viva.backOffice.faults
        faults.serverErrorRate = 0
        viva.backOffice.faults = faults
        try harness.event("cloud-1.lane.connected", timeoutMs: 20_000)
        _ = try harness.call(#"{"id":"p1","action":"ping"}"#)  // a turn after the link came up
        #expect(harness.bridge.metrics.render().contains(#"vivabridge_lane_up{lane="cloud-1",transport="cloud"} 1"#))
        let reply = try harness.reply(to: "down", timeoutMs: 60_000)
        #expect(reply.string("outcome") == "unknown", "Viva never took the sale: unknown, never failure")
        #expect(viva.ledger.entries.isEmpty)
    }

    @Test("a declined sale ends failure, a pre-authorisation is posted with preauth")
    func declinedAndPreAuth() async throws {
        let viva = try await Self.startedViva()
        defer { Task { await viva.stop() } }
        let harness = try Self.harness(viva)
        let declined = try harness.call(saleJSON(id: "d1", lane: "cloud-1", amount: 1251))
        #expect(declined.string("outcome") == "failure")
        let preAuth = try harness.call(#"{"id":"p1","action":"pre_auth","lane":"cloud-1","amount":900}"#)
        #expect(preAuth.string("outcome") == "success")
        let posted = viva.backOffice.requests.filter { $0.path.hasSuffix("transactions:sale") }.last
        let body = try #require(posted.flatMap { try? JSONValue.parse($0.body).objectValue })
        #expect(body["preauth"] == .bool(true))
    }

    @Test("what a cloud lane cannot carry is refused unsupported_on_transport, with nothing sent")
    func unsupportedOnTransport() async throws {
        let viva = try await Self.startedViva()
        defer { Task { await viva.stop() } }
        let harness = try Self.harness(viva)
        let batch = try harness.call(#"{"id":"b1","action":"batch","lane":"cloud-1","command":"open"}"#)
        #expect(batch.object("error")?.string("code") == "unsupported_on_transport")
        let fee = try harness.call(
            saleJSON(
                id: "f1", lane: "cloud-1", amount: 1000,
                extra: #","ISV_amount":10,"ISV_clientId":"isv","ISV_clientSecret":"SECRET-ISV""#))
        #expect(fee.object("error")?.string("code") == "unsupported_on_transport")
        #expect(fee.object("error")?.string("message")?.contains("ISV_amount") == true)
        #expect(viva.backOffice.requests.isEmpty, "nothing reached Viva")
        let status = try harness.call(#"{"id":"st","action":"status","ref":"f1"}"#)
        #expect(status.object("result")?.string("state") == "not_found", "a refused command is not journaled")
        let lanes = try harness.call(#"{"id":"l","action":"lanes"}"#)
        let entries = lanes.object("result")?["lanes"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(entries.first { $0.string("lane") == "cloud-1" }?.string("transport") == "cloud")
        #expect(entries.first { $0.string("lane") == "lane-1" }?.string("transport") == "relay")
        #expect(entries.first { $0.string("lane") == "cloud-1" }?["connected"] == .bool(true))
    }

    @Test("a POST whose answer was lost is asked for, never posted twice: one session, one charge")
    func lostPostAnswer() async throws {
        let viva = try await Self.startedViva { $0.lostPostAnswers = 1 }
        defer { Task { await viva.stop() } }
        let harness = try Self.harness(viva)
        let reply = try harness.call(saleJSON(id: "lost", lane: "cloud-1", amount: 1300), timeoutMs: 20_000)
        #expect(reply.string("outcome") == "success")
        #expect(viva.ledger.entries.count == 1)
        #expect(viva.backOffice.repeatedSessionPosts == 0)
        #expect(Set(Self.postedSessions(viva)).count == 1)
    }

    @Test("a session Viva approves but whose record disagrees ends unknown and publishes disagreement")
    func disagreement() async throws {
        let viva = try await Self.startedViva { $0.sessionsDisagree = true }
        defer { Task { await viva.stop() } }
        let harness = try Self.harness(viva)
        let reply = try harness.call(saleJSON(id: "dis", lane: "cloud-1", amount: 1400))
        #expect(reply.string("outcome") == "unknown")
        let event = try harness.event("cloud-1.sale.disagreement") { $0.string("id") == "dis" }
        #expect(event.string("source") == "viva")
        #expect(event.object("bridge")?.string("outcome") == "unknown")
        #expect(event.object("viva")?.string("statusId") == "E")
        #expect(event.object("viva")?.int("amount") == 1400)
    }

    @Test("an abort deletes the session in flight: the sale ends aborted, and no money is taken")
    func abortDeletesSession() async throws {
        let viva = try await Self.startedViva { $0.sessionsNeverFinish = true }
        defer { Task { await viva.stop() } }
        let harness = try Self.harness(viva)
        try harness.send(saleJSON(id: "s", lane: "cloud-1", amount: 1500))
        try harness.event("cloud-1.sale.forwarded") { $0.string("id") == "s" }
        let abort = try harness.call(#"{"id":"a","action":"abort","lane":"cloud-1"}"#)
        #expect(abort.string("outcome") == "success")
        #expect(abort.string("ref") == "s")
        #expect(try harness.reply(to: "s").string("outcome") == "aborted")
        #expect(viva.ledger.entries.isEmpty)
        #expect(viva.backOffice.requests.contains { $0.method == "DELETE" })
        let idle = try harness.call(#"{"id":"a2","action":"abort","lane":"cloud-1"}"#)
        #expect(idle.string("outcome") == "nothing_to_abort")
    }

    @Test("a session still running at its deadline is aborted and polled until it ends")
    func deadlineAborts() async throws {
        let viva = try await Self.startedViva { $0.sessionsNeverFinish = true }
        defer { Task { await viva.stop() } }
        let harness = try Self.harness(viva)
        let reply = try harness.call(
            saleJSON(id: "slow", lane: "cloud-1", amount: 1600, extra: #","timeoutMs":1000"#), timeoutMs: 20_000)
        #expect(reply.string("outcome") == "aborted", "Viva's session says it ended aborted: no money was taken")
        #expect(viva.backOffice.requests.contains { $0.method == "DELETE" })
        #expect(viva.ledger.entries.isEmpty)
    }

    @Test(
        "a bridge stopped between the POST and the result asks for the session after its restart: one charge",
        arguments: [false, true])
    func restartResumesSession(onPostgres: Bool) async throws {
        let viva = try await Self.startedViva { $0.sessionsNeverFinish = true }
        defer { Task { await viva.stop() } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-cloud-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The first harness stays alive (its end removes the folder); only its bridge stops, as a kill leaves it.
        // On PostgreSQL the journal's identity (the sessions' namespace) is in its meta table, as a standby sees it.
        let journal = onPostgres ? try PostgresCluster.shared().createDatabase() : nil
        let first = try Self.harness(viva, journalFolder: folder, journal: journal)
        try first.send(saleJSON(id: "kept", lane: "cloud-1", amount: 1700))
        try first.event("cloud-1.sale.forwarded") { $0.string("id") == "kept" }
        first.bridge.halt()
        #expect(viva.ledger.entries.isEmpty, "the session was still running when the bridge stopped")
        var faults = viva.backOffice.faults
        faults.sessionsNeverFinish = false
        faults.sessionMs = 0
        viva.backOffice.faults = faults
        let second = try Self.harness(viva, journalFolder: folder, journal: journal)
        #expect(try second.finalOutcome(of: "kept") == "success")
        #expect(Self.postedSessions(viva).count == 1, "asked for after the restart, never posted again")
        #expect(viva.ledger.entries.count == 1)
        #expect(viva.backOffice.repeatedSessionPosts == 0)
    }
}
