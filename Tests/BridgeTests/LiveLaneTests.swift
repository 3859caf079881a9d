import Bridge
import Foundation
import InterApp
import TerminalSimulator
import Testing

/// The in-flight rule of lanes a reload removes or changes (``Bridge/reloadLanes(_:)``): what is in
/// flight keeps its link until it ends, and ends as it would have (never `failure` where the truth is
/// `unknown`); only then is the link closed, or made anew with the new settings.
@Suite("Live lanes: a removed or changed lane keeps its link until what is in flight on it ends")
struct LiveLaneTests {
    private static func lane(_ id: String, _ behaviour: LaneBehaviour = LaneBehaviour()) -> SimulatedLane {
        SimulatedLane(id: id, endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)
    }

    private static var heldCard: LaneBehaviour { LaneBehaviour(cardPresentment: .manual) }

    @Test("a changed lane finishes its sale on the old relay, then takes its new endpoint and sells there")
    func changeWithSaleInFlight() throws {
        let harness = try BridgeHarness(lanes: [Self.lane("lane-1", Self.heldCard)])
        let other = Simulator(lanes: [Self.lane("relay-b")])
        defer { other.stop() }
        let relayB = try #require(try other.start()["relay-b"])
        try harness.send(saleJSON(id: "old-relay", lane: "lane-1", amount: 1500))
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .cardPresentment, timeout: .seconds(10)))

        var lanes = harness.configuration.lanes
        lanes[0].transport = .relay(endpoint: relayB)
        harness.bridge.reloadLanes(lanes)
        #expect(
            harness.logs.waitForLine(containingAll: ["lane changed by the reload; it waits", #""lane": lane-1"#]) != nil
        )
        let busy = try harness.call(saleJSON(id: "meanwhile", lane: "lane-1", amount: 100))
        #expect(busy.object("error")?.string("code") == "lane_busy")
        #expect(other.helloCount(lane: "relay-b") == 0, "the new link was made before the sale ended")

        #expect(harness.simulator.release(lane: "lane-1"))
        #expect(try harness.reply(to: "old-relay").string("outcome") == "success")
        #expect(harness.simulator.history(lane: "lane-1").count == 1)
        let changed = try harness.event("lane-1.lane.changed")
        #expect(changed.string("endpoint") == relayB)
        try harness.event("lane-1.lane.connected") { $0.string("endpoint") == relayB }
        #expect(other.waitForHello(lane: "relay-b", timeout: .seconds(10)))
        #expect(
            try harness.call(saleJSON(id: "new-relay", lane: "lane-1", amount: 1600)).string("outcome") == "success")
        #expect(other.history(lane: "relay-b").count == 1)
    }

    @Test("a reload that changes an idle lane's terminal settings: its next sale's URL carries the new ones")
    func changedSettingsReachTheURL() throws {
        let harness = try BridgeHarness(lanes: [Self.lane("lane-1")])
        #expect(try harness.call(saleJSON(id: "before", lane: "lane-1", amount: 100)).string("outcome") == "success")
        #expect(harness.simulator.openedURLs(lane: "lane-1").last?.contains("appId=com.vivabridge.pos") == true)
        var lanes = harness.configuration.lanes
        lanes[0].terminal.appId = "com.example.newpos"
        harness.bridge.reloadLanes(lanes)
        let changed = try harness.event("lane-1.lane.changed")
        try harness.event("lane-1.lane.connected") { ($0.int("seq") ?? 0) > (changed.int("seq") ?? 0) }
        #expect(try harness.call(saleJSON(id: "after", lane: "lane-1", amount: 100)).string("outcome") == "success")
        let url = try #require(harness.simulator.openedURLs(lane: "lane-1").last)
        #expect(url.contains("appId=com.example.newpos"), "\(url)")
    }

    @Test("a removed lane's sale past its deadline ends unknown, never failure; then its link closes")
    func removeWithSaleUnknown() throws {
        let clock = ManualBridgeClock()
        let harness = try BridgeHarness(lanes: [Self.lane("lane-1"), Self.lane("lane-2", Self.heldCard)], clock: clock)
        try harness.send(saleJSON(id: "stuck", lane: "lane-2", amount: 4200, extra: #","timeoutMs":1000"#))
        #expect(harness.simulator.waitForPhase(lane: "lane-2", .cardPresentment, timeout: .seconds(10)))

        harness.bridge.reloadLanes(harness.configuration.lanes.filter { $0.id == "lane-1" })
        #expect(
            harness.logs.waitForLine(containingAll: ["lane removed by the reload; it waits", #""lane": lane-2"#]) != nil
        )
        let abort = try harness.call(#"{"id":"abort-removed","lane":"lane-2","action":"abort"}"#)
        #expect(abort.object("error")?.string("code") == "unknown_lane")

        harness.advance(byMs: 1001)
        let reply = try harness.reply(to: "stuck")
        #expect(reply.string("outcome") == "unknown")
        try harness.event("lane-2.lane.removed")
        let lanes = try harness.call(#"{"id":"l","action":"lanes"}"#).object("result")?["lanes"]?.arrayValue
        #expect(lanes?.compactMap { $0.objectValue?.string("lane") } == ["lane-1"])
        let status = try harness.call(#"{"id":"st","action":"status","ref":"stuck"}"#).object("result")
        #expect(status?.string("state") == "final")
        #expect(status?.string("outcome") == "unknown")
    }

    @Test("removing a lane between two others leaves both working; a lane added afterwards works too")
    func removeMiddleThenAdd() throws {
        let harness = try BridgeHarness(lanes: [Self.lane("lane-1"), Self.lane("lane-2"), Self.lane("lane-3")])
        let all = harness.configuration.lanes
        harness.bridge.reloadLanes(all.filter { $0.id != "lane-2" })
        try harness.event("lane-2.lane.removed")
        #expect(try harness.call(saleJSON(id: "one", lane: "lane-1", amount: 100)).string("outcome") == "success")
        #expect(try harness.call(saleJSON(id: "three", lane: "lane-3", amount: 300)).string("outcome") == "success")
        let gone = try harness.call(saleJSON(id: "two", lane: "lane-2", amount: 200))
        #expect(gone.object("error")?.string("code") == "unknown_lane")

        harness.bridge.reloadLanes(all)
        try harness.event("lane-2.lane.connected")
        #expect(try harness.call(saleJSON(id: "two-again", lane: "lane-2", amount: 200)).string("outcome") == "success")
        #expect(
            try harness.call(saleJSON(id: "three-again", lane: "lane-3", amount: 300)).string("outcome") == "success")
        let ping = try harness.call(#"{"id":"p","action":"ping"}"#)
        #expect(ping.object("result")?.int("lanes") == 3)
    }

    @Test("a lane renamed by a reload, on the same relay endpoint: the new name's link comes up and sells")
    func renameOnTheSameEndpoint() throws {
        let harness = try BridgeHarness(lanes: [Self.lane("lane-1"), Self.lane("lane-2")])
        var lanes = harness.configuration.lanes
        lanes[0].id = "till-1"
        harness.bridge.reloadLanes(lanes)
        try harness.event("lane-1.lane.removed")
        try harness.event("till-1.lane.connected")
        #expect(try harness.call(saleJSON(id: "renamed", lane: "till-1", amount: 100)).string("outcome") == "success")
        #expect(try harness.call(saleJSON(id: "beside", lane: "lane-2", amount: 200)).string("outcome") == "success")
    }

    @Test("two lanes whose relay endpoints a reload swaps: each link is made anew on the other's, and sells")
    func swapEndpoints() throws {
        let harness = try BridgeHarness(lanes: [Self.lane("lane-1"), Self.lane("lane-2")])
        var lanes = harness.configuration.lanes
        (lanes[0].transport, lanes[1].transport) = (lanes[1].transport, lanes[0].transport)
        harness.bridge.reloadLanes(lanes)
        try harness.event("lane-1.lane.connected") { $0.string("endpoint") == lanes[0].endpoint }
        try harness.event("lane-2.lane.connected") { $0.string("endpoint") == lanes[1].endpoint }
        #expect(try harness.call(saleJSON(id: "one", lane: "lane-1", amount: 100)).string("outcome") == "success")
        #expect(try harness.call(saleJSON(id: "two", lane: "lane-2", amount: 200)).string("outcome") == "success")
        #expect(harness.simulator.history(lane: "lane-2").count == 1, "lane-1's sale did not reach its new relay")
    }

    @Test("/readyz's lanes and vivabridge_lane_up follow lanes a reload removes and adds back")
    func observationFollowsReloads() throws {
        let harness = try BridgeHarness(lanes: [Self.lane("lane-1"), Self.lane("lane-2"), Self.lane("lane-3")])
        let all = harness.configuration.lanes
        func up() -> [String: Bool] {
            Dictionary(uniqueKeysWithValues: harness.bridge.live.lanes.map { ($0.id, $0.up) })
        }
        #expect(up() == ["lane-1": true, "lane-2": true, "lane-3": true])
        #expect(harness.bridge.metrics.render().contains(#"vivabridge_lane_up{lane="lane-2",transport="relay"} 1"#))

        harness.bridge.reloadLanes(all.filter { $0.id != "lane-2" })
        try harness.event("lane-2.lane.removed")
        _ = try harness.call(#"{"id":"p1","action":"ping"}"#)  // a turn after the removal
        #expect(up() == ["lane-1": true, "lane-3": true])
        #expect(!harness.bridge.metrics.render().contains(#"lane="lane-2""#))
        #expect(harness.bridge.metrics.render().contains(#"vivabridge_lane_up{lane="lane-3",transport="relay"} 1"#))

        harness.bridge.reloadLanes(all)
        try harness.event("lane-2.lane.connected")
        _ = try harness.call(#"{"id":"p2","action":"ping"}"#)
        #expect(up() == ["lane-1": true, "lane-2": true, "lane-3": true])
        #expect(harness.bridge.metrics.render().contains(#"vivabridge_lane_up{lane="lane-2",transport="relay"} 1"#))
    }

    @Test("a lane brought back by a second reload before its removal was carried out stays, and keeps selling")
    func removalWithdrawn() throws {
        let harness = try BridgeHarness(lanes: [Self.lane("lane-1"), Self.lane("lane-2", Self.heldCard)])
        try harness.send(saleJSON(id: "kept", lane: "lane-2", amount: 700))
        #expect(harness.simulator.waitForPhase(lane: "lane-2", .cardPresentment, timeout: .seconds(10)))

        harness.bridge.reloadLanes(harness.configuration.lanes.filter { $0.id == "lane-1" })
        #expect(
            harness.logs.waitForLine(containingAll: ["lane removed by the reload; it waits", #""lane": lane-2"#]) != nil
        )
        harness.bridge.reloadLanes(harness.configuration.lanes)
        #expect(
            harness.logs.waitForLine(containingAll: ["lane is back in the reloaded configuration", #""lane": lane-2"#])
                != nil)

        #expect(harness.simulator.release(lane: "lane-2"))
        #expect(try harness.reply(to: "kept").string("outcome") == "success")
        harness.simulator.setBehaviour(LaneBehaviour(), lane: "lane-2")
        #expect(try harness.call(saleJSON(id: "again", lane: "lane-2", amount: 800)).string("outcome") == "success")
        #expect(!harness.logs.hasLine(containingAll: ["lane removed by the reload: its link", #""lane": lane-2"#]))
        #expect(harness.simulator.helloCount(lane: "lane-2") == 1, "the link was made anew")
    }
}

@Suite("Live lanes: what a reload finds different, lane by lane, and what waits for a restart")
struct LaneDifferencesTests {
    @Test("lanes added, removed and changed (a terminal default counts for every lane inheriting it); keys by name")
    func differences() throws {
        let running = try BridgeConfiguration.load(yaml: ConfigurationTests.valid)
        let yaml =
            ConfigurationTests.valid
            .replacingOccurrences(of: "merchantKey: SG23323424EXS3", with: "merchantKey: NEW-KEY")
            .replacingOccurrences(
                of: "  - id: lane-1\n    endpoint: tcp://127.0.0.1:6001\n    platform: ios\n", with: ""
            )
            .replacingOccurrences(of: "journal: /tmp/j.sqlite", with: "journal: /tmp/k.sqlite")
            + "\n  - {id: lane-3, endpoint: \"tcp://127.0.0.1:6003\", platform: ios}\n"
        let candidate = try BridgeConfiguration.load(yaml: yaml)
        let lanes = running.laneDifferences(to: candidate)
        #expect(lanes == LaneDifferences(added: ["lane-3"], removed: ["lane-1"], changed: ["lane-2"]))
        #expect(lanes.phrases == ["lanes added: lane-3", "lanes removed: lane-1", "lanes changed: lane-2"])
        #expect(running.restartDifferences(to: candidate) == ["journal"])
        #expect(running.canReloadLanes(to: candidate))
        #expect(running.laneDifferences(to: running).isEmpty)
    }

    @Test("lanes wait for the restart when the bridge key changes: a pinned relay key is never used with another")
    func newBridgeKey() throws {
        let running = try BridgeConfiguration.load(yaml: ConfigurationTests.valid)
        var keyed = running
        keyed.security = SecuritySettings(
            secretKeyFile: "/k", secretKey: "secret", publicKey: "public", clients: [], requireLaneKeys: false)
        #expect(!running.canReloadLanes(to: keyed))
        #expect(!keyed.canReloadLanes(to: running))
        var rekeyed = keyed
        rekeyed.security?.publicKey = "other"
        rekeyed.security?.secretKey = "other-secret"
        #expect(!keyed.canReloadLanes(to: rekeyed))
        var sameKey = keyed
        sameKey.security?.clients = [SecuritySettings.Client(name: "pos", publicKey: "p", roles: [.commands])]
        #expect(keyed.canReloadLanes(to: sameKey))
    }
}
