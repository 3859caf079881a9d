import Foundation
import InterApp
import LocalPostgres
import Testing

/// `vivabridge journal …` on a journal in PostgreSQL (`--journal postgresql://…`), as an operator runs them,
/// against a real cluster (``PostgresCluster``) and a running bridge on it.
@Suite("Journal commands on a PostgreSQL journal")
struct PostgresJournalCommandTests {
    private static func journal(_ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess {
        let child = try ChildProcess(["journal"] + arguments, environment: environment)
        _ = child.waitForExit(timeout: 60)
        return child
    }

    @Test("export, unknown, prune and check work on a PostgreSQL journal beside its bridge; backup and new are refused")
    func commandsOnPostgres() throws {
        let cluster = try PostgresCluster.shared()
        let url = try cluster.createDatabase()
        let held = CLIBridge.lane("lane-2", host: .manual)
        let bridge = try CLIBridge(lanes: [CLIBridge.lane(), held], journal: url)
        #expect(try bridge.send(["sale", "--lane", "lane-1", "--amount", "12.00", "--id", "pos-1"]).status == 0)
        #expect(try bridge.send(["sale", "--lane", "lane-1", "--amount", "12.51", "--id", "pos-2"]).status == 1)
        // The terminal never answers: the bridge ends the sale `unknown` at its deadline.
        _ = try bridge.send(["sale", "--lane", "lane-2", "--amount", "3.00", "--id", "pos-3", "--timeout-ms", "1000"])

        let jsonl = try Self.journal(["export", "--journal", url, "--format", "jsonl"])
        #expect(jsonl.waitForExit() == 0, "\(jsonl.errorOutput)")
        let rows = try jsonl.output.split(separator: "\n").map {
            try #require(try JSONValue.parse(String($0)).objectValue)
        }
        #expect(rows.map { $0["id"]?.stringValue } == ["pos-1", "pos-2", "pos-3"])
        #expect(rows.map { $0["outcome"]?.stringValue } == ["success", "failure", "unknown"])
        #expect(rows.map { $0["amount"]?.intValue } == [1200, 1251, 300])
        #expect(rows.map { $0["failureReason"]?.stringValue } == [nil, "declined", nil])
        #expect(rows.first?["card"]?.stringValue?.contains("*") == true)
        let csv = try Self.journal(["export", "--journal", url])
        #expect(csv.waitForExit() == 0)
        #expect(csv.output.hasPrefix("id,client,lane,action,amount,tip,outcome,errorCode,failureReason,"))
        #expect(csv.output.contains("\r\npos-1,,lane-1,sale,1200,"), "\(csv.output)")

        let unknown = try Self.journal(["unknown", "--journal", url])
        #expect(unknown.waitForExit() == 0, "\(unknown.errorOutput)")
        #expect(unknown.output.contains("pos-3  lane-2  sale  3.00"), "\(unknown.output)")
        #expect(unknown.output.contains("1 unknown;"))

        // A sale finished ten days ago, with its callback: the one prune removes.
        let old = Int64(Date().timeIntervalSince1970 * 1000) - 10 * 86_400_000
        try cluster.psql(
            """
            INSERT INTO command_log(seq, id, lane, action, fingerprint, created_ms)
                VALUES (1000000, 'old-1', 'lane-1', 'sale', '{"action":"sale","amount":100}', \(old));
            INSERT INTO outcome_log(command_seq, lane, action, outcome, reply, at_ms, amount)
                VALUES (1000000, 'lane-1', 'sale', 'success', '{}', \(old), 100);
            INSERT INTO callbacks(lane, received_ms, fields, disposition, command_seq)
                VALUES ('lane-1', \(old), '{}', 'matched', 1000000);
            """, database: url)
        let dry = try Self.journal(["prune", "--journal", url, "--older-than", "1", "--dry-run"])
        #expect(dry.waitForExit() == 0, "\(dry.errorOutput)")
        #expect(dry.output.contains("would remove 1 commands and 1 callbacks older than 1 days"), "\(dry.output)")
        let prune = try Self.journal(["prune", "--journal", url, "--older-than", "1"])
        #expect(prune.waitForExit() == 0, "\(prune.errorOutput)")
        #expect(prune.output.contains("removed 1 commands and 1 callbacks older than 1 days"), "\(prune.output)")
        #expect(try cluster.psql("SELECT COUNT(*) FROM commands WHERE id = 'old-1'", database: url) == "0\n")
        let after = try Self.journal(["export", "--journal", url, "--format", "jsonl"])
        #expect(after.waitForExit() == 0)
        #expect(after.output == jsonl.output, "prune removed a command of today")

        let check = try Self.journal(["check", "--journal", url])
        #expect(check.waitForExit() == 0, "\(check.errorOutput)")
        #expect(check.output.trimmingCharacters(in: .newlines) == "journal OK: \(url)")

        let backup = try Self.journal(["backup", "--journal", url, "--to", "/tmp/never-written"])
        #expect(backup.waitForExit() == 2)
        #expect(backup.errorOutput.contains("pg_dump"), "\(backup.errorOutput)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-written"))
        let new = try Self.journal(["new", "--journal", url])
        #expect(new.waitForExit() == 2)
        #expect(new.errorOutput.contains("create a new database (createdb)"), "\(new.errorOutput)")
    }

    @Test("check creates the journal's schema in an empty database; the other commands refuse a database without one")
    func checkCreatesSchema() throws {
        let cluster = try PostgresCluster.shared()
        let url = try cluster.createDatabase()
        let export = try Self.journal(["export", "--journal", url])
        #expect(export.waitForExit() == 1)
        #expect(
            export.errorOutput.contains("holds no vivabridge journal (no command_log table)"), "\(export.errorOutput)")
        let check = try Self.journal(["check", "--journal", url])
        #expect(check.waitForExit() == 0, "\(check.errorOutput)")
        #expect(try cluster.psql("SELECT COUNT(*) FROM commands", database: url) == "0\n")
        let unknown = try Self.journal(["unknown", "--journal", url])
        #expect(unknown.waitForExit() == 0, "\(unknown.errorOutput)")
        #expect(unknown.output.contains("no command is unknown"))
    }

