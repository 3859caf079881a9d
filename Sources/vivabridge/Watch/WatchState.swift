import BridgeClient
import InterApp

/// What `vivabridge watch` knows of the lanes, built from a `lanes` snapshot and the events after it.
///
/// Pure values: ``applying(_:)`` and ``applying(snapshot:)`` return the next state, so the table is tested
/// without sockets. When the state finds that it missed events (a `seq` gap, or a new `epoch`: the bridge
/// restarted) it sets ``needsSnapshot``, and the socket loop asks `lanes` again.
struct WatchState: Equatable {
    /// One row of the table.
    struct Lane: Equatable {
        var id: String
        var platform: String?
        /// nil until the snapshot or a `lane.connected`/`lane.disconnected` event says.
        var connected: Bool?
        var inFlight: Command?
        var lastResult: Result?
        /// The open batch's name (or id when it has no name).
        var openBatch: String?
        /// The `time` of the lane's last event (or its last callback, from the snapshot).
        var lastEventTime: String?

        init(id: String) { self.id = id }
    }

    /// A command on a lane.
    struct Command: Equatable {
        var action: String
        var id: String
    }

    /// How a lane's last command ended.
    struct Result: Equatable {
        var action: String
        var id: String
        var outcome: String
        var late = false
    }

    /// Only this lane's rows and events (`--lane`); nil for every lane.
    var laneFilter: String?
    /// The rows, in the bridge's order (the snapshot's), new lanes appended.
    private(set) var lanes: [Lane] = []
    /// The bridge's `epoch`, from the last event.
    private(set) var epoch: Int?
    /// The `seq` of the last event.
    private(set) var lastSeq: Int?
    /// How many events were received.
    private(set) var eventCount = 0
    /// What the state noticed (gaps, restarts, snapshots), newest last; at most ``noteLimit``.
    private(set) var notes: [String] = []
    /// Whether a `lanes` snapshot should be asked for (at start, after a gap or a restart).
    var needsSnapshot = true

    static let noteLimit = 5

    /// The watcher's clock (milliseconds) when the last event arrived.
    private(set) var lastHeardMs: Int64?
    /// The gap between the last two `bridge.heartbeat`s (at least a second); nil before the second.
    private(set) var heartbeatIntervalMs: Int64?
    private var lastHeartbeatAtMs: Int64?
    /// Set when heartbeats were heard and then nothing for two intervals: the bridge stopped or cannot be
    /// reached, and the rows are what was last heard. Cleared by the next event.
    private(set) var silent = false

    init(laneFilter: String? = nil) { self.laneFilter = laneFilter }

    /// The row of lane `id`, if there is one.
    func lane(_ id: String) -> Lane? { lanes.first { $0.id == id } }

    /// The state with `note` added (oldest notes dropped beyond ``noteLimit``).
    func noting(_ note: String) -> WatchState {
        var next = self
        next.addNote(note)
        return next
    }

    private mutating func addNote(_ note: String) {
        notes.append(note)
        if notes.count > Self.noteLimit { notes.removeFirst(notes.count - Self.noteLimit) }
    }

    private mutating func update(_ id: String, _ change: (inout Lane) -> Void) {
        if let index = lanes.firstIndex(where: { $0.id == id }) {
            change(&lanes[index])
        } else {
            var lane = Lane(id: id)
            change(&lane)
            lanes.append(lane)
        }
    }
}

// MARK: - The reducer

extension WatchState {
    /// The state after `event` as received: read as the contract gives it (``applying(_:)-(TypedEvent)``),
    /// or, when it breaks the contract, noted with what is wrong and left out of the rows.
    func applying(_ event: BridgeEvent) -> WatchState {
        do {
            return applying(try event.typed())
        } catch {
            return applying(broken: event, error)
        }
    }

