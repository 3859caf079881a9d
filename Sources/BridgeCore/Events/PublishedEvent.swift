import InterApp

/// An event the bridge publishes, before the loop stamps it: its topic and its body made together, by one
/// constructor a kind, so that a topic and a body that do not match cannot be built (event.schema.json holds
/// each topic to one kind of body).
package struct PublishedEvent {
    /// Where it is published: the XPUB message's first frame, `/events`' `topic`.
    package let topic: Topic
    /// What it says.
    package let body: EventBody

    private init(_ topic: Topic, _ body: EventBody) {
        self.topic = topic
        self.body = body
    }

    /// A command's reply as its event: `<lane>.<action>.<event>` (`result`, `unknown`, `late_result`,
    /// `resolved`), the reply's bytes reused.
    static func reply(
        lane: String, action: String, _ event: Topic.CommandEvent, id: String?, _ bytes: [UInt8]
    ) -> PublishedEvent {
        PublishedEvent(.command(lane: lane, action: action, event), .reply(id: id, bytes))
    }

    /// The answer to a command that came on the PULL socket, on `topic` (its lane's, or `bridge.<action>.result`
    /// for a query): the PULL socket has nobody to reply to.
    static func answer(on topic: Topic, id: String?, _ bytes: [UInt8]) -> PublishedEvent {
        PublishedEvent(topic, .reply(id: id, bytes))
    }

    /// A command's progress: `accepted`, `forwarded`, `delivered`.
    static func progress(_ progress: ProgressBody, _ event: Topic.CommandEvent) -> PublishedEvent {
        PublishedEvent(.command(lane: progress.lane, action: progress.action, event), .progress(progress))
    }

    /// `<lane>.<action>.mismatch`: a success approved another amount or tip than requested.
    static func mismatch(id: String, lane: String, action: String, amountMismatch: JSONObject) -> PublishedEvent {
        PublishedEvent(
            .command(lane: lane, action: action, .mismatch),
            .mismatch(id: id, lane: lane, action: action, amountMismatch: amountMismatch))
    }

    /// `<lane>.<action>.disagreement`: Viva's records, or a late callback, and the bridge disagree.
    static func disagreement(id: String, lane: String, action: String, details: JSONObject) -> PublishedEvent {
        PublishedEvent(
            .command(lane: lane, action: action, .disagreement),
            .disagreement(id: id, lane: lane, action: action, details: details))
    }

    /// `<lane>.<action>.orphan`: a callback that matched no command.
    static func orphan(lane: String, action: String, _ callback: OrphanCallback) -> PublishedEvent {
        PublishedEvent(.command(lane: lane, action: action, .orphan), .orphan(lane: lane, action: action, callback))
    }

    /// `<lane>.lane.<event>`: what happened to the lane's link.
    static func lane(_ lane: String, _ body: LaneEventBody) -> PublishedEvent {
        PublishedEvent(.lane(lane, body.event), .lane(lane, body))
    }

    /// `<lane>.batch.<event>`: the lane's batch opened or closed.
    static func batch(_ lane: String, _ body: BatchEventBody) -> PublishedEvent {
        PublishedEvent(.batch(lane: lane, body.event), .batch(lane, body))
    }

    /// `bridge.journal.<event>`: the journal at `location` cannot take commands (`reason`), or can again.
    package static func journal(_ event: Topic.JournalEvent, location: String, reason: String?) -> PublishedEvent {
        PublishedEvent(.journal(event), .journal(location: location, reason: reason))
    }

    /// `bridge.heartbeat.beat`: commands in flight and lanes whose link is up.
    static func heartbeat(inFlight: Int, lanesUp: Int) -> PublishedEvent {
        PublishedEvent(.heartbeat, .heartbeat(inFlight: inFlight, lanesUp: lanesUp))
    }

    /// `bridge.role.active`: this bridge (`instance`) took the journal's lease and serves.
    package static func roleActive(instance: String) -> PublishedEvent {
        PublishedEvent(.roleActive, .roleActive(instance: instance))
    }
}
