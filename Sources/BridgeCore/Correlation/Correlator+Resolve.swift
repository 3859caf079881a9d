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
        let stored: StoredCommand
        do throws(ResolveRefusal) {
            try checkMayResolve(client)
            stored = try unknownCommand(ref)
        } catch {
            reject(Rejection(error.code, error.message, id: command.id, action: command.action), to: target)
            return
        }
        let now = nowMs()
        var resolved = JSONObject()
        resolved["by"] = client.map(JSONValue.string) ?? .null
        resolved["at"] = .string(Timestamp.iso8601(ms: now))
        resolved["note"] = note.map(JSONValue.string) ?? .null
        let reply = resolvedReply(
            stored, as: outcome, message: "resolved by hand" + (note.map { ": \($0)" } ?? ""), resolved: resolved)
        recordResolution(reply, of: stored, as: outcome, atMs: now)
        logger.notice(
            "an unknown command was resolved by hand",
            metadata: ["id": "\(stored.id)", "outcome": "\(outcome.rawValue)", "by": "\(client ?? "-")"])
        var result = JSONObject()
        result["ref"] = .string(stored.id)
        result["outcome"] = .string(outcome.rawValue)
        result["reply"] = .object(reply.json)
        answerQuery(command, result, to: target)
    }

    /// Refuses a client that may not resolve (with security, one without the `admin` role), and any resolve
    /// while the journal cannot be written.
    private func checkMayResolve(_ client: String?) throws(ResolveRefusal) {
        guard mayResolve(client) else {
            throw ResolveRefusal(
                .notAllowed, "resolve needs the admin role; client \(client ?? "-") does not have it (docs/SECURITY.md)"
            )
        }
        if let problem = journalHealth.problem {
            throw ResolveRefusal(
                .journalUnavailable, "the journal cannot be written (\(problem)); nothing was changed; try again later")
        }
    }

    /// The command `ref`, when it ended `unknown`; refused when it is still in flight, ended any other way,
    /// is not known, or the journal cannot be read.
    private func unknownCommand(_ ref: String) throws(ResolveRefusal) -> StoredCommand {
        if let record = store.record(id: ref), !record.isRecoveryLookup {
            throw ResolveRefusal(
                .notUnknown, "\(ref) is still in flight (\(record.state.rawValue)); wait for its outcome")
        }
        let found: StoredCommand?
        do {
            found = try store.finished(id: ref)
        } catch {
            logger.error("journal read failed", metadata: ["ref": "\(ref)", "error": "\(error)"])
            throw ResolveRefusal(
                .journalUnavailable, "the journal cannot be read; \(ref) was not changed; try again later")
        }
        guard let stored = found else { throw ResolveRefusal(.notUnknown, "no command has the id \(ref)") }
        guard stored.state == .final, stored.outcome == .unknown else {
            throw ResolveRefusal(
                .notUnknown,
                "\(ref) ended \(stored.outcome?.rawValue ?? stored.state.rawValue), not unknown: only an unknown command can be resolved"
            )
        }
        return stored
    }

    /// The reply that replaces `stored`'s: `outcome` with `message`, the result it had kept, its earlier
    /// outcome and message (`earlier`), and `resolved`: who (a client by hand, `viva` from Viva's records),
    /// when, the note.
    func resolvedReply(_ stored: StoredCommand, as outcome: Outcome, message: String, resolved: JSONObject) -> Reply {
        let earlierReply = stored.replyObject
        var reply = Reply(
            id: stored.id, lane: stored.lane, action: stored.action.rawValue, outcome: outcome, message: message)
        reply.client = stored.client
        reply.reason = outcome == .failure ? .other : nil
        reply.result = earlierReply?["result"]?.objectValue
        reply.earlier = stored.earlier(earlierReply)
        reply.resolved = resolved
        return reply
    }

    /// Journals `reply` as `stored`'s new one, moves today's count from `unknown` to `outcome`, drops a
    /// look-up still planned for it and publishes `<lane>.<action>.resolved`.
    func recordResolution(_ reply: Reply, of stored: StoredCommand, as outcome: Outcome, atMs now: Int64) {
        let bytes = reply.serialized
        emit(
            .journal(
                store.amend(
                    stored, outcome: outcome, reply: String(decoding: bytes, as: UTF8.self),
                    summary: ReplySummary(reply: reply, fingerprint: stored.fingerprint), late: false, atMs: now)))
        emit(
            .countOutcome(
                .init(
                    id: stored.id, action: stored.action.rawValue, receivedMs: stored.createdMs,
                    outcome: outcome.rawValue,
                    earlier: Outcome.unknown.rawValue)))
        vivaLookups?.remove(stored.id)
        if let lane = stored.lane {
            lanes[lane]?.pendingLookups.removeAll { $0.saleId == stored.id }
            emit(.publish(.reply(lane: lane, action: stored.action.rawValue, .resolved, id: stored.id, bytes)))
        }
    }
}

/// Why a `resolve` is refused: its rejection's code and message.
private struct ResolveRefusal: Error {
    let code: RejectionCode
    let message: String

    init(_ code: RejectionCode, _ message: String) {
        self.code = code
        self.message = message
    }
}
