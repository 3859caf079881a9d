import Foundation
import Logging
import TestPostgres
import Testing

@testable import Bridge

/// An active bridge on a PostgreSQL journal whose retention batch finds the lease another's: it stops serving
/// and waits as standby, as when a commit finds it so (docs/OPERATIONS.md, "Two bridges on one PostgreSQL
/// journal"). In process, through ``BridgeService``, on a clock the test moves to the next day's pass.
@Suite("Retention fenced by the journal's lease")
struct RetentionFencingTests {
    @Test("a retention batch fenced by another's lease halts the active bridge; it goes standby, and serves again")
    func fencedRetentionGoesStandby() async throws {
        let cluster = try PostgresCluster.shared()
        let url = try cluster.createDatabase()
        var configuration = BridgeConfiguration()
        configuration.command = "tcp://127.0.0.1:*"
        configuration.events = "tcp://127.0.0.1:*"
        configuration.journal = url
        configuration.instance = "this"
        // A long lease: renewals are far apart, so the retention batch's own check is what finds the lease gone.
        configuration.leaseMs = 60_000
        configuration.journalRetentionDays = 1
        let clock = ManualBridgeClock()
        let logs = LogCapture()
        var logger = Logger(label: "bridge-test") { _ in logs.handler() }
        logger.logLevel = .debug
        let bridge = try Bridge(configuration: configuration, clock: clock, logger: logger)
        let running = Task { try await BridgeService(bridge: bridge).run() }
        defer { running.cancel() }
        func logged(_ text: String) async throws -> Bool {
            try await HTTPProbe.offPool { logs.waitForLine(containing: text) != nil }
        }

        // The pass at the start ran under the lease (nothing to remove).
        #expect(try await logged("journal retention: removed"), "\(logs.text)")
        #expect(bridge.live.role == .active)
        try cluster.psql(
            """
            UPDATE journal_lease SET epoch = epoch + 1, instance = 'intruder',
                expires_at = clock_timestamp() + interval '1 minute'
            """, database: url)
        // The next day's pass: its first batch is refused, leaseLost.
        clock.advance(byMs: JournalRetention.dayMs)
        bridge.wake()
        try #require(try await logged("standby: the journal's lease was lost"), "\(logs.text)")
        #expect(bridge.live.role == .standby)
        #expect(!logs.text.contains("journal retention: removing old commands failed"), "\(logs.text)")
        #expect(try await logged("standby: another bridge holds the journal's lease"), "\(logs.text)")

        // The intruder lets go: the same bridge takes the lease again and serves.
        try cluster.psql("UPDATE journal_lease SET expires_at = '-infinity'", database: url)
        #expect(try await HTTPLimitsTests.waitUntil { bridge.live.role == .active }, "\(logs.text)")
        #expect(try cluster.psql("SELECT instance FROM journal_lease", database: url) == "this\n")
        running.cancel()
        try await running.value
    }
}
