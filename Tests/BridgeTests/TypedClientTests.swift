import Bridge
import BridgeClient
import InterApp
import TerminalSimulator
import Testing

/// BridgeClient's typed replies and events (TypedReply, TypedEvent), read from a real bridge over tcp loopback:
/// what a Swift client switches on instead of string keys.
@Suite("BridgeClient: typed replies and events")
struct TypedClientTests {
    @Test("a sale, a decline, a rejection and the queries read as typed replies")
    func replies() throws {
        let harness = try BridgeHarness.lanes(.ios, .android)
        let sale = try TypedReply(try harness.call(saleJSON(id: "t-1", lane: "lane-1", amount: 1200)))
        #expect(sale.outcome == .success && sale.id == "t-1" && sale.lane == "lane-1" && !sale.late)
        #expect(sale.result?["amount"] == .number(JSONNumber(1200)))
        let declined = try TypedReply(try harness.call(saleJSON(id: "t-2", lane: "lane-2", amount: 1251)))
        #expect(declined.outcome == .failure)
        #expect(declined.reason == .declined)
        let refused = try TypedReply(
            try harness.call(#"{"id":"t-3","lane":"lane-1","action":"transactionDetails","clientTransactionId":"x"}"#))
        #expect(refused.outcome == .rejected)
        #expect(refused.error?.knownCode == .unsupportedOnPlatform)
        #expect(refused.error?.platforms == [.android])
        let ping = try #require(try TypedReply(try harness.call(#"{"id":"q-1","action":"ping"}"#)).ping())
        #expect(ping.lanes == 2)
        let lanes = try #require(try TypedReply(try harness.call(#"{"id":"q-2","action":"lanes"}"#)).lanes())
        #expect(lanes.lanes.map(\.lane) == ["lane-1", "lane-2"])
        #expect(lanes.lanes.map(\.platform) == [.ios, .android])
        #expect(lanes.lanes.first?.lastOutcome == .success)
        #expect(lanes.epoch != nil && lanes.seq != nil)
        let status = try #require(
            try TypedReply(try harness.call(#"{"id":"q-3","action":"status","ref":"t-1"}"#)).status())
        #expect(status.state == "final" && status.outcome == .success)
        #expect(status.reply?.id == "t-1")
        #expect(
            try TypedReply(try harness.call(#"{"id":"q-4","action":"status","ref":"nobody"}"#)).status()?.state
                == "not_found")
    }

    @Test("a sale's events read as typed progress and end, in order, and a wrong member is named")
    func events() throws {
        let harness = try BridgeHarness.lanes(.ios)
        _ = try harness.call(saleJSON(id: "t-5", lane: "lane-1", amount: 700))
        try harness.event("lane-1.sale.result") { $0.string("id") == "t-5" }
        let typed = try harness.events.filter { $0.body.string("id") == "t-5" }.map {
            try TypedEvent(topic: $0.topic, body: $0.body)
        }
        let kinds: [String] = typed.map {
            switch $0.kind {
            case .progress(let event, let id, _, _, _): "\(event.rawValue) \(id)"
            case .end(let event, let reply): "\(event.rawValue) \(reply.outcome.rawValue)"
            default: "other"
            }
        }
        #expect(kinds == ["accepted t-5", "forwarded t-5", "delivered t-5", "result success"])
        #expect(zip(typed, typed.dropFirst()).allSatisfy { $0.seq < $1.seq })
        var body = try #require(harness.events.first { $0.topic == "lane-1.sale.result" }?.body)
        body["seq"] = .string("7")
        #expect(throws: ContractDecodingError("seq", "an integer")) {
            try TypedEvent(topic: "lane-1.sale.result", body: body)
        }
        #expect(
            try TypedEvent(
                topic: "lane-1.lane.connected",
                body: ["seq": 1, "epoch": 1, "time": "t", "lane": "lane-1", "endpoint": "e"]
            ).kind
                == .link(lane: "lane-1", up: true, endpoint: "e"))
    }

    @Test("the role event reads as roleActive with its instance; one without instance is refused, naming it")
    func roleEvent() throws {
        let topic = Topic.roleActive.description
        #expect(topic == "bridge.role.active")
        let body: JSONObject = ["seq": 1, "epoch": 4, "time": "2025-05-01T09:30:11.001+00:00", "instance": "till-b"]
        let event = try TypedEvent(topic: topic, body: body)
        #expect(event.kind == .roleActive(instance: "till-b"))
        #expect(event.epoch == 4)
        var without = body
        without["instance"] = nil
        #expect(throws: ContractDecodingError("instance", "a string (required)")) {
            try TypedEvent(topic: topic, body: without)
        }
        without["instance"] = 7
        #expect(throws: ContractDecodingError("instance", "a string")) { try TypedEvent(topic: topic, body: without) }
    }

    @Test("the members send, watch and the demo read: the callback result, lastCallbackAt, status' client, resolve")
    func answers() throws {
        let sale = try TypedReply(
            try #require(
                try JSONValue.parse(
                    Array(
                        #"{"id":"s","lane":"l","action":"sale","outcome":"success","result":{"amount":1200,"tipAmount":"1.5","cardType":"VISA","accountNumber":"479275******9999","verificationMethod":"CHIP-PIN","rrn":"1","orderCode":"2","batchName":"b"},"late":false}"#
                            .utf8)
                ).objectValue))
        let result = try #require(sale.callbackResult())
        #expect(result.amount == 1200 && result.tipAmount == nil && result.fields["tipAmount"] == "1.5")
        #expect(
            [result.cardType, result.accountNumber, result.verificationMethod, result.rrn, result.orderCode]
                == ["VISA", "479275******9999", "CHIP-PIN", "1", "2"])
        #expect(result.batchName == "b")
        let lanes = try #require(
            try TypedReply([
                "id": "q", "action": "lanes", "outcome": "success", "late": false,
                "result": [
                    "lanes": [
                        [
                            "lane": "l", "connected": true, "platform": "ios",
                            "lastCallbackAt": "2025-05-01T09:30:11.001+00:00",
                        ]
                    ]
                ],
            ]).lanes())
        #expect(lanes.lanes.first?.lastCallbackAt == "2025-05-01T09:30:11.001+00:00")
        let status = try #require(
            try TypedReply([
                "id": "q", "action": "status", "outcome": "success", "late": false,
                "result": ["ref": "s", "state": "final", "client": "till-1"],
            ]).status())
        #expect(status.client == "till-1")
        let stored: JSONObject = [
            "id": "s", "lane": "l", "action": "sale", "outcome": "failure", "reason": "other", "late": false,
            "earlier": ["outcome": "unknown"], "resolved": ["by": "ops", "at": "2025-05-01T09:30:11.001+00:00"],
        ]
        let resolve = try #require(
            try TypedReply([
                "id": "r", "action": "resolve", "outcome": "success", "late": false,
                "result": ["ref": "s", "outcome": "failure", "reply": .object(stored)],
            ]).resolve())
        #expect(resolve.ref == "s" && resolve.outcome == .failure)
        #expect(resolve.reply.earlier?.outcome == .unknown && resolve.reply.resolved?.by == "ops")
        #expect(throws: ContractDecodingError("result.reply", "an object (required)")) {
            try TypedReply([
                "id": "r", "action": "resolve", "outcome": "success", "late": false,
                "result": ["ref": "s", "outcome": "failure"],
            ]).resolve()
        }
        let progress = try TypedEvent(
            topic: "l.sale.accepted",
            body: ["seq": 1, "epoch": 1, "time": "t", "id": "s", "lane": "l", "action": "sale"])
        #expect(progress.commandId == "s")
        let beat = try TypedEvent(
            topic: "bridge.heartbeat.beat", body: ["seq": 2, "epoch": 1, "time": "t", "inFlight": 0, "lanesUp": 1])
        #expect(beat.commandId == nil)
    }

    @Test("a batch command's own events are command events; the batch's opened and closed are batch events")
    func batchCommandEvents() throws {
        let stamp: JSONObject = ["seq": 1, "epoch": 1, "time": "t", "lane": "l"]
        var result = stamp
        for (key, value) in [("id", "b-1"), ("action", "batch"), ("outcome", "success")] as [(String, JSONValue)] {
            result[key] = value
        }
        result["late"] = false
        let end = try TypedEvent(topic: "l.batch.result", body: result)
        #expect(end.commandId == "b-1")
        guard case .end(.result, let reply) = end.kind else {
            Issue.record("l.batch.result read as \(end.kind)")
            return
        }
        #expect(reply.outcome == .success)
        var progress = stamp
        progress["id"] = "b-1"
        progress["action"] = "batch"
        #expect(
            try TypedEvent(topic: "l.batch.accepted", body: progress).kind
                == .progress(.accepted, id: "b-1", lane: "l", action: "batch", client: nil))
        var opened = stamp
        opened["batchName"] = "morning"
        #expect(
            try TypedEvent(topic: "l.batch.opened", body: opened).kind
                == .batch(.opened, lane: "l", name: "morning", id: nil, reason: nil, automatic: false))
    }
}
