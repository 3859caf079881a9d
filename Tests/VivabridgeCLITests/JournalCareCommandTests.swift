import Foundation
import GRDB
import InterApp
import Testing

/// `vivabridge journal export|unknown|backup|prune` as an operator runs them, beside a running bridge.
@Suite("Journal care commands beside a running bridge")
struct JournalCareCommandTests {
    @Test("export, unknown and backup read the journal of a running bridge; prune is refused, naming its pid")
    func besideRunningBridge() throws {
        let bridge = try CLIBridge(lanes: [CLIBridge.lane()])
        let journal = bridge.folder.appendingPathComponent("journal.sqlite").path
        #expect(try bridge.send(["sale", "--lane", "lane-1", "--amount", "12.00", "--id", #"pos,"7""#]).status == 0)
        #expect(try bridge.send(["sale", "--lane", "lane-1", "--amount", "12.51", "--id", "pos-8"]).status == 1)

        let csv = try ChildProcess(["journal", "export", "--journal", journal])
        #expect(csv.waitForExit(timeout: 30) == 0, "\(csv.errorOutput)")
        // RFC 4180 ends every line with CRLF.
        #expect(csv.output.hasSuffix("\r") && csv.output.components(separatedBy: "\r\n").count == 3)
        let lines = csv.output.split(whereSeparator: \.isNewline)
        #expect(lines.first?.hasPrefix("id,client,lane,action,amount,tip,outcome,errorCode,failureReason,") == true)
        #expect(lines.count == 3)
        #expect(lines.dropFirst().first?.hasPrefix(#""pos,""7""",,lane-1,sale,1200,"#) == true, "\(lines)")

        let jsonl = try ChildProcess([
            "journal", "export", "--journal", journal, "--format", "jsonl", "--from", "2020-01-01",
        ])
        #expect(jsonl.waitForExit(timeout: 30) == 0, "\(jsonl.errorOutput)")
        let rows = try jsonl.output.split(separator: "\n").map {
            try #require(try JSONValue.parse(String($0)).objectValue)
        }
        #expect(rows.map { $0["id"]?.stringValue } == [#"pos,"7""#, "pos-8"])
        #expect(rows.map { $0["outcome"]?.stringValue } == ["success", "failure"])
        #expect(rows.map { $0["failureReason"]?.stringValue } == [nil, "declined"])
        #expect(rows.allSatisfy { $0["card"]?.stringValue?.contains("*") == true })

        let unknown = try ChildProcess(["journal", "unknown", "--journal", journal])
        #expect(unknown.waitForExit(timeout: 30) == 0)
        #expect(unknown.output.contains("no command is unknown"))

        let backup = bridge.folder.appendingPathComponent("copy.sqlite").path
        let copy = try ChildProcess(["journal", "backup", "--journal", journal, "--to", backup])
        #expect(copy.waitForExit(timeout: 30) == 0, "\(copy.errorOutput)")
        let mode = try FileManager.default.attributesOfItem(atPath: backup)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let fromCopy = try ChildProcess(["journal", "export", "--journal", backup, "--format", "jsonl"])
        #expect(fromCopy.waitForExit(timeout: 30) == 0)
        #expect(fromCopy.output == jsonl.output)
        let again = try ChildProcess(["journal", "backup", "--journal", journal, "--to", backup])
        #expect(again.waitForExit(timeout: 30) == 1)
        #expect(again.errorOutput.contains("already exists"))

        let prune = try ChildProcess(["journal", "prune", "--journal", journal, "--older-than", "1"])
        #expect(prune.waitForExit(timeout: 30) == 2)
        #expect(prune.errorOutput.contains("in use by another bridge (pid \(getpid()))"), "\(prune.errorOutput)")
        #expect(prune.errorOutput.contains("stop it, prune, then start it again"))
        let after = try ChildProcess(["journal", "export", "--journal", journal, "--format", "jsonl"])
        #expect(after.waitForExit(timeout: 30) == 0)
        #expect(after.output == jsonl.output, "the refused prune changed the journal")
    }

