import Foundation
import LocalPostgres
import TerminalSimulator
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite
@testable import JournalTools

/// docs/OPERATIONS.md, "Head office: every store's journal by logical replication", as written there: two
/// PostgreSQL servers on loopback, the store's (`wal_level=logical`) holding a bridge's journal, head
/// office's subscribing to it.
@Suite("Head office: a store's journal by logical replication")
struct HeadOfficeReplicationTests {
    /// Runs `query` at head office until it answers `expected`, for up to 30 s; returns what it last answered.
    private static func awaitAnswer(
        _ query: String, _ expected: String, at cluster: PostgresCluster, database: String
    ) throws -> String {
        let deadline = Date().addingTimeInterval(30)
        var answer = try cluster.psql(query, database: database)
        while answer != expected, Date() < deadline {
            usleep(20_000)
            answer = try cluster.psql(query, database: database)
        }
        return answer
    }

    @Test("a sale made at the store is queryable at head office; the store's prune does not remove it there")
    func saleReachesHeadOffice() throws {
        let store = try PostgresCluster.dedicated(settings: ["wal_level=logical"])
        defer { try? store.stop() }
        let headOffice = try PostgresCluster.shared()
        let storeURL = try store.createDatabase()
        let lanes = [SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: .zeroDelay)]

        // At the store: the schema (the bridge's first start, or `journal check`), then the publication.
        let storeAddress = try PostgresAddress(url: storeURL)
        #expect(try PostgresJournalTools.check(address: storeAddress) == ["ok"])
        try store.psql(
            "CREATE PUBLICATION vivabridge_journal FOR TABLE command_log, outcome_log, callbacks "
                + "WITH (publish = 'insert, update')", database: storeURL)
        // At head office: a database for this store, the same schema, then the subscription.
        let officeURL = try headOffice.createDatabase()
        #expect(try PostgresJournalTools.check(address: try PostgresAddress(url: officeURL)) == ["ok"])
        let storeDatabase = String(storeURL.split(separator: "/").last ?? "")
        let subscription = "store_\(storeDatabase)"
        try headOffice.psql(
            "CREATE SUBSCRIPTION \(subscription) CONNECTION 'host=127.0.0.1 port=\(store.port) user=postgres "
                + "dbname=\(storeDatabase)' PUBLICATION vivabridge_journal", database: officeURL)
        defer { _ = try? headOffice.psql("DROP SUBSCRIPTION \(subscription)", database: officeURL) }

        let harness = try BridgeHarness(lanes: lanes, journal: storeURL)
        #expect(
            try harness.call(saleJSON(id: "store-sale", lane: "lane-1", amount: 1250)).string("outcome") == "success")
        let query = "SELECT id, state, outcome, amount FROM commands ORDER BY seq"
        #expect(
            try Self.awaitAnswer(query, "store-sale|final|success|1250\n", at: headOffice, database: officeURL)
                == "store-sale|final|success|1250\n")

        // The store keeps a day; head office keeps history: prune's deletions are not published.
        let pruned = try PostgresJournalTools.prune(
            address: storeAddress, olderThanDays: 1, nowMs: SystemBridgeClock().nowMs() + 2 * 86_400_000)
        #expect(pruned.commands == 1)
        #expect(try store.psql("SELECT COUNT(*) FROM commands", database: storeURL) == "0\n")
        // A later sale reaches head office after the prune (changes arrive in commit order), and the first stays.
        #expect(
            try harness.call(saleJSON(id: "later-sale", lane: "lane-1", amount: 300)).string("outcome") == "success")
        let both = "store-sale|final|success|1250\nlater-sale|final|success|300\n"
        #expect(try Self.awaitAnswer(query, both, at: headOffice, database: officeURL) == both)
        harness.bridge.stop()
    }
}
