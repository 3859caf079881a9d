import Foundation
import InterApp
import VivaCloudModels

/// A cloud lane's command whose session is in flight at Viva: what the correlator keeps beside its record.
struct CloudSessionInFlight: Equatable {
    /// The command's id.
    let recordId: String
    /// The client aborted it: a session that ends declined ends `aborted`.
    var abortRequested = false
    /// Its deadline passed and the poller was told (it deletes the session and asks until it ends); the
    /// record's deadline was moved to the backstop (``Correlator/cloudBackstopMs``).
    var deadlinePassed = false
    /// The command whose transaction it captures or refunds (`parentId`), if any.
    var parentId: String?
}

extension Correlator {
    /// How long after its deadline a cloud command may wait for its aborted session before the bridge ends it
    /// `unknown` itself: past the poller's own bound (``CloudSessionMachine/Limits/pollsAfterDeadline`` polls),
    /// with ten polls to spare.
    var cloudBackstopMs: Int64 {
        let pollMs = Int64(configuration.cloud?.pollMs ?? 1000)
        return pollMs * Int64(CloudSessionMachine.Limits().pollsAfterDeadline + 10)
    }

    /// The session id of command `id`, derived from the journal's identity; nil without one (no cloud lane).
    func cloudSessionId(of id: String) -> String? {
        cloudJournalIdentity.map { CloudSessionId.derive(journal: $0, commandId: id) }
    }

    /// Why `terminal` cannot run on `lane`'s transport although the action table takes it, or nil when it can:
    /// what a cloud lane cannot carry or needs (``CloudLaneCommand/refusal(_:id:)``) and a parent it cannot
    /// capture or refund (``cloudParentRefusal(_:id:)``); a cloud lane's `parentId` on a relay lane.
    func transportRefusal(_ terminal: TerminalCommand, id: String, lane: LaneState) -> Rejection? {
        switch lane.transport {
        case .relay: CloudLaneCommand.relayRefusal(terminal, id: id)
        case .cloud: CloudLaneCommand.refusal(terminal, id: id) ?? cloudParentRefusal(terminal, id: id)
        }
    }

    /// The parents a cloud lane's capture or referenced refund may name: a `pre_auth` for a capture; a `sale`
    /// or a capture for a refund.
    private static func parentActions(of action: TerminalAction) -> Set<TerminalAction> {
        action == .capturePreAuth ? [.preAuth] : [.sale, .capturePreAuth]
    }

    /// Why the `parentId` of `terminal` (a capture or referenced refund on a cloud lane) cannot be captured or
    /// refunded, or nil when it can: it must be a command of this journal that ended `success` on a cloud lane,
    /// of the kind the action takes. Its session id is derived from that id, so a wrong one is refused here
    /// rather than sent to Viva.
    private func cloudParentRefusal(_ terminal: TerminalCommand, id: String) -> Rejection? {
        guard let parentId = terminal.parentId else { return nil }
        let action = terminal.action
        func refused(_ code: RejectionCode, _ why: String) -> Rejection {
            Rejection(code, why, id: id, lane: terminal.lane, action: action.rawValue)
        }
        let kinds = Self.parentActions(of: action).map(\.rawValue).sorted().joined(separator: " or ")
        if let inFlight = store.record(id: parentId), !inFlight.isRecoveryLookup {
            return refused(.invalidValue, "parentId \(parentId) is still in flight; wait for its outcome")
        }
        let parent: StoredCommand?
        do {
            parent = try store.finished(id: parentId)
        } catch {
            logger.error("journal read failed", metadata: ["parentId": "\(parentId)", "error": "\(error)"])
            return refused(.journalUnavailable, "the journal cannot be read; nothing was sent; try again later")
        }
        guard let parent else {
            return refused(
                .invalidValue,
                "parentId \(parentId) is no command of this bridge's journal: a cloud lane \(action == .cancel ? "refunds" : "captures") "
                    + "only a \(kinds) it made; do it in Viva's portal otherwise")
        }
        guard Self.parentActions(of: action).contains(parent.action) else {
            return refused(
                .invalidValue,
                "parentId \(parentId) is a \(parent.action.rawValue); \(action.rawValue) takes a \(kinds)")
        }
        guard parent.state == .final, parent.outcome == .success else {
            return refused(
                .invalidValue,
                "parentId \(parentId) ended \(parent.outcome?.rawValue ?? parent.state.rawValue), not success: there is "
                    + "nothing to \(action == .cancel ? "refund" : "capture")")
        }
        guard let parentLane = parent.lane, case .cloud? = lanes[parentLane]?.transport else {
            return refused(
                .invalidValue,
                "parentId \(parentId) was made on lane \(parent.lane ?? "-"), not a cloud lane: \(action.rawValue) it there by "
                    + "referenceNumber or orderCode")
        }
        return nil
    }

