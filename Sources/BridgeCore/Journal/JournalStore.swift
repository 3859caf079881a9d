import Foundation

/// The journal as the bridge's loop uses it: one seam, whose records are ``JournalEntry`` values.
///
/// The correlator (through ``CommandStore``) and the loop know only this protocol, never which store holds
/// the log: SQLite's ``Journal`` implements it, and a second store (a database shared by a standby bridge)
/// implements the same. Every method is called on the loop's thread, but ``makeCommitter()``'s committer,
/// which the journal writer uses on its own thread.
package protocol JournalStore: AnyObject {
    /// Where the journal is, for log lines and events: a file's path, or a database's address without
    /// its password.
    var location: String { get }

    // MARK: Start and end

    /// Counts one more start of the bridge and returns the new epoch.
    func nextEpoch() throws -> Int

    /// The journal's identity, made once and kept for its life: the namespace of cloud sessions' ids, so that
    /// two journals on one Viva account never name one session, and a command's id always names its own.
    func journalIdentity() throws -> UUID

    /// A connection of its own for the journal writer's thread (``JournalWriter``).
    func makeCommitter() throws -> any JournalCommitter

    /// Why the journal can no longer be trusted while the bridge runs (SQLite: its file deleted or replaced),
    /// or nil while it can. Cheap: the loop asks once a second. A store with nothing of the kind to watch keeps
    /// the default, nil (a lost lease is found by the commits themselves).
    func integrityProblem() -> String?

    /// Whether a small turn with nothing ahead of it is better committed on the loop's own thread than handed
    /// to the writer's: a local commit that does not wait for the disk (SQLite, `normal`). A store whose
    /// commit waits (a disk sync, a server's answer) keeps the default, false.
    var commitsCheaplyOnTheLoop: Bool { get }

    /// Ends the store's work (a last checkpoint, the connection, the lock). Not used after.
    func close()

    // MARK: Writes

    /// Gives a new command its place in the log and notes its id, before its insert is written:
    /// ``mayHold(id:)`` never says "no" for it, even while its commit is still to come or if it fails.
    func admit(id: String) -> Int64

    /// Writes `entries` in one transaction on the calling thread (a retry after a failed write; tests).
    func commit(_ entries: [JournalEntry]) throws

    // MARK: The correlator's reads

    /// False when no command was ever journaled under `id`: it is certainly new. True when it may have been.
    func mayHold(id: String) -> Bool

    /// The command journaled under `id`, if any.
    func command(id: String) throws -> StoredCommand?

    /// The newest finished command of `action` on `lane` with `clientTransactionId` that a late callback can
    /// still complete: one still `unknown`, or, for a success, any that did not end in success.
    func lateCommand(lane: String, action: String, clientTransactionId: String, success: Bool) throws
        -> StoredCommand?

    /// The id of the newest successful `pre_auth` on `lane` whose answer carried `orderCode`.
    func preAuth(lane: String, orderCode: String) throws -> String?

    /// The commands of `action` on `lane` that ended `unknown`, newest first (at most 100).
    func unknownCommands(lane: String, action: String) throws -> [StoredCommand]

    /// Every command whose outcome is not final, oldest first: what a restart picks up again.
    func outstanding() throws -> [StoredCommand]

    /// Every lane's open batch.
    func openBatches() throws -> [String: OpenBatch]

    /// The numbered callbacks (``RelayCallbackKey``) among the newest `limit` callbacks journaled, newest first,
    /// with their lanes: what a start remembers of them (``RelaySequenceMemory``).
    func recentRelayCallbacks(limit: Int) throws -> [(lane: String, key: RelayCallbackKey)]

    // MARK: Observation and retention

    /// How many commands are still `unknown`.
    func unknownCount() throws -> Int

    /// How many final commands created since `sinceMs` ended with each outcome, by action.
    func outcomeCounts(sinceMs: Int64) throws -> TodayOutcomes.Counts

    /// Removes up to `limit` of the finished commands `journal prune` would remove at `cutoffMs`, oldest
    /// first, in one short transaction; returns how many.
    func pruneCommands(cutoffMs: Int64, limit: Int) throws -> Int

    /// Looks at the next `limit` callbacks after `after` and removes those `journal prune` would remove at
    /// `cutoffMs`; returns how many, and where the walk goes on (nil when it is over).
    func pruneCallbacks(cutoffMs: Int64, after: Int64, limit: Int) throws -> (removed: Int, next: Int64?)
}

extension JournalStore {
    package func integrityProblem() -> String? { nil }

    package var commitsCheaplyOnTheLoop: Bool { false }
}

/// The journal writer's connection: commits whole turns of entries, in order, in one transaction.
package protocol JournalCommitter: Sendable {
    /// Writes every turn's entries, in order, in one transaction.
    func commit(_ turns: [[JournalEntry]]) throws

    /// ``commit(_:)``, unless another connection holds the journal's write lock: then nothing is written,
    /// nothing waited for, and it returns false.
    func commitUnlessBusy(_ turns: [[JournalEntry]]) throws -> Bool

    /// Closes the connection (the writer's thread calls it as it ends).
    func close()
}
