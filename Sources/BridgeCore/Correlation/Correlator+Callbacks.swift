import Foundation
import InterApp

extension Correlator {
    /// Matches a callback URL to what is outstanding on its lane (PROTOCOL.md section 6).
    func receiveCallback(_ bytes: [UInt8], lane: LaneState, relay: RelayCallbackKey? = nil) {
        let now = nowMs()
        lane.lastCallbackMs = now
        let callback: ReceivedCallback
        do {
            callback = ReceivedCallback(try CallbackParser.parse(bytes), relay: relay)
        } catch {
            metrics.callback(.unparsable)
            let text = Redaction.maskDigitRuns(String(decoding: bytes, as: UTF8.self))
            unparsableCallback(lane: lane, raw: text, problem: error.message, relay: relay)
            return
        }
        switch callback.kind {
        case .abort(let answer): abortAnswered(callback, answer, lane: lane)
        case .transaction(.sale): saleCallback(callback, lane: lane)
        case .transaction(let action): otherCallback(callback, action: action, lane: lane)
        case .other(let name): unknownActionCallback(callback, name: name, lane: lane)
        }
    }

    /// A callback whose action this version does not know belongs to the command in flight when it carries
    /// that command's `clientTransactionId`, and ends it as ``Callback/baseOutcome`` says. A cardholder's
    /// cancel (`User_cancel`, a failure whatever its status) that names no id also belongs to the command
    /// in flight when it is the only one on the lane. Anything else is an orphan: an unknown action with
    /// no id never decides a command's money.
    private func unknownActionCallback(_ callback: ReceivedCallback, name: String, lane: LaneState) {
        guard let current = lane.inFlight.activity.transaction else {
            orphan(callback, lane: lane, action: name)
            return
        }
        let ctid = callback.clientTransactionId
        let named = ctid != nil && ctid == current.clientTransactionId
        let alone =
            ctid == nil && callback.callback.isCardholderCancelAction && lane.inFlight.aborts.isEmpty
            && lane.inFlight.graceSales.isEmpty
        guard named || alone else {
            orphan(callback, lane: lane, action: name)
            return
        }
        journalCallback(
            callback, lane: lane.id, matched: (current.id, current.journalSeq), disposition: .matchedUnknownAction)
        finalize(current, outcome(of: callback))
    }

    /// The outcome a transaction callback reports by itself.
    func outcome(of callback: ReceivedCallback) -> Reply {
        var outcome = Reply.outcome(callback.callback.baseOutcome, callback.message, result: callback.result)
        outcome.reason = callback.callback.failureReason
        return outcome
    }

    func journalCallback(
        _ callback: ReceivedCallback, lane: String, matched: (id: String, seq: Int64?)?,
        disposition: CallbackDisposition
    ) {
        switch disposition {
        case .late: metrics.callback(.late)
        case .orphan: break  // counted by orphan(_:lane:action:), suppressed ones too
        default: metrics.callback(.matched)
        }
        var fields = callback.result
        fields["status"] = .string(callback.status)
        fields["message"] = .string(callback.message)
        emit(
            .journal(
                .callback(
                    lane: lane, atMs: nowMs(), fields: JSONValue.object(fields).serializedString,
                    matchedId: matched?.id,
                    commandSeq: matched?.seq, disposition: disposition, relay: callback.relay)))
    }

    // MARK: Sales

    private func saleCallback(_ callback: ReceivedCallback, lane: LaneState) {
        let ctid = callback.clientTransactionId
        if let current = lane.inFlight.activity.transaction, current.action == .sale,
            ctid == nil || ctid == current.clientTransactionId
        {
            journalCallback(callback, lane: lane.id, matched: (current.id, current.journalSeq), disposition: .matched)
            let abortsOutstanding = lane.inFlight.aborts
            finalize(current, outcome(of: callback))
            for abort in abortsOutstanding {
                var superseded = Reply.outcome(.superseded, "the sale went on; its own reply tells how it ended")
                superseded.ref = current.id
                finalize(abort, superseded)
            }
            return
        }
        if let index = lane.inFlight.graceSales.firstIndex(where: {
            $0.sale.action == .sale && (ctid == nil || $0.sale.clientTransactionId == ctid)
        }) {
            resolveGrace(at: index, with: callback, lane: lane)
            return
        }
        if lateResult(callback, action: .sale, lane: lane) { return }
        if let ctid, let current = lane.inFlight.activity.transaction, current.action == .sale,
            Self.echoedWithoutEncoding(received: ctid, sent: current.clientTransactionId)
        {
            journalCallback(
                callback, lane: lane.id, matched: (current.id, current.journalSeq),
                disposition: .matchedUnencodedEcho)
            logger.notice(
                "sale callback matched by a clientTransactionId the app echoed without encoding",
                metadata: ["id": "\(current.id)", "lane": "\(lane.id)"])
            finalize(current, outcome(of: callback))
            return
        }
        orphan(callback, lane: lane, action: "sale")
    }

