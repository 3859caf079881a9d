import Bridge
import InterApp
import ZeroMQ

/// A reader of a bridge's event tap, as `/events` reads it: its messages' events, and `lanes` snapshots.
struct TapReader {
    let socket: Socket
    let bridge: Bridge

    /// Attaches to `bridge`'s tap; a receive waits 200 ms for a message.
    init(_ bridge: Bridge) throws {
        self.bridge = bridge
        socket = try bridge.makeTapSubscriber()
        try socket.setReceiveTimeout(200)
    }

    func close() { socket.close() }

    /// Every event of `messages` (each a tap message's frames), in order; a body that is not a JSON object
    /// is left out.
    static func events(in messages: [[[UInt8]]]) -> [(topic: String, body: JSONObject)] {
        var out: [(topic: String, body: JSONObject)] = []
        for frame in messages.joined() {
            EventTap.forEachEvent(in: frame) { topic, body in
                if let object = try? JSONValue.parse(Array(body)).objectValue {
                    out.append((String(decoding: topic, as: UTF8.self), object))
                }
            }
        }
        return out
    }

    /// Asks for a `lanes` snapshot until one later than the event `seq` arrives (a request made before the
    /// tap's subscription took effect is lost; an earlier one answered twice is older) and returns its body.
    func snapshot(after seq: Int) throws -> JSONObject {
        for _ in 0..<25 {
            bridge.requestLanesSnapshot()
            while let frames = try socket.receive() {
                let events = Self.events(in: [frames])
                if events.count == 1, events[0].topic == EventTap.snapshotTopic, (events[0].body.int("seq") ?? 0) > seq
                {
                    return events[0].body
                }
            }
        }
        throw SnapshotMissing()
    }

    /// Its `today` counts.
    func today(after seq: Int) throws -> (counts: JSONObject, seq: Int) {
        let snapshot = try snapshot(after: seq)
        return (snapshot.object("today") ?? JSONObject(), snapshot.int("seq") ?? 0)
    }

    private struct SnapshotMissing: Error {}
}
