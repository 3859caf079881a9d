import InterApp

/// A command's final outcome, as its reply and its `result` event will carry it.
struct FinalOutcome {
    var outcome: Outcome
    /// For `failure`: why, as far as the terminal said.
    var reason: FailureReason?
    var message: String?
    var result: JSONObject?
    var late = false
    /// For `superseded`: the id of the command that went on instead.
    var ref: String?
    /// For a successful sale: the amount or tip approved, where it differs from the request.
    var amountMismatch: JSONObject?
    /// For a late result: the outcome the command had ended with before.
    var earlier: JSONObject?
    /// For a successful capture: the `pre_auth` command it captured.
    var authorisation: String?
    /// For a successful unreferenced refund: what went back to the card.
    var refund: JSONObject?

    static func outcome(_ outcome: Outcome, _ message: String) -> FinalOutcome {
        FinalOutcome(outcome: outcome, message: message, result: nil)
    }
}

extension Correlator {
    /// Builds a reply object in the contract's shape.
    static func replyObject(
        id: String?, lane: String?, action: String?, client: String? = nil, _ final: FinalOutcome
    ) -> JSONObject {
        var reply = Reply(id: id, lane: lane, action: action, outcome: final.outcome, message: final.message)
        reply.client = client
        reply.reason = final.outcome == .failure ? (final.reason ?? .other) : nil
        reply.result = final.result
        reply.ref = final.ref
        reply.amountMismatch = final.amountMismatch
        reply.authorisation = final.authorisation
        reply.refund = final.refund
        reply.late = final.late
        reply.earlier = final.earlier
        return reply.json
    }

    /// Answers a rejected command: to its sender, or as an event when it came on the PULL socket.
    func reject(_ rejection: Rejection, to target: ReplyTarget) {
        metrics.command(action: rejection.action, outcome: .rejected, code: rejection.code, elapsedMs: 0)
        let reply = rejection.reply
        switch target {
        case .router: emitReply(target, reply)
        case .pull:
            let lane = rejection.lane.flatMap { lanes[$0].map { !$0.isRemoved } == true ? $0 : nil } ?? Topic.bridgeLane
            emitEvent(.command(lane: lane, action: rejection.action ?? "command", .result), reply)
        }
    }

    /// Completes `record`: journals the reply, answers every waiter, publishes the event, and lets the
    /// record leave memory (``CommandStore/finalize(_:outcome:reply:summary:late:atMs:)``). `event` is `result` or `unknown`.
    func finalize(_ record: CommandRecord, _ final: FinalOutcome, event: Topic.CommandEvent = .result) {
        var final = final
        let isLookup = record.isRecoveryLookup
        if let requested = record.requested {
            checkAmounts(requested, &final, id: record.id, lane: record.lane, action: record.action.rawValue)
        }
        if final.outcome == .undeliverable || final.outcome == .unknown {
            logger.notice(
                "command ended undeliverable or unknown",
                metadata: [
                    "id": "\(record.id)", "lane": "\(record.lane)", "action": "\(record.action.rawValue)",
                    "outcome": "\(final.outcome.rawValue)",
                    "endpoint": "\(lanes[record.lane]?.configuration.endpoint ?? "-")",
                    "why": "\(final.message ?? "-")",
                ])
        }
        if !isLookup {
            metrics.command(
                action: record.action.rawValue, outcome: final.outcome,
                elapsedMs: record.receivedMs.map { nowMs() - $0 }, times: record.waiters.count)
        }
        let reply = Self.replyObject(
            id: record.id, lane: record.lane, action: record.action.rawValue, client: record.client, final)
        let bytes = JSONValue.object(reply).serialized()
        let text = String(decoding: bytes, as: UTF8.self)
        let now = nowMs()
        let summary = ReplySummary(reply: reply, fingerprint: record.fingerprint)
        emit(
            .journal(
                store.finalize(
                    record, outcome: final.outcome, reply: text, summary: summary, late: final.late,
                    atMs: now)))
        if !isLookup {
            emit(
                .countOutcome(
                    .init(
                        id: record.id, action: record.action.rawValue, receivedMs: record.receivedMs ?? now,
                        outcome: final.outcome.rawValue, earlier: nil)))
        }
        for waiter in record.waiters where waiter != .pull { emit(.reply(waiter, bytes)) }
        emit(
            .publish(
                topic: .command(lane: record.lane, action: record.action.rawValue, event), body: .serialized(bytes)))
        if !isLookup {
            lanes[record.lane]?.lastResult = LastResult(
                id: record.id, action: record.action.rawValue, outcome: final.outcome.rawValue,
                amount: final.result?["amount"], atMs: now)
        }
        release(record)
    }