    @Test("--config: the configuration's PostgreSQL journal, its journalPasswordFile refused when others can read it")
    func throughConfiguration() throws {
        let url = try PostgresCluster.shared().createDatabase()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-pgcfg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let password = folder.appendingPathComponent("journal.password").path
        _ = FileManager.default.createFile(
            atPath: password, contents: Data("not-shown-pw\n".utf8), attributes: [.posixPermissions: 0o644])
        let config = folder.appendingPathComponent("bridge.yaml").path
        try """
        journal: \(url)
        journalPasswordFile: \(password)
        terminal: {merchantKey: K}
        lanes:
          - {id: lane-1, endpoint: "tcp://127.0.0.1:6001", platform: ios}
        """.write(toFile: config, atomically: true, encoding: .utf8)

        let refused = try Self.journal(["check", "--config", config])
        #expect(refused.waitForExit() == 2)
        #expect(refused.errorOutput.contains("is readable by group or others"), "\(refused.errorOutput)")
        #expect(refused.errorOutput.contains("chmod 600 \(password)"))
        #expect(!refused.errorOutput.contains("not-shown-pw"))

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: password)
        let check = try Self.journal(["check", "--config", config])
        #expect(check.waitForExit() == 0, "\(check.errorOutput)")
        #expect(check.output.trimmingCharacters(in: .newlines) == "journal OK: \(url)")
    }

    @Test("a password in the URL is refused by every journal command (exit 2), and never shown")
    func passwordInURLRefused() throws {
        let url = "postgresql://bridge:s3cret-pw@127.0.0.1:1/journal"
        for arguments in [
            ["check"], ["export"], ["unknown"], ["prune", "--older-than", "1"], ["backup", "--to", "/tmp/x"], ["new"],
        ] {
            let child = try Self.journal(arguments + ["--journal", url])
            #expect(child.waitForExit() == 2, "\(arguments)")
            #expect(child.errorOutput.contains("holds a password"), "\(arguments): \(child.errorOutput)")
            #expect(!child.errorOutput.contains("s3cret") && !child.output.contains("s3cret"), "\(arguments)")
        }
    }
}
