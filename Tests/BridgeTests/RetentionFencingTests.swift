import Bridge
import Foundation
import Testing

/// An active bridge on a PostgreSQL journal whose retention batch finds the lease another's: it stops serving
/// and waits as standby, as when a commit finds it so (docs/OPERATIONS.md, "Two bridges on one PostgreSQL
/// journal"). In process, through ``BridgeService``, on a clock the test moves to the next day's pass.
@Suite("Retention fenced by the journal's lease")
struct RetentionFencingTests {
    @Test("a retention batch fenced by another's lease halts the active bridge; it goes standby, and serves again")
    func fencedRetentionGoesStandby() async throws {
        let leased = try await LeasedBridge()
        let logs = leased.logs
        // The full suite can hold the lease's renewals back for a while: the role is awaited, not sampled.
        #expect(try await HTTPLimitsTests.waitUntil(seconds: 60) { leased.bridge.live.role == .active })
        try leased.takeLease()
        // The next day's pass: its first batch is refused, leaseLost.
        leased.nextRetentionPass()
        try #require(try await leased.logged("standby: the journal's lease was lost", timeout: 60), "\(logs.text)")
        // The line is logged as the active turn ends; the role turns standby as the next turn begins.
        #expect(try await HTTPLimitsTests.waitUntil { leased.bridge.live.role == .standby })
        #expect(!logs.text.contains("journal retention: removing old commands failed"), "\(logs.text)")
        #expect(
            try await leased.logged("standby: another bridge holds the journal's lease", timeout: 60), "\(logs.text)")

        // The intruder lets go: the same bridge takes the lease again and serves.
        try leased.freeLease()
        #expect(try await HTTPLimitsTests.waitUntil { leased.bridge.live.role == .active }, "\(logs.text)")
        #expect(try leased.cluster.psql("SELECT instance FROM journal_lease", database: leased.journal) == "this\n")
        try await leased.stop()
    }
}
