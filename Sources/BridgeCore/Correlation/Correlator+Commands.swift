import InterApp

extension Correlator {
    /// The most senders one in-flight command answers (the first and its idempotent repeats). A sender
    /// past it is answered at once `unknown` (the truth at that moment) and asks `status` later.
    static let maxWaiters = 1024
    /// The most aborts one lane may have waiting for an answer; more are `lane_busy`.
    static let maxOutstandingAborts = 8
    /// The most successful pre-authorisations a lane remembers for linking its captures (v1.1).
    static let maxRememberedAuthorisations = 256

    /// Takes one command frame from `target`: validates it, answers queries, and sends terminal
    /// commands on their way (after the journal commit the loop makes).
    /// `client` is the admitted client's name when the bridge has security (nil on plain sockets).
    package func receiveCommand(_ frame: [UInt8], from target: ReplyTarget, client: String? = nil) {
        let command: Command
        do {
            command = try decoder.decode(frame)
        } catch {
            reject(error, to: target)
            return
        }
        switch command.body {
        case .ping: answerPing(command, to: target)
        case .lanes: answerLanes(command, to: target)
        case .status(let ref): answerStatus(command, ref: ref, to: target)
        case .resolve(let ref, let outcome, let note):
            resolve(command, ref: ref, as: outcome, note: note, client: client, to: target)
        case .terminal(let terminal): receiveTerminal(command, terminal, from: target, client: client)
        }
    }

    private func receiveTerminal(
        _ command: Command, _ terminal: TerminalCommand, from target: ReplyTarget, client: String?
    ) {
        func rejection(_ code: RejectionCode, _ message: String) -> Rejection {
            Rejection(code, message, id: command.id, lane: terminal.lane, action: command.action)
        }
        if joinKnown(command, from: target) { return }
        guard phase.isRunning else {
            reject(rejection(.shuttingDown, "the bridge is shutting down; send it again once it is back"), to: target)
            return
        }
        if let problem = journalHealth.problem {
            reject(
                rejection(
                    .journalUnavailable,
                    "the journal cannot take commands (\(problem)); it was not sent; try again later"),
                to: target)
            return
        }
        guard let lane = lanes[terminal.lane], !lane.isRemoved else {
            let known = configuredLanes.joined(separator: ", ")
            reject(rejection(.unknownLane, "lane \(terminal.lane) is not configured; lanes: \(known)"), to: target)
            return
        }
        do {
            try terminal.check(platform: lane.platform)
        } catch {
            var rejection = error
            rejection.id = command.id
            reject(rejection, to: target)
            return
        }
        if let refusal = transportRefusal(terminal, id: command.id, lane: lane) {
            reject(refusal, to: target)
            return
        }
        if terminal.action != .abort, let what = Self.busyWith(lane.inFlight.activity) {
            reject(
                rejection(
                    .laneBusy, "lane \(lane.id) is busy with \(what); one transaction at a time (abort is allowed)"),
                to: target)
            return
        }
        if !lane.link.takes(terminal.action) {
            reject(
                rejection(
                    .laneBusy,
                    "lane \(lane.id) takes its reloaded settings once what is in flight on it ends; only abort is "
                        + "taken until then; try again in a moment"),
                to: target)
            return
        }
        if terminal.action == .abort, lane.inFlight.aborts.count >= Self.maxOutstandingAborts {
            reject(
                rejection(
                    .laneBusy, "lane \(lane.id) already has \(lane.inFlight.aborts.count) aborts waiting for an answer"),
                to: target)
            return
        }
        let now = nowMs()
        let timeout = command.timeoutMs ?? lane.timeout(for: terminal.action)
        let record = CommandRecord(
            id: command.id, lane: lane.id, action: terminal.action, clientTransactionId: terminal.clientTransactionId,
            fingerprint: command.fingerprint, deadlineMs: now + Int64(timeout), waiters: [target],
            purpose: .client(name: client))
        if RequestedAmounts.checkedActions.contains(terminal.action) {
            record.requested = RequestedAmounts(terminal)
        }
        record.receivedMs = now
        emit(.journal(store.accept(record, atMs: now)))
        if case .cloud(let device) = lane.transport {
            sendThroughCloud(record, terminal, lane: lane, device: device)
            return
        }
        guard lane.connected else {
            let why =
                if case .greeting = lane.link.connection { "its relay has not answered the bridge's hello" } else {
                    "it is not connected to its relay"
                }
            finalize(record, .outcome(.undeliverable, "lane \(lane.id): \(why); safe to retry under a new id"))
            return
        }
        if terminal.action == .abort { lane.inFlight.addAbort(record) } else { lane.inFlight.start(record) }
        publishProgress(record, .accepted)
        let url = RequestURL.build(terminal, lane: lane.settings)
        emit(
            .send(lane: lane.id, message: .open(ref: Array(record.id.utf8), url: Array(url.utf8)), recordId: record.id))
    }

