/// The JSON of the bridge's `["hello", json]` on the terminal link (PROTOCOL.md §5):
/// `{"bridge": version, "lane": id, "epoch": N}`. The bridge builds it and relays read it through this type.
public struct BridgeHello: Sendable, Equatable {
    /// The bridge's version, `MAJOR.MINOR.PATCH`.
    public var bridge: String
    /// The lane this link serves.
    public var lane: String
    /// The bridge's epoch: larger at every start, and at every takeover of a shared journal. A relay that has
    /// seen a higher one ignores every frame of this link. 0 when the hello carried none (a v1.1 bridge).
    public var epoch: Int

    /// A hello to send.
    public init(bridge: String, lane: String, epoch: Int) {
        self.bridge = bridge
        self.lane = lane
        self.epoch = epoch
    }

    /// Reads a hello's JSON. A member missing or of another type reads as empty (`bridge`, `lane`) or 0
    /// (`epoch`, also when negative or not an integer), so that any bridge's hello is taken; nil when the body
    /// is not a JSON object.
    public init?(body: [UInt8]) {
        guard case .object(let object)? = try? JSONValue.parse(body) else { return nil }
        bridge = object["bridge"]?.stringValue ?? ""
        lane = object["lane"]?.stringValue ?? ""
        epoch = max(0, object["epoch"]?.intValue ?? 0)
    }

    /// The hello as the second frame of `["hello", json]`.
    public var body: [UInt8] {
        let object: JSONObject = [
            "bridge": .string(bridge), "lane": .string(lane), "epoch": .number(JSONNumber(epoch)),
        ]
        return JSONValue.object(object).serialized()
    }

    /// The epoch a hello's body carries: 0 without one, or when the body is not a hello at all.
    public static func epoch(of body: [UInt8]) -> Int { BridgeHello(body: body)?.epoch ?? 0 }
}
