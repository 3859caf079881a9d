import InterApp

/// A command as the journal stores it: no secret, no unmasked card number.
struct StoredCommand: Sendable, Equatable {
    var id: String
    var lane: String?
    var action: TerminalAction
    /// The command's canonical JSON with secrets redacted; equal content gives equal text.
    var fingerprint: String
    var clientTransactionId: String?
    var state: RecordState
    var outcome: Outcome?
    /// The final reply's JSON text, once final.
    var reply: String?
    /// The deadline in milliseconds since 1970, while outstanding.
    var deadlineMs: Int64?
    var createdMs: Int64
    /// The admitted client that sent it first (its name on the allow-list); nil on plain sockets.
    var client: String? = nil
    /// Its place in the journal's log (``JournalStore/admit(id:)``); nil for what is never journaled (the
    /// bridge's own look-ups).
    var seq: Int64? = nil
}

/// Where a command is on its way.
enum RecordState: String, Sendable, Equatable {
    /// Journaled, not yet sent.
    case accepted
    /// Its URL was handed to the lane's link.
    case forwarded
    /// The relay said the terminal app opened it.
    case delivered
    /// Its outcome is final and its reply stored.
    case final
}

/// A lane's open batch.
public struct OpenBatch: Sendable, Equatable {
    /// The batch's name as the terminal app reported it.
    public var name: String?
    /// The batch's id as the terminal app reported it.
    public var id: String?
    /// When the bridge saw it opened.
    public var openedAtMs: Int64
    /// Opened by the terminal app itself when the previous one expired after 48 hours (Viva's batch
    /// page): its name and id are not known until the app reports them.
    public var automatic = false
}

/// One write the journal makes at its next commit.
enum JournalEntry: Sendable {
    /// A command accepted (`seq` set).
    case insert(StoredCommand)
    /// An outcome given to a command (its `outcome` and `reply` set), with what its reply columns hold: appended
    /// to the log, the latest being the command's. Not written for a command that has no `seq`.
    case final(StoredCommand, summary: ReplySummary, late: Bool, atMs: Int64)
    /// A callback received, with the command it matched (its id, and its `seq` when it is journaled), and its
    /// relay's number and URL hash when the relay numbered it (v1.3).
    case callback(
        lane: String, atMs: Int64, fields: String, matchedId: String?, commandSeq: Int64?,
        disposition: CallbackDisposition, relay: RelayCallbackKey? = nil)
    case batch(lane: String, OpenBatch?)
}
