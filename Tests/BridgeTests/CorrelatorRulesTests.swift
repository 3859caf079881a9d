import InterApp
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// The correlator's rules on its inputs and effects, over a ``CommandStore`` and a temporary journal:
/// no sockets, no threads (issue 10). The end-to-end suites prove the same rules through real sockets.
@Suite("Correlator rules: inputs in, effects out")
struct CorrelatorRulesTests {
    static let success = RelayMessage.callback(
        url: Array("interapp-callback://result?status=success&action=sale&message=Transaction%20approved".utf8))

    @Test("a new sale is journaled, published accepted, then sent open, in that order")
    func newSale() throws {
        let rig = try CorrelatorRig()
        let effects = rig.receive(saleJSON(id: "pos7-1", lane: "lane-1", amount: 1200))
        try #require(effects.count == 3)
        guard case .journal(.insert(let row)) = effects[0] else {
            Issue.record("first effect is not the journal insert: \(effects[0])")
            return
        }
        #expect(row.id == "pos7-1" && row.lane == "lane-1" && row.action == .sale && row.state == .accepted)
        guard case .publish(let event) = effects[1] else {
            Issue.record("second effect is not an event: \(effects[1])")
            return
        }
        #expect(event.topic.description == "lane-1.sale.accepted")
        guard case .send(let lane, .open(let ref, let url), let recordId) = effects[2] else {
            Issue.record("third effect is not an open: \(effects[2])")
            return
        }
        #expect(lane == "lane-1" && recordId == "pos7-1" && ref == Array("pos7-1".utf8))
        #expect(String(decoding: url, as: UTF8.self).contains("amount=1200"))
        #expect(rig.correlator.store.record(id: "pos7-1") != nil)
    }

    @Test("a repeat in flight joins the sale: nothing sent twice, both senders get the one reply")
    func repeatInFlightJoins() throws {
        let rig = try CorrelatorRig()
        let second = ReplyTarget.router(envelope: [Array("client-2".utf8)])
        try rig.commit(rig.receive(saleJSON(id: "pos7-2", lane: "lane-1", amount: 500)))
        #expect(rig.receive(saleJSON(id: "pos7-2", lane: "lane-1", amount: 500), from: second).isEmpty)
        let ended = rig.relay(Self.success)
        var targets: [ReplyTarget] = []
        for case .reply(let target, _, _) in ended { targets.append(target) }
        #expect(targets == [CorrelatorRig.client, second])
        #expect(CorrelatorRig.sends(ended).isEmpty)
    }

    @Test("a repeat of a finished, committed id gets the stored reply and is never sent again")
    func repeatOfKnownId() throws {
        let rig = try CorrelatorRig()
        try rig.commit(rig.receive(saleJSON(id: "pos7-3", lane: "lane-1", amount: 700)))
        let ended = rig.relay(Self.success)
        try rig.commit(ended)
        let original = try #require(CorrelatorRig.replies(ended).first)
        #expect(original.string("outcome") == "success")
        #expect(try rig.journal.command(id: "pos7-3")?.state == .final)

        let repeated = rig.receive(saleJSON(id: "pos7-3", lane: "lane-1", amount: 700))
        #expect(CorrelatorRig.sends(repeated).isEmpty)
        #expect(try CorrelatorRig.replies(repeated) == [original])
        #expect(repeated.count == 1, "only the stored reply: no journal write, no event")
    }

    @Test("the same id with different content is id_conflict, in flight and once finished")
    func idConflict() throws {
        let rig = try CorrelatorRig()
        try rig.commit(rig.receive(saleJSON(id: "pos7-4", lane: "lane-1", amount: 100)))
        let inFlight = rig.receive(saleJSON(id: "pos7-4", lane: "lane-1", amount: 999))
        #expect(try CorrelatorRig.replies(inFlight).first?.object("error")?.string("code") == "id_conflict")
        #expect(CorrelatorRig.sends(inFlight).isEmpty)

        try rig.commit(rig.relay(Self.success))
        let finished = rig.receive(saleJSON(id: "pos7-4", lane: "lane-1", amount: 999))
        #expect(try CorrelatorRig.replies(finished).first?.object("error")?.string("code") == "id_conflict")
        #expect(CorrelatorRig.sends(finished).isEmpty)
    }

