import BridgeCore
import BridgeJournal
import Foundation
import InterApp

extension BridgeLoop {
    /// A journal commit failed (a full disk, an I/O error); `effects` are those of every turn not committed.
    /// The commands accepted in those turns were never journaled, so they are rolled back and answered
    /// `journal_unavailable`, never sent. Everything else of those turns (results, callbacks) is held, in
    /// order, and journaled before it is carried out once writes work again (retried every second);
    /// meanwhile new terminal commands are refused and queries answered.
    func journalWriteFailed(_ failure: JournalWriter.WriteProblem, effects: [Effect]) {
        let error = failure.description
        let problem = "a journal write failed: \(error)"
        var entries: [JournalEntry] = []
        for case .journal(let entry) in effects { entries.append(entry) }
        var newIds = Set<String>()
        for case .insert(let row) in entries { newIds.insert(row.id) }
        // New commands still in flight are rolled back; those the turn already ended (undeliverable: they
        // never left either) keep their reply, which is true without the journal, and lose the rest.
        let inFlight = newIds.filter { correlator.store.record(id: $0) != nil }
        let ended = newIds.subtracting(inFlight)
        var immediate: [Effect] = []
        var kept: [Effect] = []
        for effect in effects {
            if Self.effect(effect, belongsTo: inFlight) { continue }
            if Self.effect(effect, belongsTo: ended) {
                if case .reply = effect { immediate.append(effect) }
                continue
            }
            kept.append(effect)
        }
        var keptEntries: [JournalEntry] = []
        for case .journal(let entry) in kept { keptEntries.append(entry) }
        held.start(entries: keptEntries, effects: kept)
        correlator.journalWritesFailed(problem)
        logger.critical(
            "the journal cannot be written: new commands are refused journal_unavailable until it can; results wait in memory and are journaled first",
            metadata: ["journal": "\(journal.location)", "error": "\(error)", "rolledBack": "\(inFlight.count)"])
        for id in ended { correlator.forgetUnjournaled(id) }
        correlator.rollBack(ids: inFlight, because: problem)
        perform(immediate)
        publishJournalEvent(.unavailable, reason: problem)
        if failure.leaseLost {
            // Another bridge may serve now: nothing more leaves this one (what is in flight stays in the journal).
            logger.critical(
                "the journal's lease is lost: this bridge stops serving at once", metadata: ["error": "\(error)"])
            correlator.stopNow()
        }
    }

    /// Once a second: notices a journal file deleted or replaced while running, and retries a failed write.
    func checkJournalHealth() {
        if let problem = journal.integrityProblem(), correlator.journalFileLost(problem) {
            logger.critical(
                "the journal file is gone or replaced: new commands are refused journal_unavailable; commands in flight still end and are answered, but what is written now is lost unless the file is restored. Restore the journal from a backup and restart the bridge; it will not start on a missing or replaced journal (docs/RELIABILITY.md)",
                metadata: ["journal": "\(journal.location)", "problem": "\(problem)"])
            publishJournalEvent(.unavailable, reason: problem)
        }
        guard held.isActive else { return }
        do {
            let started = DispatchTime.now().uptimeNanoseconds
            try journal.commit(held.entries)
            metrics.shared.journalCommit.record(
                seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
        } catch {
            return
        }
        correlator.journalCommitted()
        logger.notice(
            "the journal can be written again: held results are journaled and sent; commands are taken again",
            metadata: ["journal": "\(journal.location)"])
        let effects = held.release()
        let available = correlator.journalWritesResumed()
        perform(effects)
        if available { publishJournalEvent(.available, reason: nil) }
    }

    private func publishJournalEvent(_ event: Topic.JournalEvent, reason: String?) {
        publish(.journal(event, location: journal.location, reason: reason))
    }

    private static func entry(_ entry: JournalEntry, belongsTo ids: Set<String>) -> Bool {
        switch entry {
        case .insert(let row): ids.contains(row.id)
        case .final(let command, _, _, _): ids.contains(command.id)
        case .callback(_, _, _, let matched, _, _, _): matched.map(ids.contains) ?? false
        case .batch: false
        }
    }

    /// Whether `effect` is about one of `ids` (commands being rolled back): their URLs, progress events and
    /// replies never leave.
    private static func effect(_ effect: Effect, belongsTo ids: Set<String>) -> Bool {
        guard !ids.isEmpty else { return false }
        switch effect {
        case .journal(let entry): return Self.entry(entry, belongsTo: ids)
        case .send(_, _, let recordId): return recordId.map(ids.contains) ?? false
        case .cloud(_, let recordId): return recordId.map(ids.contains) ?? false
        case .reply(_, let id, _): return id.map(ids.contains) ?? false
        case .snapshotReply, .openLink, .closeLink: return false
        case .publish(let event): return event.body.id.map(ids.contains) ?? false
        case .countOutcome(let change): return ids.contains(change.id)
        }
    }
}
