import Bridge
import Foundation
import GRDB
import Logging

/// How soon a bridge serves on a journal of many retained commands (issue 34: 1 M commands, within 2 s): the
/// first start on a journal v1.1 wrote (it migrates to the log), then a start on the log (the command index
/// rebuilt by one pass along it); and the index's memory per command.
struct JournalStartSection {
    /// Finished sales in the journal, each with its callback.
    var commands: Int
    var folder: String
    var log: (String) -> Void

    func run() -> SectionResult {
        var out = SectionResult()
        let path = (folder as NSString).appendingPathComponent("start-\(UUID().uuidString).sqlite")
        defer {
            for suffix in ["", "-wal", "-shm", ".lock", ".identity"] { unlink(path + suffix) }
        }
        do {
            log("  journal start: writing a v1.1 journal of \(Format.count(Double(commands))) sales ...")
            try writeOlderJournal(at: path)
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            log("  journal start: the first start (migration) ...")
            let migrating = try secondsToServe(journal: path)
            log("  journal start: a start on the log ...")
            let restarting = try secondsToServe(journal: path)
            let count = Format.count(Double(commands))
            out.rows.append(
                Row(
                    section: "journal-start",
                    figure: "first start on a v1.1 journal of \(count) sales (migrates to the log)",
                    value: String(format: "%.2f s", migrating), baseline: "\(size / 1_048_576) MB journal", ratio: nil))
            out.rows.append(
                Row(
                    section: "journal-start", figure: "start on the log of \(count) sales (the id index rebuilt)",
                    value: String(format: "%.2f s", restarting), baseline: "-", ratio: nil,
                    target: commands >= 1_000_000 ? "< 2 s" : "-",
                    verdict: commands >= 1_000_000 ? (restarting < 2 ? .met : .notMet) : .none))
            var index = CommandIndex(capacity: 1 << 16)
            for n in 1...commands { index.insert(Self.id(n), at: Int64(n)) }
            out.rows.append(
                Row(
                    section: "journal-start", figure: "the id index's memory a retained command",
                    value: String(format: "%.1f B", Double(index.bytes) / Double(index.count)), baseline: "-",
                    ratio: nil, target: "<= 32 B (goal)",
                    verdict: Double(index.bytes) / Double(index.count) <= 32 ? .met : .notMet))
        } catch {
            out.failures.append("journal-start: \(error)")
        }
        return out
    }

    private static func id(_ n: Int) -> String { "pos-\(n)-\(n &* 2_654_435_761 % 1_000_003)" }

    /// A journal as v1.1 left it: its migrations, then `commands` finished sales with a callback each.
    private func writeOlderJournal(at path: String) throws {
        let database = try DatabaseQueue(path: path)
        defer { try? database.close() }
        try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        try JournalMigrations.migrate(database, upTo: JournalMigrations.lastOfVersionOnePointOne)
        let fingerprint = String(repeating: "f", count: 76)
        let fields = String(repeating: "c", count: 496)
        let reply = String(repeating: "r", count: 582)
        let start: Int64 = 1_790_000_000_000
        for first in stride(from: 1, through: commands, by: 10_000) {
            try database.write { db in
                let command = try db.makeStatement(
                    sql: """
                        INSERT INTO commands(id, lane, action, fingerprint, client_transaction_id, state, outcome, reply,
                            created_ms, updated_ms, amount, reference_number, order_code, card)
                        VALUES (?, ?, 'sale', ?, ?, 'final', 'success', ?, ?, ?, 1000, '123456', '1234567890', '476173******0010')
                        """)
                let callback = try db.makeStatement(
                    sql: """
                        INSERT INTO callbacks(lane, received_ms, fields, matched_id, disposition)
                        VALUES (?, ?, ?, ?, 'matched')
                        """)
                for n in first..<min(first + 10_000, commands + 1) {
                    let id = Self.id(n)
                    let lane = "lane-\(n % 64)"
                    let at = start + Int64(n) * 10
                    try command.execute(arguments: [id, lane, fingerprint, id, reply, at, at + 5])
                    try callback.execute(arguments: [lane, at + 5, fields, id])
                }
            }
        }
        try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// Seconds from `Bridge.start()` to its sockets bound (it serves), on the journal at `journal`.
    private func secondsToServe(journal: String) throws -> Double {
        var configuration = try BridgeConfiguration.load(
            yaml: """
                command: tcp://127.0.0.1:*
                events: tcp://127.0.0.1:*
                journal: \(journal)
                terminal: {merchantKey: BENCH-KEY}
                lanes:
                  - {id: lane-1, endpoint: "tcp://127.0.0.1:1", platform: ios}
                """)
        configuration.http = nil
        let bridge = try Bridge(
            configuration: configuration, logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() }))
        let started = Monotonic.now()
        _ = try bridge.start()
        let seconds = Monotonic.seconds(Monotonic.now() - started)
        bridge.stop()
        return seconds
    }
}
