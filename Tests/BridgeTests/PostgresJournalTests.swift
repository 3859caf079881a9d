import Foundation
import InterApp
import LocalPostgres
import Logging
import TerminalSimulator
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalPostgres
@testable import JournalSQLite

/// The journal on PostgreSQL (`journal: postgresql://…`), through the bridge, against a real PostgreSQL 15
/// cluster the tests start (``PostgresCluster``): the same promises as on SQLite.
@Suite("Journal on PostgreSQL: the bridge's promises on a real server")
struct PostgresJournalTests {
    private static let lanes = [
        SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: .zeroDelay)
    ]

    /// One row per line of `psql`'s unaligned output, fields split on `|`.
    private static func rows(_ sql: String, in url: String) throws -> [[String]] {
        try PostgresCluster.shared().psql(sql, database: url).split(separator: "\n").map {
            $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        }
    }

    @Test("a sale is journaled in PostgreSQL's log and answered; the commands view shows it as on SQLite")
    func saleJournaled() throws {
        let url = try PostgresCluster.shared().createDatabase()
        let harness = try BridgeHarness(lanes: Self.lanes, journal: url)
        let reply = try harness.call(saleJSON(id: "pg-sale", lane: "lane-1", amount: 1200))
        #expect(reply.string("outcome") == "success")
        #expect(
            try Self.rows("SELECT id, state, outcome, amount, action FROM commands", in: url) == [
                ["pg-sale", "final", "success", "1200", "sale"]
            ])
        #expect(try Self.rows("SELECT COUNT(*) FROM command_log", in: url) == [["1"]])
        #expect(try Self.rows("SELECT COUNT(*) FROM callbacks WHERE command_seq IS NOT NULL", in: url) == [["1"]])
    }

    @Test("after a restart, a repeated id is answered from the journal and never sent again; status answers it")
    func repeatAfterRestart() throws {
        let url = try PostgresCluster.shared().createDatabase()
        let first = try BridgeHarness(lanes: Self.lanes, journal: url)
        let sale = saleJSON(id: "once", lane: "lane-1", amount: 700)
        let answered = try first.call(sale)
        #expect(answered.string("outcome") == "success")
        #expect(first.simulator.openedURLs(lane: "lane-1").count == 1)
        first.bridge.stop()

        let again = try BridgeHarness(lanes: Self.lanes, journal: url)
        let repeated = try again.call(sale)
        #expect(repeated == answered)
        #expect(again.simulator.openedURLs(lane: "lane-1").isEmpty, "a repeated id reached the terminal again")
        let status = try again.call(#"{"id":"st","action":"status","ref":"once"}"#)
        let result = try #require(status.object("result"))
        #expect(result.string("state") == "final")
        #expect(result.string("outcome") == "success")
        #expect(result.object("reply")?.object("result")?.int("amount") == 700)
        let conflict = try again.call(saleJSON(id: "once", lane: "lane-1", amount: 800))
        #expect(conflict.object("error")?.string("code") == "id_conflict")
        #expect(again.simulator.openedURLs(lane: "lane-1").isEmpty)
    }

    @Test("a sale in flight when the bridge stopped is recovered at the next start: a repeat joins it, it ends unknown")
    func outstandingRecovered() throws {
        let url = try PostgresCluster.shared().createDatabase()
        var behaviour = LaneBehaviour()
        behaviour.host = .manual
        let lanes = [SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)]
        let clock = ManualBridgeClock()
        let first = try BridgeHarness(lanes: lanes, clock: clock, journal: url)
        let sale = saleJSON(id: "inflight", lane: "lane-1", amount: 900, extra: #","timeoutMs":5000"#)
        try first.send(sale)
        #expect(first.simulator.waitForPhase(lane: "lane-1", .host, timeout: .seconds(5)))
        first.bridge.halt()
        #expect(try Self.rows("SELECT state FROM commands WHERE id = 'inflight'", in: url) == [["accepted"]])

        let again = try BridgeHarness(lanes: lanes, clock: ManualBridgeClock(startMs: clock.nowMs()), journal: url)
        #expect(again.logs.text.contains("restored outstanding commands"))
        let status = try again.call(#"{"id":"st","action":"status","ref":"inflight"}"#)
        #expect(status.object("result")?.string("state") == "forwarded")
        try again.send(sale)
        _ = try again.call(#"{"id":"p","action":"ping"}"#)
        again.advance(byMs: 5001)
        #expect(try again.reply(to: "inflight").string("outcome") == "unknown")
        #expect(again.simulator.openedURLs(lane: "lane-1").isEmpty, "a recovered sale was sent again")
        #expect(try Self.rows("SELECT outcome FROM commands WHERE id = 'inflight'", in: url) == [["unknown"]])
    }

    @Test("a late callback completes an unknown sale; the log keeps both outcomes, the view shows the latest")
    func lateCallbackCompletesUnknown() throws {
        let url = try PostgresCluster.shared().createDatabase()
        var behaviour = LaneBehaviour()
        behaviour.host = .manual
        let harness = try BridgeHarness(
            lanes: [SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)],
            clock: ManualBridgeClock(), journal: url)
        try harness.send(saleJSON(id: "slow", lane: "lane-1", amount: 4200, extra: #","timeoutMs":1000"#))
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .host, timeout: .seconds(5)))
        harness.advance(byMs: 1001)
        #expect(try harness.reply(to: "slow").string("outcome") == "unknown")
        harness.simulator.release(lane: "lane-1")
        let late = try harness.event("lane-1.sale.late_result") { $0.string("id") == "slow" }
        #expect(late.string("outcome") == "success")
        let status = try harness.call(#"{"id":"st","action":"status","ref":"slow"}"#)
        #expect(status.object("result")?.string("outcome") == "success")
        #expect(status.object("result")?.object("reply")?["late"] == .bool(true))
        #expect(
            try Self.rows("SELECT outcome, late FROM outcome_log ORDER BY seq", in: url) == [
                ["unknown", "0"], ["success", "1"],
            ])
        #expect(try Self.rows("SELECT outcome, late FROM commands", in: url) == [["success", "1"]])
    }

    @Test("a journal with a migration this build does not know is refused, naming it, and left untouched")
    func newerJournalRefused() throws {
        let cluster = try PostgresCluster.shared()
        let url = try cluster.createDatabase()
        try JournalStores.open(url, sync: .normal).close()
        #expect(
            try Self.rows("SELECT COUNT(*) FROM grdb_migrations", in: url) == [["\(JournalMigrations.known.count)"]])
        try cluster.psql("INSERT INTO grdb_migrations VALUES ('v9-from-the-future')", database: url)
        let error = #expect(throws: JournalError.self) { _ = try JournalStores.open(url, sync: .normal) }
        #expect(error?.isFromNewerVersion == true)
        #expect(error?.description.contains("v9-from-the-future") == true, "\(error?.description ?? "")")
        #expect(
            try Self.rows("SELECT COUNT(*) FROM grdb_migrations", in: url) == [
                ["\(JournalMigrations.known.count + 1)"]
            ])
        // The bridge does not start on it.
        var configuration = BridgeConfiguration()
        configuration.command = "tcp://127.0.0.1:*"
        configuration.events = "tcp://127.0.0.1:*"
        configuration.journal = url
        let bridge = try Bridge(configuration: configuration, clock: SystemBridgeClock(), logger: Logger(label: "t"))
        #expect(throws: (any Error).self) { _ = try bridge.start() }
    }

    @Test("retention removes old finished commands and their callbacks by prune's rule; never an unknown one")
    func retention() throws {
        let cluster = try PostgresCluster.shared()
        let url = try cluster.createDatabase()
        try JournalStores.open(url, sync: .normal).close()
        let dayMs: Int64 = 86_400_000
        let old = SystemBridgeClock().nowMs() - 10 * dayMs
        try cluster.psql(
            """
            INSERT INTO command_log(seq, id, lane, action, fingerprint, created_ms) VALUES
                (1, 'paid', 'lane-1', 'sale', '{}', \(old)), (2, 'declined', 'lane-1', 'sale', '{}', \(old)),
                (3, 'unsure', 'lane-1', 'sale', '{}', \(old));
            INSERT INTO outcome_log(command_seq, lane, action, outcome, reply, at_ms) VALUES
                (1, 'lane-1', 'sale', 'success', '{}', \(old)), (2, 'lane-1', 'sale', 'failure', '{}', \(old)),
                (3, 'lane-1', 'sale', 'unknown', '{}', \(old));
            INSERT INTO callbacks(lane, received_ms, fields, matched_id, command_seq, disposition) VALUES
                ('lane-1', \(old), '{}', 'paid', 1, 'matched'), ('lane-1', \(old), '{}', 'unsure', 3, 'matched'),
                ('lane-1', \(old), '{}', NULL, NULL, 'orphan');
            """, database: url)
        let harness = try BridgeHarness(lanes: Self.lanes, journal: url) { $0.journalRetentionDays = 2 }
        let deadline = Date().addingTimeInterval(10)
        while try Self.rows("SELECT id FROM commands ORDER BY seq", in: url) != [["unsure"]], Date() < deadline {
            usleep(20_000)
        }
        #expect(try Self.rows("SELECT id FROM commands ORDER BY seq", in: url) == [["unsure"]])
        #expect(try Self.rows("SELECT matched_id FROM callbacks", in: url) == [["unsure"]])
        #expect(try Self.rows("SELECT COUNT(*) FROM outcome_log", in: url) == [["1"]])
        let logged = harness.logs.text.split(separator: "\n").first { $0.contains("journal retention: removed") }
        #expect(
            logged?.contains(#""commands": 2"#) == true && logged?.contains(#""callbacks": 2"#) == true,
            "\(logged ?? "")")
        let status = try harness.call(#"{"id":"st","action":"status","ref":"paid"}"#)
        #expect(status.object("result")?.string("state") == "not_found")
        #expect(try harness.call(saleJSON(id: "fresh", lane: "lane-1", amount: 500)).string("outcome") == "success")
        #expect(try Self.rows("SELECT id FROM commands ORDER BY seq", in: url) == [["unsure"], ["fresh"]])
    }

    @Test("retention is fenced by the lease as commits are: under another's lease it removes nothing, leaseLost")
    func retentionFencedByTheLease() throws {
        let cluster = try PostgresCluster.shared()
        let url = try cluster.createDatabase()
        let journal = try PostgresJournal(address: try PostgresAddress(url: url), leaseEpoch: 40)
        defer { journal.close() }
        let old = SystemBridgeClock().nowMs() - 86_400_000
        try cluster.psql(
            """
            INSERT INTO command_log(seq, id, lane, action, fingerprint, created_ms) VALUES
                (1, 'paid', 'lane-1', 'sale', '{}', \(old));
            INSERT INTO outcome_log(command_seq, lane, action, outcome, reply, at_ms) VALUES
                (1, 'lane-1', 'sale', 'success', '{}', \(old));
            INSERT INTO callbacks(lane, received_ms, fields, matched_id, command_seq, disposition) VALUES
                ('lane-1', \(old), '{}', NULL, NULL, 'orphan');
            UPDATE journal_lease SET epoch = 41, instance = 'intruder',
                expires_at = clock_timestamp() + interval '1 minute';
            """, database: url)
        let cutoff = SystemBridgeClock().nowMs()
        let lost: (any Error) -> Bool = {
            ($0 as? JournalError)?.code == .leaseLost && "\($0)".contains("held by intruder at epoch 41")
        }
        #expect(performing: { try journal.pruneCommands(cutoffMs: cutoff, limit: 100) }, throws: lost)
        #expect(performing: { try journal.pruneCallbacks(cutoffMs: cutoff, after: 0, limit: 100) }, throws: lost)
        #expect(try Self.rows("SELECT COUNT(*) FROM command_log", in: url) == [["1"]])
        #expect(try Self.rows("SELECT COUNT(*) FROM outcome_log", in: url) == [["1"]])
        #expect(try Self.rows("SELECT COUNT(*) FROM callbacks", in: url) == [["1"]])

        // Under its own lease, the same batches remove them.
        try cluster.psql("UPDATE journal_lease SET epoch = 40, instance = 'this'", database: url)
        #expect(try journal.pruneCommands(cutoffMs: cutoff, limit: 100) == 1)
        #expect(try journal.pruneCallbacks(cutoffMs: cutoff, after: 0, limit: 100).removed == 1)
        #expect(try Self.rows("SELECT COUNT(*) FROM outcome_log", in: url) == [["0"]])
    }

    @Test("the epoch grows by one at every start, in the journal's meta table")
    func epoch() throws {
        let url = try PostgresCluster.shared().createDatabase()
        let journal = try JournalStores.open(url, sync: .normal)
        defer { journal.close() }
        #expect(try journal.nextEpoch() == 1)
        #expect(try journal.nextEpoch() == 2)
        #expect(try Self.rows("SELECT value FROM meta WHERE key = 'epoch'", in: url) == [["2"]])
    }

    @Test("a commit retried is written once; a sequence another command holds fails the whole commit")
    func sequenceClash() throws {
        let url = try PostgresCluster.shared().createDatabase()
        let journal = try JournalStores.open(url, sync: .normal)
        defer { journal.close() }
        func row(_ id: String) -> StoredCommand {
            StoredCommand(
                id: id, lane: "lane-1", action: .sale, fingerprint: "{}", clientTransactionId: id, state: .accepted,
                createdMs: 1, seq: 1)
        }
        try journal.commit([.insert(row("first"))])
        try journal.commit([.insert(row("first"))])
        #expect(try Self.rows("SELECT id FROM command_log", in: url) == [["first"]])
        let callback = JournalEntry.callback(
            lane: "lane-1", atMs: 2, fields: "{}", matchedId: nil, commandSeq: nil, disposition: .orphan)
        #expect(throws: (any Error).self) { try journal.commit([callback, .insert(row("other"))]) }
        #expect(try Self.rows("SELECT id FROM command_log", in: url) == [["first"]])
        #expect(try Self.rows("SELECT COUNT(*) FROM callbacks", in: url) == [["0"]], "a failed commit left rows")
    }

    @Test(
        "the writer's commit is prepared once a connection: after its connection is cut, it is prepared again on the next and written"
    )
    func preparedCommitAfterLostConnection() throws {
        let url = try PostgresCluster.shared().createDatabase()
        let journal = try JournalStores.open(url, sync: .normal)
        defer { journal.close() }
        let committer = try journal.makeCommitter()
        defer { committer.close() }
        func row(_ id: String, seq: Int64) -> StoredCommand {
            StoredCommand(
                id: id, lane: "lane-1", action: .sale, fingerprint: "{}", clientTransactionId: id, state: .accepted,
                createdMs: 1, seq: seq)
        }
        try committer.commit([[.insert(row("first", seq: 1))], [.insert(row("second", seq: 2))]])
        let writer =
            "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = 'vivabridge-writer' AND datname = current_database()"
        #expect(try Self.rows(writer, in: url) == [["1"]])
        let pid =
            "SELECT pid FROM pg_stat_activity WHERE application_name = 'vivabridge-writer' AND datname = current_database()"
        let before = try Self.rows(pid, in: url)
        _ = try Self.rows("SELECT pg_terminate_backend(pid) FROM (\(pid)) AS writer", in: url)
        // Only the call that finds the connection lost may fail (whether it does is the network's timing).
        let third: [[JournalEntry]] = [[.insert(row("third", seq: 3))]]
        if (try? committer.commit(third)) == nil { try committer.commit(third) }
        #expect(try Self.rows(pid, in: url) != before, "a new connection")
        try committer.commit([[.insert(row("fourth", seq: 4))]])
        #expect(
            try Self.rows("SELECT id FROM command_log ORDER BY seq", in: url) == [
                ["first"], ["second"], ["third"], ["fourth"],
            ])
    }

    @Test("v1.3-callback-relay-seq on a journal of v1.2: callbacks gain relay_seq and relay_url_hash, older rows NULL")
    func callbackRelaySeqMigrates() throws {
        let cluster = try PostgresCluster.shared()
        let url = try cluster.createDatabase()
        // The journal as a bridge of v1.2 left it: the log's schema and every migration name up to it.
        let older = PostgresMigrations.steps.prefix { $0.name != "v1.3-callback-relay-seq" }
        #expect(older.count == PostgresMigrations.steps.count - 1)
        var script = "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);\n"
        for step in older {
            for statement in step.statements { script += statement + ";\n" }
            script += "INSERT INTO grdb_migrations VALUES ('\(step.name)');\n"
        }
        script += "INSERT INTO callbacks(lane, received_ms, fields, disposition) VALUES ('lane-1', 1, '{}', 'orphan');"
        try cluster.psql(script, database: url)
        let journal = try JournalStores.open(url, sync: .normal)
        defer { journal.close() }
        #expect(
            try Self.rows("SELECT identifier FROM grdb_migrations ORDER BY identifier", in: url).map { $0[0] }
                == JournalMigrations.known.sorted())
        let key = RelayCallbackKey(seq: 9, url: Array("interapp-callback://result?status=success".utf8))
        try journal.commit([
            .callback(
                lane: "lane-1", atMs: 2, fields: "{}", matchedId: nil, commandSeq: nil, disposition: .orphan, relay: key
            )
        ])
        #expect(
            try Self.rows("SELECT relay_seq, relay_url_hash FROM callbacks ORDER BY seq", in: url) == [
                ["", ""], ["9", "\(Int64(bitPattern: key.urlHash))"],
            ])
        #expect(try journal.recentRelayCallbacks(limit: 10).map(\.key) == [key])
    }

    @Test("PostgreSQL's migrations have SQLite's names, in the same order")
    func migrationNames() {
        #expect(PostgresMigrations.known == JournalMigrations.known)
    }
}

