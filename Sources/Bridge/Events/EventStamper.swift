import InterApp

/// Gives every event its `seq` (one more than the previous), the bridge's `epoch` and its `time`.
struct EventStamper {
    let epoch: Int
    private(set) var seq: Int = 0

    init(epoch: Int) { self.epoch = epoch }

    /// The two frames of the next event: its topic and its JSON body, the stamp written first.
    mutating func frames(topic: String, body: EventBody, nowMs: Int64) -> [[UInt8]] {
        seq += 1
        let serialized = body.serialized()
        var out = [UInt8]()
        out.reserveCapacity(serialized.count + 64)
        out.append(contentsOf: #"{"seq":"#.utf8)
        out.append(contentsOf: String(seq).utf8)
        out.append(contentsOf: #","epoch":"#.utf8)
        out.append(contentsOf: String(epoch).utf8)
        out.append(contentsOf: #","time":""#.utf8)
        Timestamp.appendISO8601(ms: nowMs, to: &out)
        out.append(UInt8(ascii: "\""))
        // The body is a serialized object: splice its members in after the stamp.
        if serialized.count > 2 {
            out.append(UInt8(ascii: ","))
            out.append(contentsOf: serialized[1...])
        } else {
            out.append(UInt8(ascii: "}"))
        }
        return [Array(topic.utf8), out]
    }

    /// Counts an event nobody subscribes to: its `seq` is used, nothing is built or sent.
    mutating func skip() { seq += 1 }
}