    /// The request of cloud command `id` (`terminal`) under `sessionId`: a capture's or refund's parent session
    /// derived from its `parentId` as its own is.
    private func cloudRequest(
        _ terminal: TerminalCommand, id: String, sessionId: String, device: CloudTerminal
    ) -> CloudTerminalRequest {
        CloudLaneCommand.request(
            terminal, id: id, sessionId: sessionId,
            parentSessionId: terminal.parentId.flatMap(cloudSessionId(of:)), on: device)
    }

    /// Sends a journaled command of cloud lane `lane` on its way: a sale, capture or refund becomes a
    /// session (posted after this turn's commit), an `abort` deletes the session in flight.
    func sendThroughCloud(
        _ record: CommandRecord, _ terminal: TerminalCommand, lane: LaneState, device: CloudTerminal
    ) {
        guard record.action != .abort else { return abortThroughCloud(record, lane: lane) }
        guard let sessionId = cloudSessionId(of: record.id) else {
            finalize(
                record,
                .outcome(.undeliverable, "lane \(lane.id) is a cloud lane and the bridge has no vivaCloud; not sent"))
            return
        }
        lane.inFlight.start(record)
        publishProgress(record, .accepted)
        cloudSessions[sessionId] = CloudSessionInFlight(recordId: record.id, parentId: terminal.parentId)
        emit(
            .cloud(
                .begin(cloudRequest(terminal, id: record.id, sessionId: sessionId, device: device)), recordId: record.id
            ))
    }

    /// An `abort` on a cloud lane: the session of the sale in flight is deleted (the sale then ends by its
    /// own session, `aborted` when it ends without money); with nothing abortable in flight, nothing is sent.
    private func abortThroughCloud(_ abort: CommandRecord, lane: LaneState) {
        guard let sale = lane.inFlight.activity.transaction, sale.action.spec.abortable,
            let sessionId = cloudSessionId(of: sale.id), cloudSessions[sessionId] != nil
        else {
            finalize(
                abort,
                .outcome(.nothingToAbort, "nothing that can be aborted is in flight on lane \(lane.id); nothing sent"))
            return
        }
        cloudSessions[sessionId]?.abortRequested = true
        emit(.cloud(.abort(sessionId: sessionId), recordId: nil))
        var reply = Reply.outcome(
            .success,
            "Viva was asked to abort the session of \(sale.action.rawValue) \(sale.id); its own reply tells how it "
                + "ended (aborted, or approved before the abort took effect)")
        reply.ref = sale.id
        finalize(abort, reply)
    }

    /// Takes up a cloud lane's command restored from the journal: its session is asked for before anything
    /// is posted again (``CloudSessionMachine/resume()``). A command that is not a session's (an abort) ends
    /// `unknown`.
    func resumeThroughCloud(_ record: CommandRecord, lane: LaneState, device: CloudTerminal) {
        guard record.action != .abort, let sessionId = cloudSessionId(of: record.id),
            case .terminal(let terminal)? = (try? decoder.decode(Array(record.fingerprint.utf8)))?.body
        else {
            finalize(
                record,
                .outcome(
                    .unknown,
                    "\(record.action.rawValue) \(record.id) was in flight on cloud lane \(lane.id) when the bridge "
                        + "stopped, and cannot be asked for again; check Viva's portal"),
                event: .unknown)
            return
        }
        cloudSessions[sessionId] = CloudSessionInFlight(recordId: record.id, parentId: terminal.parentId)
        emit(
            .cloud(
                .resume(cloudRequest(terminal, id: record.id, sessionId: sessionId, device: device)),
                recordId: record.id))
    }

