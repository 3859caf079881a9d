import BridgeClient
import Foundation
import InterApp
import LocalPostgres
import LoopbackPorts
import TerminalSimulator
import Testing

/// Two `vivabridge run` processes on one PostgreSQL journal: one active by the journal's lease, the other
/// standby; takeover after SIGKILL and SIGTERM; a bridge fenced out by another's lease, or cut off from the
/// database, stops serving (docs/OPERATIONS.md, "Two bridges on one PostgreSQL journal").
@Suite("Standby: two bridges on one PostgreSQL journal", .serialized)
struct StandbyTests {
    static func sale(_ id: String, amount: Int = 1200) -> String {
        #"{"id":"\#(id)","lane":"lane-1","action":"sale","amount":\#(amount)}"#
    }

    @Test("exactly one of two bridges binds and serves; the other's /readyz is 503 standby, naming it")
    func oneActive() throws {
        let cluster = try PostgresCluster.shared()
        let shared = try SharedJournal(cluster: cluster)
        let first = try shared.start("bridge-a")
        defer { stop(first) }
        let active = try #require(try first.waitForRole("active"), "the first bridge never served")
        #expect(active["instance"]?.stringValue == "bridge-a")
        let command = try first.commandEndpoint()
        let second = try shared.start("bridge-b")
        defer { stop(second) }
        let standby = try #require(try second.waitForRole("standby"), "\(second.child.errorOutput)")
        #expect(standby["instance"]?.stringValue == "bridge-b")
        #expect(standby["status"]?.stringValue == "standby")
        #expect(try second.readiness().status == 503)
        #expect(
            second.child.waitForErrorLine(containingAll: ["standby:", "holder=bridge-a"], timeout: 10) != nil,
            "\(second.child.errorOutput)")
        // The standby bound nothing and linked no lane: one hello, from the active bridge.
        #expect(!second.child.errorOutput.contains("bridge listening"))
        #expect(shared.simulator.waitForHello(lane: "lane-1", timeout: .seconds(10)))
        #expect(try awaitLanesUp(command: command, ["lane-1"]))
        let reply = try CommandClient(command).call(Self.sale("one-active"))
        #expect(reply?["outcome"]?.stringValue == "success")
        #expect(try cluster.psql("SELECT instance FROM journal_lease", database: shared.journal) == "bridge-a\n")
        #expect(try first.readiness().status == 200)
        #expect(try HTTPRunTests.get(first.http + "metrics").body.contains("\nvivabridge_active 1"))
        #expect(try HTTPRunTests.get(second.http + "metrics").body.contains("\nvivabridge_active 0"))
        second.child.signal(SIGTERM)
        #expect(second.child.waitForExit(timeout: 10) == 0, "a standby stops at once, exit 0")
    }

    @Test(
        "SIGKILL of the active: the standby serves within 10 s under a larger epoch; the sale in flight is answered from the journal under its id, sent to the relay once"
    )
    func takeoverAfterSIGKILL() throws {
        var behaviour = LaneBehaviour()
        behaviour.host = .manual
        let shared = try SharedJournal(cluster: try PostgresCluster.shared(), behaviour: behaviour)
        let first = try shared.start("bridge-a")
        let firstEpoch = try #require(try first.waitForRole("active")?["epoch"]?.intValue)
        // A subscriber waits on the standby's events endpoint before it binds (ZeroMQ connects when it can).
        let port = try LoopbackPort(listening: false)
        port.release()
        let second = try shared.start("bridge-b", events: port.endpoint)
        defer { stop(second) }
        _ = try #require(try second.waitForRole("standby"))
        // Retried every 10 ms: it must be connected within the second the new active waits before it
        // announces itself, even on a loaded machine.
        let subscriber = try EventTap(port.endpoint, reconnectMs: 10)
        let client = try CommandClient(try first.commandEndpoint())
        try client.send(Self.sale("in-flight"))
        #expect(shared.simulator.waitForPhase(lane: "lane-1", .host, timeout: .seconds(15)))

        first.child.signal(SIGKILL)
        let killed = Date()
        _ = first.child.waitForExit()
        let active = try #require(try second.waitForRole("active", timeout: 10), "\(second.child.errorOutput)")
        let takeover = Date().timeIntervalSince(killed)
        print("takeover after SIGKILL: \(Int(takeover * 1000)) ms (leaseMs 1000)")
        #expect(takeover < 10)
        #expect(try #require(active["epoch"]?.intValue) > firstEpoch)
        #expect(active["instance"]?.stringValue == "bridge-b")
        let announced = try #require(try subscriber.await("bridge.role.active"), "no bridge.role.active heard")
        #expect(announced["instance"]?.stringValue == "bridge-b")
        #expect(announced["epoch"]?.intValue == active["epoch"]?.intValue)

        // The client sends the command again, under the same id, to the bridge that answers now.
        let again = try CommandClient(try second.commandEndpoint())
        #expect(shared.simulator.waitForHello(lane: "lane-1", count: 2, timeout: .seconds(10)))
        try again.send(Self.sale("in-flight"))
        #expect(shared.simulator.release(lane: "lane-1"))
        let reply = try #require(try again.receive(), "no reply from the new active bridge")
        #expect(reply["id"]?.stringValue == "in-flight")
        #expect(reply["outcome"]?.stringValue == "success")
        #expect(shared.simulator.openedURLs(lane: "lane-1").count == 1, "the sale reached the relay once")
    }

    @Test(
        "the active SIGSTOPped before it journals the approved callback it was sent: the relay sends it again to the new active, and the sale ends success within a second of the takeover"
    )
    func callbackKeptAcrossSIGSTOP() throws {
        var behaviour = LaneBehaviour()
        behaviour.host = .manual
        let shared = try SharedJournal(cluster: try PostgresCluster.shared(), behaviour: behaviour)
        let first = try shared.start("bridge-a")
        defer {
            first.child.signal(SIGKILL)
            _ = first.child.waitForExit(timeout: 10)
        }
        _ = try #require(try first.waitForRole("active"))
        let second = try shared.start("bridge-b")
        defer { stop(second) }
        _ = try #require(try second.waitForRole("standby"))
        let firstClient = try CommandClient(try first.commandEndpoint())
        try firstClient.send(Self.sale("handed-over"))
        #expect(shared.simulator.waitForPhase(lane: "lane-1", .host, timeout: .seconds(15)))

        first.child.signal(SIGSTOP)
        // The card is charged; the relay hands the callback to the link of the bridge that spoke last, which
        // does not read it.
        #expect(shared.simulator.release(lane: "lane-1"))
        #expect(shared.simulator.waitForHistory(lane: "lane-1", count: 1, timeout: .seconds(10)))
        _ = try #require(try second.waitForRole("active", timeout: 10), "\(second.child.errorOutput)")
        let active = Date()
        let client = try CommandClient(try second.commandEndpoint(), timeoutMs: 10_000)
        let reply = try #require(try client.call(Self.sale("handed-over")), "no reply: the sale is still in flight")
        let ended = Date().timeIntervalSince(active)
        print("sale ended \(Int(ended * 1000)) ms after the takeover (its callback sent again by the relay)")
        #expect(reply["outcome"]?.stringValue == "success", "\(reply)")
        #expect(ended < 2)
        #expect(shared.simulator.openedURLs(lane: "lane-1").count == 1, "the sale reached the relay once")
    }

    @Test("SIGTERM of the active: it exits 0 after releasing the lease, and the standby serves within 3 s")
    func takeoverAfterSIGTERM() throws {
        let shared = try SharedJournal(cluster: try PostgresCluster.shared(), leaseMs: 10_000)
        let first = try shared.start("bridge-a")
        _ = try #require(try first.waitForRole("active"))
        let second = try shared.start("bridge-b")
        defer { stop(second) }
        _ = try #require(try second.waitForRole("standby"))

        first.child.signal(SIGTERM)
        let stopped = Date()
        _ = try #require(try second.waitForRole("active", timeout: 3), "\(second.child.errorOutput)")
        let takeover = Date().timeIntervalSince(stopped)
        print("takeover after SIGTERM: \(Int(takeover * 1000)) ms (leaseMs 10000: the lease was handed over)")
        #expect(takeover < 3)
        #expect(first.child.waitForExit(timeout: 10) == 0)
        #expect(first.child.errorOutput.contains("the journal's lease is released"))
        // The new active links to the lane once it holds the lease: a sale before its hello is undeliverable.
        #expect(shared.simulator.waitForHello(lane: "lane-1", count: 2, timeout: .seconds(10)))
        #expect(try awaitLanesUp(command: try second.commandEndpoint(), ["lane-1"]))
        let reply = try CommandClient(try second.commandEndpoint()).call(Self.sale("after-sigterm"))
        #expect(reply?["outcome"]?.stringValue == "success")
    }

    @Test(
        "another bridge takes the lease behind the active's back: its next sale is refused and never sent, it goes to standby, and serves again once the lease is free"
    )
    func fencedOut() throws {
        let cluster = try PostgresCluster.shared()
        // A long lease: renewals are far apart, so the commit's own check is what finds the lease gone.
        let shared = try SharedJournal(cluster: cluster, leaseMs: 60_000)
        let first = try shared.start("bridge-a")
        defer { stop(first) }
        let firstEpoch = try #require(try first.waitForRole("active")?["epoch"]?.intValue)
        let client = try CommandClient(try first.commandEndpoint())
        #expect(shared.simulator.waitForHello(lane: "lane-1", timeout: .seconds(10)))
        // A viewer of the first activation: the HTTP listener's reader of the tap starts with it.
        let firstLines = try first.events { $0.first?.contains(#""topic":"lanes""#) == true }
        #expect(firstLines.first?.contains(#""epoch":\#(firstEpoch)"#) == true, "\(firstLines)")

        try cluster.psql(
            """
            UPDATE journal_lease SET epoch = epoch + 1, instance = 'intruder',
                expires_at = clock_timestamp() + interval '1 minute'
            """, database: shared.journal)
        let reply = try #require(try client.call(Self.sale("fenced")), "\(first.child.errorOutput)")
        #expect(reply["error"]?.objectValue?["code"]?.stringValue == "journal_unavailable")
        #expect(
            reply["error"]?.objectValue?["message"]?.stringValue?.contains("no longer holds the journal's lease")
                == true)
        let standby = try #require(try first.waitForRole("standby"), "\(first.child.errorOutput)")
        #expect(standby["status"]?.stringValue == "standby")
        #expect(shared.simulator.openedURLs(lane: "lane-1").count == 0, "no URL reached the relay")
        #expect(
            try cluster.psql("SELECT count(*) FROM command_log WHERE id = 'fenced'", database: shared.journal) == "0\n")

        // The intruder lets go: the same process takes the lease again and serves under a new epoch.
        try cluster.psql("UPDATE journal_lease SET expires_at = '-infinity'", database: shared.journal)
        let again = try #require(try first.waitForRole("active"), "\(first.child.errorOutput)")
        #expect(try #require(again["epoch"]?.intValue) > firstEpoch + 1, "above the intruder's epoch too")
        #expect(shared.simulator.waitForHello(lane: "lane-1", count: 2, timeout: .seconds(10)))
        let command = try #require(
            first.child.waitForLine(containing: "commands (ROUTER):", count: 2).flatMap {
                $0.components(separatedBy: "commands (ROUTER):").last?.trimmingCharacters(in: .whitespaces)
            })
        #expect(try awaitLanesUp(command: command, ["lane-1"]))
        let sold = try CommandClient(command).call(Self.sale("after-fencing"))
        #expect(sold?["outcome"]?.stringValue == "success", "\(String(describing: sold))")
        // Its `/events` follows the new activation: a new viewer gets its snapshot, then its heartbeat.
        let lines = try first.events { lines in
            lines.first?.contains(#""topic":"lanes""#) == true
                && lines.contains { $0.contains(#""topic":"bridge.heartbeat.beat""#) }
        }
        let snapshot = try #require(
            lines.first.flatMap { try? JSONValue.parse(Array($0.utf8)).objectValue }, "no /events snapshot: \(lines)")
        #expect(snapshot["topic"]?.stringValue == "lanes")
        #expect(snapshot["epoch"]?.intValue == again["epoch"]?.intValue)
        #expect(lines.contains { $0.contains(#""topic":"bridge.heartbeat.beat""#) }, "\(lines)")
    }

    @Test("PostgreSQL stopped under the active bridge: it refuses commands, then stops serving and exits 1")
    func databaseGone() throws {
        let cluster = try PostgresCluster.dedicated()
        let shared = try SharedJournal(cluster: cluster, leaseMs: 3000)
        let first = try shared.start("bridge-a")
        defer { if first.child.waitForExit(timeout: 0) == nil { first.child.signal(SIGKILL) } }
        _ = try #require(try first.waitForRole("active"))
        let client = try CommandClient(try first.commandEndpoint(), timeoutMs: 5000)
        #expect(shared.simulator.waitForHello(lane: "lane-1", timeout: .seconds(10)))

        try cluster.stopImmediately()
        let stopped = Date()
        let reply = try client.call(Self.sale("no-database"))
        #expect(reply?["error"]?.objectValue?["code"]?.stringValue == "journal_unavailable")
        #expect(first.child.waitForExit(timeout: 20) == 1)
        print("exit 1 after PostgreSQL stopped: \(Int(Date().timeIntervalSince(stopped) * 1000)) ms (leaseMs 3000)")
        #expect(
            first.child.errorOutput.contains("no renewal of the journal's lease got through for longer than leaseMs"))
        #expect(shared.simulator.openedURLs(lane: "lane-1").count == 0)
    }

    @Test("check names the bridge's instance and lease for a PostgreSQL journal, without connecting")
    func checkNamesTheLease() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("standby-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: file) }
        try """
        journal: postgresql://bridge@192.0.2.1:5432/journal
        instance: till-a
        leaseMs: 2500
        terminal: {merchantKey: K}
        lanes:
          - {id: lane-1, endpoint: "tcp://127.0.0.1:6001", platform: ios}
        """.write(to: file, atomically: true, encoding: .utf8)
        let check = try ChildProcess(["check", "--config", file.path])
        #expect(check.waitForExit(timeout: 20) == 0, "\(check.errorOutput)")
        #expect(check.output.contains("shared; this bridge is till-a, active while it holds the lease (leaseMs 2500)"))
    }

    private func stop(_ bridge: StandbyBridge) {
        bridge.child.signal(SIGTERM)
        _ = bridge.child.waitForExit(timeout: 20)
    }
}
