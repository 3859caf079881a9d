import InterApp

/// An event's body before the loop stamps it: one case per kind of body the bridge publishes
/// (event.schema.json's `$defs`), each with its data. ``appendMembers(to:)`` is the one place that writes
/// each kind's members, in the contract's order; nothing is made into JSON before somebody subscribed,
/// except a reply, serialized once for its sender and its event alike.
package enum EventBody {
    /// A command's reply, serialized (`<lane>.<action>.result`, `.unknown`, `.late_result`, `.resolved`, and
    /// the answers to commands that came on the PULL socket): a `result` event reuses its reply's bytes.
    case reply(id: String?, [UInt8])
    /// `accepted`, `forwarded`, `delivered` (three a sale, most often with nobody listening).
    case progress(ProgressBody)
    /// `<lane>.<action>.mismatch`: a success approved another amount or tip than requested.
    case mismatch(id: String, lane: String, action: String, amountMismatch: JSONObject)
    /// `<lane>.<action>.disagreement`: Viva's records and the bridge's disagree (`source`, `message`, and
    /// what each says: `bridge`, `viva`).
    case disagreement(id: String, lane: String, action: String, details: JSONObject)
    /// `<lane>.<action>.orphan`: a callback that matched no command.
    case orphan(lane: String, action: String, OrphanCallback)
    /// `<lane>.lane.<event>`: what happened to the lane's link.
    case lane(String, LaneEventBody)
    /// `<lane>.batch.<event>`: the lane's batch opened or closed.
    case batch(String, BatchEventBody)
    /// `bridge.journal.<event>`: the journal at `location` cannot take commands (`reason`), or can again.
    case journal(location: String, reason: String?)
    /// `bridge.heartbeat.beat`: commands in flight and lanes whose link is up.
    case heartbeat(inFlight: Int, lanesUp: Int)
    /// `bridge.role.active`: this bridge (`instance`) took the journal's lease and serves.
    case roleActive(instance: String)

    /// The command the body is about, if it names one: what a rollback drops.
    package var id: String? {
        switch self {
        case .reply(let id, _): id
        case .progress(let progress): progress.id
        case .mismatch(let id, _, _, _): id
        case .disagreement(let id, _, _, _): id
        case .orphan, .lane, .batch, .journal, .heartbeat, .roleActive: nil
        }
    }

    /// The bytes it most likely takes, for reserving them at once.
    var sizeHint: Int {
        if case .reply(_, let bytes) = self { return bytes.count }
        return 160
    }

    /// Appends the body's members to a JSON object being written, each after a comma (`,"id":"…"`), in
    /// event.schema.json's order.
    func appendMembers(to out: inout [UInt8]) {
        switch self {
        case .reply(_, let bytes): out.appendMembers(ofSerialized: bytes)
        case .progress(let progress):
            out.appendMember("id", progress.id)
            out.appendMember("lane", progress.lane)
            out.appendMember("action", progress.action)
            if let client = progress.client { out.appendMember("client", client) }
        case .mismatch(let id, let lane, let action, let amountMismatch):
            out.appendMember("id", id)
            out.appendMember("lane", lane)
            out.appendMember("action", action)
            out.appendMember("amountMismatch", .object(amountMismatch))
        case .disagreement(let id, let lane, let action, let details):
            out.appendMember("id", id)
            out.appendMember("lane", lane)
            out.appendMember("action", action)
            for (key, value) in details.pairs { out.appendMember(key, value) }
        case .orphan(let lane, let action, let callback):
            out.appendMember("lane", lane)
            out.appendMember("action", action)
            callback.appendMembers(to: &out)
        case .lane(let lane, let body):
            out.appendMember("lane", lane)
            body.appendMembers(to: &out)
        case .batch(let lane, let body):
            out.appendMember("lane", lane)
            body.appendMembers(to: &out)
        case .journal(let location, let reason):
            out.appendMember("lane", Topic.bridgeLane)
            out.appendMember("journal", location)
            if let reason { out.appendMember("reason", reason) }
        case .heartbeat(let inFlight, let lanesUp):
            out.appendMember("inFlight", .number(JSONNumber(inFlight)))
            out.appendMember("lanesUp", .number(JSONNumber(lanesUp)))
        case .roleActive(let instance):
            out.appendMember("instance", instance)
        }
    }
}

/// A progress event's fields (`accepted`, `forwarded`, `delivered`).
package struct ProgressBody {
    let id: String
    let lane: String
    let action: String
    let client: String?
}