@Suite("Journal URLs: a PostgreSQL address in the configuration")
struct PostgresAddressTests {
    @Test("a URL is read; its location never shows a password; the password comes from the environment")
    func reads() throws {
        let address = try PostgresAddress(
            url: "postgresql://bridge@db.store.lan:5433/journal?sslmode=require",
            environment: ["PGPASSWORD": "from-pg", "VIVABRIDGE_JOURNAL_PASSWORD": "s3cret"])
        #expect(address.user == "bridge" && address.host == "db.store.lan" && address.port == 5433)
        #expect(address.database == "journal" && address.tls == .require)
        #expect(address.password == "s3cret")
        #expect(address.location == "postgresql://bridge@db.store.lan:5433/journal?sslmode=require")
        #expect(try PostgresAddress(url: "postgres://u@h/d", environment: ["PGPASSWORD": "p"]).password == "p")
        #expect(try PostgresAddress(url: "postgres://u@h/d").port == 5432)
        #expect(BridgeConfiguration.environmentWarnings(["VIVABRIDGE_JOURNAL_PASSWORD": "s3cret"]).isEmpty)
    }

    @Test("a password in the URL is refused, and the error does not repeat it")
    func passwordRefused() {
        let error = #expect(throws: ConfigurationError.self) {
            _ = try PostgresAddress(url: "postgresql://bridge:hunter2@db/journal")
        }
        #expect(error?.key == "journal")
        #expect(error?.description.contains("hunter2") == false)
        #expect(JournalStores.location(of: "postgresql://bridge:hunter2@db/journal").contains("hunter2") == false)
    }

    @Test("a URL without user or database, or with an unknown option, is refused by the configuration")
    func malformed() throws {
        for url in ["postgresql://db/journal", "postgresql://u@db", "postgresql://u@db/j?target_session_attrs=any"] {
            #expect(throws: ConfigurationError.self, "\(url)") { _ = try PostgresAddress(url: url) }
            #expect(Self.journalProblems(url).count == 1, "\(url)")
        }
        #expect(Self.journalProblems("postgresql://u@db:5432/j").isEmpty)
        #expect(Self.journalProblems("/var/lib/vivabridge/journal.sqlite").isEmpty)
    }

    /// The problems a configuration check finds with `journal: value`.
    private static func journalProblems(_ value: String) -> [ConfigurationError] {
        BridgeConfiguration.check(yaml: "journal: \(value)\n").problems.all.filter { $0.key == "journal" }
    }
}
