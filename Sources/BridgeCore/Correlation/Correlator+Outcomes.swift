import InterApp

extension Correlator {
    /// Answers a rejected command: to its sender, or as an event when it came on the PULL socket.
    func reject(_ rejection: Rejection, to target: ReplyTarget) {
        metrics.command(action: rejection.action, outcome: .rejected, code: rejection.code, elapsedMs: 0)
        answer(Reply(rejection: rejection), to: target, pullTopic: self.pullTopic(of: rejection))
    }

    /// Where a rejection of a PULL command is published: its lane's `result`, or `bridge`'s when it named
    /// no lane that is configured.
    private func pullTopic(of rejection: Rejection) -> Topic {
        let lane = rejection.lane.flatMap { lanes[$0].map { !$0.isRemoved } == true ? $0 : nil } ?? Topic.bridgeLane
        return .command(lane: lane, action: rejection.action ?? "command", .result)
    }

    /// Completes `record` with `outcome` (a ``Reply/outcome(_:_:result:)``, addressed here): journals the
    /// reply, answers every waiter, publishes the event, and lets the record leave memory
    /// (``CommandStore/finalize(_:outcome:reply:summary:late:atMs:)``). `event` is `result` or `unknown`.
    func finalize(_ record: CommandRecord, _ outcome: Reply, event: Topic.CommandEvent = .result) {
        var reply = outcome.addressed(
            id: record.id, lane: record.lane, action: record.action.rawValue, client: record.client)
        let isLookup = record.isRecoveryLookup
        if let requested = record.requested {
            checkAmounts(requested, &reply, id: record.id, lane: record.lane, action: record.action.rawValue)
        }
        if reply.outcome == .undeliverable || reply.outcome == .unknown {
            logger.notice(
                "command ended undeliverable or unknown",
                metadata: [
                    "id": "\(record.id)", "lane": "\(record.lane)", "action": "\(record.action.rawValue)",
                    "outcome": "\(reply.outcome.rawValue)",
                    "endpoint": "\(lanes[record.lane]?.configuration.endpoint ?? "-")",
                    "why": "\(reply.message ?? "-")",
                ])
        }
        if !isLookup {
            metrics.command(
                action: record.action.rawValue, outcome: reply.outcome, code: nil,
                elapsedMs: record.receivedMs.map { nowMs() - $0 }, times: record.waiters.count)
        }
        let bytes = reply.serialized
        let text = String(decoding: bytes, as: UTF8.self)
        let now = nowMs()
        let summary = ReplySummary(reply: reply, fingerprint: record.fingerprint)
        emit(
            .journal(
                store.finalize(
                    record, outcome: reply.outcome, reply: text, summary: summary, late: reply.late,
                    atMs: now)))
        if !isLookup {
            emit(
                .countOutcome(
                    .init(
                        id: record.id, action: record.action.rawValue, receivedMs: record.receivedMs ?? now,
                        outcome: reply.outcome.rawValue, earlier: nil)))
        }
        for waiter in record.waiters where waiter != .pull { emit(.reply(waiter, id: record.id, bytes)) }
        emit(.publish(.reply(lane: record.lane, action: record.action.rawValue, event, id: record.id, bytes)))
        if !isLookup, reply.outcome == .unknown {
            unknownForViva(
                id: record.id, lane: record.lane, action: record.action, merchantTrns: record.clientTransactionId,
                amount: record.requested?.amount)
        }
        if !isLookup {
            lanes[record.lane]?.lastResult = LastResult(
                id: record.id, action: record.action.rawValue, outcome: reply.outcome.rawValue,
                amount: reply.result?["amount"], atMs: now)
        }
        release(record)
    }

    /// Completes a sale already reported `unknown` from a callback that arrived after its deadline, with
    /// `outcome` (a ``Reply/outcome(_:_:result:)``, addressed here).
    func completeLate(_ stored: StoredCommand, lane: String, _ outcome: Reply) {
        var reply = outcome.addressed(
            id: stored.id, lane: lane, action: stored.action.rawValue, client: stored.client)
        reply.late = true
        reply.earlier = stored.earlier(stored.replyObject)
        if RequestedAmounts.checkedActions.contains(stored.action),
            let requested = RequestedAmounts(fingerprint: stored.fingerprint)
        {
            checkAmounts(requested, &reply, id: stored.id, lane: lane, action: stored.action.rawValue)
        }
        let bytes = reply.serialized
        let text = String(decoding: bytes, as: UTF8.self)
        let now = nowMs()
        let summary = ReplySummary(reply: reply, fingerprint: stored.fingerprint)
        emit(
            .journal(
                store.amend(
                    stored, outcome: reply.outcome, reply: text, summary: summary, late: true, atMs: now)))
        emit(
            .countOutcome(
                .init(
                    id: stored.id, action: stored.action.rawValue, receivedMs: stored.createdMs,
                    outcome: reply.outcome.rawValue, earlier: stored.outcome?.rawValue)))
        emit(.publish(.reply(lane: lane, action: stored.action.rawValue, .lateResult, id: stored.id, bytes)))
        lanes[lane]?.pendingLookups.removeAll { $0.saleId == stored.id }
        if reply.outcome != .unknown { vivaLookups?.remove(stored.id) }
    }

    /// Flags a successful sale whose approved amount or tip differs from the request: in its reply
    /// (`amountMismatch`), as a `<lane>.<action>.mismatch` event, and in the lane's fault counts.
    private func checkAmounts(
        _ requested: RequestedAmounts, _ reply: inout Reply, id: String, lane: String, action: String
    ) {
        guard reply.outcome == .success, let result = reply.result, let mismatch = requested.mismatch(in: result)
        else { return }
        reply.amountMismatch = mismatch
        lanes[lane]?.faults.amountMismatches += 1
        logger.warning(
            "the terminal approved another amount than requested", metadata: ["id": "\(id)", "lane": "\(lane)"])
        emit(.publish(.mismatch(id: id, lane: lane, action: action, amountMismatch: mismatch)))
    }

    /// Publishes a progress event (`accepted`, `forwarded`, `delivered`) of `record`.
    func publishProgress(_ record: CommandRecord, _ event: Topic.CommandEvent) {
        emit(
            .publish(
                .progress(
                    ProgressBody(
                        id: record.id, lane: record.lane, action: record.action.rawValue, client: record.client),
                    event)))
    }

    /// Publishes a lane event (`<lane>.lane.connected`, …).
    func publishLaneEvent(_ lane: String, _ body: LaneEventBody) {
        emit(.publish(.lane(lane, body)))
    }

    /// Publishes a batch event (`<lane>.batch.opened`, …).
    func publishBatchEvent(_ lane: String, _ body: BatchEventBody) {
        emit(.publish(.batch(lane, body)))
    }
}

extension Reply {
    /// This outcome as the reply to command `id`: a failure always has a `reason` (`other` when the terminal
    /// gave none), any other outcome none.
    func addressed(id: String, lane: String, action: String, client: String?) -> Reply {
        var reply = self
        reply.id = id
        reply.lane = lane
        reply.action = action
        reply.client = client
        reply.reason = outcome == .failure ? (reason ?? .other) : nil
        return reply
    }
}
