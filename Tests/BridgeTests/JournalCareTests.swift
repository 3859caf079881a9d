import Foundation
import GRDB
import InterApp
import TerminalSimulator
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite
@testable import JournalTools

/// The operator's journal commands (issue 16): export, unknown, backup and prune, on journals a real
/// bridge wrote, while it runs where the command allows it.
@Suite("Journal care: export, unknown, backup, prune")
struct JournalCareTests {
    private static func lane(
        _ id: String, card: PhaseDuration = .milliseconds(0), host: PhaseDuration = .milliseconds(0)
    )
        -> SimulatedLane
    {
        var behaviour = LaneBehaviour()
        behaviour.cardPresentment = card
        behaviour.host = host
        return SimulatedLane(id: id, endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)
    }

    /// A bridge whose journal holds a success (with a tip), a decline, an aborted sale and its abort, an
    /// undeliverable sale, two `unknown` sales (`u-b` accepted 500 ms before `u-a`) and one sale still in
    /// flight (`pending`); with every reply it sent.
    private static func journalWithEveryOutcome() throws -> (BridgeHarness, [String: JSONObject]) {
        let clock = ManualBridgeClock()
        let harness = try BridgeHarness(
            lanes: [
                lane("ok"), lane("ab", card: .manual), lane("slow-1", host: .manual), lane("slow-2", host: .manual),
                lane("hold", card: .manual),
            ],
            clock: clock
        ) { configuration in
            configuration.abortGraceMs = 0  // the aborted sale ends with the abort's answer (no grace timer)
            configuration.lanes.append(LaneConfiguration(id: "gone", endpoint: "tcp://127.0.0.1:1", platform: .ios))
        }
        var replies: [String: JSONObject] = [:]
        replies["paid"] = try harness.call(saleJSON(id: "paid", lane: "ok", amount: 1200, extra: #","tipAmount":200"#))
        replies["declined"] = try harness.call(saleJSON(id: "declined", lane: "ok", amount: 1251))
        try harness.send(saleJSON(id: "stopped", lane: "ab", amount: 700))
        #expect(harness.simulator.waitForPhase(lane: "ab", .cardPresentment, timeout: .seconds(5)))
        try harness.send(#"{"id":"stop","lane":"ab","action":"abort"}"#)
        replies["stop"] = try harness.reply(to: "stop")
        replies["stopped"] = try harness.reply(to: "stopped")
        replies["lost"] = try harness.call(saleJSON(id: "lost", lane: "gone", amount: 300))
        try harness.send(saleJSON(id: "u-b", lane: "slow-1", amount: 4100, extra: #","timeoutMs":1000"#))
        #expect(harness.simulator.waitForPhase(lane: "slow-1", .host, timeout: .seconds(5)))
        harness.advance(byMs: 500)
        try harness.send(saleJSON(id: "u-a", lane: "slow-2", amount: 4200, extra: #","timeoutMs":1000"#))
        #expect(harness.simulator.waitForPhase(lane: "slow-2", .host, timeout: .seconds(5)))
        harness.advance(byMs: 600)
        replies["u-b"] = try harness.reply(to: "u-b")
        harness.advance(byMs: 500)
        replies["u-a"] = try harness.reply(to: "u-a")
        try harness.send(saleJSON(id: "pending", lane: "hold", amount: 999))
        try harness.event("hold.sale.delivered") { $0.string("id") == "pending" }
        let outcomes = replies.mapValues { $0.string("outcome") ?? "-" }
        #expect(
            outcomes == [
                "paid": "success", "declined": "failure", "stop": "success", "stopped": "aborted",
                "lost": "undeliverable", "u-b": "unknown", "u-a": "unknown",
            ])
        return (harness, replies)
    }

    private static func exported(_ path: String, fromMs: Int64? = nil, toMs: Int64? = nil) throws -> [ExportedCommand] {
        var rows: [ExportedCommand] = []
        _ = try JournalExport.forEachFinished(path: path, fromMs: fromMs, toMs: toMs) { rows.append($0) }
        return rows
    }

    @Test("export holds every finished command, as its reply said, oldest first; never one still in flight")
    func exportEveryOutcome() throws {
        let (harness, replies) = try Self.journalWithEveryOutcome()
        let rows = try Self.exported(harness.configuration.journal)
        #expect(rows.map(\.id) == ["paid", "declined", "stopped", "stop", "lost", "u-b", "u-a"])
        for row in rows {
            let reply = try #require(replies[row.id])
            let result = reply.object("result") ?? JSONObject()
            #expect(row.lane == reply.string("lane"))
            #expect(row.action == reply.string("action"))
            #expect(row.outcome == reply.string("outcome"))
            #expect(row.failureReason == reply.string("reason"))
            #expect(row.referenceNumber == result.string("referenceNumber"))
            #expect(row.orderCode == result.string("orderCode"))
            #expect(row.card == result.string("accountNumber"))
            #expect(row.client == nil)
            #expect(row.updatedMs >= row.createdMs)
        }
        let paid = try #require(rows.first { $0.id == "paid" })
        #expect(paid.amount == 1200 && paid.tip == 200)
        #expect(paid.referenceNumber != nil && paid.orderCode != nil)
        let card = try #require(paid.card)
        #expect(card.contains("*") && card.filter(\.isNumber).count == 10, "card not masked: \(card)")
        #expect(rows.first { $0.id == "declined" }?.failureReason == "declined")
        #expect(rows.first { $0.id == "declined" }?.amount == 1251)
        #expect(rows.first { $0.id == "u-a" }?.amount == 4200)
        #expect(rows.first { $0.id == "lost" }?.amount == 300)
        #expect(rows.first { $0.id == "stop" }?.amount == nil)
    }

    @Test("CSV quotes by RFC 4180; JSON Lines are one object a row with every field")
    func formats() throws {
        let row = ExportedCommand(
            id: #"pos,"7""#, lane: "lane\n1", action: "sale", fingerprint: #"{"amount":5}"#, outcome: "failure",
            reply: #"{"outcome":"failure","reason":"declined","result":{"accountNumber":"476173******0010"}}"#,
            createdMs: 0, updatedMs: 1500)
        #expect(JournalExportFormat.csv.header.hasPrefix("id,client,lane,action,amount,tip,outcome,"))
        #expect(
            JournalExportFormat.csv.line(row)
                == "\"pos,\"\"7\"\"\",,\"lane\n1\",sale,5,,failure,,declined,,,476173******0010,,"
                + "1970-01-01T00:00:00.000+00:00,1970-01-01T00:00:01.500+00:00,,,\r\n")
        let json = try #require(try JSONValue.parse(JournalExportFormat.jsonl.line(row)).objectValue)
        #expect(json.keys == ExportedCommand.fieldNames)
        #expect(json.string("id") == #"pos,"7""#)
        #expect(json.int("amount") == 5)
        #expect(json["client"] == .null)
    }

    @Test("--from and --to: RFC 3339 or a UTC date; a date as --to includes its whole day")
    func timeBounds() throws {
        let day: Int64 = 1_795_996_800_000  // 2026-11-30T00:00:00Z
        #expect(JournalTimeBound.milliseconds("2026-11-30") == day)
        #expect(JournalTimeBound.milliseconds("2026-11-30", endOfDay: true) == day + 86_400_000)
        #expect(JournalTimeBound.milliseconds("2026-11-30T00:00:01Z") == day + 1000)
        #expect(JournalTimeBound.milliseconds("2026-11-30T01:00:00.25+01:00") == day + 250)
        #expect(JournalTimeBound.milliseconds("2026-11-29T23:00:00-01:00", endOfDay: true) == day)
        for bad in ["2026-11-31", "2026-13-01", "30/11/2026", "2026-11-30T10:00:00", "2026-11-30T25:00:00Z", ""] {
            #expect(JournalTimeBound.milliseconds(bad) == nil, "\(bad)")
        }
    }

    @Test("export selects by the time a command was accepted, across a UTC midnight")
    func exportRange() throws {
        let midnight: Int64 = 1_795_996_800_000  // 2026-11-30T00:00:00Z
        let harness = try BridgeHarness(lanes: [Self.lane("ok")], clock: ManualBridgeClock(startMs: midnight - 60_000))
        _ = try harness.call(saleJSON(id: "before", lane: "ok", amount: 100))
        harness.advance(byMs: 120_000)
        _ = try harness.call(saleJSON(id: "after", lane: "ok", amount: 200))
        let path = harness.configuration.journal
        let day = { (text: String, end: Bool) in JournalTimeBound.milliseconds(text, endOfDay: end) }
        #expect(try Self.exported(path, toMs: day("2026-11-29", true)).map(\.id) == ["before"])
        #expect(try Self.exported(path, fromMs: day("2026-11-30", false)).map(\.id) == ["after"])
        #expect(
            try Self.exported(path, fromMs: day("2026-11-29T23:59:00Z", false), toMs: day("2026-11-30T00:01:00Z", true))
                .map(\.id) == ["before"])
        #expect(try Self.exported(path).map(\.id) == ["before", "after"])
    }

    @Test("unknown lists the unknown commands and the one with no outcome yet, oldest first, with amount and message")
    func unknownOnly() throws {
        let (harness, replies) = try Self.journalWithEveryOutcome()
        let unknown = try JournalUnknown.list(path: harness.configuration.journal)
        #expect(unknown.map(\.id) == ["u-b", "u-a", "pending"])
        #expect(unknown.map(\.amount) == [4100, 4200, 999])
        #expect(unknown.map(\.lane) == ["slow-1", "slow-2", "hold"])
        #expect(unknown.last?.message == UnknownCommand.noOutcomeYet)
        #expect(unknown[0].createdMs + 500 == unknown[1].createdMs)
        #expect(unknown[0].message == replies["u-b"]?.string("message"))
        #expect(unknown[0].message?.isEmpty == false)
        #expect(unknown[0].textLine.contains("41.00"))
    }

    @Test("a backup taken while the bridge writes opens, is intact and holds every command answered before it")
    func backupWhileWriting() throws {
        let harness = try BridgeHarness(lanes: [Self.lane("ok")])
        let target = harness.journalFolder.appendingPathComponent("backup.sqlite").path
        let journal = harness.configuration.journal
        var answeredBefore: [String] = []
        let finished = DispatchSemaphore(value: 0)
        let outcome = BackupOutcome()
        for index in 0..<200 {
            if index == 100 {
                // The backup runs on another thread while this one keeps the bridge writing.
                DispatchQueue.global().async {
                    do throws(JournalError) { outcome.copied = try JournalBackup.copy(path: journal, to: target) } catch
                    {
                        outcome.error = error
                    }
                    finished.signal()
                }
            }
            let reply = try harness.call(saleJSON(id: "s\(index)", lane: "ok", amount: 1000 + index * 100))
            #expect(reply.string("outcome") == "success")
            if index < 100 { answeredBefore.append("s\(index)") }
        }
        finished.wait()
        #expect(outcome.error == nil, "\(outcome.error.map(String.init(describing:)) ?? "")")
        let copied = try #require(outcome.copied)
        #expect(copied >= 100 && copied <= 200)
        #expect(try JournalMaintenance.integrityProblems(path: target) == ["ok"])
        let ids = Set(try Self.exported(target).map(\.id))
        #expect(Set(answeredBefore).isSubset(of: ids))
        // Read 7 rows a transaction, the export is the same rows in the same order.
        var small: [String] = []
        let count = try JournalExport.forEachFinished(path: target, fromMs: nil, toMs: nil, rowsPerRead: 7) {
            small.append($0.id)
        }
        let whole = try Self.exported(target).map(\.id)
        #expect(count == whole.count && small == whole)
        #expect((0...1).contains(copied - whole.count), "more than the one sale in flight is unfinished in the copy")
        let mode = try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(!FileManager.default.fileExists(atPath: target + "-wal"), "the backup is not one file")
        #expect(throws: JournalError.self) { try JournalBackup.copy(path: journal, to: target) }
        #expect(try Self.exported(target).map(\.id) == whole, "a refused backup changed the existing file")
    }

    @Test("prune is refused while the bridge holds the journal, naming its pid")
    func pruneRefusedBesideBridge() throws {
        let harness = try BridgeHarness(lanes: [Self.lane("ok")])
        _ = try harness.call(saleJSON(id: "kept", lane: "ok", amount: 100))
        let far = SystemBridgeClock().nowMs() + 30 * 86_400_000
        let error = #expect(throws: JournalError.self) {
            try JournalPrune.prune(path: harness.configuration.journal, olderThanDays: 1, nowMs: far)
        }
        #expect(error?.isInUse == true)
        #expect(error?.message.contains("pid \(getpid())") == true)
        #expect(try Self.exported(harness.configuration.journal).map(\.id) == ["kept"])
    }

    @Test("prune removes old finished commands and their callbacks, never outstanding or unknown ones")
    func pruneOld() throws {
        let (harness, _) = try Self.journalWithEveryOutcome()
        let path = harness.configuration.journal
        harness.bridge.halt()
        let now = try #require(try Self.exported(path).map(\.updatedMs).max())
        // Nothing is a day old yet.
        #expect(
            try JournalPrune.prune(path: path, olderThanDays: 1, nowMs: now) == PruneResult(commands: 0, callbacks: 0))
        let later = now + 2 * 86_400_000
        let dry = try JournalPrune.prune(path: path, olderThanDays: 1, nowMs: later, dryRun: true)
        #expect(dry.commands == 5 && dry.callbacks >= 3)
        #expect(try Self.exported(path).count == 7, "a dry run removed something")
        #expect(try JournalPrune.prune(path: path, olderThanDays: 1, nowMs: later) == dry)
        #expect(try Self.exported(path).map(\.id) == ["u-b", "u-a"])
        let database = try DatabaseQueue(path: path)
        defer { try? database.close() }
        let left = try database.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM commands ORDER BY created_ms, rowid")
        }
        #expect(left == ["u-b", "u-a", "pending"])
        let orphaned = try database.read { db in
            try Int.fetchOne(
                db,
                sql:
                    "SELECT COUNT(*) FROM callbacks WHERE matched_id IS NOT NULL AND matched_id NOT IN (SELECT id FROM commands)"
            )
        }
        #expect(orphaned == 0)
    }
}

/// What the backup thread of ``JournalCareTests/backupWhileWriting()`` found; read after its semaphore.
private final class BackupOutcome: @unchecked Sendable {
    var copied: Int?
    var error: JournalError?
}