    /// The deadline of a cloud command passed. The first time, its session is aborted and polled until it
    /// ends (the record waits until the backstop); at the backstop it ends `unknown` here. Returns false when
    /// `record` has no session (the caller expires it as any other).
    func expireCloud(_ record: CommandRecord) -> Bool {
        // A relay lane's command (most expiries) costs no session id's hash.
        guard case .cloud? = lanes[record.lane]?.transport, let sessionId = cloudSessionId(of: record.id),
            let inFlight = cloudSessions[sessionId]
        else {
            return false
        }
        if !inFlight.deadlinePassed {
            cloudSessions[sessionId]?.deadlinePassed = true
            record.deadlineMs = nowMs() + cloudBackstopMs
            emit(.cloud(.deadlinePassed(sessionId: sessionId), recordId: nil))
            logger.notice(
                "cloud session still running at its deadline: aborted, and asked for until it ends",
                metadata: ["id": "\(record.id)", "lane": "\(record.lane)", "sessionId": "\(sessionId)"])
            return true
        }
        cloudSessions[sessionId] = nil
        emit(.cloud(.forget(sessionId: sessionId), recordId: nil))
        finalize(
            record,
            .outcome(
                .unknown,
                "Viva's session did not end after it was aborted at its deadline; the terminal may still have "
                    + "completed it: Viva's records are looked up for it"),
            event: .unknown)
        return true
    }

    /// What the cloud lanes' poller reported.
    package func cloudSessionReported(_ event: CloudSessionEvent) {
        switch event {
        case .posted(let sessionId):
            if let recordId = cloudSessions[sessionId]?.recordId { sent(recordId: recordId) }
        case .finished(let sessionId, let result):
            cloudSessionEnded(sessionId, result)
        case .reachable(let reachable):
            cloudReachable(reachable)
        }
    }

    private func cloudSessionEnded(_ sessionId: String, _ result: CloudSessionResult) {
        guard let inFlight = cloudSessions.removeValue(forKey: sessionId),
            let record = store.record(id: inFlight.recordId)
        else { return }
        var reply = CloudLaneCommand.reply(result, sessionId: sessionId, aborted: inFlight.abortRequested)
        if reply.outcome == .success {
            if record.action == .capturePreAuth { reply.authorisation = inFlight.parentId }
            markRefund(
                &reply, action: record.action, id: record.id, requested: record.requested?.amount, lane: record.lane)
        }
        if case .unknown(let unknown) = result, unknown.disagreement {
            var bridge = JSONObject()
            bridge["outcome"] = .string(Outcome.unknown.rawValue)
            bridge["amount"] = record.requested?.amount.map { .number(JSONNumber($0)) } ?? .null
            var viva = JSONObject()
            viva["found"] = .bool(unknown.record != nil)
            viva["checkedAt"] = .string(Timestamp.iso8601(ms: nowMs()))
            if let found = unknown.record {
                if let id = unknown.session?.transactionId { viva["transactionId"] = .string(id) }
                viva["statusId"] = .string(found.statusId.rawValue)
                viva["amount"] = .number(JSONNumber(found.amountCents))
                viva["orderCode"] = found.orderCode.map { .string($0.value) } ?? .null
            }
            publishDisagreement(
                id: record.id, action: record.action, lane: record.lane, source: "viva", message: unknown.reason,
                bridge: bridge, viva: viva)
        }
        finalize(record, reply, event: reply.outcome == .unknown ? .unknown : .result)
    }

    /// Viva's cloud answered, or stopped answering: every cloud lane's link follows.
    private func cloudReachable(_ reachable: Bool) {
        for id in laneOrder {
            guard let lane = lanes[id], case .cloud = lane.transport else { continue }
            cloudLinkChanged(lane, lane.link.cloudReachable(reachable))
        }
    }

    /// A cloud lane was opened (at start, or by a reload): its link is up until a call to Viva fails.
    package func cloudLaneOpened(_ laneId: String) {
        guard let lane = lanes[laneId] else { return }
        cloudLinkChanged(lane, lane.link.cloudReachable(true))
    }

    private func cloudLinkChanged(_ lane: LaneState, _ action: LaneLinkState.LinkAction) {
        guard action == .announce else { return }
        let endpoint = lane.configuration.endpoint
        if lane.connected {
            logger.notice(
                "cloud lane up: Viva's cloud answers", metadata: ["lane": "\(lane.id)", "endpoint": "\(endpoint)"])
            publishLaneEvent(lane.id, .connected(endpoint: endpoint))
        } else {
            logger.notice(
                "cloud lane down: Viva's cloud did not answer its last call",
                metadata: ["lane": "\(lane.id)", "endpoint": "\(endpoint)"])
            publishLaneEvent(lane.id, .disconnected(endpoint: endpoint))
        }
    }
}
