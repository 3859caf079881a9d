import Foundation
import InterApp
import TerminalSimulator
import Testing

/// SIGHUP adds, removes and changes lanes on a running `vivabridge run` (docs/OPERATIONS.md, "Reloading"),
/// as a process, against simulated relays of the test's own.
@Suite("SIGHUP reloads lanes live: added, removed (idle or with a sale in flight), changed")
struct LaneReloadTests {
    private static func sale(_ id: String, lane: String) -> String {
        #"{"id":"\#(id)","lane":"\#(lane)","action":"sale","amount":1200}"#
    }

    /// The lane ids of a `lanes` reply, in its order.
    private static func laneIds(_ bridge: RunningBridge) throws -> [String] {
        let reply = try bridge.call(#"{"id":"lanes-\#(UUID().uuidString)","action":"lanes"}"#)
        let lanes = reply?["result"]?.objectValue?["lanes"]?.arrayValue ?? []
        return lanes.compactMap { $0.objectValue?["lane"]?.stringValue }
    }

    private static func errorCode(_ reply: JSONObject?) -> String? {
        reply?["error"]?.objectValue?["code"]?.stringValue
    }

    @Test("a bad file adds nothing; a lane added by SIGHUP is linked, announced, listed, and sells through its relay")
    func addLane() throws {
        let bridge = try RunningBridge(spareRelays: ["lane-2"])
        let events = try bridge.subscribe()

        try bridge.writeLanes([("lane-1", "lane-1"), ("lane-2", "lane-2")])
        try (String(contentsOf: bridge.config, encoding: .utf8) + "abortGraceMs: soon\n").write(
            to: bridge.config, atomically: true, encoding: .utf8)
        bridge.child.signal(SIGHUP)
        #expect(bridge.child.waitForErrorLine(containing: "refused, the running configuration is unchanged") != nil)
        #expect(Self.errorCode(try bridge.call(Self.sale("before", lane: "lane-2"))) == "unknown_lane")

        try bridge.writeLanes([("lane-1", "lane-1"), ("lane-2", "lane-2")])
        bridge.child.signal(SIGHUP)
        #expect(
            bridge.child.waitForErrorLine(
                containingAll: ["SIGHUP: applying the lane changes now", "changes=lanes added: lane-2"]) != nil)
        #expect(bridge.child.waitForErrorLine(containingAll: ["lane added by the reload", "lane=lane-2"]) != nil)
        let added = try #require(try events.await("lane-2.lane.added"), "no lane-2.lane.added event")
        #expect(added["endpoint"]?.stringValue == bridge.relays["lane-2"])
        #expect(try events.await("lane-2.lane.connected") != nil, "lane-2's link never came up")
        #expect(bridge.simulator.waitForHello(lane: "lane-2", timeout: .seconds(10)))
        #expect(try awaitLanesUp(command: bridge.command, ["lane-2"]))
        #expect(try Self.laneIds(bridge) == ["lane-1", "lane-2"])

        let sold = try bridge.call(Self.sale("added-1", lane: "lane-2"))
        #expect(sold?["outcome"]?.stringValue == "success", "\(String(describing: sold))")
        #expect(bridge.simulator.history(lane: "lane-2").count == 1)
        #expect(!bridge.child.errorOutput.contains("take effect at the next restart"))

        bridge.child.signal(SIGTERM)
        #expect(bridge.child.waitForExit(timeout: 30) == 0)
    }

    @Test("an idle lane removed by SIGHUP is closed at once; its next command is rejected as an unknown lane")
    func removeIdleLane() throws {
        let bridge = try RunningBridge(lanes: ["lane-1", "lane-2"])
        let events = try bridge.subscribe()

        try bridge.writeLanes([("lane-1", "lane-1")])
        bridge.child.signal(SIGHUP)
        #expect(
            bridge.child.waitForErrorLine(containingAll: [
                "lane removed by the reload: its link is closed", "lane=lane-2",
            ])
                != nil)
        #expect(try events.await("lane-2.lane.disconnected") != nil)
        #expect(try events.await("lane-2.lane.removed")?["endpoint"]?.stringValue == bridge.relays["lane-2"])
        #expect(try Self.laneIds(bridge) == ["lane-1"])

