import InterApp

extension Correlator {
    /// `resolve`: closes the `unknown` command `ref` by hand with `outcome`, as the terminal or Viva's back
    /// office showed it. Journaled (its stored reply gets the new outcome, `earlier` and `resolved`: who,
    /// when, the note) before the answer leaves and `<lane>.<action>.resolved` is published.
    ///
    /// With security only a client with the `admin` role may send it (`not_allowed` otherwise); only an
    /// `unknown` command can be resolved (`not_unknown` otherwise: one still in flight, one that ended any
    /// other way, or no command at all).
    func resolve(
        _ command: Command, ref: String, as outcome: Outcome, note: String?, client: String?, to target: ReplyTarget
    ) {
        func refuse(_ code: RejectionCode, _ message: String) {
            reject(Rejection(code, message, id: command.id, action: command.action), to: target)
        }
        guard mayResolve(client) else {
            refuse(
                .notAllowed,
                "resolve needs the admin role; client \(client ?? "-") does not have it (docs/SECURITY.md)")
            return
        }
        if let problem = journalProblem {
            refuse(
                .journalUnavailable, "the journal cannot be written (\(problem)); nothing was changed; try again later")
            return
        }
        if let record = store.record(id: ref), !record.isRecoveryLookup {
            refuse(.notUnknown, "\(ref) is still in flight (\(record.state.rawValue)); wait for its outcome")
            return
        }
        let found: StoredCommand?
        do {
            found = try store.finished(id: ref)
        } catch {
            logger.error("journal read failed", metadata: ["ref": "\(ref)", "error": "\(error)"])
            refuse(.journalUnavailable, "the journal cannot be read; \(ref) was not changed; try again later")
            return
        }
        guard let stored = found else {
            refuse(.notUnknown, "no command has the id \(ref)")
            return
        }
        guard stored.state == .final, stored.outcome == Outcome.unknown.rawValue else {
            refuse(
                .notUnknown,
                "\(ref) ended \(stored.outcome ?? stored.state.rawValue), not unknown: only an unknown command can be resolved"
            )
            return
        }
        let now = nowMs()
        let earlierReply = stored.replyObject
        var reply = Reply(
            id: stored.id, lane: stored.lane, action: stored.action, outcome: outcome,
            message: "resolved by hand" + (note.map { ": \($0)" } ?? ""))
        reply.client = stored.client
        reply.reason = outcome == .failure ? .other : nil
        reply.result = earlierReply?["result"]?.objectValue
        reply.earlier = stored.earlier(earlierReply)
        var resolved = JSONObject()
        resolved["by"] = client.map(JSONValue.string) ?? .null
        resolved["at"] = .string(Timestamp.iso8601(ms: now))
        resolved["note"] = note.map(JSONValue.string) ?? .null
        reply.resolved = resolved
        let json = reply.json
        let text = JSONValue.object(json).serializedString
        emit(
            .journal(
                store.amend(
                    stored, outcome: outcome.rawValue, reply: text,
                    summary: ReplySummary(reply: json, fingerprint: stored.fingerprint), late: false, atMs: now)))
        emit(
            .countOutcome(
                .init(
                    id: stored.id, action: stored.action, receivedMs: stored.createdMs, outcome: outcome.rawValue,
                    earlier: Outcome.unknown.rawValue)))
        if let lane = stored.lane {
            lanes[lane]?.pendingLookups.removeAll { $0.saleId == stored.id }
            emitEvent(.command(lane: lane, action: stored.action, .resolved), json)
        }
        logger.notice(
            "an unknown command was resolved by hand",
            metadata: ["id": "\(stored.id)", "outcome": "\(outcome.rawValue)", "by": "\(client ?? "-")"])
        var result = JSONObject()
        result["ref"] = .string(stored.id)
        result["outcome"] = .string(outcome.rawValue)
        result["reply"] = .object(json)
        answerQuery(command, result, to: target)
    }
}
