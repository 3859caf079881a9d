import InterApp
import Logging
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// The correlator's rules on what is in flight on a lane (issue 37), on its inputs and effects: every way a
/// command ends lets it out of its lane, and a command restored after a restart may be open.
@Suite("Correlator rules: what is in flight on a lane")
struct LaneInFlightRulesTests {
    static let nothingToAbort = RelayMessage.callback(
        url: Array("interapp-callback://result?action=abort&status=success&message=nothing%20to%20abort".utf8))

    /// How the bridge's look-up of an `unknown` sale can end with no answer to use.
    enum LookupEnd: CaseIterable, Sendable {
        case notSent, notOpened, deadline
    }

    @Test("two aborts in turn on an idle lane: each is answered by its own nothing_to_abort")
    func abortsInTurn() throws {
        let rig = try CorrelatorRig()
        for id in ["abort-1", "abort-2"] {
            try rig.commit(rig.receive(#"{"id":"\#(id)","lane":"lane-1","action":"abort"}"#))
            let answered = rig.relay(Self.nothingToAbort)
            let reply = try #require(try CorrelatorRig.replies(answered).first)
            #expect(reply.string("id") == id && reply.string("outcome") == "nothing_to_abort")
            try rig.commit(answered)
        }
        #expect(rig.correlator.lanes["lane-1"]?.isIdle == true)
    }

    @Test("a look-up that ends with no answer leaves the lane: the next sale is sent", arguments: LookupEnd.allCases)
    func lookupLeavesTheLane(end: LookupEnd) throws {
        let rig = try CorrelatorRig(platform: .android)
        try rig.commit(rig.receive(saleJSON(id: "pos7-1", lane: "lane-1", amount: 900)))
        let due = rig.tick(afterMs: 3_600_000)
        var lookupId: String?
        for case .send(_, .open, let recordId) in due { lookupId = recordId }
        let id = try #require(lookupId)
        try rig.commit(due)
        switch end {
        case .notSent: rig.correlator.sendFailed(lane: "lane-1", recordId: id)
        case .notOpened: _ = rig.relay(.notOpened(ref: Array(id.utf8), reason: Array("app missing".utf8)))
        case .deadline: _ = rig.tick(afterMs: 3_600_000)
        }
        _ = rig.correlator.takeEffects()
        #expect(rig.correlator.store.record(id: id) == nil, "the look-up left memory")
        #expect(rig.correlator.lanes["lane-1"]?.isIdle == true)
        let next = rig.receive(saleJSON(id: "pos7-2", lane: "lane-1", amount: 500))
        #expect(try CorrelatorRig.replies(next).isEmpty, "no lane_busy: \(next)")
        #expect(CorrelatorRig.sends(next).count == 1)
    }

    @Test("a sale restored after a restart shows forwarded, and not_opened cannot make it undeliverable")
    func restoredMayBeOpen() throws {
        let rig = try CorrelatorRig()
        try rig.commit(rig.receive(saleJSON(id: "pos7-3", lane: "lane-1", amount: 700)))
        let logger = Logger(label: "restarted", factory: { _ in SwiftLogNoOpLogHandler() })
        let restarted = Correlator(
            configuration: rig.correlator.configuration, store: CommandStore(journal: rig.journal, logger: logger),
            clock: rig.clock, logger: logger, metrics: LoopMetrics(BridgeMetrics(lanes: ["lane-1"])))
        try restarted.restore()
        CorrelatorRig.bringUp(restarted)
        _ = restarted.takeEffects()
        let record = try #require(restarted.store.record(id: "pos7-3"))
        #expect(record.progress == .restored && record.state == .forwarded)

        let notOpened = RelayMessage.notOpened(ref: Array("pos7-3".utf8), reason: Array("app missing".utf8))
        restarted.receiveFromRelay(lane: "lane-1", frames: notOpened.frames)
        for case .journal(.final(let ended, _, _, _)) in restarted.takeEffects() {
            Issue.record("a restored sale ended on not_opened: \(ended.outcome?.rawValue ?? "-")")
        }
        #expect(restarted.store.record(id: "pos7-3") != nil, "it waits for its callback or its deadline")
        #expect(restarted.lanes["lane-1"]?.faults.contradictions == 1)
    }
}