        let removed = try bridge.call(Self.sale("after-removal", lane: "lane-2"))
        let never = try bridge.call(Self.sale("never-there", lane: "lane-9"))
        #expect(Self.errorCode(removed) == "unknown_lane")
        #expect(Self.errorCode(never) == "unknown_lane")
        #expect(
            removed?["error"]?.objectValue?["message"]?.stringValue == "lane lane-2 is not configured; lanes: lane-1")
        #expect(bridge.simulator.openedURLCount(lane: "lane-2") == 0)
        #expect(try bridge.call(Self.sale("still-1", lane: "lane-1"))?["outcome"]?.stringValue == "success")

        bridge.child.signal(SIGTERM)
        #expect(bridge.child.waitForExit(timeout: 30) == 0)
    }

    @Test("a lane removed with a sale in flight keeps its link until the sale's result is replied and journaled")
    func removeLaneWithSaleInFlight() throws {
        let bridge = try RunningBridge(
            behaviour: LaneBehaviour(cardPresentment: .manual), lanes: ["lane-1", "lane-2"])
        let events = try bridge.subscribe()
        let inFlight = try ChildProcess(
            [
                "send", "sale", "--lane", "lane-2", "--amount", "12.00", "--id", "held-1", "--command-endpoint",
                bridge.command, "--json",
            ])
        #expect(bridge.simulator.waitForPhase(lane: "lane-2", .cardPresentment, timeout: .seconds(10)))

        try bridge.writeLanes([("lane-1", "lane-1")])
        bridge.child.signal(SIGHUP)
        #expect(
            bridge.child.waitForErrorLine(
                containingAll: [
                    "lane removed by the reload; it waits for what is in flight on it to end", "inFlight=held-1",
                    "lane=lane-2",
                ]) != nil)
        #expect(Self.errorCode(try bridge.call(Self.sale("too-late", lane: "lane-2"))) == "unknown_lane")
        let listed = try bridge.call(#"{"id":"l-1","action":"lanes"}"#)?["result"]?.objectValue?["lanes"]?.arrayValue
        let lane2 = listed?.compactMap(\.objectValue).first { $0["lane"]?.stringValue == "lane-2" }
        #expect(lane2?["removing"] == .bool(true))
        #expect(lane2?["inFlight"]?.objectValue?["id"]?.stringValue == "held-1")
        #expect(
            bridge.child.waitForErrorLine(
                containingAll: ["lane removed by the reload: its link is closed", "lane=lane-2"], timeout: 0) == nil)

        #expect(bridge.simulator.release(lane: "lane-2"))
        #expect(inFlight.waitForExit(timeout: 20) == 0, "the sale's reply was lost: \(inFlight.errorOutput)")
        #expect(inFlight.output.contains(#""outcome":"success""#))
        #expect(try events.await("lane-2.lane.removed") != nil)
        #expect(
            bridge.child.waitForErrorLine(containingAll: [
                "lane removed by the reload: its link is closed", "lane=lane-2",
            ])
                != nil)
        #expect(try Self.laneIds(bridge) == ["lane-1"])

        let status = try bridge.call(#"{"id":"s-1","action":"status","ref":"held-1"}"#)?["result"]?.objectValue
        #expect(status?["state"]?.stringValue == "final")
        #expect(status?["outcome"]?.stringValue == "success")
        #expect(status?["lane"]?.stringValue == "lane-2")

        bridge.child.signal(SIGTERM)
        #expect(bridge.child.waitForExit(timeout: 30) == 0)
    }

    @Test("a lane whose endpoint changes by SIGHUP links to its new relay and sells there; a timing change waits")
    func changeEndpoint() throws {
        let bridge = try RunningBridge(spareRelays: ["relay-b"])
        let events = try bridge.subscribe()

        try bridge.writeLanes([("lane-1", "relay-b")])
        try (String(contentsOf: bridge.config, encoding: .utf8) + "abortGraceMs: 1000\n").write(
            to: bridge.config, atomically: true, encoding: .utf8)
        bridge.child.signal(SIGHUP)
        #expect(
            bridge.child.waitForErrorLine(
                containingAll: ["SIGHUP: applying the lane changes now", "changes=lanes changed: lane-1"]) != nil)
        #expect(
            bridge.child.waitForErrorLine(
                containingAll: ["reloaded; some changes take effect at the next restart", "atRestart=abortGraceMs"])
                != nil)
        #expect(bridge.child.waitForErrorLine(containingAll: ["lane changed by the reload", "lane=lane-1"]) != nil)
        #expect(try events.await("lane-1.lane.disconnected")?["endpoint"]?.stringValue == bridge.relays["lane-1"])
        #expect(try events.await("lane-1.lane.changed")?["endpoint"]?.stringValue == bridge.relays["relay-b"])
        #expect(try events.await("lane-1.lane.connected")?["endpoint"]?.stringValue == bridge.relays["relay-b"])
        #expect(bridge.simulator.waitForHello(lane: "relay-b", timeout: .seconds(10)))

        let sold = try bridge.call(Self.sale("moved-1", lane: "lane-1"))
        #expect(sold?["outcome"]?.stringValue == "success", "\(String(describing: sold))")
        #expect(bridge.simulator.history(lane: "relay-b").count == 1)
        #expect(bridge.simulator.history(lane: "lane-1").isEmpty)
        #expect(try Self.laneIds(bridge) == ["lane-1"])

        bridge.child.signal(SIGTERM)
        #expect(bridge.child.waitForExit(timeout: 30) == 0)
    }
}