    @Test("with neither --journal nor --config, the journal commands use run's embedded default's journal")
    func embeddedDefaultJournal() throws {
        let bridge = try CLIBridge(lanes: [CLIBridge.lane()])
        #expect(try bridge.send(["sale", "--lane", "lane-1", "--amount", "12.00", "--id", "pos-1"]).status == 0)
        // $VIVABRIDGE_STATE is the embedded default's state folder: its journal.sqlite is the bridge's here.
        let export = try ChildProcess(["journal", "export"], environment: ["VIVABRIDGE_STATE": bridge.folder.path])
        #expect(export.waitForExit(timeout: 30) == 0, "\(export.errorOutput)")
        #expect(export.output.contains("pos-1,,lane-1,sale,1200,"), "\(export.output)")
        let unknown = try ChildProcess(["journal", "unknown"], environment: ["VIVABRIDGE_STATE": bridge.folder.path])
        #expect(unknown.waitForExit(timeout: 30) == 0, "\(unknown.errorOutput)")
        // Without it, ./.vivabridge/journal.sqlite, as `run` has it; none there is said with what to give.
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("vivabridge-cwd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let none = try ChildProcess(["journal", "unknown"], currentDirectory: empty)
        #expect(none.waitForExit(timeout: 30) == 1)
        #expect(
            none.errorOutput.contains("no journal at .vivabridge/journal.sqlite (the one `vivabridge run` uses"),
            "\(none.errorOutput)")
    }

    @Test("usage errors exit 64 and no journal exits 1, each with a line that says what to do")
    func usageErrors() throws {
        let badTime = try ChildProcess(["journal", "export", "--journal", "/nonexistent", "--to", "24/11/2026"])
        #expect(badTime.waitForExit(timeout: 30) == 64)
        #expect(badTime.errorOutput.contains("RFC 3339"))
        let both = try ChildProcess(["journal", "unknown", "--journal", "j.sqlite", "--config", "c.yaml"])
        #expect(both.waitForExit(timeout: 30) == 64)
        #expect(both.errorOutput.contains("give --journal FILE or --config FILE, not both"))
        let missing = try ChildProcess(["journal", "prune", "--journal", "/nonexistent/j.sqlite", "--older-than", "30"])
        #expect(missing.waitForExit(timeout: 30) == 1)
        #expect(missing.errorOutput.contains("no journal at /nonexistent/j.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent/j.sqlite.lock"))
    }
}

/// A journal a newer vivabridge wrote: `run` and every `journal` command refuse it with exit 2.
@Suite("A journal from a newer vivabridge, as an operator meets it")
struct NewerJournalCommandTests {
    @Test("run and every journal command exit 2, naming the unknown migration and what to do")
    func refusedEverywhere() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-newer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = folder.appendingPathComponent("journal.sqlite").path
        let config = folder.appendingPathComponent("bridge.yaml")
        try """
        command: tcp://127.0.0.1:*
        events: tcp://127.0.0.1:*
        journal: \(journal)
        terminal: {merchantKey: K}
        lanes:
          - {id: lane-1, endpoint: "tcp://127.0.0.1:1", platform: ios}
        """.write(to: config, atomically: true, encoding: .utf8)
        let first = try ChildProcess(["run", "--config", config.path])
        #expect(first.waitForLine(containing: "commands (ROUTER):") != nil)
        first.signal(SIGTERM)
        #expect(first.waitForExit(timeout: 20) == 0)
        let database = try DatabaseQueue(path: journal)
        try database.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations(identifier) VALUES ('v9-future-column')")
        }
        try database.close()

        let run = try ChildProcess(["run", "--config", config.path])
        #expect(run.waitForExit(timeout: 20) == 2)
        for command in [
            ["journal", "check"], ["journal", "export"], ["journal", "unknown"],
            ["journal", "backup", "--to", folder.appendingPathComponent("copy.sqlite").path],
            ["journal", "prune", "--older-than", "1"],
        ] {
            let child = try ChildProcess(command + ["--config", config.path])
            #expect(child.waitForExit(timeout: 20) == 2, "\(command)")
            for process in [run, child] {
                #expect(process.errorOutput.contains("written by a newer vivabridge"), "\(process.errorOutput)")
                #expect(process.errorOutput.contains("v9-future-column"))
                #expect(process.errorOutput.contains("Run the newer vivabridge, or restore the backup"))
            }
        }
    }
}
