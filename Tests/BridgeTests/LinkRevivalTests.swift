import Bridge
import Foundation
import LoopbackPorts
import TerminalSimulator
import Testing

/// A lane's link never stays down for good because of a relay that stalls (issue 13's live lanes showed
/// a link made at run time that sometimes never came up): a handshake that is not completed is dropped
/// after 2 s, and a link that is still not up is made anew (3 s, then longer).
@Suite("Lane links that do not come up are made anew")
struct LinkRevivalTests {
    /// A bridge with a simulated lane-1 and a lane-2 whose relay endpoint is `endpoint`.
    private static func harness(lane2At endpoint: String) throws -> BridgeHarness {
        try BridgeHarness(lanes: [SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios)]) {
            $0.lanes.append(LaneConfiguration(id: "lane-2", endpoint: endpoint, platform: .ios))
        }
    }

    @Test("a relay that accepts the connection and never answers: the handshake is dropped within seconds")
    func stalledHandshake() throws {
        let silent = try LoopbackPort(listening: true)
        defer { silent.release() }
        let harness = try Self.harness(lane2At: silent.endpoint)
        // libzmq's own default would wait 30 s; the bridge's links give up after 2 s and connect anew.
        let dropped = harness.logs.waitForLine(containing: "connecting anew", timeout: 10)
        #expect(dropped?.contains("lane-2") == true, "\(harness.logs.text)")
    }

    @Test("an endpoint that answers with something that is not ZeroMQ is backed off, as a link that never comes up")
    func notZeroMQ() throws {
        let server = try NotZeroMQServer()
        defer { server.stop() }
        let harness = try Self.harness(lane2At: server.endpoint)
        let start = ContinuousClock.now
        let first = try #require(server.awaitAccept(after: start - .seconds(60), timeout: .seconds(10)))
        // Made anew 3 s after it was made, then 6 s after that (the revivals' schedule; ticks of 1 s). Without
        // backoff the link was made anew the moment each connection failed: 4,670 connections in 3 s.
        let second = try #require(
            server.awaitAccept(after: first + .milliseconds(1500), timeout: .seconds(10)),
            "the lane was not tried again")
        let third = try #require(
            server.awaitAccept(after: second + .milliseconds(1500), timeout: .seconds(15)),
            "the lane was not tried a third time")
        #expect(third - second > second - first, "the wait grows: \(second - first), then \(third - second)")
        // One connection an attempt; a stray reconnect of libzmq's own (100-200 ms after a failure) at most.
        let tries = server.acceptTimes.filter { $0 < third + .milliseconds(500) }.count
        #expect(tries <= 5, "\(tries) connections in \(third - first)")
        try harness.awaitFault(lane: "lane-2", "handshakeFailures", atLeast: 2)
        let logged = try #require(harness.logs.waitForLine(containing: "did not complete a ZeroMQ handshake"))
        #expect(logged.hasPrefix("notice") && logged.contains("lane-2") && logged.contains(#""retrySeconds": 3"#))
        #expect(harness.logs.text.contains("info lane link failed before it came up"), "later ones at info")
        #expect(try harness.call(saleJSON(id: "fine", lane: "lane-1", amount: 100)).string("outcome") == "success")
        #expect(
            try harness.call(saleJSON(id: "down", lane: "lane-2", amount: 100)).string("outcome") == "undeliverable")
    }

    @Test("a link that is still not up 3 s after it was made is made anew, quietly (info)")
    func stillDown() throws {
        let refused = try LoopbackPort(listening: false)
        defer { refused.release() }
        let harness = try Self.harness(lane2At: refused.endpoint)
        let revived = harness.logs.waitForLine(containing: "lane link still not up; making it anew", timeout: 10)
        #expect(revived?.contains("lane-2") == true, "\(harness.logs.text)")
        #expect(revived?.hasPrefix("info") == true)
        #expect(
            try harness.call(saleJSON(id: "down", lane: "lane-2", amount: 100)).string("outcome") == "undeliverable")
    }
}