    /// Completes a sale already reported `unknown` from a callback that arrived after its deadline.
    func completeLate(_ stored: StoredCommand, lane: String, _ final: FinalOutcome) {
        var final = final
        final.late = true
        final.earlier = stored.earlier(stored.replyObject)
        if RequestedAmounts.checkedActions.contains(stored.action),
            let requested = RequestedAmounts(fingerprint: stored.fingerprint)
        {
            checkAmounts(requested, &final, id: stored.id, lane: lane, action: stored.action.rawValue)
        }
        let reply = Self.replyObject(
            id: stored.id, lane: lane, action: stored.action.rawValue, client: stored.client, final)
        let text = JSONValue.object(reply).serializedString
        let now = nowMs()
        let summary = ReplySummary(reply: reply, fingerprint: stored.fingerprint)
        emit(
            .journal(
                store.amend(
                    stored, outcome: final.outcome, reply: text, summary: summary, late: true, atMs: now)))
        emit(
            .countOutcome(
                .init(
                    id: stored.id, action: stored.action.rawValue, receivedMs: stored.createdMs,
                    outcome: final.outcome.rawValue, earlier: stored.outcome?.rawValue)))
        emitEvent(.command(lane: lane, action: stored.action.rawValue, .lateResult), reply)
        lanes[lane]?.pendingLookups.removeAll { $0.saleId == stored.id }
    }

    /// Flags a successful sale whose approved amount or tip differs from the request: in its reply
    /// (`amountMismatch`), as a `<lane>.<action>.mismatch` event, and in the lane's fault counts.
    private func checkAmounts(
        _ requested: RequestedAmounts, _ final: inout FinalOutcome, id: String, lane: String, action: String
    ) {
        guard final.outcome == .success, let result = final.result, let mismatch = requested.mismatch(in: result)
        else { return }
        final.amountMismatch = mismatch
        lanes[lane]?.faults.amountMismatches += 1
        logger.warning(
            "the terminal approved another amount than requested", metadata: ["id": "\(id)", "lane": "\(lane)"])
        var body = JSONObject()
        body["id"] = .string(id)
        body["lane"] = .string(lane)
        body["action"] = .string(action)
        body["amountMismatch"] = .object(mismatch)
        emitEvent(.command(lane: lane, action: action, .mismatch), body)
    }

    /// Publishes a progress event (`accepted`, `forwarded`, `delivered`) of `record`.
    func publishProgress(_ record: CommandRecord, _ event: Topic.CommandEvent) {
        emit(
            .publish(
                topic: .command(lane: record.lane, action: record.action.rawValue, event),
                body: .progress(
                    ProgressBody(
                        id: record.id, lane: record.lane, action: record.action.rawValue, client: record.client))))
    }

    /// Publishes a lane event (`<lane>.lane.connected`, …) with extra fields.
    func publishLaneEvent(_ lane: String, _ event: Topic.LaneEvent, _ fields: [(String, JSONValue)] = []) {
        emitEvent(.lane(lane, event), Self.laneBody(lane, fields))
    }

    /// Publishes a batch event (`<lane>.batch.opened`, …) with extra fields.
    func publishBatchEvent(_ lane: String, _ event: Topic.BatchEvent, _ fields: [(String, JSONValue)] = []) {
        emitEvent(.batch(lane: lane, event), Self.laneBody(lane, fields))
    }

    private static func laneBody(_ lane: String, _ fields: [(String, JSONValue)]) -> JSONObject {
        var body = JSONObject()
        body["lane"] = .string(lane)
        for (key, value) in fields { body[key] = value }
        return body
    }
}
