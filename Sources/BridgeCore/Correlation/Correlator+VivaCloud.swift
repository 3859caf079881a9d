import InterApp
import VivaCloudModels

extension Correlator {
    /// A command ended `unknown`: with `vivaCloud`, a money command of ``VivaLookups/actions`` is looked up
    /// in Viva's records once it has been unknown for `resolveUnknownAfterMs` (docs/CLOUD.md).
    func unknownForViva(id: String, lane: String, action: TerminalAction, merchantTrns: String?, amount: Int?) {
        let now = nowMs()
        vivaLookups?.add(
            id: id, lane: lane, action: action, merchantTrns: merchantTrns, amount: amount, unknownSinceMs: now,
            nowMs: now)
    }

    /// At start: every `unknown` money command the journal holds on a configured lane is a candidate again,
    /// counted from when it was created. A journal that cannot be read is logged; none is looked up then.
    func seedVivaLookups() {
        guard vivaLookups != nil else { return }
        let now = nowMs()
        var count = 0
        for lane in laneOrder {
            for action in VivaLookups.actions {
                let unknown: [StoredCommand]
                do {
                    unknown = try store.unknownCommands(lane: lane, action: action)
                } catch {
                    logger.error(
                        "journal read failed; its unknown commands are not looked up at Viva this run",
                        metadata: ["lane": "\(lane)", "error": "\(error)"])
                    continue
                }
                for stored in unknown {
                    let added = vivaLookups?.add(
                        id: stored.id, lane: lane, action: action, merchantTrns: stored.clientTransactionId,
                        amount: RequestedAmounts(fingerprint: stored.fingerprint)?.amount,
                        unknownSinceMs: stored.createdMs, nowMs: now)
                    if added == true { count += 1 }
                }
            }
        }
        if count > 0 { logger.info("unknown commands to look up in Viva's records", metadata: ["count": "\(count)"]) }
    }

    /// The look-up of Viva's records due now, if any (none while draining or while the journal cannot be
    /// written): the loop hands it to ``VivaRecords``.
    package func takeDueVivaLookup() -> VivaLookupRequest? {
        guard phase.isRunning, journalHealth == .healthy else { return nil }
        return vivaLookups?.takeDue(nowMs: nowMs())
    }

    /// Viva answered a look-up: each candidate is settled by its ``VivaVerdict``, or looked up again later.
    package func vivaAnswered(_ answer: VivaLookupAnswer) {
        let now = nowMs()
        for id in answer.request.ids {
            guard let candidate = vivaLookups?.candidates[id] else { continue }
            if let problem = candidate.days.lazy.compactMap({ answer.failures[$0] }).first {
                metrics.cloudLookup(result: "error")
                logger.info(
                    "Viva's records could not be asked; the unknown command is looked up again later",
                    metadata: ["id": "\(id)", "error": "\(problem)"])
                lookAgain(candidate, nowMs: now)
                continue
            }
            let transactions = candidate.days.flatMap { answer.transactions[$0] ?? [] }
            let verdict = VivaVerdict.judge(
                merchantTrns: candidate.merchantTrns, amount: candidate.amount, in: transactions)
            metrics.cloudLookup(result: verdict.label)
            settle(candidate, verdict, nowMs: now)
        }
    }

