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
    /// An outcome recorded (or moved by a late result or a resolve): the loop counts it in today's outcomes
    /// once its turn is committed, with the event that tells it.
    case countOutcome(TodayOutcomes.Change)
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

    /// Appends the body's members to a JSON object being written, each after a comma (`,"id":"…"`),
    /// in their order; a progress event's are `id`, `lane`, `action` and `client` if it has one.
    func appendMembers(to out: inout [UInt8]) {
        switch self {
        case .object(let object):
            for (key, value) in object.pairs { Self.appendMember(key, value, to: &out) }
        case .serialized(let bytes):
            // A serialized object: its members are the bytes between its braces.
            guard bytes.count > 2 else { return }
            out.append(UInt8(ascii: ","))
            out.append(contentsOf: bytes[1..<(bytes.count - 1)])
        case .progress(let progress):
            Self.appendMember("id", .string(progress.id), to: &out)
            Self.appendMember("lane", .string(progress.lane), to: &out)
            Self.appendMember("action", .string(progress.action), to: &out)
            if let client = progress.client { Self.appendMember("client", .string(client), to: &out) }
        }
    }

    /// The bytes it most likely takes, for reserving them at once.
    var sizeHint: Int {
        switch self {
        case .serialized(let bytes): bytes.count
        case .object, .progress: 160
        }
    }

    private static func appendMember(_ key: String, _ value: JSONValue, to out: inout [UInt8]) {
        out.append(UInt8(ascii: ","))
        JSONValue.string(key).write(into: &out)
        out.append(UInt8(ascii: ":"))
        value.write(into: &out)
    }
}

/// A progress event's fields (`accepted`, `forwarded`, `delivered`).
struct ProgressBody {
    let id: String
    let lane: String
    let action: String
    let client: String?
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
