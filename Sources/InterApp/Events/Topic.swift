/// An event's topic (PROTOCOL.md §4): `<lane>.<subject>.<event>`, dotted so that a SUB prefix picks a
/// lane or everything. The one place where topics are spelled: the bridge publishes through it, and
/// `watch`, the demo and dashboards written in Swift read through it.
public struct Topic: Hashable, Sendable, CustomStringConvertible {
    /// The lane, or ``bridgeLane`` for events that belong to no lane.
    public let lane: String
    /// What the event is about: an action (`sale`, `abort`, …, or an unknown action's name for an
    /// orphan), `lane` or `batch`.
    public let subject: String
    /// What happened.
    public let event: String

    /// The lane name of events that belong to no lane (answers to PULL queries, the bridge's own state).
    public static let bridgeLane = "bridge"

    /// What happens to a command, published on `<lane>.<action>.<event>`.
    public enum CommandEvent: String, Sendable, CaseIterable {
        case accepted, forwarded, delivered, result, unknown
        case lateResult = "late_result"
        case orphan, mismatch
        /// (v1.1) An `unknown` command closed by hand with `resolve`, or (v1.3) from Viva's records.
        case resolved
        /// (v1.3) Viva's records and the bridge's (or a terminal's late answer) disagree about a command.
        case disagreement
    }

    /// What happens to a lane's link, published on `<lane>.lane.<event>`.
    public enum LaneEvent: String, Sendable, CaseIterable {
        case connected, disconnected, returned
        /// A reload added the lane: its link is being made (`connected` follows once it is up).
        case added
        /// A reload removed the lane, and its link is now closed (after what was in flight on it ended).
        case removed
        /// A reload changed the lane's settings, and they now apply: its link was made anew.
        case changed
    }

    /// What happens to a lane's batch, published on `<lane>.batch.<event>`.
    public enum BatchEvent: String, Sendable, CaseIterable {
        case opened, closed
    }

    /// What happens to the bridge's journal, published on `bridge.journal.<event>`.
    public enum JournalEvent: String, Sendable, CaseIterable {
        /// The journal cannot take commands (a write failed, the file was deleted): `reason` says why.
        case unavailable
        /// Writes work again; commands are taken again.
        case available
    }

    /// The subject of the journal's events.
    public static let journalSubject = "journal"

    /// `bridge.journal.<event>`.
    public static func journal(_ event: JournalEvent) -> Topic {
        Topic(lane: bridgeLane, subject: journalSubject, event: event.rawValue)
    }

    /// `bridge.heartbeat.beat`: the bridge is alive, every `heartbeatEventMs` (docs/PROTOCOL.md §4). Three
    /// parts like every topic, so v1 subscribers that split topics in three keep working; a subscription to
    /// `bridge.heartbeat`, as the operations contract names it, matches it.
    public static let heartbeat = Topic(lane: bridgeLane, subject: "heartbeat", event: "beat")

    /// `bridge.role.active`: this bridge took the journal's lease and serves (a standby that took over, or the
    /// first of several bridges on one PostgreSQL journal); its body has `instance` beside `seq`, `epoch`, `time`.
    public static let roleActive = Topic(lane: bridgeLane, subject: "role", event: "active")

    /// Whether this is ``heartbeat``.
    public var isHeartbeat: Bool { self == Self.heartbeat }

    /// The subject of lane events.
    public static let laneSubject = "lane"
    /// The subject of batch events.
    public static let batchSubject = "batch"

    private init(lane: String, subject: String, event: String) {
        self.lane = lane
        self.subject = subject
        self.event = event
    }

    /// `<lane>.<action>.<event>`: a command's progress or end; `action` may be an unknown action's name
    /// (orphans) or `command` for a command that named none.
    public static func command(lane: String, action: String, _ event: CommandEvent) -> Topic {
        Topic(lane: lane, subject: action, event: event.rawValue)
    }

    /// `<lane>.lane.<event>`.
    public static func lane(_ lane: String, _ event: LaneEvent) -> Topic {
        Topic(lane: lane, subject: laneSubject, event: event.rawValue)
    }

    /// `<lane>.batch.<event>`.
    public static func batch(lane: String, _ event: BatchEvent) -> Topic {
        Topic(lane: lane, subject: batchSubject, event: event.rawValue)
    }

    /// Reads a topic as received; nil when it has not three dotted parts.
    public init?(parsing text: some StringProtocol) {
        let parts = text.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        self.init(lane: String(parts[0]), subject: String(parts[1]), event: String(parts[2]))
    }

    /// The command event, when this is one (neither a lane nor a batch event): a `batch` command's own
    /// events (`lane-1.batch.accepted`, `lane-1.batch.result`) are command events, `opened` and `closed` not.
    public var commandEvent: CommandEvent? {
        guard subject != Self.laneSubject,
            !(lane == Self.bridgeLane && (subject == Self.journalSubject || isHeartbeat))
        else { return nil }
        return CommandEvent(rawValue: event)
    }

    /// The lane event, when this is one.
    public var laneEvent: LaneEvent? { subject == Self.laneSubject ? LaneEvent(rawValue: event) : nil }

    /// The batch event, when this is one.
    public var batchEvent: BatchEvent? { subject == Self.batchSubject ? BatchEvent(rawValue: event) : nil }

    /// The SUB prefix that picks every event of `lane`.
    public static func prefix(lane: String) -> String { "\(lane)." }

    /// The SUB prefix that picks every event of `lane` about `subject` (`bridge.journal.`).
    public static func prefix(lane: String, subject: String) -> String { "\(lane).\(subject)." }

    /// Whether a SUB prefix (UTF-8) takes `topic` as it travels: the topic starts with it, so the empty
    /// prefix takes every topic. The one home of ZeroMQ's rule, for the bridge's subscriptions and filters.
    public static func prefix(_ prefix: [UInt8], takes topic: ArraySlice<UInt8>) -> Bool {
        topic.starts(with: prefix)
    }

    /// Whether a SUB prefix (UTF-8) can take some topic of lane `lane`: the prefix begins the lane's
    /// ``prefix(lane:)`` or goes on from it. `lane-1` can (it also takes `lane-10`'s topics), `lane-1.sale.`
    /// can, `lane-2.` cannot.
    public static func prefix(_ prefix: [UInt8], mayTakeTopicsOf lane: String) -> Bool {
        let lanePrefix = Array(Self.prefix(lane: lane).utf8)
        return lanePrefix.starts(with: prefix) || prefix.starts(with: lanePrefix)
    }

    /// The topic as it travels: `<lane>.<subject>.<event>`.
    public var description: String { String(decoding: utf8, as: UTF8.self) }

    /// The topic as it travels, in UTF-8 (the frame a SUB prefix matches), built without a `String`.
    public var utf8: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(lane.utf8.count + subject.utf8.count + event.utf8.count + 2)
        out.append(contentsOf: lane.utf8)
        out.append(UInt8(ascii: "."))
        out.append(contentsOf: subject.utf8)
        out.append(UInt8(ascii: "."))
        out.append(contentsOf: event.utf8)
        return out
    }
}
