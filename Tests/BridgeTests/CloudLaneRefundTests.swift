import Bridge
import Foundation
import InterApp
import TerminalSimulator
import Testing

/// docs/CLOUD.md, "Cloud lanes": captures and refunds through Viva's Cloud Terminal API, each posted to its
/// own call, a capture or referenced refund against the session of the bridge's command it names.
@Suite("Cloud lanes: captures and refunds")
struct CloudLaneRefundTests {
    /// The bodies posted to `transactions:<call>`, in order.
    static func posted(_ viva: SimulatedVivaCloud, call: String) -> [JSONObject] {
        viva.backOffice.requests.filter { $0.method == "POST" && $0.path.hasSuffix("transactions:\(call)") }
            .compactMap { try? JSONValue.parse($0.body).objectValue }
    }

    @Test("a cloud pre-authorisation captured by parentId: preauth-completion against its session, the reply names it")
    func capture() async throws {
        let viva = try await CloudLaneTests.startedViva()
        defer { Task { await viva.stop() } }
        let harness = try CloudLaneTests.harness(viva)
        let preAuth = try harness.call(#"{"id":"p1","action":"pre_auth","lane":"cloud-1","amount":900}"#)
        #expect(preAuth.string("outcome") == "success")
        let parentSession = try #require(preAuth.object("result")?.string("sessionId"))
        let capture = try harness.call(
            #"{"id":"k1","action":"capture_pre_auth","lane":"cloud-1","parentId":"p1","amount":800}"#)
        #expect(capture.string("outcome") == "success")
        #expect(capture.string("authorisation") == "p1")
        #expect(capture.object("result")?.int("amount") == 800)
        let body = try #require(Self.posted(viva, call: "preauth-completion").first)
        #expect(body["parentSessionId"]?.stringValue == parentSession)
        #expect(body["merchantReference"]?.stringValue == "k1")
        #expect(body["preauth"] == nil && body["tipAmount"] == nil)
        #expect(viva.ledger.entries.map(\.typeId) == [1, 0], "a pre-authorisation, then its capture")
        try harness.event("cloud-1.capture_pre_auth.result") { $0.string("id") == "k1" }
    }

    @Test(
        "a cloud sale refunded by parentId; unreferenced and fast refunds posted to their calls, marked as money back")
    func refunds() async throws {
        let viva = try await CloudLaneTests.startedViva()
        defer { Task { await viva.stop() } }
        let harness = try CloudLaneTests.harness(viva)
        let sale = try harness.call(saleJSON(id: "s1", lane: "cloud-1", amount: 1500))
        let saleSession = try #require(sale.object("result")?.string("sessionId"))
        let refund = try harness.call(#"{"id":"r1","action":"cancel","lane":"cloud-1","parentId":"s1","amount":500}"#)
        #expect(refund.string("outcome") == "success")
        #expect(Self.posted(viva, call: "refund").first?["parentSessionId"]?.stringValue == saleSession)
        let unreferenced = try harness.call(
            #"{"id":"u1","action":"unreferenced_refund","lane":"cloud-1","amount":300}"#)
        #expect(unreferenced.string("outcome") == "success")
        #expect(unreferenced.object("refund")?["unreferenced"] == .bool(true))
        #expect(unreferenced.object("refund")?.int("amount") == 300)
        let fast = try harness.call(#"{"id":"f1","action":"fast_refund","lane":"cloud-1","amount":200}"#)
        #expect(fast.object("refund")?["fast"] == .bool(true))
        #expect(Self.posted(viva, call: "unreferenced-refund").count == 1)
        #expect(Self.posted(viva, call: "fast-refund").first?["merchantReference"]?.stringValue == "f1")
        #expect(viva.ledger.entries.map(\.typeId) == [5, 4, 4, 4])
        #expect(harness.logs.text.contains("money given back to a card"))
        try harness.event("cloud-1.unreferenced_refund.result") { $0.string("id") == "u1" }
        let tooMuch = try harness.call(
            #"{"id":"r2","action":"cancel","lane":"cloud-1","parentId":"s1","amount":5000}"#)
        #expect(tooMuch.string("outcome") == "undeliverable", "Viva refused it: no session, safe to retry")
        #expect(viva.ledger.entries.count == 4)
    }

    @Test("a capture or refund a cloud lane cannot take is refused at its field, with nothing sent to Viva")
    func refusedParents() async throws {
        let viva = try await CloudLaneTests.startedViva()
        defer { Task { await viva.stop() } }
        let harness = try CloudLaneTests.harness(viva)
        #expect(try harness.call(saleJSON(id: "s1", lane: "cloud-1", amount: 1500)).string("outcome") == "success")
        #expect(try harness.call(saleJSON(id: "d1", lane: "cloud-1", amount: 1251)).string("outcome") == "failure")
        let before = viva.backOffice.requests.count
        func refusal(_ json: String) throws -> (code: String?, message: String) {
            let error = try harness.call(json).object("error")
            return (error?.string("code"), error?.string("message") ?? "")
        }
        let noParent = try refusal(#"{"id":"x1","action":"cancel","lane":"cloud-1","amount":500}"#)
        #expect(noParent.code == "missing_field" && noParent.message.contains("parentId"))
        let noAmount = try refusal(#"{"id":"x2","action":"capture_pre_auth","lane":"cloud-1","parentId":"s1"}"#)
        #expect(noAmount.code == "missing_field" && noAmount.message.contains("amount"))
        let byReference = try refusal(
            #"{"id":"x3","action":"cancel","lane":"cloud-1","parentId":"s1","amount":5,"referenceNumber":"833121"}"#)
        #expect(byReference.code == "unsupported_on_transport" && byReference.message.contains("referenceNumber"))
        let unknown = try refusal(#"{"id":"x4","action":"cancel","lane":"cloud-1","parentId":"nope","amount":5}"#)
        #expect(unknown.code == "invalid_value" && unknown.message.contains("no command of this bridge's journal"))
        let declined = try refusal(#"{"id":"x5","action":"cancel","lane":"cloud-1","parentId":"d1","amount":5}"#)
        #expect(declined.code == "invalid_value" && declined.message.contains("ended failure"))
        let notAuthorisation = try refusal(
            #"{"id":"x6","action":"capture_pre_auth","lane":"cloud-1","parentId":"s1","amount":5}"#)
        #expect(notAuthorisation.code == "invalid_value" && notAuthorisation.message.contains("takes a pre_auth"))
        let onRelay = try refusal(#"{"id":"x7","action":"cancel","lane":"lane-1","parentId":"s1","amount":5}"#)
        #expect(onRelay.code == "unsupported_on_transport" && onRelay.message.contains("cloud lanes"))
        #expect(viva.backOffice.requests.count == before, "nothing reached Viva")
        let status = try harness.call(#"{"id":"st","action":"status","ref":"x4"}"#)
        #expect(status.object("result")?.string("state") == "not_found", "a refused command is not journaled")
    }

    @Test("a refund in flight when the bridge stopped is asked for after the restart, its parent the same: one refund")
    func refundResumedAfterRestart() async throws {
        let viva = try await CloudLaneTests.startedViva()
        defer { Task { await viva.stop() } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-cloud-refund-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The first harness stays alive (its end removes the folder); only its bridge stops, as a kill leaves it.
        let first = try CloudLaneTests.harness(viva, journalFolder: folder)
        #expect(try first.call(saleJSON(id: "s1", lane: "cloud-1", amount: 1500)).string("outcome") == "success")
        var faults = viva.backOffice.faults
        faults.sessionsNeverFinish = true
        viva.backOffice.faults = faults
        try first.send(#"{"id":"r1","action":"cancel","lane":"cloud-1","parentId":"s1","amount":500}"#)
        try first.event("cloud-1.cancel.forwarded") { $0.string("id") == "r1" }
        first.bridge.halt()
        #expect(viva.ledger.entries.count == 1, "the refund's session was still running when the bridge stopped")
        faults.sessionsNeverFinish = false
        faults.sessionMs = 0
        viva.backOffice.faults = faults
        let second = try CloudLaneTests.harness(viva, journalFolder: folder)
        #expect(try second.finalOutcome(of: "r1") == "success")
        let refunds = Self.posted(viva, call: "refund")
        #expect(refunds.count == 1, "asked for after the restart, never posted again")
        #expect(viva.backOffice.repeatedSessionPosts == 0)
        #expect(viva.ledger.entries.map(\.typeId) == [5, 4], "one sale, one refund")
    }
}
