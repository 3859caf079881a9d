import BridgeCore
import BridgeJournal
import Foundation
import InterApp

extension BridgeLoop {
    /// Hands each turn's journal entries to the ``JournalWriter`` and keeps its sends, replies and events
    /// until the writer says the turn is committed (``collectCommits()``): nothing leaves before the
    /// journal holds it. A turn that writes nothing leaves at once, unless a turn before it still waits.
    /// While a failed write is held (``journalWriteFailed(_:effects:)``), turns that write wait behind it.
    func carryOutEffects() {
        while let (number, effects) = correlator.takeTurn() {
            var entries: [JournalEntry] = []
            for case .journal(let entry) in effects { entries.append(entry) }
            if held.isActive {
                if entries.isEmpty {
                    perform(effects)
                } else {
                    held.append(entries: entries, effects: effects)
                }
                continue
            }
            guard !entries.isEmpty else {
                if pending.isEmpty { perform(effects) } else { pending.append(waiting: effects) }
                continue
            }
            pending.append(writing: number, effects: effects)
            // Nothing ahead of it and nothing behind (a sale at a time): committed here, when the journal is
            // free, so that no thread's wake-up is paid (JournalWriter.commitHere).
            if pending.count == 1, writer.commitsHere, entries.count <= Self.entriesCommittedHere,
                !correlator.hasEffects, let report = writer.commitHere(turn: number, entries: entries)
            {
                take(report)
            } else {
                writer.submit(turn: number, entries: entries)
            }
        }
    }

    /// The most journal entries of a turn the loop commits itself, when nothing waits for the writer (an
    /// accepted command, an outcome and its callback): a larger turn means load, which the writer's thread
    /// takes so that the loop goes on reading meanwhile.
    static let entriesCommittedHere = 3

    /// Carries out the turns the journal writer committed since the last call, in order; hands a failed
    /// write, and every turn still waiting, to ``journalWriteFailed(_:effects:)``.
    func collectCommits() {
        let (reports, wakeDrained) = writer.takeReports()
        if wakeDrained { sockets.drained(writer.wake) }
        for report in reports { take(report) }
    }

    /// Carries out what a commit's report says: the turns it committed, in order; or a failed write, with
    /// every turn still waiting (``journalWriteFailed(_:effects:)``).
    private func take(_ report: JournalWriter.Report) {
        switch report {
        case .committed(let number):
            correlator.journalCommitted(through: number)
            for effects in pending.takeCommitted(through: number) { perform(effects) }
        case .failed(_, let problem):
            writer.takeFailure()
            let uncommitted = pending.takeAll()
            journalWriteFailed(problem, effects: uncommitted.writing)
            // What only waited behind the failed turns (answers to queries, refusals) needs no journal:
            // it leaves now, as it would have while the failed write is held.
            perform(uncommitted.waiting)
        }
    }

    /// Sends, replies and publishes, in order; journal entries are skipped (already committed).
    func perform(_ effects: [Effect]) {
        for effect in effects {
            switch effect {
            case .journal: continue
            case .send(let lane, let message, let recordId):
                guard !endedBeforeCommit(recordId, lane: lane) else { continue }
                let sent = sendToRelay(lane, message.frames)
                if let recordId {
                    if sent {
                        correlator.sent(recordId: recordId)
                    } else {
                        correlator.sendFailed(lane: lane, recordId: recordId)
                    }
                }
            case .cloud(let request, let recordId):
                guard !endedBeforeCommit(recordId, lane: nil) else { continue }
                if !carryToCloud(request), let recordId, let lane = correlator.store.record(id: recordId)?.lane {
                    correlator.sendFailed(lane: lane, recordId: recordId)
                }
            case .reply(let target, let id, let reply):
                sendReply(reply, id: id, to: target)
            case .snapshotReply(let target, var reply):
                var result = reply.result ?? JSONObject()
                result["epoch"] = .number(JSONNumber(stamper.epoch))
                result["seq"] = .number(JSONNumber(stamper.seq))
                reply.result = result
                sendReply(reply.serialized, id: reply.id, to: target)
            case .publish(let event):
                publish(event)
            case .countOutcome(let change):
                today.record(change)
            case .openLink(let lane):
                openLink(lane)
            case .closeLink(let lane):
                closeLink(lane)
            }
        }
    }

    /// Whether command `recordId` ended while its turn waited for its commit (a deadline passed during a
    /// commit that took longer than it): its request is not sent, so the terminal never runs a command whose
    /// caller was already answered. Logged when so.
    private func endedBeforeCommit(_ recordId: String?, lane: String?) -> Bool {
        guard let recordId, correlator.store.record(id: recordId) == nil else { return false }
        logger.notice(
            "request not sent: its command ended before its journal commit completed",
            metadata: ["lane": "\(lane ?? "-")", "id": "\(recordId)"])
        return true
    }

    /// Sends a serialized reply (to command `id`) to its caller on the command socket, without waiting.
    private func sendReply(_ reply: [UInt8], id: String?, to target: ReplyTarget) {
        guard case .router(let envelope) = target else { return }
        // A send can take in the news of a message arrived meanwhile: the socket is asked again before the wait.
        defer { sockets.touched(own.commands) }
        let undelivered: UndeliveredReplies.Reason
        do {
            if try own.commands.send(envelope + [reply], wait: false) { return }
            undelivered = .notReading
        } catch {
            undelivered = .gone
        }
        undeliveredReplies.record(undelivered, id: id, nowMs: clock.nowMs(), metrics: metrics, logger: logger)
    }

    /// Publishes one event now, stamped; counted but not built when nobody subscribed to its topic.
    func publish(_ event: PublishedEvent) {
        let (topic, body) = (event.topic, event.body)
        metrics.shared.eventsPublished.increment()
        let tap = observation.tap
        // Before the viewers are looked at: a viewer that joins reads it to know which snapshot starts it.
        tap.deciding(seq: stamper.seq + 1)
        let viewed = tap.hasViewers
        // Nobody subscribed to anything (the usual case under load): not even the topic is written out.
        guard hasSubscribers || viewed else {
            stamper.skip()
            return
        }
        let topicBytes = topic.utf8
        let subscribed = wanted(topicBytes)
        let tapped = viewed && tapOutbox.wants(topicBytes, of: tap)
        guard subscribed || tapped else {
            stamper.skip()
            return
        }
        let nowMs = clock.nowMs()
        guard subscribed else {
            // For the tap alone: stamped straight into the turn's tap message.
            EventTap.append(topic: topicBytes, to: &tapOutbox.message) { stamper.stamp(body, nowMs: nowMs, into: &$0) }
            return
        }
        let stamped = stamper.stamped(body, nowMs: nowMs)
        _ = try? own.events.send([topicBytes, stamped], wait: false)
        sockets.touched(own.events)  // as after a reply
        if tapped { EventTap.append(topic: topicBytes, to: &tapOutbox.message) { $0.append(contentsOf: stamped) } }
    }

    /// Sends the turn's events to the tap as one message (``EventTap``).
    func flushTap() {
        guard !tapOutbox.message.isEmpty else { return }
        _ = try? own.tap.send([tapOutbox.message], wait: false)
        tapOutbox.message.removeAll(keepingCapacity: true)
    }
}
