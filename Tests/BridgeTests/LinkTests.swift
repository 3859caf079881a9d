import Bridge
import InterApp
import TerminalSimulator
import Testing

@Suite("Terminal links: undeliverable when down, used again when back")
struct LinkTests {
    @Test("a lane whose relay is down gives undeliverable; a relay that comes back is used again")
    func relayDownAndBack() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios)
        ])
        harness.simulator.dropLink(lane: "lane-1")
        try harness.event("lane-1.lane.disconnected")
        let down = try harness.call(saleJSON(id: "down", lane: "lane-1", amount: 100))
        #expect(down.string("outcome") == "undeliverable")
        // Link up, link down and undeliverable each name the lane and its endpoint (OPERATIONS.md section 5).
        let endpoint = harness.configuration.lanes[0].endpoint
        for text in ["lane link up", "lane link down", "command ended undeliverable or unknown"] {
            let line = try #require(harness.logs.waitForLine(containing: text), "no line: \(text)")
            #expect(line.contains(#""lane": lane-1"#) && line.contains(#""endpoint": \#(endpoint)"#), "\(line)")
        }
        try harness.forgetEvents()
        harness.simulator.restoreLink(lane: "lane-1")
        try harness.event("lane-1.lane.connected")
        let back = try harness.call(saleJSON(id: "back", lane: "lane-1", amount: 100))
        #expect(back.string("outcome") == "success")
        #expect(harness.simulator.openedURLs(lane: "lane-1").count == 1)
    }

    @Test("a relay that cannot open the URL makes the command undeliverable")
    func notOpened() throws {
        var behaviour = LaneBehaviour()
        behaviour.fault = .notOpened(reason: "app missing")
        let harness = try BridgeHarness(
            lanes: [
                SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .android, behaviour: behaviour)
            ])
        let reply = try harness.call(saleJSON(id: "n", lane: "lane-1", amount: 100))
        #expect(reply.string("outcome") == "undeliverable")
        #expect(reply.string("message")?.contains("app missing") == true)
    }

    @Test("the lanes query shows each lane's link, platform and relay hello")
    func lanesQuery() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "i", endpoint: "tcp://127.0.0.1:*", platform: .ios),
            SimulatedLane(id: "a", endpoint: "tcp://127.0.0.1:*", platform: .android),
        ])
        // The relay's hello answer travels on the same link ahead of any callback: one round trip
        // on each lane makes sure the bridge has read it.
        for lane in ["i", "a"] {
            _ = try harness.call(#"{"id":"abort-\#(lane)","lane":"\#(lane)","action":"abort"}"#)
        }
        let reply = try harness.call(#"{"id":"q","action":"lanes"}"#)
        let list = reply.object("result")?["lanes"]?.arrayValue ?? []
        let lanes = list.compactMap { $0.objectValue }
        try #require(lanes.count == 2)
        #expect(lanes.map { $0.string("lane") } == ["i", "a"])
        #expect(lanes.allSatisfy { $0["connected"] == .bool(true) })
        #expect(lanes.map { $0.string("platform") } == ["ios", "android"])
        #expect(lanes.last?.object("relay")?.string("platform") == "android")
    }
}
