import InterApp
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// What is in flight on one lane, on its own (issue 37): its activity (idle, a transaction, the bridge's
/// look-up), its aborts and its sales in grace, and the one way out, ``LaneInFlight/end(_:)``.
@Suite("Lane in flight: activity, aborts, grace sales")
struct LaneInFlightTests {
    static func record(
        _ id: String, _ action: TerminalAction = .sale, purpose: CommandPurpose = .client(name: nil),
        deadlineMs: Int64 = 1000
    ) -> CommandRecord {
        CommandRecord(
            id: id, lane: "lane-1", action: action, clientTransactionId: "ctid-\(id)", fingerprint: "",
            deadlineMs: deadlineMs, waiters: [], purpose: purpose)
    }

    static func grace(_ sale: CommandRecord, _ abort: CommandRecord, untilMs: Int64) -> GraceSale {
        GraceSale(sale: sale, abort: abort, abortMessage: "aborted", abortResult: [:], untilMs: untilMs)
    }

    @Test("a client's command is a transaction, the bridge's look-up a recovery look-up of its sale")
    func activityFollowsPurpose() {
        var inFlight = LaneInFlight()
        #expect(inFlight.isIdle && inFlight.activity.isIdle && inFlight.activity.record == nil)
        let sale = Self.record("pos7-1")
        inFlight.start(sale)
        guard case .transaction(let started) = inFlight.activity else {
            Issue.record("a client's sale is not a transaction: \(inFlight.activity)")
            return
        }
        #expect(started === sale && inFlight.activity.transaction === sale && !inFlight.isIdle)
        inFlight.end(sale)
        #expect(inFlight.isIdle)

        let lookup = Self.record("lookup-1", .transactionDetails, purpose: .recoveryLookup(saleId: "pos7-1"))
        inFlight.start(lookup)
        guard case .recoveryLookup(let started, let saleId) = inFlight.activity else {
            Issue.record("the bridge's look-up is not a recovery look-up: \(inFlight.activity)")
            return
        }
        #expect(started === lookup && saleId == "pos7-1")
        #expect(inFlight.activity.transaction == nil, "a look-up is no transaction a client's callback may end")
        #expect(inFlight.activity.record === lookup)
    }

    /// A lane running sale `id` with an abort of it sent, and the grace that abort would give it.
    static func saleBeingAborted(_ id: String, graceUntilMs: Int64) -> (inFlight: LaneInFlight, grace: GraceSale) {
        var inFlight = LaneInFlight()
        let sale = record(id)
        let abort = record("abort-\(id)", .abort)
        inFlight.start(sale)
        inFlight.addAbort(abort)
        return (inFlight, grace(sale, abort, untilMs: graceUntilMs))
    }

    @Test("an abort stands beside any activity, idle included, and ending it leaves the transaction")
    func abortsBesideActivity() {
        var inFlight = LaneInFlight()
        let abortAlone = Self.record("abort-1", .abort)
        inFlight.addAbort(abortAlone)
        #expect(inFlight.activity.isIdle && !inFlight.isIdle, "an abort on an idle lane keeps it busy")
        let sale = Self.record("pos7-2")
        inFlight.start(sale)
        #expect(inFlight.records.map(\.id) == ["pos7-2", "abort-1"])
        inFlight.end(abortAlone)
        #expect(inFlight.activity.record === sale && inFlight.aborts.isEmpty)
        inFlight.end(Self.record("someone-else"))
        #expect(inFlight.activity.record === sale, "ending a command not in flight changes nothing")
    }

    @Test("an abort that stopped the sale takes both out; the sale waits out its grace, then leaves once")
    func graceSales() {
        let aborted = Self.saleBeingAborted("pos7-3", graceUntilMs: 500)
        var inFlight = aborted.inFlight
        inFlight.stop(for: aborted.grace, keep: true)
        #expect(inFlight.activity.isIdle && inFlight.aborts.isEmpty)
        #expect(inFlight.graceSales.map(\.sale.id) == ["pos7-3"] && !inFlight.isIdle)
        #expect(inFlight.records.map(\.id) == ["pos7-3"])

        let next = Self.record("pos7-4")
        inFlight.start(next)
        #expect(inFlight.activity.record === next, "a new sale may start while the stopped one waits")
        #expect(inFlight.takeGraceSales(endedBy: 499).isEmpty)
        #expect(inFlight.takeGraceSales(endedBy: 500).map(\.sale.id) == ["pos7-3"])
        #expect(inFlight.graceSales.isEmpty && inFlight.takeGraceSales(endedBy: 10_000).isEmpty)
    }

    @Test("with no grace period the stopped sale and its abort leave at once, kept nowhere")
    func noGrace() {
        let aborted = Self.saleBeingAborted("pos7-5", graceUntilMs: 0)
        var inFlight = aborted.inFlight
        inFlight.stop(for: aborted.grace, keep: false)
        #expect(inFlight.isIdle)
    }
}