/// What an orphan event says of its callback.
package enum OrphanCallback {
    /// A callback that was read but matched nothing: its `status`, `message` and fields.
    case read(status: String, message: String, result: JSONObject)
    /// A callback that could not be parsed: its text (digit runs masked) and why.
    case unparsable(raw: String, problem: String)

    fileprivate func appendMembers(to out: inout [UInt8]) {
        switch self {
        case .read(let status, let message, let result):
            out.appendMember("status", status)
            out.appendMember("message", message)
            out.appendMember("result", .object(result))
        case .unparsable(let raw, let problem):
            out.appendMember("raw", raw)
            out.appendMember("problem", problem)
        }
    }
}

/// A lane event's body after its `lane`; each case is the event it is published as.
package enum LaneEventBody {
    /// The link to the relay at `endpoint` came up.
    case connected(endpoint: String)
    /// The link to the relay at `endpoint` went down.
    case disconnected(endpoint: String)
    /// The store app came back to the foreground with no callback; `inFlight` is the command on the lane.
    case returned(inFlight: String?)
    /// A reload added the lane.
    case added(endpoint: String, platform: Platform, transport: LaneTransport)
    /// A reload changed the lane's settings, which now apply.
    case changed(endpoint: String, platform: Platform, transport: LaneTransport)
    /// A reload removed the lane; its link is closed.
    case removed(endpoint: String)

    /// The event it is published as (`<lane>.lane.<event>`).
    var event: Topic.LaneEvent {
        switch self {
        case .connected: .connected
        case .disconnected: .disconnected
        case .returned: .returned
        case .added: .added
        case .changed: .changed
        case .removed: .removed
        }
    }

    fileprivate func appendMembers(to out: inout [UInt8]) {
        switch self {
        case .connected(let endpoint), .disconnected(let endpoint), .removed(let endpoint):
            out.appendMember("endpoint", endpoint)
        case .returned(let inFlight):
            out.appendMember("inFlight", inFlight.map(JSONValue.string) ?? .null)
        case .added(let endpoint, let platform, let transport), .changed(let endpoint, let platform, let transport):
            out.appendMember("endpoint", endpoint)
            out.appendMember("platform", platform.rawValue)
            out.appendMember("transport", transport.name)
        }
    }
}

/// A batch event's body after its `lane`; each case is the event it is published as.
package enum BatchEventBody {
    /// A batch opened: by a `batch` command (its name and id as the terminal said), or by the terminal
    /// itself after the last one expired (`automatic`, name and id not known yet).
    case opened(name: String?, id: String?, automatic: Bool)
    /// The lane's batch closed, and why.
    case closed(name: String?, id: String?, reason: Closing)

    /// Why a batch closed (`reason`).
    package enum Closing: String {
        /// A `batch` command closed it.
        case command
        /// A `batch` command opened a new one.
        case replaced
        /// It was open for `batchExpiryHours`.
        case expired
    }

    /// The event it is published as (`<lane>.batch.<event>`).
    var event: Topic.BatchEvent {
        switch self {
        case .opened: .opened
        case .closed: .closed
        }
    }

    fileprivate func appendMembers(to out: inout [UInt8]) {
        switch self {
        case .opened(let name, let id, let automatic):
            out.appendMember("batchName", name.map(JSONValue.string) ?? .null)
            out.appendMember("batchId", id.map(JSONValue.string) ?? .null)
            if automatic { out.appendMember("automatic", .bool(true)) }
        case .closed(let name, let id, let reason):
            out.appendMember("batchName", name.map(JSONValue.string) ?? .null)
            out.appendMember("batchId", id.map(JSONValue.string) ?? .null)
            out.appendMember("reason", reason.rawValue)
        }
    }
}

extension [UInt8] {
    /// Appends `,"key":value` to the bytes of a JSON object being written.
    fileprivate mutating func appendMember(_ key: String, _ value: String) {
        appendMember(key, .string(value))
    }

    fileprivate mutating func appendMember(_ key: String, _ value: JSONValue) {
        append(UInt8(ascii: ","))
        JSONValue.string(key).write(into: &self)
        append(UInt8(ascii: ":"))
        value.write(into: &self)
    }

    /// Appends the members of a serialized object (the bytes between its braces), after a comma.
    fileprivate mutating func appendMembers(ofSerialized bytes: [UInt8]) {
        guard bytes.count > 2 else { return }
        append(UInt8(ascii: ","))
        append(contentsOf: bytes[1..<(bytes.count - 1)])
    }
}
