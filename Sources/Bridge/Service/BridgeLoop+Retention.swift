import BridgeCore
import BridgeJournal

extension BridgeLoop {
    /// Once a tick: one batch of the journal's retention (`journalRetentionDays`), when it is on and the
    /// journal can be written.
    func applyRetention() {
        guard var retention, !held.isActive, !correlator.journalFileIsLost else { return }
        defer { self.retention = retention }
        do {
            guard let removed = try retention.tick(journal: journal, nowMs: clock.nowMs()) else { return }
            logger.log(
                level: removed.commands + removed.callbacks > 0 ? .info : .debug,
                "journal retention: removed the finished commands and the callbacks older than journalRetentionDays",
                metadata: [
                    "commands": "\(removed.commands)", "callbacks": "\(removed.callbacks)", "days": "\(retention.days)",
                ])
        } catch let error as JournalError where error.code == .leaseLost {
            // Another bridge may serve now: nothing more leaves this one, as when a commit finds the lease lost.
            logger.critical(
                "the journal's lease is lost: this bridge stops serving at once", metadata: ["error": "\(error)"])
            correlator.stopNow()
        } catch {
            logger.warning(
                "journal retention: removing old commands failed; the next try is in a day",
                metadata: ["journal": "\(journal.location)", "error": "\(error)"])
        }
    }
}
