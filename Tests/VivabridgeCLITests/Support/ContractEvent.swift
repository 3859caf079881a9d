import BridgeClient
import InterApp

/// An event as the bridge publishes it, complete under schema/event.schema.json: the stamp (`seq`, `epoch`,
/// `time`), then every member the kind its topic names requires, filled from the topic (`lane`, `action`,
/// `late` on a `late_result`) or with a value of the schema's examples, then `fields`, which replace them.
///
/// With `VIVABRIDGE_CONTRACT_RECORD` set (CI), each event built is recorded like one received, so
/// `scripts/check-contract --record` proves the fixtures stay valid as the contract changes.
func watchEvent(
    _ topic: String, seq: Int, epoch: Int = 1, time: String = "2024-05-01T10:42:03.120+00:00",
    _ fields: [(String, JSONValue)] = []
) -> BridgeEvent {
    var body: JSONObject = [
        "seq": .number(JSONNumber(seq)), "epoch": .number(JSONNumber(epoch)), "time": .string(time),
    ]
    for (key, value) in requiredMembers(topic) { body[key] = value }
    for (key, value) in fields { body[key] = value }
    if ContractRecorder.isRecording {
        var bytes: [UInt8] = []
        JSONValue.object(body).write(into: &bytes)
        ContractRecorder.event(topic: Array(topic.utf8), body: bytes)
    }
    return BridgeEvent(topic: topic, body: body)
}

/// The members after the stamp that the kind of event `topic` names requires, with example values.
private func requiredMembers(_ text: String) -> [(String, JSONValue)] {
    guard let topic = Topic(parsing: text) else { return [] }
    if topic.isHeartbeat { return [("inFlight", 0), ("lanesUp", 1)] }
    let lane: (String, JSONValue) = ("lane", .string(topic.lane))
    let endpoint: (String, JSONValue) = ("endpoint", "tcp://127.0.0.1:6001")
    if let event = topic.laneEvent {
        switch event {
        case .connected, .disconnected, .removed: return [lane, endpoint]
        case .added, .changed: return [lane, endpoint, ("platform", "ios"), ("transport", "relay")]
        case .returned: return [lane, ("inFlight", nil)]
        }
    }
    if let event = topic.batchEvent {
        let batch: [(String, JSONValue)] = [lane, ("batchName", nil), ("batchId", nil)]
        return event == .closed ? batch + [("reason", "command")] : batch
    }
    guard let event = topic.commandEvent else { return [] }
    let command: [(String, JSONValue)] = [("id", "pos7-000123"), lane, ("action", .string(topic.subject))]
    switch event {
    case .accepted, .forwarded, .delivered:
        return command
    case .result, .lateResult, .resolved:
        return command + [("outcome", "success"), ("late", .bool(event == .lateResult))]
    case .unknown:
        return command + [
            ("outcome", "unknown"), ("message", "no callback before the deadline"), ("late", false),
        ]
    case .mismatch:
        return command + [("amountMismatch", ["requested": 1200, "approved": 1000])]
    case .disagreement:
        return command + [
            ("source", "viva"), ("message", "Viva's record shows another amount"),
            ("bridge", ["outcome": "unknown", "amount": 1200]),
            ("viva", ["found": true, "transactionId": "t-1", "statusId": "F", "amount": 1000]),
        ]
    case .orphan:
        return [
            lane, ("action", .string(topic.subject)), ("status", "1"), ("message", "Transaction successful."),
            ("result", ["amount": 1200]),
        ]
    }
}
