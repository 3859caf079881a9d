import Foundation
import Testing

@testable import Bridge
@testable import BridgeCore
@testable import BridgeHTTP
@testable import BridgeJournal
@testable import BridgeObservability
@testable import JournalSQLite

/// `/healthz` on a bridge sharing a PostgreSQL journal (docs/OPERATIONS.md, "HTTP"): a standby is alive
/// while it waits for the lease, so that a liveness probe never restarts it; `/readyz` still says not to send
/// it commands.
@Suite("/healthz on a standby")
struct StandbyHealthTests {
    @Test("a bridge back to standby answers /healthz 200 standby with its last epoch for longer than the stall limit")
    func standbyIsAlive() async throws {
        let leased = try await LeasedBridge()
        let listener = try await RunningListener(bridge: leased.bridge)
        // On a machine busy with every other suite the lease's keeper can be late: past the lease's deadline
        // the bridge reads standby until the keeper extends it. What is proved: the active says ok.
        var active = try await HTTPProbe.get("/healthz", port: listener.port)
        var tries = 0
        while try HTTPListenerTests.object(active.body).string("status") != "ok", tries < 120 {
            tries += 1
            try await Task.sleep(for: .milliseconds(500))
            active = try await HTTPProbe.get("/healthz", port: listener.port)
        }
        #expect(active.status == 200)
        #expect(try HTTPListenerTests.object(active.body).string("status") == "ok", "\(active.body)")
        let epoch = leased.bridge.live.epoch

        try leased.takeLease()
        leased.nextRetentionPass()
        try #require(
            try await leased.logged("standby: the journal's lease was lost", timeout: 60), "\(leased.logs.text)")
        // The line is logged as the active turn ends; the role turns standby as the next turn begins.
        #expect(try await HTTPLimitsTests.waitUntil { leased.bridge.live.role == .standby })
        // Sampled past the stall limit: the old loop's last turn is long gone by the end.
        let until = Date().addingTimeInterval(Double(HTTPRoutes.stallMs) / 1000 + 1.5)
        var answers: [HTTPProbe.Answer] = []
        while Date() < until {
            answers.append(try await HTTPProbe.get("/healthz", port: listener.port))
            try await Task.sleep(for: .milliseconds(500))
        }
        for answer in answers {
            #expect(answer.status == 200, "\(answer.body)")
            let body = try HTTPListenerTests.object(answer.body)
            #expect(body.string("status") == "standby")
            #expect(body.int("epoch") == epoch)
        }
        let ready = try await HTTPProbe.get("/readyz", port: listener.port)
        #expect(ready.status == 503)
        #expect(try HTTPListenerTests.object(ready.body).string("status") == "standby")

        try await leased.stop()
        let stopped = try await HTTPProbe.get("/healthz", port: listener.port)
        #expect(stopped.status == 503, "a standby that stopped waiting is not alive")
        #expect(try HTTPListenerTests.object(stopped.body).string("status") == "stopped")
        await listener.stop()
    }
}