    private func settle(_ candidate: VivaLookups.Candidate, _ verdict: VivaVerdict, nowMs now: Int64) {
        let found: StoredCommand?
        do {
            found = try store.finished(id: candidate.id)
        } catch {
            logger.error(
                "journal read failed; the unknown command is looked up again later",
                metadata: ["id": "\(candidate.id)", "error": "\(error)"])
            lookAgain(candidate, nowMs: now)
            return
        }
        guard let stored = found, stored.state == .final, stored.outcome == .unknown else {
            vivaLookups?.remove(candidate.id)  // resolved meanwhile, by a person or a late result
            return
        }
        switch verdict {
        case .success(let transaction), .failure(let transaction):
            resolveFromViva(stored, as: verdict.outcome ?? .unknown, transaction, lane: candidate.lane, atMs: now)
            return
        case .amountDiffers(let transaction):
            keepUnknown(stored, verdict, atMs: now)
            logger.notice(
                "Viva's records show the unknown command with another amount; it stays unknown",
                metadata: [
                    "id": "\(stored.id)", "lane": "\(candidate.lane)", "transactionId": "\(transaction.transactionId)",
                    "requested": "\(candidate.amount.map(String.init) ?? "-")", "viva": "\(transaction.amountCents)",
                ])
            publishDisagreement(
                stored, lane: candidate.lane, source: "viva",
                message: "Viva's record of this command shows another amount than the one asked; it stays unknown",
                bridge: ["outcome": .string(Outcome.unknown.rawValue), "amount": Self.number(candidate.amount)],
                viva: verdict.record(checkedAtMs: now))
        case .severalMatches(let all):
            keepUnknown(stored, verdict, atMs: now)
            logger.notice(
                "Viva's records hold several transactions for the unknown command; it stays unknown for a person to resolve",
                metadata: ["id": "\(stored.id)", "lane": "\(candidate.lane)", "matches": "\(all.count)"])
        case .notFound, .otherStatus:
            keepUnknown(stored, verdict, atMs: now)
            logger.info(
                "Viva's records do not settle the unknown command yet; looked up again later",
                metadata: ["id": "\(stored.id)", "found": "\(verdict.label)"])
        }
        if verdict.worthAnotherLook {
            lookAgain(candidate, nowMs: now)
        } else {
            vivaLookups?.remove(candidate.id)
        }
    }

    /// Due again by the schedule; when it gives up, says so.
    private func lookAgain(_ candidate: VivaLookups.Candidate, nowMs now: Int64) {
        guard vivaLookups?.lookAgain(candidate.id, nowMs: now) != nil else { return }
        logger.notice(
            "Viva's records never settled the unknown command; no more look-ups (resolve it by hand)",
            metadata: ["id": "\(candidate.id)", "lane": "\(candidate.lane)", "lookups": "\(candidate.attempts + 1)"])
    }

    /// Completes `stored` as Viva's record shows it: a resolution (`resolved.by` = `viva`, Viva's
    /// `transactionId` and `orderCode`), journaled before `<lane>.<action>.resolved` is published.
    private func resolveFromViva(
        _ stored: StoredCommand, as outcome: Outcome, _ transaction: DayTransaction, lane: String, atMs now: Int64
    ) {
        let orderCode = transaction.orderCode?.value
        var resolved = JSONObject()
        resolved["by"] = .string(Self.vivaResolver)
        resolved["at"] = .string(Timestamp.iso8601(ms: now))
        resolved["note"] = .string(
            "Viva's transaction \(transaction.transactionId) (order \(orderCode ?? "-")) has status "
                + "\(transaction.statusId.rawValue)")
        resolved["transactionId"] = .string(transaction.transactionId)
        resolved["orderCode"] = orderCode.map(JSONValue.string) ?? .null
        var reply = resolvedReply(
            stored, as: outcome, message: "resolved from Viva's records", resolved: resolved)
        var result = reply.result ?? JSONObject()
        if result["transactionId"] == nil { result["transactionId"] = .string(transaction.transactionId) }
        if result["orderCode"] == nil, let orderCode { result["orderCode"] = .string(orderCode) }
        if result["amount"] == nil { result["amount"] = .number(JSONNumber(transaction.amountCents)) }
        reply.result = result
        recordResolution(reply, of: stored, as: outcome, atMs: now)
        vivaResolutions[Self.resolutionKey(lane: lane, action: stored.action, stored.clientTransactionId)] = stored.id
        logger.notice(
            "an unknown command was resolved from Viva's records",
            metadata: [
                "id": "\(stored.id)", "lane": "\(lane)", "outcome": "\(outcome.rawValue)",
                "transactionId": "\(transaction.transactionId)",
            ])
    }

    /// `resolved.by` of a resolution from Viva's records.
    static let vivaResolver = "viva"

    /// Keeps what Viva's records show with a command that stays `unknown` (`viva` in its stored reply).
    private func keepUnknown(_ stored: StoredCommand, _ verdict: VivaVerdict, atMs now: Int64) {
        guard var reply = stored.replyObject else { return }
        reply["viva"] = .object(verdict.record(checkedAtMs: now))
        emit(
            .journal(
                store.amend(
                    stored, outcome: .unknown, reply: JSONValue.object(reply).serializedString,
                    summary: ReplySummary(storedReply: reply, fingerprint: stored.fingerprint), late: false,
                    atMs: now)))
    }