    /// Whether a callback's `clientTransactionId` is what the app makes of `sent` when it echoes it
    /// back unencoded: cut at a raw `&` (a prefix), or still percent-encoded. Only ids holding
    /// characters outside RFC 3986's unreserved set can be mangled so; for the others the match is exact.
    static func echoedWithoutEncoding(received: String, sent: String?) -> Bool {
        guard let sent, !received.isEmpty, received != sent else { return false }
        guard !PercentEncoding.isUnreserved(sent) else { return false }
        return sent.hasPrefix(received) || PercentEncoding.decoded(received) == sent
    }

    /// Completes a finished command with a callback that came after it ended (`late_result`), when the
    /// callback names it: actions whose answers name their command by `clientTransactionId` (a sale, a
    /// pre-auth, money given back), and captures by their authorisation (``lateCapture(lane:result:)``).
    /// Returns whether it did.
    private func lateResult(_ callback: ReceivedCallback, action: TerminalAction, lane: LaneState) -> Bool {
        let found: StoredCommand?
        if action == .capturePreAuth {
            found = lateCapture(lane: lane, result: callback.result)
        } else if action.spec.fillsClientTransactionId, let ctid = callback.clientTransactionId {
            found = store.lateCommand(
                lane: lane.id, action: action, clientTransactionId: ctid, success: callback.isSuccess)
        } else {
            found = nil
        }
        guard let stored = found else {
            return vivaLookups != nil && lateCallbackAgainstVivaResolution(callback, action: action, lane: lane)
        }
        journalCallback(callback, lane: lane.id, matched: (stored.id, stored.seq), disposition: .late)
        var final = outcome(of: callback)
        let requested = RequestedAmounts(fingerprint: stored.fingerprint)?.amount
        markSuccess(&final, action: action, id: stored.id, requested: requested, lane: lane)
        completeLate(stored, lane: lane.id, final)
        checkLateAgainstVivaResolution(stored, callback, lane: lane.id)
        return true
    }

    // MARK: Aborts

    private func abortAnswered(_ callback: ReceivedCallback, _ answer: Callback.AbortAnswer, lane: LaneState) {
        guard let abort = lane.inFlight.aborts.first else {
            orphan(callback, lane: lane, action: "abort")
            return
        }
        journalCallback(callback, lane: lane.id, matched: (abort.id, abort.journalSeq), disposition: .matched)
        switch answer {
        case .nothingToAbort:
            finalize(abort, Reply.outcome(.nothingToAbort, callback.message, result: callback.result))
        case .aborted:
            guard let sale = lane.inFlight.activity.transaction, sale.action.spec.abortable else {
                finalize(abort, Reply.outcome(.success, callback.message, result: callback.result))
                return
            }
            let grace = GraceSale(
                sale: sale, abort: abort, abortMessage: callback.message, abortResult: callback.result,
                untilMs: nowMs() + Int64(configuration.abortGraceMs))
            lane.inFlight.stop(for: grace, keep: configuration.abortGraceMs > 0)
            if configuration.abortGraceMs == 0 { endGrace(grace) }
        case .unrecognized:
            finalize(abort, outcome(of: callback))
        }
    }