    /// What a lane whose slot holds `activity` is busy with, for a `lane_busy` refusal; nil when idle.
    private static func busyWith(_ activity: LaneActivity) -> String? {
        switch activity {
        case .idle: nil
        case .transaction(let record): "\(record.action.rawValue) \(record.id)"
        case .recoveryLookup: "a transactionDetails look-up"
        }
    }

    /// A message of several frames with no empty delimiter before the last: not a command (a DEALER
    /// sending `[json1, json2]` would otherwise have `json1` taken for an envelope and echoed back).
    package func rejectUnframed(_ frames: Int, to target: ReplyTarget) {
        reject(
            Rejection(
                .invalidJSON,
                "a command is one frame holding one JSON object (a DEALER may send an empty frame before it); "
                    + "this message had \(frames) frames"),
            to: target)
    }

    /// Handles a command whose id is already known: joins it in flight, replays its stored reply, or
    /// rejects different content under the same id. Returns false when the id is new.
    private func joinKnown(_ command: Command, from target: ReplyTarget) -> Bool {
        let known: CommandStore.Known?
        do {
            known = try store.find(id: command.id)
        } catch {
            var lane: String?
            if case .terminal(let terminal) = command.body { lane = terminal.lane }
            rejectUnreadable(command, lane: lane, error, to: target)
            return true
        }
        switch known {
        case nil:
            return answerFilledByReference(command, to: target)
        case .finished(let stored) where FilledCommand.isFilled(stored):
            answerFilled(command, stored, to: target)
            return true
        case .outstanding(let record):
            guard record.fingerprint == command.fingerprint else {
                reject(conflict(command), to: target)
                return true
            }
            guard record.waiters.count < Self.maxWaiters else {
                let busy = Reply.outcome(
                    .unknown,
                    "\(record.action.rawValue) \(record.id) is in flight and already has \(Self.maxWaiters) senders "
                        + "waiting; its outcome is not known yet: ask status for it later")
                metrics.command(action: record.action.rawValue, outcome: .unknown, elapsedMs: 0)
                let reply = busy.addressed(
                    id: record.id, lane: record.lane, action: record.action.rawValue, client: nil)
                emit(.reply(target, id: record.id, reply.serialized))
                return true
            }
            record.waiters.append(target)
            return true
        case .finished(let stored):
            guard stored.fingerprint == command.fingerprint else {
                reject(conflict(command), to: target)
                return true
            }
            guard target != .pull else { return true }
            if let text = stored.reply {
                metrics.command(action: stored.action.rawValue, outcome: stored.outcome ?? .unknown, elapsedMs: 0)
                emit(.reply(target, id: stored.id, Array(text.utf8)))
            } else {
                answerWithoutOutcome(stored, to: target)
            }
            return true
        }
    }

    /// Not knowing whether a command is new must never make a second terminal request: it is refused.
    private func rejectUnreadable(_ command: Command, lane: String?, _ error: any Error, to target: ReplyTarget) {
        logger.error("journal read failed", metadata: ["id": "\(command.id)", "error": "\(error)"])
        reject(
            Rejection(
                .journalUnavailable,
                "the journal cannot be read, so whether id \(command.id) is new is not known; it was not sent; "
                    + "try again later",
                id: command.id, lane: lane, action: command.action),
            to: target)
    }

