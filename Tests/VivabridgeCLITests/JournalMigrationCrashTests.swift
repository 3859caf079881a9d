import Foundation
import GRDB
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite
@testable import JournalTools

/// The first start on a journal v1.1 wrote moves its rows to the log (`v1.2-journal-log`) in one transaction:
/// a bridge killed in the middle of it loses nothing, and the next start migrates the journal whole.
@Suite("Journal migration to the log, killed half-way")
struct JournalMigrationCrashTests {
    private static let sales = 150_000

    @Test("SIGKILL during the migration: the next start migrates again, every sale and callback is there")
    func killedMigrationLosesNothing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = folder.appendingPathComponent("journal.sqlite").path
        try Self.writeOlderJournal(at: journal)
        let config = folder.appendingPathComponent("bridge.yaml").path
        try """
        command: tcp://127.0.0.1:*
        events: tcp://127.0.0.1:*
        http: off
        journal: \(journal)
        terminal: {merchantKey: MIGRATION-KEY}
        lanes:
          - {id: lane-1, endpoint: "tcp://127.0.0.1:1", platform: ios}
        """.write(toFile: config, atomically: true, encoding: .utf8)

        let first = try ChildProcess(["run", "--config", config])
        // The migration's transaction spills into the WAL as it goes: kill the bridge once it holds 8 MB.
        let deadline = Date().addingTimeInterval(60)
        while Self.size(journal + "-wal") < 8 << 20, Date() < deadline, first.process.isRunning {
            usleep(2_000)
        }
        first.signal(SIGKILL)
        _ = first.waitForExit()
        #expect(!first.output.contains("commands (ROUTER)"), "the migration ended before the kill: nothing was tested")
        let half = try DatabaseQueue(path: journal)
        let migrated = try half.read { db in try db.tableExists("command_log") }
        try half.close()
        #expect(!migrated, "a killed migration left part of the log")

        let second = try ChildProcess(["run", "--config", config])
        #expect(second.waitForLine(containing: "commands (ROUTER)", timeout: 120) != nil, "\(second.errorOutput)")
        second.signal(SIGTERM)
        #expect(second.waitForExit() == 0)
        var exported = 0
        _ = try JournalExport.forEachFinished(path: journal) { _ in exported += 1 }
        #expect(exported == Self.sales)
        let database = try DatabaseQueue(path: journal)
        defer { try? database.close() }
        let (callbacks, unmatched) = try database.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM callbacks") ?? 0,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM callbacks WHERE command_seq IS NULL") ?? -1
            )
        }
        #expect(callbacks == Self.sales && unmatched == 0)
    }

    private static func size(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// A journal as v1.1 left it: `sales` finished sales, each with its callback.
    private static func writeOlderJournal(at path: String) throws {
        let database = try DatabaseQueue(path: path)
        defer { try? database.close() }
        try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        try JournalMigrations.migrate(database, upTo: JournalMigrations.lastOfVersionOnePointOne)
        let reply = String(repeating: "r", count: 500)
        try database.write { db in
            let command = try db.makeStatement(
                sql: """
                    INSERT INTO commands(id, lane, action, fingerprint, client_transaction_id, state, outcome, reply,
                        created_ms, updated_ms, amount) VALUES (?, 'lane-1', 'sale', '{}', ?, 'final', 'success', ?, ?, ?, 100)
                    """)
            let callback = try db.makeStatement(
                sql:
                    "INSERT INTO callbacks(lane, received_ms, fields, matched_id, disposition) VALUES ('lane-1', ?, '{}', ?, 'matched')"
            )
            for n in 1...sales {
                let id = "old-\(n)"
                try command.execute(arguments: [id, id, reply, Int64(n), Int64(n)])
                try callback.execute(arguments: [Int64(n), id])
            }
        }
        try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }
}