    /// The stopped transaction's own callback came within the grace period: only a success overrules
    /// the abort; otherwise the transaction stays aborted and keeps what its callback said.
    private func resolveGrace(at index: Int, with callback: ReceivedCallback, lane: LaneState) {
        let grace = lane.inFlight.takeGraceSale(at: index)
        journalCallback(
            callback, lane: lane.id, matched: (grace.sale.id, grace.sale.journalSeq), disposition: .matched)
        if callback.isSuccess {
            finalize(grace.sale, outcome(of: callback))
            var superseded = Reply.outcome(.superseded, "the transaction completed before the abort took effect")
            superseded.ref = grace.sale.id
            finalize(grace.abort, superseded)
        } else {
            finalize(grace.sale, Reply.outcome(.aborted, callback.message, result: callback.result))
            finalize(
                grace.abort, Reply.outcome(.success, grace.abortMessage, result: grace.abortResult))
        }
    }

    /// The grace period passed with no sale callback: the abort stands.
    func endGrace(_ grace: GraceSale) {
        finalize(grace.sale, Reply.outcome(.aborted, grace.abortMessage, result: grace.abortResult))
        finalize(grace.abort, Reply.outcome(.success, grace.abortMessage, result: grace.abortResult))
    }

    // MARK: Cancel, batch, transactionDetails

    private func otherCallback(_ callback: ReceivedCallback, action: TerminalAction, lane: LaneState) {
        // An action whose command names itself by clientTransactionId (pre_auth) takes only its own answer.
        let ctid = callback.clientTransactionId
        let current = lane.inFlight.activity.record
        let named = !action.spec.fillsClientTransactionId || ctid == nil || ctid == current?.clientTransactionId
        guard let current, current.action == action, named else {
            if let index = lane.inFlight.graceSales.firstIndex(where: { $0.sale.action == action }) {
                resolveGrace(at: index, with: callback, lane: lane)
            } else if !lateResult(callback, action: action, lane: lane) {
                orphan(callback, lane: lane, action: action.rawValue)
            }
            return
        }
        if case .recoveryLookup(_, let saleId) = lane.inFlight.activity {
            journalCallback(callback, lane: lane.id, matched: (current.id, current.journalSeq), disposition: .lookup)
            endLookup(current)
            lookupAnswered(callback, saleId: saleId, lane: lane)
            return
        }
        journalCallback(callback, lane: lane.id, matched: (current.id, current.journalSeq), disposition: .matched)
        if action == .batch && callback.isSuccess { batchChanged(callback, lane: lane) }
        var final = outcome(of: callback)
        markSuccess(&final, action: action, id: current.id, requested: current.requested?.amount, lane: lane)
        finalize(current, final)
    }

    /// What a successful answer adds for its action, on time or late: a pre-auth is remembered for its
    /// captures, a capture names the authorisation it took, money given back to a card (``ActionSpec/refund``)
    /// is logged at notice level and marked in the reply (so in the journal, the `result` event and `status`),
    /// with the amount the terminal reports (else the one asked).
    func markSuccess(_ reply: inout Reply, action: TerminalAction, id: String, requested: Int?, lane: LaneState) {
        guard reply.outcome == .success else { return }
        switch action {
        case .preAuth: remember(Authorisation(id: id, result: reply.result), lane: lane)
        case .capturePreAuth: reply.authorisation = authorisation(namedBy: reply.result, lane: lane)
        default: break
        }
        markRefund(&reply, action: action, id: id, requested: requested, lane: lane.id)
    }

    /// Marks a successful answer that gave money back to a card (``ActionSpec/refund``) in the reply (so in
    /// the journal, the `result` event and `status`), with the amount the terminal reports (else the one
    /// asked), and logs it at notice level.
    func markRefund(_ reply: inout Reply, action: TerminalAction, id: String, requested: Int?, lane: String) {
        guard let mark = action.spec.refund else { return }
        let amount = reply.result?["amount"]?.intValue ?? requested
        logger.notice(
            "money given back to a card",
            metadata: [
                "id": "\(id)", "lane": "\(lane)", "refund": "\(mark.key)",
                "amount": "\(amount.map(String.init) ?? "-")",
            ])
        reply.refund = [mark.key: .bool(true), "amount": amount.map { .number(JSONNumber($0)) } ?? .null]
    }

    /// Keeps a successful pre-authorisation for the captures to come, newest last, bounded.
    private func remember(_ authorisation: Authorisation, lane: LaneState) {
        lane.authorisations.append(authorisation)
        if lane.authorisations.count > Self.maxRememberedAuthorisations { lane.authorisations.removeFirst() }
    }

