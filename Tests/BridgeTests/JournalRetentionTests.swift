import Foundation
import GRDB
import InterApp
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite
@testable import JournalTools

/// `journalRetentionDays`: the bridge prunes old finished commands itself, at start and then daily, by
/// `journal prune`'s rule (never an outstanding or `unknown` command), a batch a tick.
@Suite("Journal retention inside the bridge")
struct JournalRetentionTests {
    private static let dayMs: Int64 = 86_400_000

    /// The ids of the commands in the journal at `path`, and how many callbacks are matched to a command
    /// no longer there.
    private static func contents(_ path: String) throws -> (ids: [String], strayCallbacks: Int, callbacks: Int) {
        var configuration = Configuration()
        configuration.readonly = true
        let database = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? database.close() }
        return try database.read { db in
            let ids = try String.fetchAll(db, sql: "SELECT id FROM commands ORDER BY created_ms, rowid")
            let stray =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM callbacks WHERE matched_id IS NOT NULL
                        AND matched_id NOT IN (SELECT id FROM commands)
                        """) ?? 0
            let callbacks = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM callbacks") ?? 0
            return (ids, stray, callbacks)
        }
    }

    /// Polls the journal at `path` until its commands are `ids` (the bridge prunes on its own thread).
    private static func awaitCommands(_ ids: [String], in path: String) throws -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if try contents(path).ids == ids { return true }
            usleep(10_000)
        }
        return false
    }

    @Test(
        "a bridge started on a journal with old rows prunes the finished ones at start, keeps the unknown one, then prunes daily"
    )
    func prunesAtStartAndDaily() throws {
        let older = try OlderJournal()
        let before = try Self.contents(older.path)
        #expect(before.ids == ["paid", "declined", "lost", "unsure"] && before.callbacks >= 2)
        // Three days later, with a retention of two.
        let clock = ManualBridgeClock(startMs: SystemBridgeClock().nowMs() + 3 * Self.dayMs)
        let harness = try BridgeHarness(lanes: OlderJournal.lanes(), clock: clock, journalFolder: older.folder) {
            $0.journalRetentionDays = 2
        }
        #expect(try Self.awaitCommands(["unsure"], in: older.path), "\((try? Self.contents(older.path).ids) ?? [])")
        #expect(try Self.contents(older.path).strayCallbacks == 0)
        let status = try harness.call(#"{"id":"st","action":"status","ref":"paid"}"#)
        #expect(status.object("result")?.string("state") == "not_found")
        let logged = harness.logs.text.split(separator: "\n").first { $0.contains("journal retention: removed") }
        #expect(logged?.contains(#""commands": 3"#) == true, "\(logged ?? "")")

        // A sale today is kept at the next day's pass, and removed at the pass after it is two days old.
        #expect(try harness.call(saleJSON(id: "fresh", lane: "ok", amount: 500)).string("outcome") == "success")
        harness.advance(byMs: Self.dayMs + 1000)
        _ = try harness.call(#"{"id":"st2","action":"status","ref":"fresh"}"#)  // a turn after the pass
        #expect(try Self.contents(older.path).ids == ["unsure", "fresh"])
        harness.advance(byMs: 2 * Self.dayMs)
        #expect(try Self.awaitCommands(["unsure"], in: older.path), "\((try? Self.contents(older.path).ids) ?? [])")
        #expect(try JournalUnknown.list(path: older.path).map(\.id) == ["unsure"])
    }

    @Test("a pass removes a batch a tick until none is left; never an outstanding or unknown command")
    func batchesPerTick() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-ret-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("journal.sqlite").path
        let journal = try Journal(path: path, sync: .normal)
        defer { journal.close() }
        let old: Int64 = 1_700_000_000_000
        let count = JournalRetention.batchSize * 2 + 500
        try journal.database.write { db in
            for n in 0..<count {
                try db.execute(
                    sql: """
                        INSERT INTO commands(id, lane, action, fingerprint, state, outcome, reply, created_ms, updated_ms)
                        VALUES (?, 'ok', 'sale', '{}', 'final', 'success', '{}', ?, ?)
                        """, arguments: ["s\(n)", old + Int64(n), old + Int64(n)])
                try db.execute(
                    sql: """
                        INSERT INTO callbacks(lane, received_ms, fields, matched_id, disposition)
                        VALUES ('ok', ?, '{}', ?, 'matched')
                        """, arguments: [old + Int64(n), "s\(n)"])
            }
            try db.execute(
                sql: """
                    INSERT INTO commands(id, lane, action, fingerprint, state, outcome, created_ms, updated_ms)
                    VALUES ('open', 'ok', 'sale', '{}', 'delivered', NULL, ?1, ?1), ('unsure', 'ok', 'sale', '{}',
                    'final', 'unknown', ?1, ?1)
                    """, arguments: [old])
        }
        var retention = JournalRetention(days: 30, startMs: old + 31 * Self.dayMs)
        #expect(try retention.tick(journal: journal, nowMs: old) == nil, "a pass started before it was due")
        let now = old + 31 * Self.dayMs
        #expect(try retention.tick(journal: journal, nowMs: now) == nil)
        #expect(try Self.contents(path).ids.count == count + 2 - JournalRetention.batchSize)
        // Three batches of commands (the last one short, with the first batch of callbacks in its tick), then two
        // more of callbacks (the last one short ends the pass).
        var done: PruneResult?
        var ticks = 1
        while done == nil, ticks < 10 {
            done = try retention.tick(journal: journal, nowMs: now + Int64(ticks) * 1000)
            ticks += 1
        }
        #expect(ticks == 5)
        #expect(done == PruneResult(commands: count, callbacks: count))
        let left = try Self.contents(path)
        #expect(left.ids == ["open", "unsure"] && left.callbacks == 0)
        // The next pass is a day later.
        #expect(try retention.tick(journal: journal, nowMs: now + 9000) == nil)
        // The next day's pass: nothing to remove, in one tick.
        #expect(try retention.tick(journal: journal, nowMs: now + Self.dayMs) == PruneResult(commands: 0, callbacks: 0))
    }

    @Test(
        "callbacks go by age, walked in arrival order over several batches: old ones go, unmatched too, but for those of a command that stays"
    )
    func callbacksByAge() throws {
        let journal = try TemporaryJournal("vivabridge-ret")
        let old: Int64 = 1_700_000_000_000
        let now = old + 31 * Self.dayMs
        let unmatched = JournalRetention.batchSize * 2 + 10
        try journal.journal.database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO commands(id, lane, action, fingerprint, state, outcome, created_ms, updated_ms) VALUES
                    ('unsure', 'ok', 'sale', '{}', 'final', 'unknown', ?1, ?1),
                    ('open', 'ok', 'sale', '{}', 'delivered', NULL, ?1, ?1),
                    ('recent', 'ok', 'sale', '{}', 'final', 'failed', ?1, ?2),
                    ('paid', 'ok', 'sale', '{}', 'final', 'success', ?1, ?1)
                    """, arguments: [old, now - Self.dayMs])
            let insert = try db.makeStatement(
                sql: """
                    INSERT INTO callbacks(lane, received_ms, fields, matched_id, command_seq, disposition)
                    VALUES ('ok', ?1, '{}', ?2, (SELECT seq FROM command_log WHERE id = ?2), ?3)
                    """
            )
            // Stamped by a clock ten years ahead: stays, and does not end the walk.
            try insert.execute(arguments: [now + 3650 * Self.dayMs, nil, "orphan"])
            // Old callbacks: of the commands that stay (every 500th), then of one that goes, then orphans.
            for n in 0..<unmatched {
                let kept = ["unsure", "open", "recent"]
                let matched: String? = n % 500 == 0 ? kept[(n / 500) % kept.count] : nil
                try insert.execute(arguments: [old + Int64(n), matched, matched == nil ? "orphan" : "matched"])
            }
            try insert.execute(arguments: [old, "paid", "matched"])
            // Received after the cutoff: stays.
            try insert.execute(arguments: [now - Self.dayMs, nil, "orphan"])
        }
        let keptOld = (0..<unmatched).filter { $0 % 500 == 0 }.count
        var retention = JournalRetention(days: 30, startMs: now)
        var ticks = 0
        var done: PruneResult?
        while done == nil, ticks < 10 {
            done = try retention.tick(journal: journal.journal, nowMs: now + Int64(ticks) * 1000)
            ticks += 1
        }
        #expect(ticks == 3, "commands and a first batch of callbacks, then batches of \(JournalRetention.batchSize)")
        #expect(done == PruneResult(commands: 1, callbacks: unmatched - keptOld + 1))
        let left = try journal.journal.database.read { db in
            try Row.fetchAll(db, sql: "SELECT matched_id, received_ms FROM callbacks ORDER BY seq")
        }
        #expect(left.count == keptOld + 2)
        #expect(left.first?["received_ms"] == now + 3650 * Self.dayMs)
        #expect(
            left.dropFirst().dropLast().allSatisfy {
                ["unsure", "open", "recent"].contains($0["matched_id"] as String?)
            })
        #expect(left.last?["received_ms"] == now - Self.dayMs)

        // `journal prune` removes by the same rule: now `unsure` has gone (its two callbacks with it), and an orphan.
        journal.journal.close()
        let database = try DatabaseQueue(path: journal.journal.path)
        try database.write { db in
            try db.execute(
                sql: "INSERT INTO callbacks(lane, received_ms, fields, disposition) VALUES ('ok', ?, '{}', 'orphan')",
                arguments: [old])
            try db.execute(sql: "UPDATE commands SET outcome = 'success' WHERE id = 'unsure'")
        }
        try database.close()
        let pruned = try JournalPrune.prune(path: journal.journal.path, olderThanDays: 30, nowMs: now)
        #expect(pruned == PruneResult(commands: 1, callbacks: 3))
    }

    @Test("the walk through the callbacks ends after a whole batch received after the cutoff, not at the first one")
    func walkEndsAfterAWholeNewerBatch() throws {
        let journal = try TemporaryJournal("vivabridge-ret")
        let cutoff: Int64 = 1_700_000_000_000
        try journal.journal.database.write { db in
            for received in [cutoff + 1, cutoff - 1, cutoff - 2] + Array(repeating: cutoff + 5, count: 4) + [cutoff - 3]
            {
                try db.execute(
                    sql:
                        "INSERT INTO callbacks(lane, received_ms, fields, disposition) VALUES ('ok', ?, '{}', 'orphan')",
                    arguments: [received])
            }
        }
        let first = try journal.journal.pruneCallbacks(cutoffMs: cutoff, after: 0, limit: 3)
        #expect(first.removed == 2 && first.next == 3, "a newer one among older ones does not end the walk")
        let second = try journal.journal.pruneCallbacks(cutoffMs: cutoff, after: 3, limit: 3)
        #expect(second.removed == 0 && second.next == nil, "three newer in a row end it")
    }

    @Test("journalRetentionDays is off when absent and a whole number of days from 1 to 36500")
    func configurationKey() throws {
        let base = """
            terminal: {merchantKey: K}
            lanes:
              - {id: lane-1, endpoint: "tcp://127.0.0.1:1", platform: ios}
            """
        #expect(try BridgeConfiguration.load(yaml: base).journalRetentionDays == nil)
        #expect(try BridgeConfiguration.load(yaml: "journalRetentionDays: 90\n" + base).journalRetentionDays == 90)
        #expect(
            try BridgeConfiguration.load(yaml: base, environment: ["VIVABRIDGE_JOURNAL_RETENTION_DAYS": "30"])
                .journalRetentionDays == 30)
        for bad in ["0", "-3", "1.5", "thirty", "36501"] {
            let error = #expect(throws: ConfigurationError.self) {
                try BridgeConfiguration.load(yaml: "journalRetentionDays: \(bad)\n" + base)
            }
            #expect(error?.key == "journalRetentionDays", "\(bad)")
        }
        let running = try BridgeConfiguration.load(yaml: base)
        let candidate = try BridgeConfiguration.load(yaml: "journalRetentionDays: 7\n" + base)
        #expect(running.restartDifferences(to: candidate) == ["journalRetentionDays"])
    }
}
