import InterApp

extension Correlator {
    /// The version the bridge reports in `ping` and `hello` (``BridgeVersion/current``).
    static var version: String { BridgeVersion.current }

    func answerPing(_ command: Command, to target: ReplyTarget) {
        var result = JSONObject()
        result["version"] = .string(Self.version)
        result["lanes"] = .number(JSONNumber(configuredLanes.count))
        result["outstanding"] = .number(JSONNumber(outstandingCount))
        answerQuery(command, result, to: target)
    }

    func answerLanes(_ command: Command, to target: ReplyTarget) {
        let result = lanesResult()
        if case .router = target {
            metrics.command(action: command.action, outcome: .success, elapsedMs: 0)
            var answer = Reply(id: command.id, action: command.action, outcome: .success)
            answer.result = result
            emit(.snapshotReply(target, answer))
            return
        }
        answerQuery(command, result, to: target)
    }

    /// The `lanes` query's result: every lane, in configuration order (the loop adds `epoch` and `seq`).
    package func lanesResult() -> JSONObject {
        var list: [JSONValue] = []
        for id in laneOrder {
            guard let lane = lanes[id] else { continue }
            list.append(.object(describe(lane)))
        }
        var result = JSONObject()
        result["lanes"] = .array(list)
        return result
    }

    /// What a `bridge.heartbeat` says besides its stamp: commands in flight and lanes whose link is up.
    package func heartbeat() -> PublishedEvent {
        .heartbeat(inFlight: outstandingCount, lanesUp: lanes.values.filter(\.connected).count)
    }

    func answerStatus(_ command: Command, ref: String, to target: ReplyTarget) {
        var result = JSONObject()
        result["ref"] = .string(ref)
        if let record = store.record(id: ref), !record.isRecoveryLookup {
            result["state"] = .string(record.state.rawValue)
            result["lane"] = .string(record.lane)
            result["action"] = .string(record.action.rawValue)
            if let client = record.client { result["client"] = .string(client) }
            answerQuery(command, result, to: target)
            return
        }
        let stored: StoredCommand?
        do {
            stored = try store.finished(id: ref)
        } catch {
            // Never `not_found` for an id the journal could not read: a caller would retry under it.
            logger.error("journal read failed", metadata: ["ref": "\(ref)", "error": "\(error)"])
            reject(
                Rejection(
                    .journalUnavailable,
                    "the journal cannot be read; the state of \(ref) is not known; try again later",
                    id: command.id, action: command.action),
                to: target)
            return
        }
        if let stored {
            result["state"] = .string(stored.state.rawValue)
            if let lane = stored.lane { result["lane"] = .string(lane) }
            result["action"] = .string(stored.action.rawValue)
            if let client = stored.client { result["client"] = .string(client) }
            if let outcome = stored.outcome { result["outcome"] = .string(outcome.rawValue) }
            if let text = stored.reply, let reply = try? JSONValue.parse(Array(text.utf8)) { result["reply"] = reply }
        } else {
            result["state"] = .string("not_found")
        }
        answerQuery(command, result, to: target)
    }

    func answerQuery(_ command: Command, _ result: JSONObject, to target: ReplyTarget) {
        metrics.command(action: command.action, outcome: .success, elapsedMs: 0)
        var reply = Reply(id: command.id, action: command.action, outcome: .success)
        reply.result = result
        answer(reply, to: target, pullTopic: .command(lane: Topic.bridgeLane, action: command.action, .result))
    }

    private func describe(_ lane: LaneState) -> JSONObject {
        var entry = JSONObject()
        entry["lane"] = .string(lane.id)
        entry["connected"] = .bool(lane.connected)
        entry["platform"] = .string(lane.platform.rawValue)
        entry["transport"] = .string(lane.transport.name)
        if lane.isRemoved { entry["removing"] = .bool(true) }
        entry["relay"] = lane.relayHello.map(JSONValue.object) ?? .null
        switch lane.inFlight.activity {
        case .idle: entry["inFlight"] = .null
        case .transaction(let record): entry["inFlight"] = .object(Self.inFlight(record, shownAs: record.id))
        case .recoveryLookup(let record, let saleId):
            entry["inFlight"] = .object(Self.inFlight(record, shownAs: "(look-up for \(saleId))"))
        }
        entry["aborts"] = .array(lane.inFlight.aborts.map { .string($0.id) })
        if let batch = lane.openBatch {
            var open = JSONObject()
            open["name"] = batch.name.map(JSONValue.string) ?? .null
            open["id"] = batch.id.map(JSONValue.string) ?? .null
            open["openedAt"] = .string(Timestamp.iso8601(ms: batch.openedAtMs))
            open["automatic"] = .bool(batch.automatic)
            entry["openBatch"] = .object(open)
        } else {
            entry["openBatch"] = .null
        }
        entry["lastResult"] = lane.lastResult.map { .object($0.object) } ?? .null
        entry["lastCallbackAt"] = lane.lastCallbackMs.map { .string(Timestamp.iso8601(ms: $0)) } ?? .null
        entry["faults"] = .object(JSONObject(lane.faults.json.map { ($0, .number(JSONNumber($1))) }))
        return entry
    }

    /// The `lanes` answer's `inFlight` of a lane whose slot holds `record`, named `id`.
    private static func inFlight(_ record: CommandRecord, shownAs id: String) -> JSONObject {
        var inFlight = JSONObject()
        inFlight["action"] = .string(record.action.rawValue)
        inFlight["id"] = .string(id)
        inFlight["state"] = .string(record.state.rawValue)
        if let since = record.receivedMs { inFlight["since"] = .string(Timestamp.iso8601(ms: since)) }
        return inFlight
    }
}
