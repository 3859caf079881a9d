import Foundation
import InterApp

extension BridgeLoop {
    /// Commits the journal, then sends, replies and publishes, until no effect is left. Nothing leaves
    /// before the journal holds it: when a commit fails, see ``journalWriteFailed(_:entries:effects:)``.
    func carryOutEffects() {
        while correlator.hasEffects {
            let effects = correlator.takeEffects()
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
            do {
                let started = DispatchTime.now().uptimeNanoseconds
                try journal.commit(entries)
                if !entries.isEmpty {
                    let elapsed = DispatchTime.now().uptimeNanoseconds - started
                    metrics.shared.journalCommit.record(seconds: Double(elapsed) / 1e9)
                }
            } catch {
                journalWriteFailed(error, entries: entries, effects: effects)
                continue
            }
            correlator.journalCommitted()
            perform(effects)
        }
    }

    /// Sends, replies and publishes, in order; journal entries are skipped (already committed).
    func perform(_ effects: [Effect]) {
        for effect in effects {
            switch effect {
            case .journal: continue
            case .send(let lane, let message, let recordId):
                let sent = linksByLane[lane]?.send(message.frames) ?? false
                if let recordId {
                    if sent {
                        correlator.sent(recordId: recordId)
                    } else {
                        correlator.sendFailed(lane: lane, recordId: recordId)
                    }
                }
            case .reply(let target, let reply):
                sendReply(reply, to: target)
            case .snapshotReply(let target, var reply):
                var result = reply.result ?? JSONObject()
                result["epoch"] = .number(JSONNumber(stamper.epoch))
                result["seq"] = .number(JSONNumber(stamper.seq))
                reply.result = result
                sendReply(JSONValue.object(reply.json).serialized(), to: target)
            case .publish(let topic, let body):
                publish(topic, body)
            case .openLink(let lane):
                openLink(lane)
            case .closeLink(let lane):
                closeLink(lane)
            }
        }
    }

    /// Sends a serialized reply to its caller on the command socket, without waiting.
    private func sendReply(_ reply: [UInt8], to target: ReplyTarget) {
        guard case .router(let envelope) = target else { return }
        do {
            if try !commands.send(envelope + [reply], wait: false) {
                logger.warning(
                    "reply dropped: the caller is not reading", metadata: ["reply": "\(Self.replyId(reply))"])
            }
        } catch {
            logger.notice("reply not delivered: the caller is gone", metadata: ["reply": "\(Self.replyId(reply))"])
        }
    }

    /// Publishes one event now, stamped; counted but not built when nobody subscribed to its topic.
    func publish(_ topic: Topic, _ body: EventBody) {
        let text = topic.description
        metrics.shared.eventsPublished.increment()
        let subscribed = wanted(text)
        let tapped = observation.tap.hasViewers
        guard subscribed || tapped else {
            stamper.skip()
            return
        }
        let frames = stamper.frames(topic: text, body: body, nowMs: clock.nowMs())
        if subscribed { _ = try? events.send(frames, wait: false) }
        if tapped { _ = try? tapSocket.send(frames, wait: false) }
    }

    /// The `id` of a serialized reply, for a log line.
    static func replyId(_ reply: [UInt8]) -> String {
        (try? JSONValue.parse(reply))?.objectValue?["id"]?.stringValue ?? "-"
    }
}
