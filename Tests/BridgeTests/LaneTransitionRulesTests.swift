import InterApp
import Logging
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// The correlator's rules at the lane's transitions and the bridge's events (issue 10), on inputs and effects
/// alone: the link going down and up, a reload's change waiting, the link closing, a change withdrawn,
/// shutdown and the journal's health. ``LiveLaneTests`` proves the reload rules through real sockets.
@Suite("Lane transitions and bridge events: inputs in, effects out")
struct LaneTransitionRulesTests {
    static let original = LaneConfiguration(id: "lane-1", endpoint: "tcp://127.0.0.1:1", platform: .ios)
    static let changed = LaneConfiguration(id: "lane-1", endpoint: "tcp://127.0.0.1:2", platform: .ios)
    static let abort = #"{"id":"stop-1","lane":"lane-1","action":"abort"}"#

    /// The topics of the events among `effects`.
    static func topics(_ effects: [Effect]) -> [String] {
        var topics: [String] = []
        for case .publish(let event) in effects { topics.append(event.topic.description) }
        return topics
    }

    /// The error code of the first reply among `effects`, nil when it is not a rejection.
    static func code(_ effects: [Effect]) throws -> String? {
        try CorrelatorRig.replies(effects).first?.object("error")?.string("code")
    }

    /// The one reply among `effects`.
    static func reply(_ effects: [Effect]) throws -> JSONObject {
        let replies = try CorrelatorRig.replies(effects)
        try #require(replies.count == 1, "replies: \(replies)")
        return replies[0]
    }

    /// A rig whose idle lane a reload changed: its link is closing.
    static func closingForChange() throws -> CorrelatorRig {
        let rig = try CorrelatorRig()
        rig.correlator.reloadLanes([Self.changed])
        rig.correlator.settleLanes()
        _ = rig.correlator.takeEffects()
        return rig
    }

    @Test("the link going down keeps the sale in flight: the lane stays busy and the sale's callback ends it")
    func linkDownKeepsTheSale() throws {
        let rig = try CorrelatorRig()
        try rig.commit(rig.receive(saleJSON(id: "s-1", lane: "lane-1", amount: 100)))
        rig.correlator.linkDown("lane-1")
        let down = rig.correlator.takeEffects()
        #expect(Self.topics(down) == ["lane-1.lane.disconnected"])
        #expect(try CorrelatorRig.replies(down).isEmpty, "the sale is not ended by its link")
        #expect(rig.correlator.store.record(id: "s-1") != nil)
        rig.correlator.linkDown("lane-1")
        #expect(rig.correlator.takeEffects().isEmpty, "a link already down is not announced twice")

        #expect(try Self.code(rig.receive(saleJSON(id: "s-2", lane: "lane-1", amount: 100))) == "lane_busy")
        let ended = rig.relay(CorrelatorRulesTests.success)
        #expect(try Self.reply(ended).string("id") == "s-1")
        #expect(try Self.reply(ended).string("outcome") == "success")
    }

    @Test(
        "on a link that is down or greeting a command is taken and ends undeliverable; the link connected says hello once, the relay's answer brings it up"
    )
    func downThenUp() throws {
        let rig = try CorrelatorRig()
        rig.correlator.linkDown("lane-1")
        _ = rig.correlator.takeEffects()
        let effects = rig.receive(saleJSON(id: "s-1", lane: "lane-1", amount: 100))
        #expect(try Self.reply(effects).string("outcome") == "undeliverable")
        #expect(CorrelatorRig.sends(effects).isEmpty)

        rig.correlator.linkUp("lane-1")
        let connected = rig.correlator.takeEffects()
        #expect(Self.topics(connected).isEmpty, "not announced connected before the relay answered hello")
        guard case .hello? = CorrelatorRig.sends(connected).first else {
            Issue.record("the bridge did not say hello: \(connected)")
            return
        }
        rig.correlator.linkUp("lane-1")
        #expect(rig.correlator.takeEffects().isEmpty, "a second handshake says nothing")
        let greeting = rig.receive(saleJSON(id: "s-2", lane: "lane-1", amount: 100))
        #expect(try Self.reply(greeting).string("outcome") == "undeliverable")
        #expect(CorrelatorRig.sends(greeting).isEmpty, "nothing is sent to a relay that has not answered hello")
        #expect(rig.correlator.lanes["lane-1"]?.connected == false)

        let answered = rig.relay(CorrelatorRig.relayHello)
        #expect(Self.topics(answered) == ["lane-1.lane.connected"])
        #expect(rig.correlator.lanes["lane-1"]?.connected == true)
        let sent = rig.receive(saleJSON(id: "s-3", lane: "lane-1", amount: 100))
        #expect(CorrelatorRig.sends(sent).count == 1)
    }

