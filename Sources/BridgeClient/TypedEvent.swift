import InterApp

/// An event as schema/event.schema.json gives it, typed: its stamp and what happened, chosen by its topic
/// (``Topic``), so that a subscriber switches on a case instead of reading string keys.
public struct TypedEvent: Sendable, Equatable {
    /// One more than the bridge's previous event.
    public var seq: Int
    /// Changes at each start of the bridge.
    public var epoch: Int
    /// When it was published (RFC 3339, UTC).
    public var time: String
    /// The topic as received.
    public var topic: String
    /// What happened.
    public var kind: Kind

    /// The stamp every event has, read alone: what a subscriber still follows (`seq` and `epoch`) of an event
    /// whose other members break the contract.
    public struct Stamp: Sendable, Equatable {
        public var seq: Int
        public var epoch: Int
        public var time: String

        /// Reads `seq`, `epoch` and `time` of an event body.
        public init(_ body: JSONObject) throws(ContractDecodingError) {
            let read = Members(body, path: "")
            seq = try read.integer("seq")
            epoch = try read.integer("epoch")
            time = try read.string("time")
        }
    }

    /// What an event says, by kind of topic.
    public enum Kind: Sendable, Equatable {
        /// `<lane>.<action>.accepted|forwarded|delivered`.
        case progress(Topic.CommandEvent, id: String, lane: String, action: String, client: String?)
        /// `<lane>.<action>.result|unknown|late_result|resolved`: the command's reply.
        case end(Topic.CommandEvent, TypedReply)
        /// `<lane>.<action>.mismatch`.
        case mismatch(id: String, lane: String, action: String, TypedReply.AmountMismatch)
        /// `<lane>.<action>.orphan`: a callback that matched nothing (`raw` and `problem` when it could not be
        /// parsed; `status`, `message` and `result` otherwise).
        case orphan(
            lane: String, action: String, status: String?, message: String?, result: JSONObject?, problem: String?)
        /// `<lane>.lane.connected|disconnected`.
        case link(lane: String, up: Bool, endpoint: String)
        /// `<lane>.lane.returned`.
        case returned(lane: String, inFlight: String?)
        /// `<lane>.lane.added|changed|removed` (`platform` and `transport`, `relay` or `cloud`, nil on
        /// `removed`).
        case reload(Topic.LaneEvent, lane: String, endpoint: String, platform: Platform?, transport: String?)
        /// `<lane>.batch.opened|closed` (`reason` on `closed`).
        case batch(Topic.BatchEvent, lane: String, name: String?, id: String?, reason: String?, automatic: Bool)
        /// `bridge.heartbeat.beat`.
        case heartbeat(inFlight: Int, lanesUp: Int)
        /// `bridge.journal.unavailable|available`.
        case journal(available: Bool, path: String, reason: String?)
        /// (v1.2) `bridge.role.active`: the bridge `instance` took the lease and serves (``TypedEvent/epoch`` is
        /// the lease's).
        case roleActive(instance: String)
        /// A topic this version of the client does not know (a later bridge's): the body as it came.
        case other(JSONObject)
    }

    /// The command's id, on a command's events (progress, end, mismatch); nil on the others.
    public var commandId: String? {
        switch kind {
        case .progress(_, let id, _, _, _), .mismatch(let id, _, _, _): id
        case .end(_, let reply): reply.id
        default: nil
        }
    }

    /// Reads an event from its topic and body.
    public init(topic: String, body: JSONObject) throws(ContractDecodingError) {
        let read = Members(body, path: "")
        let stamp = try Stamp(body)
        seq = stamp.seq
        epoch = stamp.epoch
        time = stamp.time
        self.topic = topic
        kind = try Self.kind(topic: topic, body: body, read)
    }

    private static func kind(topic text: String, body: JSONObject, _ read: Members) throws(ContractDecodingError)
        -> Kind
    {
        guard let topic = Topic(parsing: text) else { return .other(body) }
        if topic.isHeartbeat {
            return .heartbeat(inFlight: try read.integer("inFlight"), lanesUp: try read.integer("lanesUp"))
        }
        if topic == Topic.roleActive { return .roleActive(instance: try read.string("instance")) }
        if topic.lane == Topic.bridgeLane && topic.subject == Topic.journalSubject {
            guard let event = Topic.JournalEvent(rawValue: topic.event) else { return .other(body) }
            return .journal(
                available: event == .available, path: try read.string("journal"),
                reason: try read.optionalString("reason"))
        }
        if let event = topic.laneEvent {
            let lane = try read.string("lane")
            switch event {
            case .connected, .disconnected:
                return .link(lane: lane, up: event == .connected, endpoint: try read.string("endpoint"))
            case .returned:
                return .returned(lane: lane, inFlight: try read.optionalString("inFlight"))
            case .added, .changed, .removed:
                return .reload(
                    event, lane: lane, endpoint: try read.string("endpoint"),
                    platform: try read.optionalEnumeration("platform", Platform.self),
                    transport: try read.optionalString("transport"))
            }
        }
        if let event = topic.batchEvent {
            return .batch(
                event, lane: try read.string("lane"), name: try read.optionalString("batchName"),
                id: try read.optionalString("batchId"), reason: try read.optionalString("reason"),
                automatic: body["automatic"]?.boolValue == true)
        }
        guard let event = topic.commandEvent else { return .other(body) }
        switch event {
        case .accepted, .forwarded, .delivered:
            return .progress(
                event, id: try read.string("id"), lane: try read.string("lane"), action: try read.string("action"),
                client: try read.optionalString("client"))
        case .result, .unknown, .lateResult, .resolved:
            return .end(event, try TypedReply(body))
        case .mismatch:
            guard let mismatch = try read.optionalObject("amountMismatch") else {
                throw ContractDecodingError("amountMismatch", "an object (required)")
            }
            let inner = Members(mismatch, path: "amountMismatch.")
            return .mismatch(
                id: try read.string("id"), lane: try read.string("lane"), action: try read.string("action"),
                TypedReply.AmountMismatch(
                    requested: try inner.optionalInteger("requested"), approved: try inner.optionalInteger("approved"),
                    requestedTip: try inner.optionalInteger("requestedTip"),
                    approvedTip: try inner.optionalInteger("approvedTip")))
        case .disagreement:
            return .other(body)
        case .orphan:
            return .orphan(
                lane: try read.string("lane"), action: try read.string("action"),
                status: try read.optionalString("status"),
                message: try read.optionalString("message"), result: try read.optionalObject("result"),
                problem: try read.optionalString("problem"))
        }
    }
}

extension BridgeEvent {
    /// The event, typed (schema/event.schema.json).
    public func typed() throws(ContractDecodingError) -> TypedEvent {
        try TypedEvent(topic: topic, body: body)
    }
}

extension CommandConnection.Reply {
    /// The reply, typed (schema/reply.schema.json).
    public func typed() throws(ContractDecodingError) -> TypedReply {
        try TypedReply(object)
    }
}