    /// The state after an event that breaks the contract: its `seq` and `epoch` are still followed when they
    /// can be read, the rows are left as they were, a note names the topic and the member at fault, and the
    /// lanes are asked again (the rows may have missed what the event said).
    private func applying(broken event: BridgeEvent, _ error: ContractDecodingError) -> WatchState {
        var next = self
        next.eventCount += 1
        if let stamp = try? TypedEvent.Stamp(event.body) { next.checkSequence(seq: stamp.seq, epoch: stamp.epoch) }
        if let laneFilter, Topic(parsing: event.topic)?.lane != laneFilter { return next }
        next.addNote("\(event.topic) does not follow the contract (\(error)): asking for the lanes again")
        next.needsSnapshot = true
        return next
    }

    /// The state after `event`.
    func applying(_ event: TypedEvent) -> WatchState {
        var next = self
        next.eventCount += 1
        next.checkSequence(seq: event.seq, epoch: event.epoch)
        guard let topic = Topic(parsing: event.topic) else { return next }
        let laneId = topic.lane
        if let laneFilter, laneId != laneFilter { return next }
        // `bridge.*` topics carry answers to PULL queries; they belong to no lane.
        if laneId == Topic.bridgeLane && next.lane(laneId) == nil { return next }
        next.update(laneId) { lane in
            lane.lastEventTime = event.time
            Self.fold(event.kind, topicAction: topic.subject, into: &lane)
        }
        switch event.kind {
        case .reload(.removed, _, _, _, _):
            next.lanes.removeAll { $0.id == laneId }
            next.addNote("\(laneId): removed by a reload of the bridge's configuration")
        case .reload(.added, _, _, _, _):
            next.addNote("\(laneId): added by a reload of the bridge's configuration")
        case .returned:
            next.addNote("\(laneId): the store app came back with no callback")
        case .orphan(_, let action, _, _, _, _):
            next.addNote("\(laneId): a \(action) callback matched no command (orphan)")
        case .end(.resolved, let reply):
            let action = reply.action ?? topic.subject
            next.addNote(
                "\(laneId): unknown \(action) \(reply.id ?? "?") was resolved "
                    + (reply.resolved?.by == "viva" ? "from Viva's records" : "by hand")
                    + " as \(reply.outcome.rawValue)")
        case .mismatch(let id, _, let action, _):
            next.addNote("\(laneId): \(action) \(id) was approved for another amount than requested")
        default:
            break
        }
        return next
    }

    /// What `kind` changes in its lane's row (`topicAction`, the topic's, where the body has no action).
    private static func fold(_ kind: TypedEvent.Kind, topicAction: String, into lane: inout Lane) {
        switch kind {
        case .link(_, let up, _):
            lane.connected = up
        case .reload(let change, _, _, let platform, let transport) where change != .removed:
            lane.connected = false
            if transport == "cloud" {
                lane.platform = "cloud"
            } else if let platform {
                lane.platform = platform.rawValue
            }
        case .batch(let change, _, let name, let id, _, let automatic):
            lane.openBatch = change == .opened ? name ?? id ?? (automatic ? "(automatic)" : "(open)") : nil
        case .progress(_, let id, _, let action, _):
            // An abort travels beside the transaction it stops; it is not the lane's one in flight.
            if action != TerminalAction.abort.rawValue { lane.inFlight = Command(action: action, id: id) }
        case .end(let end, let reply) where end != .resolved:
            let id = reply.id ?? "?"
            lane.lastResult = Result(
                action: reply.action ?? topicAction, id: id, outcome: reply.outcome.rawValue, late: end == .lateResult)
            if lane.inFlight?.id == id { lane.inFlight = nil }
        default:
            break
        }
    }

    /// Folds in `event` as it arrived at `now` (the watcher's clock); true when the table changed.
    ///
    /// A `bridge.heartbeat` changes no row and is not counted as an event, but its `seq` and `epoch` are
    /// followed like any other's: the bridge numbers heartbeats in the same sequence, so skipping them would
    /// make the next event look like a gap.
    mutating func receive(_ event: BridgeEvent, atMs now: Int64) -> Bool {
        let heartbeat = event.topic == Topic.heartbeat.description
        let notesBefore = notes
        heard(heartbeat: heartbeat, atMs: now)
        guard heartbeat else {
            self = applying(event)
            return true
        }
        if let stamp = try? TypedEvent.Stamp(event.body) { checkSequence(seq: stamp.seq, epoch: stamp.epoch) }
        return notes != notesBefore
    }

