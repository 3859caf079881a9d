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
    /// The state after `event`.
    func applying(_ event: BridgeEvent) -> WatchState {
        var next = self
        next.eventCount += 1
        next.checkSequence(event.body)
        guard let topic = Topic(parsing: event.topic) else { return next }
        let laneId = topic.lane
        let kind = topic.subject
        if let laneFilter, laneId != laneFilter { return next }
        // `bridge.*` topics carry answers to PULL queries; they belong to no lane.
        if laneId == Topic.bridgeLane && next.lane(laneId) == nil { return next }
        let body = event.body
        let time = body["time"]?.stringValue
        let id = body["id"]?.stringValue ?? "?"
        next.update(laneId) { lane in
            if let time { lane.lastEventTime = time }
            switch topic.laneEvent {
            case .connected: lane.connected = true
            case .disconnected: lane.connected = false
            case .added, .changed:
                lane.connected = false
                if let platform = body["platform"]?.stringValue { lane.platform = platform }
            case .returned, .removed, nil: break
            }
            switch topic.batchEvent {
            case .opened:
                let automatic = body["automatic"] == .bool(true) ? "(automatic)" : "(open)"
                lane.openBatch = body["batchName"]?.stringValue ?? body["batchId"]?.stringValue ?? automatic
            case .closed: lane.openBatch = nil
            case nil: break
            }
            switch topic.commandEvent {
            case .accepted, .forwarded, .delivered:
                // An abort travels beside the transaction it stops; it is not the lane's one in flight.
                if kind != TerminalAction.abort.rawValue { lane.inFlight = Command(action: kind, id: id) }
            case .result, .unknown, .lateResult:
                let outcome = body["outcome"]?.stringValue ?? (topic.commandEvent == .unknown ? "unknown" : "?")
                lane.lastResult = Result(
                    action: kind, id: id, outcome: outcome, late: topic.commandEvent == .lateResult)
                if lane.inFlight?.id == id { lane.inFlight = nil }
            case .orphan, .mismatch, .resolved, nil:
                break
            }
        }
        if topic.laneEvent == .removed {
            next.lanes.removeAll { $0.id == laneId }
            next.addNote("\(laneId): removed by a reload of the bridge's configuration")
        } else if topic.laneEvent == .added {
            next.addNote("\(laneId): added by a reload of the bridge's configuration")
        } else if topic.laneEvent == .returned {
            next.addNote("\(laneId): the store app came back with no callback")
        } else if topic.commandEvent == .orphan {
            next.addNote("\(laneId): a \(kind) callback matched no command (orphan)")
        } else if topic.commandEvent == .resolved {
            let outcome = body["outcome"]?.stringValue ?? "?"
            next.addNote("\(laneId): unknown \(kind) \(id) was resolved by hand as \(outcome)")
        } else if topic.commandEvent == .mismatch {
            next.addNote("\(laneId): \(kind) \(id) was approved for another amount than requested")
        }
        return next
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
        checkSequence(event.body)
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
    private mutating func checkSequence(_ body: JSONObject) {
        guard let seq = body["seq"]?.intValue, let epoch = body["epoch"]?.intValue else { return }
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
                lane.platform = entry.platform.rawValue
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
