import Foundation
import GRDB
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// The journal writer's SQLite connection (issue 34): a commit that fails, midway or at a full disk, leaves
/// nothing of itself, and the same connection takes the next commit.
@Suite("Journal committer: a failed commit is rolled back and the next one goes in")
struct JournalCommitterTests {
    private static func insert(_ id: String, seq: Int64, fingerprint: String = "f") -> JournalEntry {
        .insert(
            StoredCommand(
                id: id, lane: "lane-1", action: .sale, fingerprint: fingerprint, clientTransactionId: id,
                state: .accepted, outcome: nil, reply: nil, deadlineMs: nil, createdMs: 1, seq: seq))
    }

    private static func ids(_ journal: Journal) throws -> [String] {
        try journal.database.read { db in try String.fetchAll(db, sql: "SELECT id FROM commands ORDER BY id") }
    }

    @Test("a statement that fails mid-transaction: the turns before it in the commit are not kept")
    func failureMidway() throws {
        let temporary = try TemporaryJournal("committer-midway")
        let committer = try temporary.journal.makeCommitter()
        defer { committer.close() }
        try committer.commit([[Self.insert("a", seq: 1)]])
        // "b" goes in, then the same place in the log again fails the commit (the primary key).
        #expect(throws: DatabaseError.self) {
            try committer.commit([[Self.insert("b", seq: 2)], [Self.insert("a", seq: 1)]])
        }
        try committer.commit([[Self.insert("c", seq: 3)]])
        #expect(try Self.ids(temporary.journal) == ["a", "c"])
    }

    @Test("a full disk (SQLITE_FULL) fails the commit with that error; once there is room the next one goes in")
    func diskFull() throws {
        let temporary = try TemporaryJournal("committer-full")
        let committer = try SQLiteCommitter(path: temporary.journal.path, sync: .normal)
        defer { committer.close() }
        let connection = committer.database
        // The file may not grow past its size now: the next page it needs is refused, as on a full disk.
        try connection.writeWithoutTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(pages)")
        }
        let large = String(repeating: "x", count: 2000)
        let turns = (1...50).map { [Self.insert("full-\($0)", seq: Int64($0), fingerprint: large)] }
        let failure = #expect(throws: DatabaseError.self) { try committer.commit(turns) }
        #expect(failure?.resultCode == .SQLITE_FULL, "\(String(describing: failure))")

        try connection.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = 1000000") }
        try committer.commit([[Self.insert("after", seq: 51)]])
        #expect(try Self.ids(temporary.journal) == ["after"])
    }
}
