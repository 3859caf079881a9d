import InterApp

/// A command as the journal stores it: no secret, no unmasked card number.
@usableFromInline package struct StoredCommand: Sendable, Equatable {
    @usableFromInline package var id: String
    @usableFromInline package var lane: String?
    @usableFromInline package var action: TerminalAction
    /// The command's canonical JSON with secrets redacted; equal content gives equal text.
    @usableFromInline package var fingerprint: String
    @usableFromInline package var clientTransactionId: String?
    @usableFromInline package var state: RecordState
    @usableFromInline package var outcome: Outcome?
    /// The final reply's JSON text, once final.
    @usableFromInline package var reply: String?
    /// The deadline in milliseconds since 1970, while outstanding.
    @usableFromInline package var deadlineMs: Int64?
    @usableFromInline package var createdMs: Int64
    /// The admitted client that sent it first (its name on the allow-list); nil on plain sockets.
    @usableFromInline package var client: String? = nil
    /// Its place in the journal's log (``JournalStore/admit(id:)``); nil for what is never journaled (the
    /// bridge's own look-ups).
    @usableFromInline package var seq: Int64? = nil

    /// Creates a stored command.
    package init(
        id: String, lane: String? = nil, action: TerminalAction, fingerprint: String,
        clientTransactionId: String? = nil, state: RecordState, outcome: Outcome? = nil, reply: String? = nil,
        deadlineMs: Int64? = nil, createdMs: Int64, client: String? = nil, seq: Int64? = nil
    ) {
        self.id = id
        self.lane = lane
        self.action = action
        self.fingerprint = fingerprint
        self.clientTransactionId = clientTransactionId
        self.state = state
        self.outcome = outcome
        self.reply = reply
        self.deadlineMs = deadlineMs
        self.createdMs = createdMs
        self.client = client
        self.seq = seq
    }
}

/// Where a command is on its way.
@usableFromInline package enum RecordState: String, Sendable, Equatable {
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

    /// Creates a batch as the journal records it.
    public init(name: String? = nil, id: String? = nil, openedAtMs: Int64, automatic: Bool = false) {
        self.name = name
        self.id = id
        self.openedAtMs = openedAtMs
        self.automatic = automatic
    }
}

/// One write the journal makes at its next commit.
@usableFromInline package enum JournalEntry: Sendable {
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
