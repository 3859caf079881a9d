import InterApp

/// One event as a subscriber receives it from the events socket: its topic and its JSON body.
public struct BridgeEvent: Equatable, Sendable {
    /// The topic frame, e.g. `lane-1.sale.result`.
    public var topic: String
    /// The JSON body frame.
    public var body: JSONObject

    /// Creates an event from its parts.
    public init(topic: String, body: JSONObject) {
        self.topic = topic
        self.body = body
    }

    /// Reads an event from the two frames the bridge publishes (topic, JSON body); nil for anything else.
    public init?(frames: [[UInt8]]) {
        guard frames.count == 2, let body = try? JSONValue.parse(frames[1]).objectValue else { return nil }
        self.init(topic: String(decoding: frames[0], as: UTF8.self), body: body)
    }

    /// The topic, parsed; nil when it is not one the contract names.
    public var parsedTopic: Topic? { Topic(parsing: topic) }
}