    /// Publishes `<lane>.<action>.disagreement`: what the bridge holds (`bridge`) against what the other
    /// source says (`viva`, or the terminal's late `callback`).
    func publishDisagreement(
        _ stored: StoredCommand, lane: String, source: String, message: String, bridge: JSONObject,
        viva: JSONObject? = nil, callback: JSONObject? = nil
    ) {
        publishDisagreement(
            id: stored.id, action: stored.action, lane: lane, source: source, message: message, bridge: bridge,
            viva: viva, callback: callback)
    }

    /// Publishes `<lane>.<action>.disagreement` of command `id`.
    func publishDisagreement(
        id: String, action: TerminalAction, lane: String, source: String, message: String, bridge: JSONObject,
        viva: JSONObject? = nil, callback: JSONObject? = nil
    ) {
        var details = JSONObject()
        details["source"] = .string(source)
        details["message"] = .string(message)
        details["bridge"] = .object(bridge)
        if let viva { details["viva"] = .object(viva) }
        if let callback { details["callback"] = .object(callback) }
        emit(.publish(.disagreement(id: id, lane: lane, action: action.rawValue, details: details)))
    }

    /// A late callback for a command Viva's records resolved, that the late-result rule does not complete (a
    /// failure after a resolved success): journaled against the command and published as a `disagreement`; the
    /// resolution stands. Returns whether it was one. The command is found from this run's resolutions, or in
    /// the journal by id when its `clientTransactionId` is its id (what the bridge fills in when the command
    /// had none): the journal has no index of the ids a client chose that holds successes.
    func lateCallbackAgainstVivaResolution(_ callback: ReceivedCallback, action: TerminalAction, lane: LaneState)
        -> Bool
    {
        guard let ctid = callback.clientTransactionId,
            let stored = try? store.finished(
                id: vivaResolutions[Self.resolutionKey(lane: lane.id, action: action, ctid)] ?? ctid),
            stored.lane == lane.id, stored.action == action, stored.clientTransactionId == ctid,
            Self.resolvedByViva(stored), let outcome = stored.outcome, (outcome == .success) != callback.isSuccess
        else { return false }
        journalCallback(callback, lane: lane.id, matched: (stored.id, stored.seq), disposition: .late)
        logger.notice(
            "a late callback disagrees with Viva's records, which resolved the command; the resolution stands",
            metadata: ["id": "\(stored.id)", "lane": "\(lane.id)", "resolved": "\(outcome.rawValue)"])
        publishDisagreement(
            stored, lane: lane.id, source: "callback",
            message: "the terminal's late answer disagrees with Viva's records, which resolved this command",
            bridge: ["outcome": .string(outcome.rawValue), "resolvedBy": .string(Self.vivaResolver)],
            callback: Self.callbackSummary(callback))
        return true
    }

    /// After a late result completed `stored` (``completeLate(_:lane:_:)``): when Viva's records had
    /// resolved it otherwise, the two disagree, and that is published.
    func checkLateAgainstVivaResolution(_ stored: StoredCommand, _ callback: ReceivedCallback, lane: String) {
        guard Self.resolvedByViva(stored), let outcome = stored.outcome, (outcome == .success) != callback.isSuccess
        else { return }
        logger.notice(
            "a late callback disagrees with Viva's records, which resolved the command",
            metadata: ["id": "\(stored.id)", "lane": "\(lane)", "resolved": "\(outcome.rawValue)"])
        publishDisagreement(
            stored, lane: lane, source: "callback",
            message: "the terminal's late answer disagrees with Viva's records, which had resolved this command",
            bridge: ["outcome": .string(outcome.rawValue), "resolvedBy": .string(Self.vivaResolver)],
            callback: Self.callbackSummary(callback))
    }

    private static func callbackSummary(_ callback: ReceivedCallback) -> JSONObject {
        ["status": .string(callback.status), "message": .string(callback.message), "result": .object(callback.result)]
    }

    private static func resolutionKey(lane: String, action: TerminalAction, _ ctid: String?) -> String {
        "\(lane)\u{1}\(action.rawValue)\u{1}\(ctid ?? "")"
    }

    /// Whether `stored`'s reply says Viva's records resolved it (`resolved.by`).
    private static func resolvedByViva(_ stored: StoredCommand) -> Bool {
        stored.replyObject?["resolved"]?.objectValue?["by"]?.stringValue == vivaResolver
    }

    private static func number(_ value: Int?) -> JSONValue { value.map { .number(JSONNumber($0)) } ?? .null }
}
