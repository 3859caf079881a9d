import Bridge
import InterApp
import TerminalSimulator
import Testing

@Suite("Rejections reach the caller with the contract's code, and the bridge keeps running")
struct RejectionTests {
    static let cases: [(String, String)] = [
        ("{not json", "invalid_json"),
        (#"{"id":"r1","action":"sale","lane":"lane-1"}"#, "missing_field"),
        (#"{"id":"r2","action":"sale","lane":"lane-1","amount":100,"tipAmmount":5}"#, "unknown_field"),
        (#"{"id":"r3","action":"sale","lane":"lane-1","amount":"100"}"#, "invalid_value"),
        (#"{"id":"r4","action":"sale","lane":"lane-1","amount":100,"merchantKey":"x"}"#, "reserved_field"),
        (#"{"id":"r5","action":"refund","lane":"lane-1"}"#, "unknown_action"),
        (#"{"id":"r6","action":"sale","lane":"nowhere","amount":100}"#, "unknown_lane"),
    ]

    @Test("each bad command is rejected with its code", arguments: cases)
    func rejected(command: String, code: String) throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios)
        ])
        try harness.send(command)
        let reply = try harness.nextReply()
        #expect(reply.string("outcome") == "rejected")
        #expect(reply.object("error")?.string("code") == code)
        #expect(reply.object("error")?.string("message")?.isEmpty == false)
        #expect(harness.simulator.openedURLs(lane: "lane-1").isEmpty)
        let ping = try harness.call(#"{"id":"after","action":"ping"}"#)
        #expect(ping.string("outcome") == "success")
    }

    @Test("a command over the size limit is too_large")
    func tooLarge() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios)
        ]) {
            $0.maxCommandBytes = 1024
        }
        let padding = String(repeating: "x", count: 1100)
        try harness.send(
            #"{"id":"big","action":"sale","lane":"lane-1","amount":1,"clientTransactionId":"\#(padding)"}"#)
        let reply = try harness.nextReply()
        #expect(reply.object("error")?.string("code") == "too_large")
    }

    @Test("a second transaction on a busy lane is lane_busy; abort is still allowed")
    func laneBusy() throws {
        var behaviour = LaneBehaviour()
        behaviour.cardPresentment = .manual
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)
        ])
        try harness.send(saleJSON(id: "first", lane: "lane-1", amount: 100))
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .cardPresentment, timeout: .seconds(5)))
        let busy = try harness.call(saleJSON(id: "second", lane: "lane-1", amount: 100))
        #expect(busy.object("error")?.string("code") == "lane_busy")
        harness.simulator.release(lane: "lane-1")
        #expect(try harness.reply(to: "first").string("outcome") == "success")
        try harness.send(saleJSON(id: "third", lane: "lane-1", amount: 100))
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .cardPresentment, timeout: .seconds(5)))
        harness.simulator.release(lane: "lane-1")
        #expect(try harness.reply(to: "third").string("outcome") == "success")
    }

    @Test("transactionDetails on an iOS lane is unsupported_on_platform (v1.1), names android, never reaches it")
    func detailsOnIOS() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios),
            SimulatedLane(id: "lane-2", endpoint: "tcp://127.0.0.1:*", platform: .android),
        ])
        let command = #"{"id":"t","lane":"lane-1","action":"transactionDetails","clientTransactionId":"x"}"#
        let reply = try harness.call(command)
        #expect(reply.string("outcome") == "rejected")
        #expect(reply.string("action") == "transactionDetails")
        #expect(reply.object("error")?.string("code") == "unsupported_on_platform")
        #expect(reply.object("error")?.string("message")?.contains("android") == true)
        #expect(reply.object("error")?["platforms"] == .array([.string("android")]))
        #expect(harness.simulator.openedURLs(lane: "lane-1").isEmpty)
        // Not journaled: the same id is validated again, and the same command on the Android lane goes through.
        let status = try harness.call(#"{"id":"s","action":"status","ref":"t"}"#)
        #expect(status.object("result")?.string("state") == "not_found")
        let android = try harness.call(
            #"{"id":"t","lane":"lane-2","action":"transactionDetails","clientTransactionId":"x"}"#)
        #expect(android.string("outcome") == "failure")
        #expect(harness.simulator.openedURLs(lane: "lane-2").count == 1)
    }

    @Test("binary garbage and an empty frame are answered, not fatal")
    func garbage() throws {
        let harness = try BridgeHarness(lanes: [
            SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios)
        ])
        try harness.sendRaw([0xff, 0xfe, 0x00, 0x01])
        #expect(try harness.nextReply().object("error")?.string("code") == "invalid_json")
        try harness.sendRaw([])
        #expect(try harness.nextReply().object("error")?.string("code") == "invalid_json")
        #expect(try harness.call(#"{"id":"p","action":"ping"}"#).string("outcome") == "success")
    }
}

@Suite("Bounded: aborts per lane")
struct AbortBoundTests {
    @Test("at most 8 aborts wait on a lane; the 9th is lane_busy; all complete when the sale does")
    func abortBound() throws {
        var behaviour = LaneBehaviour()
        behaviour.host = .manual
        let harness = try BridgeHarness(
            lanes: [SimulatedLane(id: "lane-1", endpoint: "tcp://127.0.0.1:*", platform: .ios, behaviour: behaviour)])
        try harness.send(saleJSON(id: "sale", lane: "lane-1", amount: 100))
        #expect(harness.simulator.waitForPhase(lane: "lane-1", .host, timeout: .seconds(5)))
        for index in 1...8 { try harness.send(#"{"id":"abort-\#(index)","lane":"lane-1","action":"abort"}"#) }
        let ninth = try harness.call(#"{"id":"abort-9","lane":"lane-1","action":"abort"}"#)
        #expect(ninth.object("error")?.string("code") == "lane_busy")
        harness.simulator.release(lane: "lane-1")
        #expect(try harness.reply(to: "sale").string("outcome") == "success")
        for index in 1...8 {
            let abort = try harness.reply(to: "abort-\(index)")
            #expect(abort.string("outcome") == "superseded")
            #expect(abort.string("ref") == "sale")
        }
    }
}