    /// A new id whose sale names a `clientTransactionId` of its own that a command filled from Viva's records
    /// holds (the journal lost the sale, and the till repeats it): answered from that command, never sent
    /// again. Returns false when there is none (the command is new).
    private func answerFilledByReference(_ command: Command, to target: ReplyTarget) -> Bool {
        guard case .terminal(let terminal) = command.body, FilledCommand.answeredActions.contains(terminal.action),
            let reference = terminal.clientTransactionId, reference != command.id
        else { return false }
        let known: CommandStore.Known?
        do {
            known = try store.find(id: reference)
        } catch {
            rejectUnreadable(command, lane: terminal.lane, error, to: target)
            return true
        }
        guard case .finished(let stored)? = known, FilledCommand.isFilled(stored) else { return false }
        answerFilled(command, stored, to: target)
        return true
    }

    /// A repeat of a command filled from Viva's records (``FilledCommand``): its stored reply when it asks for
    /// the money Viva recorded, else a conflict naming what Viva recorded under that reference.
    private func answerFilled(_ command: Command, _ stored: StoredCommand, to target: ReplyTarget) {
        guard case .terminal(let terminal) = command.body, FilledCommand.answers(terminal, stored),
            let reply = FilledCommand.reply(stored, to: command, lane: terminal.lane)
        else {
            var lane: String?
            if case .terminal(let terminal) = command.body { lane = terminal.lane }
            reject(
                Rejection(
                    .idConflict,
                    "\(stored.id) names a sale of \(stored.replyObject?["result"]?.objectValue?["amount"]?.intValue ?? 0) "
                        + "cents that Viva's records hold and the journal was filled with after a restore; this "
                        + "command asks for something else: use a new id (and clientTransactionId) for a new command",
                    id: command.id, lane: lane, action: command.action),
                to: target)
            return
        }
        logger.notice(
            "a repeated command was answered from Viva's record the restored journal was filled with; not sent again",
            metadata: [
                "id": "\(command.id)", "reference": "\(stored.id)", "outcome": "\(stored.outcome?.rawValue ?? "-")",
            ])
        guard target != .pull else { return }
        metrics.command(action: stored.action.rawValue, outcome: stored.outcome ?? .unknown, elapsedMs: 0)
        emit(.reply(target, id: command.id, reply))
    }

    /// A repeat of a command the journal holds with no outcome while nothing of it is in flight here (a
    /// journal restored or repaired by hand): its result is not known, and it is never sent again.
    private func answerWithoutOutcome(_ stored: StoredCommand, to target: ReplyTarget) {
        logger.warning(
            "a repeated command is journaled with no outcome and is not in flight; answered unknown",
            metadata: ["id": "\(stored.id)", "lane": "\(stored.lane ?? "-")"])
        metrics.command(action: stored.action.rawValue, outcome: .unknown, elapsedMs: 0)
        let reply = Reply.outcome(
            .unknown,
            "\(stored.action.rawValue) \(stored.id) is in the journal with no outcome and is not in flight; the "
                + "terminal may have completed it: check Viva's records, then resolve it"
        ).addressed(
            id: stored.id, lane: stored.lane ?? Topic.bridgeLane, action: stored.action.rawValue, client: stored.client)
        emit(.reply(target, id: stored.id, reply.serialized))
    }

    private func conflict(_ command: Command) -> Rejection {
        var lane: String?
        if case .terminal(let terminal) = command.body { lane = terminal.lane }
        return Rejection(
            .idConflict, "id \(command.id) was already used for a different command; use a new id for a new command",
            id: command.id, lane: lane, action: command.action)
    }

    /// The loop could not hand a URL to the lane's link: it never left, so the command is undeliverable.
    package func sendFailed(lane laneId: String, recordId: String) {
        guard let record = store.record(id: recordId) else { return }
        if case .recoveryLookup(let saleId) = record.purpose {
            logger.notice("transactionDetails look-up could not be sent", metadata: ["sale": "\(saleId)"])
            endLookup(record)
            return
        }
        finalize(
            record,
            .outcome(
                .undeliverable, "the link to lane \(laneId) could not take the request; safe to retry under a new id"))
    }

    /// The loop handed a URL to the lane's link.
    package func sent(recordId: String) {
        guard let record = store.record(id: recordId), record.progress.sent() else { return }
        if !record.isRecoveryLookup { publishProgress(record, .forwarded) }
    }
}
