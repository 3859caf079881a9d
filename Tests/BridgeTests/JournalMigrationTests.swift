import Foundation
import GRDB
import InterApp
import Logging
import TerminalSimulator
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite
@testable import JournalTools

/// A journal written by an older vivabridge is migrated and every row of it stays readable; one written
/// by a newer vivabridge is refused, untouched (docs/JOURNAL.md, Migrations).
@Suite("Journal migrations: older journals migrate, newer ones are refused")
struct JournalMigrationTests {
    @Test("a journal from before v1.1-command-client migrates; every command answers status and exports as before")
    func olderJournalMigrates() throws {
        let older = try OlderJournal()
        let harness = try BridgeHarness(lanes: OlderJournal.lanes(), journalFolder: older.folder)
        let journal = harness.configuration.journal
        let applied = try DatabaseQueue(path: journal).read { db in
            try JournalMigrations.migrator.appliedMigrations(db)
        }
        #expect(applied == JournalMigrations.known)
        for (id, reply) in older.replies {
            let status = try harness.call(#"{"id":"st-\#(id)","action":"status","ref":"\#(id)"}"#)
            let result = try #require(status.object("result"), "\(id): \(status)")
            #expect(result.string("outcome") == reply.string("outcome"), "\(id)")
            #expect(result.object("reply") == reply, "\(id): the stored reply changed")
        }
        var rows: [ExportedCommand] = []
        _ = try JournalExport.forEachFinished(path: journal) { rows.append($0) }
        #expect(rows == older.exported, "the export of the migrated journal differs from the older one's")
        #expect(try JournalUnknown.list(path: journal).map(\.id) == ["unsure"])
        // A repeat of an id journaled by the older bridge is answered from the journal, not sent again.
        let repeated = try harness.call(saleJSON(id: "paid", lane: "ok", amount: 1200, extra: #","tipAmount":200"#))
        #expect(repeated == older.replies["paid"])
    }

    @Test("v1.1-reply-columns fills the reply columns of every older row from its reply; new rows are filled alike")
    func replyColumnsBackFilled() throws {
        let older = try OlderJournal()
        // Read-only, before any bridge of this version opened it: read from the stored replies.
        var before: [ExportedCommand] = []
        _ = try JournalExport.forEachFinished(path: older.path) { before.append($0) }
        #expect(before == older.exported)

        try Journal(path: older.path, sync: .normal).close()
        let database = try DatabaseQueue(path: older.path)
        defer { try? database.close() }
        let columns = try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, amount, tip, failure_reason, reference_number, order_code, card, batch, error_code
                    FROM commands ORDER BY rowid
                    """)
        }
        #expect(columns.map { $0["id"] as String } == ["paid", "declined", "lost", "unsure"])
        let byId = Dictionary(uniqueKeysWithValues: columns.map { ($0["id"] as String, $0) })
        let paid = try #require(byId["paid"])
        let paidResult = try #require(older.replies["paid"]?.object("result"))
        #expect(paid["amount"] == 1200 && paid["tip"] == 200)
        #expect(paid["reference_number"] as String? == paidResult.string("referenceNumber"))
        #expect(paid["order_code"] as String? == paidResult.string("orderCode"))
        #expect((paid["order_code"] as String?)?.isEmpty == false)
        #expect(paid["card"] as String? == paidResult.string("accountNumber"))
        #expect((paid["card"] as String?)?.contains("*") == true)
        #expect(byId["declined"]?["failure_reason"] == "declined")
        #expect(byId["declined"]?["amount"] == 1251)
        #expect(byId["lost"]?["amount"] == 300, "an undeliverable sale keeps the amount asked")
        #expect(byId["unsure"]?["amount"] == 4100 && byId["unsure"]?["tip"] == nil as Int?)
        #expect(columns.allSatisfy { $0["error_code"] == nil as String? })
        let index = try database.read { db in
            try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'command_log'")
        }
        #expect(index.contains("command_log_created"))

        // A bridge of this version on the migrated journal: a new sale's columns, the back-filled ones and
        // what each stored reply says are one and the same.
        let harness = try BridgeHarness(lanes: OlderJournal.lanes(), journalFolder: older.folder)
        _ = try harness.call(saleJSON(id: "after", lane: "ok", amount: 2200, extra: #","tipAmount":150"#))
        var exported: [ExportedCommand] = []
        _ = try JournalExport.forEachFinished(path: older.path) { exported.append($0) }
        let fromReplies = try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, lane, action, fingerprint, outcome, reply, client_transaction_id, created_ms, updated_ms
                    FROM commands WHERE state = 'final' ORDER BY created_ms, rowid
                    """
            ).map {
                var command = ExportedCommand(
                    id: $0["id"], lane: $0["lane"], action: $0["action"], fingerprint: $0["fingerprint"],
                    outcome: $0["outcome"], reply: $0["reply"], createdMs: $0["created_ms"], updatedMs: $0["updated_ms"]
                )
                command.clientTransactionId = $0["client_transaction_id"]
                return command
            }
        }
        #expect(exported.map(\.id) == ["paid", "declined", "lost", "unsure", "after"])
        #expect(exported == fromReplies)
        #expect(exported.last?.amount == 2200 && exported.last?.tip == 150 && exported.last?.orderCode != nil)
    }

    @Test("v1.3-callback-relay-seq on a journal of v1.2: callbacks gain relay_seq and relay_url_hash, older rows NULL")
    func callbackRelaySeqMigrates() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vivabridge-v12-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("journal.sqlite").path
        do {
            let older = try DatabaseQueue(path: path)
            defer { try? older.close() }
            try JournalMigrations.migrate(older, upTo: "v1.2-journal-log")
            try older.write { db in
                try db.execute(
                    sql:
                        "INSERT INTO callbacks(lane, received_ms, fields, disposition) VALUES ('lane-1', 1, '{}', 'orphan')"
                )
            }
        }
        let journal = try Journal(path: path, sync: .normal)
        let key = RelayCallbackKey(seq: 9, url: Array("interapp-callback://result?status=success".utf8))
        try journal.commit([
            .callback(
                lane: "lane-1", atMs: 2, fields: "{}", matchedId: nil, commandSeq: nil, disposition: .orphan, relay: key
            )
        ])
        #expect(try journal.recentRelayCallbacks(limit: 10).map(\.key) == [key])
        journal.close()
        let database = try DatabaseQueue(path: path)
        defer { try? database.close() }
        let (applied, rows) = try database.read { db in
            (
                try JournalMigrations.migrator.appliedMigrations(db),
                try Row.fetchAll(db, sql: "SELECT relay_seq, relay_url_hash FROM callbacks ORDER BY seq")
            )
        }
        #expect(applied == JournalMigrations.known)
        #expect(
            rows.map { [$0[0] as Int64?, $0[1] as Int64?] } == [[nil, nil], [9, Int64(bitPattern: key.urlHash)]])
    }

    @Test("a journal from a newer vivabridge is refused at open, naming its unknown migrations, and left untouched")
    func newerJournalRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-newer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("journal.sqlite").path
        // Known up to v1, then two a newer vivabridge added: the v1.1 ones must not be applied on top.
        let database = try DatabaseQueue(path: path)
        try JournalMigrations.migrator.migrate(database, upTo: "v1")
        try database.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations(identifier) VALUES ('v7-refunds'), ('v7-tills')")
            try db.execute(
                sql: """
                    INSERT INTO commands(id, lane, action, fingerprint, state, created_ms, updated_ms)
                    VALUES ('a', 'ok', 'sale', '{}', 'accepted', 1, 1)
                    """)
        }
        try database.close()
        let before = try Self.contents(path)

        let error = #expect(throws: JournalError.self) { _ = try Journal(path: path, sync: .normal) }
        #expect(error?.isFromNewerVersion == true && error?.isSetUpProblem == true)
        #expect(error?.message.contains("v7-refunds, v7-tills") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("Run the newer vivabridge, or restore the backup") == true)
        #expect(try Self.contents(path) == before, "the refused journal was changed")

        var configuration = BridgeConfiguration()
        configuration.command = "tcp://127.0.0.1:*"
        configuration.events = "tcp://127.0.0.1:*"
        configuration.journal = path
        let bridge = try Bridge(
            configuration: configuration, logger: Logger(label: "newer", factory: { _ in SwiftLogNoOpLogHandler() }))
        let startError = #expect(throws: JournalError.self) { try bridge.start() }
        #expect(startError?.isFromNewerVersion == true)
        #expect(try Self.contents(path) == before)

        for read in [
            { _ = try JournalExport.forEachFinished(path: path) { _ in } },
            { _ = try JournalUnknown.list(path: path) },
            { _ = try JournalMaintenance.integrityProblems(path: path) },
            { try JournalBackup.copy(path: path, to: folder.appendingPathComponent("copy.sqlite").path) },
            { _ = try JournalPrune.prune(path: path, olderThanDays: 1) },
        ] as [() throws -> Void] {
            let refused = #expect(throws: JournalError.self) { try read() }
            #expect(refused?.isFromNewerVersion == true && refused?.message.contains("v7-refunds") == true)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("copy.sqlite").path))
        #expect(try Self.contents(path) == before)
    }

    /// The applied migrations and the commands of the journal at `path`.
    private static func contents(_ path: String) throws -> [String] {
        var configuration = Configuration()
        configuration.readonly = true
        let database = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? database.close() }
        return try database.read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
                + String.fetchAll(db, sql: "SELECT id || ' ' || state FROM commands ORDER BY id")
        }
    }
}
