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

/// A journal as a vivabridge from before `v1.1-command-client` left it: its schema built by only the
/// migrations that version had (their recorded SQL), holding the rows a bridge journaled for a small
/// day with every kind of ending (a success with a tip, a decline, an undeliverable sale, an `unknown`
/// one), copied column for column into that schema; with the replies the bridge sent and the export of
/// the journal it was copied from.
struct OlderJournal {
    /// The last migration of that version.
    static let lastMigration = "v1.1-automatic-batches"
    /// The folder holding `journal.sqlite`, for ``BridgeHarness``'s `journalFolder`.
    let folder: URL
    /// The path of the older journal.
    var path: String { folder.appendingPathComponent("journal.sqlite").path }
    /// Every reply the bridge sent, by command id.
    let replies: [String: JSONObject]
    /// `journal export` of the journal the rows came from.
    let exported: [ExportedCommand]

    /// The lanes the commands went to (`gone` is configured with no terminal behind it).
    static func lanes() -> [SimulatedLane] {
        var quick = LaneBehaviour()
        quick.cardPresentment = .milliseconds(0)
        quick.host = .milliseconds(0)
        var stuck = quick
        stuck.host = .manual
        return [
            SimulatedLane(id: "ok", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: quick),
            SimulatedLane(id: "slow", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: stuck),
        ]
    }

    init() throws {
        let clock = ManualBridgeClock()
        let source = try BridgeHarness(lanes: Self.lanes(), clock: clock) { configuration in
            configuration.lanes.append(LaneConfiguration(id: "gone", endpoint: "tcp://127.0.0.1:1", platform: .ios))
        }
        var replies: [String: JSONObject] = [:]
        replies["paid"] = try source.call(saleJSON(id: "paid", lane: "ok", amount: 1200, extra: #","tipAmount":200"#))
        replies["declined"] = try source.call(saleJSON(id: "declined", lane: "ok", amount: 1251))
        replies["lost"] = try source.call(saleJSON(id: "lost", lane: "gone", amount: 300))
        try source.send(saleJSON(id: "unsure", lane: "slow", amount: 4100, extra: #","timeoutMs":1000"#))
        #expect(source.simulator.waitForPhase(lane: "slow", .host, timeout: .seconds(5)))
        source.advance(byMs: 1100)
        replies["unsure"] = try source.reply(to: "unsure")
        #expect(
            replies.mapValues { $0.string("outcome") ?? "-" } == [
                "paid": "success", "declined": "failure", "lost": "undeliverable", "unsure": "unknown",
            ])
        var exported: [ExportedCommand] = []
        _ = try JournalExport.forEachFinished(path: source.configuration.journal) { exported.append($0) }
        source.bridge.halt()

        folder = FileManager.default.temporaryDirectory.appendingPathComponent("vivabridge-older-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let older = try DatabaseQueue(path: folder.appendingPathComponent("journal.sqlite").path)
        defer { try? older.close() }
        try JournalMigrations.migrator.migrate(older, upTo: Self.lastMigration)
        try older.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS source", arguments: [source.configuration.journal])
            let v1 =
                "id, lane, action, fingerprint, client_transaction_id, state, outcome, reply, late, deadline_ms, "
                + "created_ms, updated_ms"
            try db.execute(sql: "INSERT INTO commands(\(v1)) SELECT \(v1) FROM source.commands ORDER BY rowid")
            let callbacks = "seq, lane, received_ms, fields, matched_id, disposition"
            try db.execute(sql: "INSERT INTO callbacks(\(callbacks)) SELECT \(callbacks) FROM source.callbacks")
            try db.execute(sql: "INSERT INTO meta SELECT * FROM source.meta")
            try db.execute(sql: "DETACH DATABASE source")
        }
        let columns = try older.read { db in try db.columns(in: "commands").map(\.name) }
        #expect(!columns.contains("client"), "the older journal has a column its version did not have")
        self.replies = replies
        self.exported = exported
    }
}
