import Foundation
import GRDB
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// The journal's checkpointer (issue 17): past its threshold it rewinds the WAL while a writer keeps
/// committing, syncing the database file first so that the writer waits only for the last frames.
@Suite("Journal checkpointer: the WAL rewound under a busy writer, nothing lost")
struct JournalCheckpointerTests {
    private static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("checkpointer-\(UUID().uuidString).db").path
    }

    @Test("the database file is synced through SQLite's own handle of it")
    func syncsThroughSQLite() throws {
        let path = Self.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let database = try Journal.open(path: path, sync: .normal)
        try database.write { db in try db.execute(sql: "CREATE TABLE t (x INTEGER)") }
        let synced = database.writeWithoutTransaction { db in JournalCheckpointer.syncDatabaseFile(db) }
        #expect(synced)
    }

    @Test("the bridge's connections keep a rewound WAL file up to twice what a RESTART rewinds")
    func walSizeLimit() throws {
        let path = Self.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let database = try Journal.open(path: path, sync: .normal)
        let limit = try database.read { db in try Int.fetchOne(db, sql: "PRAGMA journal_size_limit") }
        #expect(limit == 2 * JournalCheckpointer.restartFrames * 4096)
        #expect(limit == 128 << 20)
    }

    @Test(
        "a writer committing all along sees the WAL rewound by RESTARTs, and every row it committed is in the journal")
    func rewindsUnderABusyWriter() throws {
        let path = Self.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let writer = try Journal.open(path: path, sync: .normal)
        try writer.write { db in try db.execute(sql: "CREATE TABLE t (x INTEGER PRIMARY KEY, payload TEXT)") }
        let checkpointer = try JournalCheckpointer(path: path, intervalMs: 1, restartFrames: 32)
        let payload = String(repeating: "p", count: 3000)
        // Commits until two RESTARTs have rewound the WAL under it (a PASSIVE alone cannot while it writes).
        let deadline = ContinuousClock.now + .seconds(30)
        var commits = 0
        while checkpointer.restarts < 2, ContinuousClock.now < deadline {
            try writer.write { db in
                for _ in 0..<4 {
                    try db.execute(sql: "INSERT INTO t(x, payload) VALUES (?, ?)", arguments: [commits, payload])
                    commits += 1
                }
            }
        }
        checkpointer.stop()
        #expect(checkpointer.restarts >= 2, "\(checkpointer.restarts) RESTARTs in \(commits) rows")
        let (count, integrity) = try writer.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t"),
                try String.fetchOne(db, sql: "PRAGMA integrity_check")
            )
        }
        #expect(count == commits)
        #expect(integrity == "ok")
    }
}
