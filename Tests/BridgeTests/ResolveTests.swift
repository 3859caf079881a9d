import Foundation
import GRDB
import InterApp
import TerminalSimulator
import Testing
import ZeroMQ

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite
@testable import JournalTools

/// `resolve` (v1.1, issue 16): an `unknown` command closed by hand once the back office has the truth,
/// journaled with who closed it, published as `<lane>.<action>.resolved`, seen by `status`, `journal
/// unknown` and `journal export`; only by an `admin` client when the bridge has security.
@Suite("resolve: closing an unknown command by hand")
struct ResolveTests {
    /// A bridge whose `slow` lane never answers, holding `paid` (success) and `lost` (`unknown`,
    /// 4100 cents asked), with `stuck` still in flight on `hold`.
    private static func bridgeWithUnknownSale() throws -> BridgeHarness {
        var quick = LaneBehaviour()
        quick.cardPresentment = .milliseconds(0)
        quick.host = .milliseconds(0)
        var slow = quick
        slow.host = .manual
        let harness = try BridgeHarness(
            lanes: [
                SimulatedLane(id: "ok", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: quick),
                SimulatedLane(id: "slow", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: slow),
                SimulatedLane(id: "hold", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: slow),
            ],
            clock: ManualBridgeClock())
        #expect(try harness.call(saleJSON(id: "paid", lane: "ok", amount: 1200)).string("outcome") == "success")
        try harness.send(saleJSON(id: "lost", lane: "slow", amount: 4100, extra: #","timeoutMs":1000"#))
        #expect(harness.simulator.waitForPhase(lane: "slow", .host, timeout: .seconds(5)))
        harness.advance(byMs: 1100)
        #expect(try harness.reply(to: "lost").string("outcome") == "unknown")
        try harness.send(saleJSON(id: "stuck", lane: "hold", amount: 100))
        #expect(harness.simulator.waitForPhase(lane: "hold", .host, timeout: .seconds(5)))
        return harness
    }

    @Test("an unknown sale resolved as success: journaled, published, and seen by status, unknown and export")
    func resolveUnknown() throws {
        let harness = try Self.bridgeWithUnknownSale()
        let answer = try harness.call(
            #"{"id":"r-1","action":"resolve","ref":"lost","outcome":"success","note":"approved in Viva's back office"}"#
        )
        #expect(answer.string("outcome") == "success", "\(answer)")
        let result = try #require(answer.object("result"))
        #expect(result.string("ref") == "lost" && result.string("outcome") == "success")
        let reply = try #require(result.object("reply"))
        #expect(reply.string("outcome") == "success" && reply.string("lane") == "slow")
        #expect(reply.object("earlier")?.string("outcome") == "unknown")
        #expect(reply.object("resolved")?.string("note") == "approved in Viva's back office")
        #expect(reply.object("resolved")?["by"] == .null, "plain sockets name no client")
        #expect(reply.object("resolved")?.string("at")?.isEmpty == false)

        let event = try harness.event("slow.sale.resolved") { $0.string("id") == "lost" }
        #expect(event.string("outcome") == "success")
        #expect(event.object("resolved")?.string("note") == "approved in Viva's back office")

        let status = try harness.call(#"{"id":"st","action":"status","ref":"lost"}"#)
        #expect(status.object("result")?.string("outcome") == "success")
        #expect(status.object("result")?.object("reply") == reply)
        // A repeat of the sale's id is answered with what is now true, and nothing is sent again.
        let repeated = try harness.call(saleJSON(id: "lost", lane: "slow", amount: 4100, extra: #","timeoutMs":1000"#))
        #expect(repeated == reply)

        let journal = harness.configuration.journal
        #expect(try JournalUnknown.list(path: journal).map(\.id) == ["stuck"], "only the sale still in flight")
        var rows: [ExportedCommand] = []
        _ = try JournalExport.forEachFinished(path: journal) { rows.append($0) }
        let row = try #require(rows.first { $0.id == "lost" })
        #expect(row.outcome == "success" && row.amount == 4100)
        #expect(row.note == "approved in Viva's back office" && row.resolvedBy == nil)
        #expect(row.resolved == reply.object("resolved")?.string("at"))
        #expect(rows.first { $0.id == "paid" }?.resolved == nil)
        // The columns the bridge wrote say what the stored reply says.
        var readOnly = Configuration()
        readOnly.readonly = true
        let database = try DatabaseQueue(path: journal, configuration: readOnly)
        defer { try? database.close() }
        let stored = try #require(
            try database.read { db in
                try Row.fetchOne(
                    db,
                    sql:
                        "SELECT lane, action, fingerprint, outcome, reply, client_transaction_id FROM commands WHERE id = 'lost'"
                )
            })
        var fromReply = ExportedCommand(
            id: "lost", lane: stored["lane"], action: stored["action"], fingerprint: stored["fingerprint"],
            outcome: stored["outcome"], reply: stored["reply"], createdMs: row.createdMs, updatedMs: row.updatedMs)
        fromReply.clientTransactionId = stored["client_transaction_id"]
        #expect(fromReply == row)
    }

    @Test("only an unknown command is resolved: not one that ended otherwise, one in flight, or no command")
    func onlyUnknown() throws {
        let harness = try Self.bridgeWithUnknownSale()
        for (ref, mention) in [("paid", "ended success"), ("stuck", "still in flight"), ("nobody", "no command")] {
            let answer = try harness.call(#"{"id":"r-\#(ref)","action":"resolve","ref":"\#(ref)","outcome":"failure"}"#)
            #expect(answer.string("outcome") == "rejected")
            #expect(answer.object("error")?.string("code") == "not_unknown")
            #expect(answer.object("error")?.string("message")?.contains(mention) == true, "\(answer)")
        }
        let first = try harness.call(#"{"id":"r-1","action":"resolve","ref":"lost","outcome":"failure"}"#)
        #expect(first.object("result")?.object("reply")?.string("reason") == "other")
        let again = try harness.call(#"{"id":"r-2","action":"resolve","ref":"lost","outcome":"success"}"#)
        #expect(again.object("error")?.string("code") == "not_unknown", "a resolved command was resolved again")
        let status = try harness.call(#"{"id":"st","action":"status","ref":"lost"}"#)
        #expect(status.object("result")?.string("outcome") == "failure")
        #expect(
            harness.events.allSatisfy { !$0.topic.hasSuffix(".resolved") || $0.body.string("outcome") == "failure" })
    }

    @Test("with security only an admin client may resolve; a commands client is refused not_allowed")
    func adminOnly() throws {
        let bridge = try SecurityTests.SecureBridge()
        #expect(bridge.simulator.waitForHello(lane: "lane-1", timeout: .seconds(10)))
        #expect(bridge.bridge.awaitLanesUp(["lane-1"], timeout: .seconds(10)))
        let pos = try bridge.client(bridge.pos)
        #expect(try bridge.call(pos, saleJSON(id: "s-1", lane: "lane-1", amount: 100))?.string("outcome") == "success")
        let resolve = #"{"id":"r-1","action":"resolve","ref":"s-1","outcome":"failure"}"#
        let refused = try #require(try bridge.call(pos, resolve))
        #expect(refused.object("error")?.string("code") == "not_allowed", "\(refused)")
        #expect(refused.object("error")?.string("message")?.contains("pos-7") == true)

        // The admin is admitted on the command socket and passes the role check (s-1 is not unknown).
        let admin = try bridge.client(bridge.admin)
        #expect(try bridge.call(admin, #"{"id":"p-1","action":"ping"}"#)?.string("outcome") == "success")
        let admitted = try #require(try bridge.call(admin, resolve))
        #expect(admitted.object("error")?.string("code") == "not_unknown", "\(admitted)")

        // A SIGHUP that takes the role away applies from the next command on.
        bridge.bridge.replaceClients([
            SecuritySettings.Client(name: "backoffice", publicKey: bridge.admin.publicKey, roles: [.commands])
        ])
        let demoted = try #require(
            try bridge.call(admin, #"{"id":"r-2","action":"resolve","ref":"s-1","outcome":"failure"}"#))
        #expect(demoted.object("error")?.string("code") == "not_allowed", "\(demoted)")
    }
}
