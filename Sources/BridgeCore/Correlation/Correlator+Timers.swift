import InterApp

extension Correlator {
    /// The most `unknown` sales one lane keeps waiting for a `transactionDetails` look-up.
    static let maxPendingLookups = 64

    /// Ends what is due: deadlines (`unknown`), grace periods, batch expiry, warns of relays that did not
    /// answer `hello`, and starts look-ups of `unknown` Android sales on idle lanes.
    package func tick() {
        let now = nowMs()
        let expiryMs = Int64(configuration.batchExpiryHours) * 3_600_000
        for id in laneOrder {
            guard let lane = lanes[id] else { continue }
            if let current = lane.inFlight.activity.record, current.deadlineMs <= now { expire(current, lane: lane) }
            for abort in lane.inFlight.aborts where abort.deadlineMs <= now { expire(abort, lane: lane) }
            for grace in lane.inFlight.takeGraceSales(endedBy: now) { endGrace(grace) }
            if let batch = lane.openBatch, batch.openedAtMs + expiryMs <= now { expireBatch(batch, lane: lane) }
            warnOfUnansweredHellos(lane: lane, nowMs: now)
            if lane.orphans.suppressed > 0, lane.orphans.isOver(at: now) {
                summarizeSuppressedOrphans(lane.orphans.takeSuppressed(), lane: lane)
            }
            if lane.inFlight.activity.isIdle, lane.link.mayStartLookup, phase.isRunning, journalHealth == .healthy,
                !lane.pendingLookups.isEmpty
            {
                startLookup(lane: lane)
            }
        }
    }

    /// A batch open for `batchExpiryHours`: the terminal app closes it and opens a new one by itself
    /// (Viva's batch page), so the lane has an automatic batch whose name and id are not known yet.
    private func expireBatch(_ batch: OpenBatch, lane: LaneState) {
        publishBatchEvent(lane.id, .closed(name: batch.name, id: batch.id, reason: .expired))
        let automatic = OpenBatch(name: nil, id: nil, openedAtMs: nowMs(), automatic: true)
        lane.openBatch = automatic
        emit(.journal(.batch(lane: lane.id, automatic)))
        publishBatchEvent(lane.id, .opened(name: nil, id: nil, automatic: true))
    }

    /// The earliest time something is due, for the loop's poll timeout.
    package func nextDueMs() -> Int64? {
        var next: Int64?
        func consider(_ value: Int64) { next = min(next ?? value, value) }
        for lane in lanes.values {
            if let current = lane.inFlight.activity.record { consider(current.deadlineMs) }
            for abort in lane.inFlight.aborts { consider(abort.deadlineMs) }
            for grace in lane.inFlight.graceSales { consider(grace.untilMs) }
            if let due = lane.link.helloWarningDueMs { consider(due) }
        }
        return next
    }

    private func expire(_ record: CommandRecord, lane: LaneState) {
        if record.isRecoveryLookup {
            endLookup(record)
            return
        }
        if expireCloud(record) { return }
        finalize(
            record,
            .outcome(.unknown, "no callback before the deadline; the terminal may still have completed it"),
            event: .unknown)
        if record.action == .sale, lane.platform == .android, let ctid = record.clientTransactionId {
            if lane.pendingLookups.count >= Self.maxPendingLookups {
                let dropped = lane.pendingLookups.removeFirst()
                logger.notice(
                    "too many unknown sales waiting for a look-up; the oldest stays unknown",
                    metadata: ["lane": "\(lane.id)", "id": "\(dropped.saleId)"])
            }
            lane.pendingLookups.append((record.id, ctid))
        }
    }

    private func startLookup(lane: LaneState) {
        let (saleId, ctid) = lane.pendingLookups.removeFirst()
        let terminal = TerminalCommand(
            lane: lane.id, action: .transactionDetails,
            parameters: [Parameter(name: "clientTransactionId", value: ctid)])
        let timeout = lane.timeout(for: .transactionDetails)
        let record = CommandRecord(
            id: nextLookupId(for: saleId), lane: lane.id, action: .transactionDetails, clientTransactionId: ctid,
            fingerprint: "", deadlineMs: nowMs() + Int64(timeout), waiters: [], purpose: .recoveryLookup(saleId: saleId)
        )
        store.track(record)
        lane.inFlight.start(record)
        let url = RequestURL.build(terminal, lane: lane.settings)
        emit(
            .send(lane: lane.id, message: .open(ref: Array(record.id.utf8), url: Array(url.utf8)), recordId: record.id))
    }
}
