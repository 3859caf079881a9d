import Foundation
import LocalPostgres
import Logging
import Testing
import ZeroMQ

@testable import Bridge
@testable import BridgeCore
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// A bridge on a new PostgreSQL journal, run in process by its ``BridgeService`` (standby, then active while
/// it holds the journal's lease), on a clock the test moves. It loses the lease as in a takeover: another
/// instance takes it (``takeLease()``), and the next day's retention batch (``nextRetentionPass()``) is fenced.
final class LeasedBridge {
    let cluster: PostgresCluster
    let journal: String
    let clock = ManualBridgeClock()
    let logs = LogCapture()
    let bridge: Bridge
    private let running: Task<Void, any Error>
    /// The service's own thread: on Linux a Dispatch queue would share the cooperative pool's threads, which
    /// the tests around it hold with blocking calls, and the service's steps (the lease's keeper started after
    /// its acquisition) would wait behind them for tens of seconds.
    private let executor: ThreadTaskExecutor

    /// Starts it with a long lease (renewals far apart, so that the retention batch's own check is what finds
    /// the lease gone) and `journalRetentionDays` 1; returns once the pass at its start ran under the lease.
    init() async throws {
        cluster = try PostgresCluster.shared()
        journal = try cluster.createDatabase()
        var configuration = BridgeConfiguration()
        configuration.command = "tcp://127.0.0.1:*"
        configuration.events = "tcp://127.0.0.1:*"
        configuration.journal = journal
        configuration.instance = "this"
        configuration.leaseMs = 60_000
        configuration.journalRetentionDays = 1
        let logs = logs
        var logger = Logger(label: "bridge-test") { _ in logs.handler() }
        logger.logLevel = .debug
        let bridge = try Bridge(configuration: configuration, clock: clock, logger: logger)
        self.bridge = bridge
        let executor = ThreadTaskExecutor(name: "leased-bridge")
        self.executor = executor
        running = Task(executorPreference: executor) {
            try await BridgeService(bridge: bridge).run()
        }
        try #require(try await logged("journal retention: removed", timeout: 60), "\(logs.text)")
    }

    /// Waits (`timeout` seconds at most) for a log line containing `text`; whether one came.
    func logged(_ text: String, timeout: TimeInterval = 10) async throws -> Bool {
        let logs = logs
        return try await HTTPProbe.offPool { logs.waitForLine(containing: text, timeout: timeout) != nil }
    }

    /// Another instance takes the lease behind the bridge's back, for a minute, under the next epoch.
    func takeLease() throws {
        try cluster.psql(
            """
            UPDATE journal_lease SET epoch = epoch + 1, instance = 'intruder',
                expires_at = clock_timestamp() + interval '1 minute'
            """, database: journal)
    }

    /// The other instance lets go of the lease: this bridge takes it at its next poll.
    func freeLease() throws {
        try cluster.psql("UPDATE journal_lease SET expires_at = '-infinity'", database: journal)
    }

    /// Moves the clock to the next day's retention pass and wakes the loop: its first batch runs now.
    func nextRetentionPass() {
        clock.advance(byMs: JournalRetention.dayMs)
        bridge.wake()
    }

    /// Stops the service as a cancellation does, and waits for it.
    func stop() async throws {
        running.cancel()
        defer { executor.stop() }
        try await running.value
    }

    deinit {
        running.cancel()
        executor.stop()
    }
}
