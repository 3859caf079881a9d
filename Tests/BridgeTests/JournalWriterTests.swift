import Foundation
import GRDB
import Testing
import ZeroMQ

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// The journal's writer thread (issue 17): turns committed in order, many in one transaction, and a failed
/// commit that stops every later turn until the loop has taken the failure.
@Suite("Journal writer: group commit on its own thread")
struct JournalWriterTests {
    /// A journal in a folder of its own and a writer over it, for one test.
    private final class Rig {
        private let temporary: TemporaryJournal
        let context: Context
        let writer: JournalWriter

        init() throws {
            context = try Context()
            temporary = try TemporaryJournal("writer")
            writer = try JournalWriter(
                committer: try temporary.journal.makeCommitter(), context: context,
                metrics: BridgeMetrics(lanes: ["lane-1"]))
        }

        /// Waits (polling the writer's wake-up socket, at most 10 s) until the writer reports something.
        func nextReports() throws -> [JournalWriter.Report] {
            let poller = Poller()
            poller.add(writer.wake)
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                let reports = writer.takeReports().reports
                if !reports.isEmpty { return reports }
                try poller.poll(timeoutMilliseconds: 100)
            }
            throw WriterTestError("the writer reported nothing in 10 s")
        }

        /// Collects reports until one says `turn` is committed or a failure is reported.
        func reports(until turn: UInt64) throws -> [JournalWriter.Report] {
            var all: [JournalWriter.Report] = []
            while true {
                all += try nextReports()
                switch all.last {
                case .committed(let through)? where through >= turn: return all
                case .failed?: return all
                default: continue
                }
            }
        }

        func ids() throws -> [String] {
            try journal.database.read { db in try String.fetchAll(db, sql: "SELECT id FROM commands ORDER BY id") }
        }

        var journal: Journal { temporary.journal }

        // The writer stops before the journal closes (the temporary journal goes with this rig, after).
        deinit { writer.stop() }
    }

    private struct WriterTestError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    private static func insert(_ id: String, seq: Int64? = nil) -> JournalEntry {
        .insert(
            StoredCommand(
                id: id, lane: "lane-1", action: .sale, fingerprint: "f", clientTransactionId: id, state: .accepted,
                outcome: nil, reply: nil, deadlineMs: nil, createdMs: 1, seq: seq))
    }

    @Test("turns queued while a commit waits are committed together, in order, and reported once")
    func groupCommit() throws {
        let rig = try Rig()
        // Another connection holds the write lock: the writer's first commit waits for it.
        let lock = try JournalWriteLock(journal: rig.journal.path)
        for turn in UInt64(1)...5 { rig.writer.submit(turn: turn, entries: [Self.insert("t\(turn)")]) }
        #expect(rig.writer.takeReports().reports.isEmpty, "nothing is reported committed while the lock is held")
        try lock.release()
        let reports = try rig.reports(until: 5)
        #expect(reports.last == .committed(through: 5))
        #expect(reports.count <= 2, "five turns queued behind one commit took \(reports.count) commits: \(reports)")
        #expect(try rig.ids() == ["t1", "t2", "t3", "t4", "t5"])
    }

    @Test("a queue longer than a commit takes is committed in several transactions, all of it, in order")
    func longQueueInSeveralCommits() throws {
        let rig = try Rig()
        let lock = try JournalWriteLock(journal: rig.journal.path)
        let turns = UInt64(JournalWriter.maxTurnsPerCommit * 2 + 10)
        for turn in UInt64(1)...turns { rig.writer.submit(turn: turn, entries: [Self.insert("q\(turn)")]) }
        try lock.release()
        let reports = try rig.reports(until: turns)
        #expect(reports.last == .committed(through: turns))
        #expect(reports.count >= 3, "\(turns) turns in \(reports.count) commits: a commit took more than its share")
        #expect(try rig.ids().count == Int(turns))
    }

    @Test("after a failed commit nothing more is written until the loop takes the failure; then writes resume")
    func failureStopsLaterTurns() throws {
        let rig = try Rig()
        rig.writer.submit(turn: 1, entries: [Self.insert("a", seq: 1)])
        #expect(try rig.reports(until: 1) == [.committed(through: 1)])
        // The same place in the log again: the insert fails (the primary key), as a full disk would fail it.
        rig.writer.submit(turn: 2, entries: [Self.insert("a", seq: 1)])
        let failed = try rig.reports(until: 2)
        guard case .failed(let through, let problem)? = failed.last else {
            Issue.record("expected a failure, got \(failed)")
            return
        }
        #expect(through == 2)
        #expect(problem.description.contains("UNIQUE") && !problem.leaseLost)
        rig.writer.submit(turn: 3, entries: [Self.insert("dropped")])
        rig.writer.takeFailure()
        rig.writer.submit(turn: 4, entries: [Self.insert("after")])
        #expect(try rig.reports(until: 4).last == .committed(through: 4))
        #expect(try rig.ids() == ["a", "after"], "the turn queued behind the failure was never written")
    }

    @Test("stop commits what is queued before the thread ends")
    func stopCommitsQueued() throws {
        let rig = try Rig()
        for turn in UInt64(1)...3 { rig.writer.submit(turn: turn, entries: [Self.insert("s\(turn)")]) }
        rig.writer.stop()
        #expect(try rig.ids() == ["s1", "s2", "s3"])
    }
}
