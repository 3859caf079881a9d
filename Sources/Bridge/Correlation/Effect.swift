import InterApp

/// Something the correlator decided and the loop carries out: journal writes first, in one commit,
/// then the network effects in order.
enum Effect {
    /// A journal write.
    case journal(JournalEntry)
    /// A message for a lane's relay; `recordId` names the command whose URL this is, if any.
    case send(lane: String, message: RelayMessage, recordId: String?)
    /// A reply to a command's sender, serialized.
    case reply(ReplyTarget, [UInt8])
    /// A snapshot's reply (`lanes`): the loop writes the event stream's position into its result as it
    /// sends it, `epoch` and the `seq` of the last event published before it, so that a subscriber can
    /// join the snapshot with the stream exactly.
    case snapshotReply(ReplyTarget, Reply)
    /// An event; the loop stamps `seq`, `epoch` and `time` when it publishes.
    case publish(topic: Topic, body: EventBody)
    /// A reload added a lane, or its new settings apply: the loop makes its link and polls it.
    case openLink(LaneConfiguration)
    /// A lane a reload removed or changed is idle: the loop reads what its link still holds, closes it,
    /// stops polling it, then tells the correlator (``Correlator/linkClosed(_:)``).
    case closeLink(lane: String)
}

/// An event's body before the loop stamps it: built by the correlator, already serialized (a `result`
/// event reuses its reply's bytes), or a progress event's fields, made into JSON only when somebody
/// subscribed (three a sale, most often with nobody listening).
enum EventBody {
    case object(JSONObject)
    case serialized([UInt8])
    case progress(ProgressBody)

    /// The `id` the body is about, if it names one.
    var id: String? {
        switch self {
        case .object(let object): object["id"]?.stringValue
        case .serialized(let bytes): Self.id(ofSerialized: bytes)
        case .progress(let progress): progress.id
        }
    }

    /// The `id` member of a serialized object (a reply, an event body), if it has one.
    static func id(ofSerialized bytes: [UInt8]) -> String? {
        (try? JSONValue.parse(bytes))?.objectValue?["id"]?.stringValue
    }

    /// The body serialized: `{"id", "lane", "action", "client"?}` for a progress event.
    func serialized() -> [UInt8] {
        switch self {
        case .object(let object): JSONValue.object(object).serialized()
        case .serialized(let bytes): bytes
        case .progress(let progress): JSONValue.object(progress.object).serialized()
        }
    }
}

/// A progress event's fields (`accepted`, `forwarded`, `delivered`).
struct ProgressBody {
    let id: String
    let lane: String
    let action: String
    let client: String?

    var object: JSONObject {
        var body = JSONObject()
        body["id"] = .string(id)
        body["lane"] = .string(lane)
        body["action"] = .string(action)
        if let client { body["client"] = .string(client) }
        return body
    }
}

extension Correlator {
    /// Serializes `reply` for `target`.
    func emitReply(_ target: ReplyTarget, _ reply: JSONObject) {
        emit(.reply(target, JSONValue.object(reply).serialized()))
    }

    /// Publishes an event whose body is `body`.
    func emitEvent(_ topic: Topic, _ body: JSONObject) {
        emit(.publish(topic: topic, body: .object(body)))
    }
}
