import Foundation
import GRDB
import InterApp
import LocalPostgres
import TerminalSimulator
import Testing
import ZeroMQ

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// A numbered callback stays known across a restart (issue 44): the journal keeps its relay `n` and URL hash
/// (`callbacks.relay_seq`, `relay_url_hash`), and a start refills each lane's memory from them, so a copy the
/// relay sends again to the restarted bridge is answered `received` and changes nothing, on SQLite and on
/// PostgreSQL alike.
@Suite("Relay sequence numbers survive a restart")
struct RelaySequenceRestartTests {
    private static func url(_ query: String) -> [UInt8] { Array("interapp-callback://result?\(query)".utf8) }

    /// A bridge whose lane `hostile` is `relay`'s, on `journal`, up.
    private static func harness(_ relay: HostileRelay, journal: String) throws -> BridgeHarness {
        var behaviour = LaneBehaviour()
        behaviour.fault = .neverAnswer
        return try BridgeHarness.driving(
            relay, as: "hostile", platform: .ios, simulatedBehaviour: behaviour, journal: journal)
    }

    /// Sends sale `id` on the relay's lane and answers its `open` with `opened`.
    private static func open(_ id: String, harness: BridgeHarness, relay: HostileRelay) throws {
        try harness.send(saleJSON(id: id, lane: "hostile", amount: 300))
        let open = try relay.awaitOpen()
        #expect(open.ref == id)
        try relay.send(.opened(ref: Array(open.ref.utf8)))
    }

    /// Takes callback 1 in one bridge, restarts it, sends the copy to the next one while another sale is in
    /// flight: the copy is known and changes nothing. Returns the journal's `relay_seq` of each callback.
    private static func copyAfterRestart(journal: String, relaySeqs: () throws -> [String]) throws {
        let context = try Context()
        defer { context.terminate() }
        let relay = try HostileRelay(context: context)
        // No clientTransactionId: a callback that would end whichever sale is in flight.
        let approved = url("status=success&action=sale&amount=300")
        do {
            let first = try harness(relay, journal: journal)
            try open("first", harness: first, relay: relay)
            try relay.send(.callback(url: approved, seq: 1))
            try relay.awaitReceived(1)
            #expect(try first.reply(to: "first").string("outcome") == "success")
            first.bridge.stop()
        }
        #expect(try relaySeqs() == ["1"])

        let again = try harness(relay, journal: journal)
        try open("second", harness: again, relay: relay)
        try relay.send(.callback(url: approved, seq: 1))  // its received was lost with the first bridge, say
        try relay.awaitReceived(1)
        try relay.send(
            .callback(
                url: url("status=fail&action=sale&clientTransactionId=second&message=Declined&amount=300"), seq: 2))
        try relay.awaitReceived(2)
        let second = try again.reply(to: "second")
        #expect(second.string("outcome") == "failure", "the copy ended the sale in flight: \(second)")
        #expect(again.logs.hasLine(containingAll: ["relay sent again a callback the bridge already took"]))
        #expect(try relaySeqs() == ["1", "2"], "the copy was journaled again")
    }

    @Test("on SQLite: a callback taken before a restart is known after it by its number")
    func sqlite() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vivabridge-seq-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = folder.appendingPathComponent("journal.sqlite").path
        try Self.copyAfterRestart(journal: journal) {
            try DatabaseQueue(path: journal).read { db in
                try Int64?.fetchAll(
                    db,
                    sql: "SELECT relay_seq FROM callbacks WHERE lane = 'hostile' AND relay_seq IS NOT NULL ORDER BY seq"
                )
                .map { $0.map(String.init) ?? "-" }
            }
        }
    }

    @Test("on PostgreSQL: a callback taken before a restart is known after it by its number")
    func postgres() throws {
        let cluster = try PostgresCluster.shared()
        let url = try cluster.createDatabase()
        try Self.copyAfterRestart(journal: url) {
            try cluster.psql(
                "SELECT relay_seq FROM callbacks WHERE lane = 'hostile' AND relay_seq IS NOT NULL ORDER BY seq",
                database: url
            ).split(separator: "\n").map(String.init)
        }
    }

    @Test("the journal keeps a numbered callback's n and FNV-1a 64 URL hash; a start reads back the newest")
    func journalKeepsTheKey() throws {
        #expect(RelayCallbackKey.fnv1a([]) == 0xCBF2_9CE4_8422_2325)
        #expect(RelayCallbackKey.fnv1a(Array("a".utf8)) == 0xAF63_DC4C_8601_EC8C)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vivabridge-seq-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = try Journal(path: folder.appendingPathComponent("journal.sqlite").path, sync: .normal)
        defer { journal.close() }
        let keys = (1...3).map { RelayCallbackKey(seq: UInt64($0), url: Self.url("n=\($0)")) }
        try journal.commit(
            [
                JournalEntry.callback(
                    lane: "a", atMs: 1, fields: "{}", matchedId: nil, commandSeq: nil, disposition: .orphan)
            ]
                + keys.map {
                    .callback(
                        lane: "b", atMs: 2, fields: "{}", matchedId: nil, commandSeq: nil, disposition: .orphan,
                        relay: $0)
                })
        let all = try journal.recentRelayCallbacks(limit: 10)
        #expect(all.map(\.lane) == ["b", "b", "b"])
        #expect(all.map(\.key) == keys.reversed(), "newest first, the unnumbered one left out")
        #expect(try journal.recentRelayCallbacks(limit: 2).map(\.key) == [keys[2], keys[1]], "only the newest rows")
    }
}