    @Test("a relay that does not answer hello within 5 s: one warning naming the lane, then none")
    func unansweredHelloWarnsOnce() throws {
        let logs = LogCapture()
        var logger = Logger(label: "rules") { _ in logs.handler() }
        logger.logLevel = .trace
        let rig = try CorrelatorRig(logger: logger)
        rig.correlator.linkDown("lane-1")
        rig.correlator.linkUp("lane-1")
        _ = rig.correlator.takeEffects()
        _ = rig.tick(afterMs: LaneLinkState.helloAnswerWarningMs - 1)
        #expect(
            logs.text.split(separator: "\n").filter { $0.contains("did not answer hello") }.isEmpty, "not before 5 s")
        _ = rig.tick(afterMs: 1)
        _ = rig.tick(afterMs: 10_000)
        let warnings = logs.text.split(separator: "\n").filter { $0.contains("did not answer hello") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("lane-1") == true)
        #expect(warnings.first?.contains("warning") == true)
        #expect(rig.correlator.nextDueMs() == nil, "nothing more is due")
    }

    @Test("a changed lane waits with an abort in flight: only aborts are taken, then once idle its link closes")
    func changeWaitsThenCloses() throws {
        let rig = try CorrelatorRig()
        try rig.commit(rig.receive(Self.abort))
        rig.correlator.reloadLanes([Self.changed])
        rig.correlator.settleLanes()
        #expect(rig.correlator.takeEffects().isEmpty, "nothing closes while an abort is in flight")

        let sale = rig.receive(saleJSON(id: "s-1", lane: "lane-1", amount: 100))
        #expect(try Self.code(sale) == "lane_busy")
        #expect(try Self.reply(sale).object("error")?.string("message")?.contains("reloaded settings") == true)
        let second = rig.receive(#"{"id":"stop-2","lane":"lane-1","action":"abort"}"#)
        #expect(CorrelatorRig.sends(second).count == 1, "an abort is still taken")

        try rig.commit(rig.tick(afterMs: 3_600_000))
        rig.correlator.settleLanes()
        let settled = rig.correlator.takeEffects()
        guard case .closeLink(let lane)? = settled.first, settled.count == 1 else {
            Issue.record("the idle lane's link was not closed: \(settled)")
            return
        }
        #expect(lane == "lane-1")
        rig.correlator.settleLanes()
        #expect(rig.correlator.takeEffects().isEmpty, "a link already closing is not closed twice")

        #expect(try Self.code(rig.receive(saleJSON(id: "s-2", lane: "lane-1", amount: 100))) == "lane_busy")
        #expect(try Self.code(rig.receive(#"{"id":"stop-3","lane":"lane-1","action":"abort"}"#)) == "lane_busy")
    }

    @Test("the changed lane's link closed: disconnected, changed, its link made anew with the new settings")
    func closedTakesTheNewSettings() throws {
        let rig = try Self.closingForChange()
        rig.correlator.linkClosed("lane-1")
        let closed = rig.correlator.takeEffects()
        #expect(Self.topics(closed) == ["lane-1.lane.disconnected", "lane-1.lane.changed"])
        guard case .openLink(let configuration)? = closed.last else {
            Issue.record("no new link: \(closed)")
            return
        }
        #expect(configuration == Self.changed)
        #expect(rig.correlator.lanes["lane-1"]?.configuration == Self.changed)
        let sale = rig.receive(saleJSON(id: "s-1", lane: "lane-1", amount: 100))
        #expect(try Self.reply(sale).string("outcome") == "undeliverable", "the new link is not up yet")
    }

    @Test("a removed lane is unknown_lane at once; its sale still ends, then the lane leaves")
    func removed() throws {
        let rig = try CorrelatorRig()
        try rig.commit(rig.receive(saleJSON(id: "s-1", lane: "lane-1", amount: 100)))
        rig.correlator.reloadLanes([])
        #expect(try Self.code(rig.receive(Self.abort)) == "unknown_lane")
        let ended = rig.relay(CorrelatorRulesTests.success)
        #expect(try Self.reply(ended).string("outcome") == "success")
        rig.correlator.settleLanes()
        guard case .closeLink? = rig.correlator.takeEffects().first else {
            Issue.record("the removed lane's link was not closed once idle")
            return
        }
        rig.correlator.linkClosed("lane-1")
        #expect(Self.topics(rig.correlator.takeEffects()) == ["lane-1.lane.disconnected", "lane-1.lane.removed"])
        #expect(rig.correlator.lanes["lane-1"] == nil)
        #expect(rig.correlator.laneOrder.isEmpty)
    }

    @Test("a change withdrawn while it waits: the lane takes every command again and its link stays")
    func withdrawnWhileWaiting() throws {
        let rig = try CorrelatorRig()
        try rig.commit(rig.receive(Self.abort))
        rig.correlator.reloadLanes([Self.changed])
        #expect(try Self.code(rig.receive(saleJSON(id: "s-1", lane: "lane-1", amount: 100))) == "lane_busy")
        rig.correlator.reloadLanes([Self.original])
        #expect(CorrelatorRig.sends(rig.receive(saleJSON(id: "s-2", lane: "lane-1", amount: 100))).count == 1)
        try rig.commit(rig.tick(afterMs: 3_600_000))
        rig.correlator.settleLanes()
        #expect(rig.correlator.takeEffects().isEmpty, "the idle lane's link is not closed")
        #expect(rig.correlator.changingLanes.isEmpty)
    }

    @Test("a change withdrawn while the link closes: the link is made anew as it was")
    func withdrawnWhileClosing() throws {
        let rig = try Self.closingForChange()
        rig.correlator.reloadLanes([Self.original])
        #expect(try Self.code(rig.receive(saleJSON(id: "s-1", lane: "lane-1", amount: 100))) == "lane_busy")
        rig.correlator.linkClosed("lane-1")
        let closed = rig.correlator.takeEffects()
        #expect(Self.topics(closed) == ["lane-1.lane.disconnected"])
        guard case .openLink(let configuration)? = closed.last else {
            Issue.record("no new link: \(closed)")
            return
        }
        #expect(configuration == Self.original)
    }

    @Test("beginShutdown: terminal commands are refused shutting_down, queries answered, a sale in flight ends")
    func shutdown() throws {
        let rig = try CorrelatorRig()
        try rig.commit(rig.receive(saleJSON(id: "s-1", lane: "lane-1", amount: 100)))
        let began = rig.correlator.beginShutdown(deadlineMs: 10_000)
        let beganAgain = rig.correlator.beginShutdown(deadlineMs: 20_000)
        #expect(began && !beganAgain, "draining begins once")
        #expect(rig.correlator.phase == .draining(deadlineMs: 10_000))
        let refused = rig.receive(saleJSON(id: "s-2", lane: "lane-1", amount: 100))
        #expect(try Self.code(refused) == "shutting_down")
        #expect(CorrelatorRig.sends(refused).isEmpty)
        #expect(try Self.reply(rig.receive(#"{"id":"p","action":"ping"}"#)).string("outcome") == "success")
        #expect(try Self.reply(rig.relay(CorrelatorRulesTests.success)).string("outcome") == "success")
    }

    @Test("journal events: a failed write refuses until resumed; a lost file refuses for the rest of the run")
    func journalEvents() throws {
        let rig = try CorrelatorRig()
        rig.correlator.journalWritesFailed("disk full")
        rig.correlator.journalWritesFailed("disk still full")
        let refused = rig.receive(saleJSON(id: "s-1", lane: "lane-1", amount: 100))
        #expect(try Self.code(refused) == "journal_unavailable")
        #expect(try Self.reply(refused).object("error")?.string("message")?.contains("(disk full)") == true)
        let resumed = rig.correlator.journalWritesResumed()
        #expect(resumed && rig.correlator.journalHealth == .healthy)
        #expect(CorrelatorRig.sends(rig.receive(saleJSON(id: "s-2", lane: "lane-1", amount: 100))).count == 1)

        rig.correlator.journalWritesFailed("disk full again")
        let lost = rig.correlator.journalFileLost("the journal file was deleted")
        let lostAgain = rig.correlator.journalFileLost("the journal file was replaced")
        #expect(lost && !lostAgain, "a lost file is news once")
        #expect(rig.correlator.journalHealth.problem == "the journal file was deleted")
        let resumedAfterLoss = rig.correlator.journalWritesResumed()
        #expect(!resumedAfterLoss && rig.correlator.journalHealth.isFileLost, "writes working again bring no file back")
        #expect(try Self.code(rig.receive(saleJSON(id: "s-3", lane: "lane-1", amount: 100))) == "journal_unavailable")
    }
}
