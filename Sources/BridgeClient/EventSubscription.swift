import InterApp
import ZeroMQ

/// A client's SUB to the bridge's events socket: what dashboards and `watch` read.
public final class EventSubscription {
    /// The SUB, for a `Poller` that waits on it with other sockets.
    public let socket: Socket

    /// Subscribes to `prefixes` (every event when empty or `[""]`) at `endpoint`, as a CURVE client
    /// when `curve` is given. A subscription reaches the bridge some time after the connection: events
    /// published before that are not received.
    public init(context: Context, endpoint: String, curve: ClientCurve? = nil, prefixes: [String] = [""]) throws {
        socket = try Socket(context, .sub)
        try curve?.apply(to: socket)
        for prefix in prefixes.isEmpty ? [""] : prefixes { try socket.subscribe(prefix) }
        try socket.connect(endpoint)
    }

    /// Closes the socket.
    public func close() { socket.close() }

    /// The next event already received, without waiting; messages that are not an event are skipped.
    public func nextEvent() throws(ZMQError) -> BridgeEvent? {
        while let frames = try socket.receive(wait: false) {
            if let event = BridgeEvent(frames: frames) {
                ContractRecorder.event(topic: frames[0], body: frames[1])
                return event
            }
        }
        return nil
    }

    /// The next event and its raw body bytes (for printing them as they came), without waiting.
    public func nextRawEvent() throws(ZMQError) -> (topic: String, body: [UInt8])? {
        while let frames = try socket.receive(wait: false) {
            if frames.count == 2 {
                ContractRecorder.event(topic: frames[0], body: frames[1])
                return (String(decoding: frames[0], as: UTF8.self), frames[1])
            }
        }
        return nil
    }
}
