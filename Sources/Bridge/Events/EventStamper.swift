import InterApp

/// Gives every event its `seq` (one more than the previous), the bridge's `epoch` and its `time`.
struct EventStamper {
    let epoch: Int
    private(set) var seq: Int = 0

    init(epoch: Int) { self.epoch = epoch }

    /// The two frames of the next event: its topic and its JSON body.
    mutating func frames(topic: String, body: JSONObject, nowMs: Int64) -> [[UInt8]] {
        seq += 1
        var stamped = JSONObject()
        stamped["seq"] = .number(JSONNumber(seq))
        stamped["epoch"] = .number(JSONNumber(epoch))
        stamped["time"] = .string(Timestamp.iso8601(ms: nowMs))
        for (key, value) in body.pairs { stamped[key] = value }
        return [Array(topic.utf8), JSONValue.object(stamped).serialized()]
    }
}