    /// Records that an event arrived at `now` (the watcher's clock); `heartbeat` when it was one.
    mutating func heard(heartbeat: Bool, atMs now: Int64) {
        lastHeardMs = now
        if silent {
            silent = false
            addNote("the bridge is heard again")
        }
        guard heartbeat else { return }
        if let previous = lastHeartbeatAtMs, now > previous { heartbeatIntervalMs = max(1000, now - previous) }
        lastHeartbeatAtMs = now
    }

    /// Marks the bridge silent once heartbeats were heard and then nothing for two intervals (two seconds
    /// each before the interval is known); true when that changed the state.
    mutating func checkSilence(atMs now: Int64) -> Bool {
        guard !silent, lastHeartbeatAtMs != nil, let last = lastHeardMs else { return false }
        guard now - last > 2 * (heartbeatIntervalMs ?? 2000) else { return false }
        silent = true
        addNote("no heartbeat for \((now - last) / 1000) s: the bridge stopped or cannot be reached")
        return true
    }

    /// Notices a restart (a new `epoch`) or missed events (a `seq` that is not one more than the last).
    ///
    /// With a lane filter the subscriber only sees that lane's events, so gaps in `seq` are expected and only
    /// a restart is noticed.
    private mutating func checkSequence(seq: Int, epoch: Int) {
        if let known = self.epoch, known != epoch {
            addNote("the bridge restarted (epoch \(known) -> \(epoch)): asking for the lanes again")
            needsSnapshot = true
        } else if laneFilter == nil, let last = lastSeq, seq != last + 1 {
            let missed = seq > last ? "missed \(seq - last - 1) event\(seq - last - 1 == 1 ? "" : "s")" : "out of order"
            addNote("seq jumped from \(last) to \(seq) (\(missed)): asking for the lanes again")
            needsSnapshot = true
        }
        self.epoch = epoch
        lastSeq = seq
    }

    /// The note for a `lanes` answer that breaks the contract.
    private static func brokenAnswer(_ error: ContractDecodingError) -> String {
        "the lanes query's answer does not follow the contract: \(error)"
    }

    /// The note for a `lanes` query that failed, and why.
    private static func failedQuery(_ why: String) -> String { "the lanes query failed: \(why)" }

    /// The state after a reply to `lanes` (the whole reply object), read as the contract gives it.
    func applying(snapshot reply: JSONObject) -> WatchState {
        do {
            return applying(snapshot: try TypedReply(reply))
        } catch {
            // A refusal says why even when the rest of the reply breaks the contract.
            guard let refusal = TypedReply.RejectionError.of(reply) else { return noting(Self.brokenAnswer(error)) }
            return noting(Self.failedQuery(refusal.message))
        }
    }

    /// The state after a reply to `lanes`: every row as the bridge sees it now.
    ///
    /// The last results are kept: the snapshot has none.
    func applying(snapshot reply: TypedReply) -> WatchState {
        var next = self
        let answer: (lanes: [TypedReply.Lane], epoch: Int?, seq: Int?)?
        do {
            answer = try reply.lanes()
        } catch {
            return noting(Self.brokenAnswer(error))
        }
        guard let answer else {
            let why = reply.error?.message ?? reply.outcome.rawValue
            next.addNote(Self.failedQuery(why))
            return next
        }
        var seen = 0
        for entry in answer.lanes {
            if let laneFilter, entry.lane != laneFilter { continue }
            seen += 1
            next.update(entry.lane) { lane in
                lane.platform = entry.transport == "cloud" ? "cloud" : entry.platform.rawValue
                lane.connected = entry.connected
                lane.inFlight = entry.inFlight.map { Command(action: $0.action, id: $0.id) }
                lane.openBatch = entry.openBatch.map { $0.name ?? $0.id ?? "(open)" }
                if lane.lastEventTime == nil, let at = entry.lastCallbackAt { lane.lastEventTime = at }
            }
        }
        if let laneFilter, seen == 0 { next.addNote("the bridge has no lane \(laneFilter)") }
        next.needsSnapshot = false
        return next
    }
}
