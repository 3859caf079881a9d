import Bridge
import Foundation
import InterApp
import Logging
import TerminalSimulator
import Testing

/// `/metrics` over real HTTP: the names and labels of the operations contract, counters that move by
/// exactly the commands sent, and a scrape of 1,000 lanes that stays quick.
@Suite("HTTP listener: metrics")
struct MetricsTests {
    @Test("counters move by exactly the commands sent over the command socket")
    func countersFollowCommands() async throws {
        let harness = try BridgeHarness.lanes(.ios, .android)
        let listener = try await RunningListener(bridge: harness.bridge)
        let before = try await Self.scrape(listener.port)
        #expect(before.value("vivabridge_lane_up", ["lane": "lane-1", "transport": "relay"]) == 1)
        #expect(before.value("vivabridge_lane_up", ["lane": "lane-2", "transport": "relay"]) == 1)

        #expect(try harness.call(saleJSON(id: "m-1", lane: "lane-1", amount: 100)).string("outcome") == "success")
        #expect(try harness.call(saleJSON(id: "m-2", lane: "lane-2", amount: 200)).string("outcome") == "success")
        #expect(try harness.call(saleJSON(id: "m-3", lane: "lane-9", amount: 300)).string("outcome") == "rejected")
        #expect(try harness.call(#"{"id":"m-4","action":"ping"}"#).string("outcome") == "success")
        #expect(try harness.call(#"{"id":"m-5","action":"lanes"}"#).string("outcome") == "success")
        // A repeat of a finished sale is answered again from the journal: one more command, same outcome.
        #expect(try harness.call(saleJSON(id: "m-1", lane: "lane-1", amount: 100)).string("outcome") == "success")

        let after = try await Self.scrape(listener.port)
        func moved(_ name: String, _ labels: [String: String]) -> Double {
            after.value(name, labels) - before.value(name, labels)
        }
        let commands = "vivabridge_commands_total"
        #expect(moved(commands, ["action": "sale", "outcome": "success"]) == 3)
        #expect(moved(commands, ["action": "sale", "outcome": "rejected", "code": "unknown_lane"]) == 1)
        #expect(moved(commands, ["action": "ping", "outcome": "success"]) == 1)
        #expect(moved(commands, ["action": "lanes", "outcome": "success"]) == 1)
        let total = after.samples.filter { $0.key.hasPrefix(commands + "{") }.values.reduce(0, +)
        let totalBefore = before.samples.filter { $0.key.hasPrefix(commands + "{") }.values.reduce(0, +)
        #expect(total - totalBefore == 6, "no other command was counted")
        #expect(moved("vivabridge_callbacks_total", ["kind": "matched"]) == 2)
        #expect(moved("vivabridge_callbacks_total", ["kind": "orphan"]) == 0)
        #expect(
            moved("vivabridge_command_duration_seconds_count", ["action": "sale"]) == 4,
            "two sales, their repeat and the rejection are timed")
        #expect(after.value("vivabridge_command_duration_seconds_bucket", ["action": "sale", "le": "+Inf"]) >= 4)
        #expect(moved("vivabridge_journal_commit_seconds_count", [:]) >= 2)
        // Each sale publishes accepted, forwarded, delivered and result.
        #expect(moved("vivabridge_events_published_total", [:]) >= 8)
        #expect(after.has("vivabridge_commands_in_flight"))
        #expect(after.has("vivabridge_unknown_unresolved"))
        #expect(after.has("vivabridge_clients_refused_total"))

        harness.simulator.injectCallback(lane: "lane-1", url: "interapp-callback://result?status=success&action=sale")
        harness.simulator.injectCallback(lane: "lane-1", url: "not a url at all")
        try harness.event("lane-1.unknown.orphan")
        let orphans = try await Self.scrape(listener.port)
        #expect(
            orphans.value("vivabridge_callbacks_total", ["kind": "orphan"])
                - after.value("vivabridge_callbacks_total", ["kind": "orphan"]) == 1)
        #expect(
            orphans.value("vivabridge_callbacks_total", ["kind": "unparsable"])
                - after.value("vivabridge_callbacks_total", ["kind": "unparsable"]) == 1)
        await listener.stop()
    }

    @Test("resolve is counted and timed under its own action label, not other")
    func resolveHasItsLabel() async throws {
        let harness = try BridgeHarness.lanes(.ios)
        let listener = try await RunningListener(bridge: harness.bridge)
        let answer = try harness.call(#"{"id":"m-r","action":"resolve","ref":"none","outcome":"failure"}"#)
        #expect(answer.string("outcome") == "rejected")
        let code = try #require(answer.object("error")?.string("code"))
        let scrape = try await Self.scrape(listener.port)
        let commands = "vivabridge_commands_total"
        #expect(scrape.value(commands, ["action": "resolve", "outcome": "rejected", "code": code]) == 1)
        #expect(!scrape.samples.keys.contains { $0.hasPrefix(commands + "{") && $0.contains(#"action="other""#) })
        #expect(scrape.value("vivabridge_command_duration_seconds_count", ["action": "resolve"]) == 1)
        await listener.stop()
    }

    @Test("a bridge with 1,000 lanes has a lane_up sample for each from the start, every scrape whole")
    func thousandLaneScrape() async throws {
        var configuration = BridgeConfiguration()
        configuration.command = "tcp://127.0.0.1:*"
        configuration.events = "tcp://127.0.0.1:*"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vivabridge-scrape-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        configuration.journal = folder.appendingPathComponent("journal.sqlite").path
        // Nothing listens on these (and no ephemeral port, such as the listener's, can be one of them):
        // every lane stays down, and still has its sample.
        configuration.lanes = (0..<1000).map {
            LaneConfiguration(id: "lane-\($0)", endpoint: "ipc://\(folder.path)/no-relay-\($0)", platform: .ios)
        }
        let bridge = try Bridge(configuration: configuration, logger: Logger(label: "scrape-test"))
        try bridge.start()
        defer { bridge.halt() }
        let listener = try await RunningListener(bridge: bridge)
        var scrape = Scrape("")
        for _ in 0..<5 {
            let answer = try await HTTPProbe.get("/metrics", port: listener.port)
            #expect(answer.status == 200)
            #expect(answer.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
            scrape = Scrape(answer.body)
        }
        let laneSamples = scrape.samples.keys.filter { $0.hasPrefix("vivabridge_lane_up{") }
        #expect(laneSamples.count == 1000)
        #expect(scrape.has("vivabridge_lane_up", ["lane": "lane-999", "transport": "relay"]))
        #expect(scrape.value("vivabridge_lane_up", ["lane": "lane-0", "transport": "relay"]) == 0)
        await listener.stop()
    }

    static func scrape(_ port: Int) async throws -> Scrape {
        let answer = try await HTTPProbe.get("/metrics", port: port)
        #expect(answer.status == 200)
        return Scrape(answer.body)
    }
}
