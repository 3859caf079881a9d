import Foundation
import GRDB
import Testing
import ZeroMQ

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// A turn the loop commits itself when nothing waits for the writer's thread (JournalWriter.commitHere): it
/// never waits for a lock another connection holds, so a busy journal never stops the loop; the turn then
/// goes to the thread, which waits.
@Suite("Journal commits on the loop: never while the journal is busy")
struct JournalCommitHereTests {
    private static func insert(_ id: String, seq: Int64) -> JournalEntry {
        .insert(
            StoredCommand(
                id: id, lane: "lane-1", action: .sale, fingerprint: "f", clientTransactionId: id, state: .accepted,
                outcome: nil, reply: nil, deadlineMs: nil, createdMs: 1, seq: seq))
    }

    private static func ids(_ journal: Journal) throws -> [String] {
        try journal.database.read { db in try String.fetchAll(db, sql: "SELECT id FROM commands ORDER BY id") }
    }

    @Test(
        "the write lock held elsewhere: nothing written and no wait (the busy wait is 5 s); a plain commit still waits")
    func busyGivesUpAtOnce() throws {
        let temporary = try TemporaryJournal("commit-here-busy")
        let committer = try temporary.journal.makeCommitter()
        defer { committer.close() }
        let lock = try JournalWriteLock(journal: temporary.journal.path)
        let started = ContinuousClock.now
        #expect(try committer.commitUnlessBusy([[Self.insert("here", seq: 1)]]) == false)
        #expect(ContinuousClock.now - started < .milliseconds(2500), "it waited for the lock")

        // The lock goes in a moment: a plain commit waits for it, then writes.
        nonisolated(unsafe) let held = lock  // released on the other thread only
        let release = Thread {
            Thread.sleep(forTimeInterval: 0.3)
            try? held.release()
        }
        release.start()
        try committer.commit([[Self.insert("waited", seq: 2)]])
        #expect(try Self.ids(temporary.journal) == ["waited"])
    }

    @Test("the writer commits a turn here and reports it; while the journal is busy it says so and writes nothing")
    func writerCommitsHere() throws {
        let context = try Context()
        defer { context.terminate() }
        let temporary = try TemporaryJournal("commit-here-writer")
        let writer = try JournalWriter(
            committer: try temporary.journal.makeCommitter(), commitsHere: true, context: context,
            metrics: BridgeMetrics(lanes: ["lane-1"]))
        defer { writer.stop() }
        #expect(writer.commitHere(turn: 1, entries: [Self.insert("first", seq: 1)]) == .committed(through: 1))
        let lock = try JournalWriteLock(journal: temporary.journal.path)
        #expect(writer.commitHere(turn: 2, entries: [Self.insert("second", seq: 2)]) == nil)
        try lock.release()
        #expect(try Self.ids(temporary.journal) == ["first"])
        #expect(writer.takeReports().reports.isEmpty, "a turn committed here is not reported again")
    }
}
