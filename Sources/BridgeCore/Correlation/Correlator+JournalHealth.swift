import InterApp

extension Correlator {
    /// Undoes the commands accepted in a turn whose journal commit failed: they were never journaled, so
    /// they must never be sent. Each leaves memory and its senders are answered `journal_unavailable`.
    package func rollBack(ids: Set<String>, because problem: String) {
        for id in ids {
            guard let record = store.rollBack(id) else { continue }
            release(record)
            let rejection = Rejection(
                .journalUnavailable,
                "the journal could not record the command (\(problem)); it was not sent; try again later",
                id: record.id, lane: record.lane, action: record.action.rawValue)
            for waiter in record.waiters { reject(rejection, to: waiter) }
        }
    }

    /// Forgets a command that ended in a turn whose journal write failed: it never left and was never
    /// journaled, so a repeat of its id is a new command.
    package func forgetUnjournaled(_ id: String) {
        store.forgetUnjournaled(id)
    }
}