    @Test("a repeat after the sale ended but before the journal commit sees the staged outcome")
    func readYourWrites() throws {
        let rig = try CorrelatorRig()
        let accepted = rig.receive(saleJSON(id: "pos7-5", lane: "lane-1", amount: 1200))
        let ended = rig.relay(Self.success)
        // Neither turn is committed: the journal knows nothing of the sale yet.
        #expect(try rig.journal.command(id: "pos7-5") == nil)
        #expect(rig.correlator.store.record(id: "pos7-5") == nil)

        let repeated = rig.receive(saleJSON(id: "pos7-5", lane: "lane-1", amount: 1200))
        #expect(CorrelatorRig.sends(repeated).isEmpty, "a sale that ended is never sent again")
        #expect(try CorrelatorRig.replies(repeated) == CorrelatorRig.replies(ended))
        let conflict = rig.receive(saleJSON(id: "pos7-5", lane: "lane-1", amount: 1))
        #expect(try CorrelatorRig.replies(conflict).first?.object("error")?.string("code") == "id_conflict")

        try rig.commit(accepted + ended)
        #expect(try rig.journal.command(id: "pos7-5")?.outcome == .success)
        let afterCommit = rig.receive(saleJSON(id: "pos7-5", lane: "lane-1", amount: 1200))
        #expect(try CorrelatorRig.replies(afterCommit) == CorrelatorRig.replies(ended))
    }

    @Test("status: in flight from memory, final from the staged outcome and the journal, else not_found")
    func status() throws {
        let rig = try CorrelatorRig()
        func status(_ ref: String) throws -> JSONObject {
            let effects = rig.receive(#"{"id":"st-\#(ref)","action":"status","ref":"\#(ref)"}"#)
            return try #require(try CorrelatorRig.replies(effects).first?.object("result"))
        }
        let accepted = rig.receive(saleJSON(id: "pos7-6", lane: "lane-1", amount: 300))
        #expect(try status("pos7-6").string("state") == "accepted")
        rig.correlator.sent(recordId: "pos7-6")
        _ = rig.correlator.takeEffects()
        #expect(try status("pos7-6").string("state") == "forwarded")

        let ended = rig.relay(Self.success)
        let staged = try status("pos7-6")
        #expect(staged.string("state") == "final" && staged.string("outcome") == "success")

        try rig.commit(accepted + ended)
        let journaled = try status("pos7-6")
        #expect(journaled.string("state") == "final" && journaled.string("outcome") == "success")
        #expect(journaled.object("reply")?.string("id") == "pos7-6")
        #expect(try status("never-sent").string("state") == "not_found")
    }

    @Test("an unknown Android sale's look-up is a record of purpose recoveryLookup: sent, never journaled")
    func recoveryLookup() throws {
        let rig = try CorrelatorRig(platform: .android)
        try rig.commit(rig.receive(saleJSON(id: "pos7-7", lane: "lane-1", amount: 900)))
        let due = rig.tick(afterMs: 3_600_000)
        #expect(try CorrelatorRig.replies(due).first?.string("outcome") == "unknown")
        var lookupId: String?
        for case .send(_, .open(let ref, let url), let recordId) in due {
            #expect(String(decoding: url, as: UTF8.self).contains("action=transactionDetails"))
            #expect(recordId == String(decoding: ref, as: UTF8.self))
            lookupId = recordId
        }
        let id = try #require(lookupId)
        for case .journal(.insert(let row)) in due { Issue.record("the look-up was journaled: \(row.id)") }
        let record = try #require(rig.correlator.store.record(id: id))
        #expect(record.purpose == .recoveryLookup(saleId: "pos7-7"))
        #expect(record.client == nil)
        #expect(rig.correlator.outstandingCount == 0, "the bridge's own look-up is not a client's command")
        try rig.commit(due)

        let lanes = rig.receive(#"{"id":"ln","action":"lanes"}"#)
        guard case .snapshotReply(_, let reply)? = lanes.first else {
            Issue.record("no lanes snapshot: \(lanes)")
            return
        }
        let lane = reply.result?["lanes"]?.arrayValue?.first?.objectValue
        #expect(lane?.object("inFlight")?.string("id") == "(look-up for pos7-7)")
        let status = rig.receive(#"{"id":"st","action":"status","ref":"\#(id)"}"#)
        #expect(try CorrelatorRig.replies(status).first?.object("result")?.string("state") == "not_found")
    }
}
