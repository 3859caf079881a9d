import Foundation
import InterApp
import Logging
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// Staged outcomes live until the journal writer has committed their turn (issue 17): a repeat or a
/// `status` in between reads them from memory, never an older row of the journal.
@Suite("Command store: staged outcomes by turn")
struct CommandStoreTurnTests {
    private final class Rig {
        private let temporary: TemporaryJournal
        let store: CommandStore

        init() throws {
            temporary = try TemporaryJournal("store")
            store = CommandStore(
                journal: temporary.journal, logger: Logger(label: "store", factory: { _ in SwiftLogNoOpLogHandler() }))
        }

        /// A sale accepted and finalized with `outcome` in the current turn; its insert is journaled at once,
        /// as the writer would have in an earlier turn, and its final entry is returned unwritten.
        func finishedSale(_ id: String, outcome: Outcome) throws -> JournalEntry {
            let record = CommandRecord(
                id: id, lane: "lane-1", action: .sale, clientTransactionId: id, fingerprint: "f", deadlineMs: 1,
                waiters: [], purpose: .client(name: nil))
            try journal.commit([store.accept(record, atMs: 1)])
            return store.finalize(
                record, outcome: outcome, reply: #"{"id":"\#(id)","outcome":"\#(outcome.rawValue)"}"#,
                summary: ReplySummary(storedReply: [:], fingerprint: "f"), late: false, atMs: 2)
        }

        func staged(_ id: String) throws -> Outcome? {
            if case .finished(let stored)? = try store.find(id: id) { return stored.outcome }
            return nil
        }

        var journal: Journal { temporary.journal }
    }

    @Test("an outcome staged in a turn still open survives a synchronous commit of the turns before it")
    func openTurnSurvivesSynchronousCommit() throws {
        let rig = try Rig()
        _ = rig.store.sealTurn()
        _ = try rig.finishedSale("s", outcome: .success)
        rig.store.committed()
        #expect(try rig.staged("s") == .success, "the outcome of the open turn was dropped before it was written")
    }

    @Test("a turn's commit drops its staged outcomes, but not one staged again in a later turn")
    func laterStagingSurvives() throws {
        let rig = try Rig()
        let first = try rig.finishedSale("a", outcome: .unknown)
        let turn = rig.store.sealTurn()
        guard case .final = first else {
            Issue.record("expected a final entry, got \(first)")
            return
        }
        let stored = try #require(try rig.store.finished(id: "a"))
        _ = rig.store.amend(
            stored, outcome: .success, reply: #"{"id":"a","outcome":"success"}"#,
            summary: ReplySummary(storedReply: [:], fingerprint: "f"), late: true, atMs: 3)
        _ = rig.store.sealTurn()
        rig.store.committed(through: turn)
        #expect(try rig.staged("a") == .success, "the later turn's outcome was dropped with the earlier turn's")
        _ = try rig.finishedSale("b", outcome: .failure)
        rig.store.committed(through: turn + 1)
        // Both of a's turns are in: it is read from the journal now (this rig never wrote its final entries).
        #expect(try rig.staged("a") == nil)
        #expect(try rig.staged("b") == .failure, "b's turn is still open")
    }

    @Test(
        "the unknown count is the journal's at start, then kept as outcomes are staged: a resolution lowers it, a look-up never counts"
    )
    func unknownCountKeptByTheStore() throws {
        let rig = try Rig()
        let summary = ReplySummary(storedReply: [:], fingerprint: "f")
        #expect(rig.store.unknownCount() == 0)
        let lost = try rig.finishedSale("u1", outcome: .unknown)
        #expect(rig.store.unknownCount() == 1, "staged: counted before its commit")
        try rig.journal.commit([lost])
        #expect(try rig.journal.unknownCount() == 1)

        let stored = try #require(try rig.store.finished(id: "u1"))
        let kept = rig.store.amend(
            stored, outcome: .unknown, reply: #"{"id":"u1","outcome":"unknown"}"#, summary: summary, late: false,
            atMs: 3)
        #expect(rig.store.unknownCount() == 1, "unknown kept unknown (Viva's record noted) is not counted twice")
        let resolved = rig.store.amend(
            stored, outcome: .success, reply: #"{"id":"u1","outcome":"success"}"#, summary: summary, late: true,
            atMs: 4)
        #expect(rig.store.unknownCount() == 0)
        try rig.journal.commit([kept, resolved])
        #expect(try rig.journal.unknownCount() == 0)

        let lookup = CommandRecord(
            id: "lookup-1", lane: "lane-1", action: .transactionDetails, clientTransactionId: nil, fingerprint: "f",
            deadlineMs: 1, waiters: [], purpose: .client(name: nil))
        _ = rig.store.finalize(lookup, outcome: .unknown, reply: "{}", summary: summary, late: false, atMs: 5)
        #expect(rig.store.unknownCount() == 0, "a command the journal does not hold is not counted")

        try rig.journal.commit([try rig.finishedSale("u2", outcome: .unknown)])
        let restarted = CommandStore(
            journal: rig.journal, logger: Logger(label: "store", factory: { _ in SwiftLogNoOpLogHandler() }))
        #expect(restarted.unknownCount() == 1, "a new store starts from the journal's count")
    }

    @Test(
        "an unknown outcome dropped with a failed write is not counted: the journal is counted again once nothing is staged"
    )
    func unknownCountAfterRollBack() throws {
        let rig = try Rig()
        _ = try rig.finishedSale("lost", outcome: .unknown)
        #expect(rig.store.unknownCount() == 1)
        _ = rig.store.rollBack("lost")
        #expect(rig.store.unknownCount() == 0, "the journal never held lost's outcome")

        let kept = try rig.finishedSale("kept", outcome: .unknown)
        _ = try rig.finishedSale("dropped", outcome: .unknown)
        rig.store.forgetUnjournaled("dropped")
        #expect(rig.store.unknownCount() == nil, "kept is staged, not journaled: the count waits")
        _ = rig.store.sealTurn()
        try rig.journal.commit([kept])
        rig.store.committed()
        #expect(rig.store.unknownCount() == 1)
    }
}