    /// The answer to the bridge's `transactionDetails` look-up of an `unknown` sale. Its `status` says
    /// whether the look-up worked, not whether the sale was approved: Viva's page says the answer
    /// describes declined transactions too. Only an authorisation code proves approval (declines carry
    /// none, as Viva's own decline example shows); without one the sale stays `unknown`, with the details
    /// attached to its stored reply so `status` shows them. A decline is never turned into success.
    private func lookupAnswered(_ callback: ReceivedCallback, saleId: String, lane: LaneState) {
        guard callback.isSuccess else {
            logger.info(
                "transactionDetails did not find the unknown sale; it stays unknown", metadata: ["id": "\(saleId)"])
            return
        }
        let stored = try? store.finished(id: saleId)
        guard let stored, stored.outcome == .unknown else { return }
        let approved = callback.field("authorisationCode").map { !$0.allSatisfy(\.isWhitespace) } ?? false
        guard approved else {
            attachLookup(callback, to: stored)
            return
        }
        completeLate(
            stored, lane: lane.id, Reply.outcome(.success, callback.message, result: callback.result))
    }

    /// Keeps a look-up's details with a sale that stays `unknown` (`lookup` in its stored reply).
    private func attachLookup(_ callback: ReceivedCallback, to stored: StoredCommand) {
        logger.notice(
            "transactionDetails found the unknown sale but does not show it approved; it stays unknown",
            metadata: ["id": "\(stored.id)"])
        guard var reply = stored.replyObject else { return }
        var lookup = callback.result
        lookup["message"] = .string(callback.message)
        reply["lookup"] = .object(lookup)
        let updated = JSONValue.object(reply).serializedString
        let summary = ReplySummary(storedReply: reply, fingerprint: stored.fingerprint)
        emit(
            .journal(
                store.amend(
                    stored, outcome: .unknown, reply: updated, summary: summary, late: false,
                    atMs: nowMs())))
    }

    private func batchChanged(_ callback: ReceivedCallback, lane: LaneState) {
        let name = callback.field("batchName")
        let id = callback.field("batchId")
        /// A batch closed: as the lane knew it, what it did not know as the callback names it.
        func closed(_ old: OpenBatch?, _ reason: BatchEventBody.Closing) -> BatchEventBody {
            .closed(name: old?.name ?? name, id: old?.id ?? id, reason: reason)
        }
        switch callback.field("command")?.lowercased() {
        case "open":
            if let old = lane.openBatch { publishBatchEvent(lane.id, closed(old, .replaced)) }
            let batch = OpenBatch(name: name, id: id, openedAtMs: nowMs())
            lane.openBatch = batch
            emit(.journal(.batch(lane: lane.id, batch)))
            publishBatchEvent(lane.id, .opened(name: name, id: id, automatic: false))
        case "close":
            let old = lane.openBatch
            lane.openBatch = nil
            emit(.journal(.batch(lane: lane.id, nil)))
            publishBatchEvent(lane.id, closed(old, .command))
        default:
            break
        }
    }

    // MARK: Orphans

    private func orphan(_ callback: ReceivedCallback, lane: LaneState, action: String) {
        metrics.callback(.orphan)
        guard admitOrphan(lane) else { return }
        journalCallback(callback, lane: lane.id, matched: nil, disposition: .orphan)
        publishOrphan(
            lane: lane.id, action: action,
            .read(status: callback.status, message: callback.message, result: callback.result))
    }

    /// A callback that could not be parsed: journaled and published as an orphan, `raw` and `problem`.
    private func unparsableCallback(lane: LaneState, raw: String, problem: String, relay: RelayCallbackKey?) {
        guard admitOrphan(lane) else { return }
        let fields: JSONObject = ["raw": .string(raw), "problem": .string(problem)]
        emit(
            .journal(
                .callback(
                    lane: lane.id, atMs: nowMs(), fields: JSONValue.object(fields).serializedString,
                    matchedId: nil, commandSeq: nil, disposition: .orphan, relay: relay)))
        publishOrphan(lane: lane.id, action: "unknown", .unparsable(raw: raw, problem: problem))
    }

    private func publishOrphan(lane: String, action: String, _ callback: OrphanCallback) {
        emit(.publish(.orphan(lane: lane, action: action, callback)))
    }
}
