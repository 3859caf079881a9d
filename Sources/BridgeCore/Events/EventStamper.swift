import InterApp

/// Gives every event its `seq` (one more than the previous), the bridge's `epoch` and its `time`.
package struct EventStamper {
    package let epoch: Int
    package private(set) var seq: Int = 0
    /// The millisecond of the last `time` written, and its text: under load dozens of events share one.
    private var timeMs: Int64?
    private var timeText: [UInt8] = []

    package init(epoch: Int) { self.epoch = epoch }

    /// The JSON body of the next event: the stamp (`seq`, `epoch`, `time`) first, then the body's members.
    package mutating func stamped(_ body: EventBody, nowMs: Int64) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(body.sizeHint + 64)
        stamp(body, nowMs: nowMs, into: &out)
        return out
    }

    /// Appends the JSON body of the next event to `out` (see ``stamped(_:nowMs:)``).
    package mutating func stamp(_ body: EventBody, nowMs: Int64, into out: inout [UInt8]) {
        seq += 1
        out.append(contentsOf: #"{"seq":"#.utf8)
        out.append(contentsOf: String(seq).utf8)
        out.append(contentsOf: #","epoch":"#.utf8)
        out.append(contentsOf: String(epoch).utf8)
        out.append(contentsOf: #","time":""#.utf8)
        if timeMs != nowMs {
            timeText.removeAll(keepingCapacity: true)
            Timestamp.appendISO8601(ms: nowMs, to: &timeText)
            timeMs = nowMs
        }
        out.append(contentsOf: timeText)
        out.append(UInt8(ascii: "\""))
        body.appendMembers(to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// Counts an event nobody subscribes to: its `seq` is used, nothing is built or sent.
    package mutating func skip() { seq += 1 }
}
