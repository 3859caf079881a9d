import DequeModule
import InterApp
import Logging

/// The one home of a command's state: the commands in flight (in memory), the commands finished since
/// the last journal commit (staged), and the journal behind them.
///
/// The correlator asks the store and never the journal. Writes are staged: each one changes the store's
/// memory at once and returns the ``JournalEntry`` the loop commits before anything of the turn leaves,
/// so a look-up made later in the same turn, or in a turn whose commit is still to come, already sees it
/// (read-your-writes). A staged outcome stays until the journal writer says its turn is committed
/// (``committed(through:)``): the loop reads on while earlier turns are being written. It belongs to the
/// loop's thread.
package final class CommandStore {
    private let journal: any JournalStore
    private let logger: Logger
    /// Every outstanding terminal command by id, the bridge's own look-ups included.
    private var records: [String: CommandRecord] = [:]
    /// Commands that became final in turns not yet committed, so an immediate repeat finds them, with the
    /// turn that staged them last.
    private var finalizedSinceCommit: [String: (command: StoredCommand, turn: UInt64)] = [:]
    /// The turn of each staged outcome, in the order they were staged.
    private var stagedTurns = Deque<(turn: UInt64, id: String)>()
    /// The turn the writes staged now belong to (see ``sealTurn()``).
    private var currentTurn: UInt64 = 1
    /// How many commands are `unknown` (``unknownCount``).
    private var unknownCommands: Int?

    package init(journal: any JournalStore, logger: Logger) {
        self.journal = journal
        self.logger = logger
        unknownCommands = try? journal.unknownCount()
    }

    /// What ``find(id:)`` knows of an id.
    package enum Known {
        /// A command in flight (a client's or the bridge's own look-up).
        case outstanding(CommandRecord)
        /// A command that ended: staged this turn, or read from the journal.
        case finished(StoredCommand)
    }

    // MARK: Reads

    /// The outstanding command `id`, from memory.
    package func record(id: String) -> CommandRecord? { records[id] }

    /// Outstanding client commands (the bridge's own look-ups excluded).
    var outstandingCount: Int { records.values.lazy.filter { !$0.isRecoveryLookup }.count }

    /// Every outstanding command, the bridge's own look-ups included.
    var recordCount: Int { records.count }

    /// How many commands are `unknown` now, what is staged included: the journal's count, then kept as outcomes
    /// are staged (``finalize(_:outcome:reply:summary:late:atMs:)`` and
    /// ``amend(_:outcome:reply:summary:late:atMs:)``: an outcome given, or one a late result or a resolution
    /// changed), so that the gauge costs the journal no query. The journal is counted again, once nothing is
    /// staged, after a failed write dropped staged outcomes or when it could not be counted; nil until then.
    func unknownCount() -> Int? {
        if unknownCommands == nil, finalizedSinceCommit.isEmpty { unknownCommands = try? journal.unknownCount() }
        return unknownCommands
    }

    /// Everything known of `id`: in flight, finished this turn, or journaled. The known-id filter answers
    /// a new id (nearly every id) without reading the journal.
    ///
    /// - Throws: when the journal cannot be read: whether `id` is new is then not known.
    func find(id: String) throws -> Known? {
        if let record = records[id] { return .outstanding(record) }
        if let recent = finalizedSinceCommit[id]?.command { return .finished(recent) }
        guard journal.mayHold(id: id) else { return nil }  // never journaled: certainly new, no read
        return try journal.command(id: id).map(Known.finished)
    }

    /// The command `id` as it stands once out of memory: finished this turn, or as journaled (outstanding
    /// ones included). Always reads the journal when not staged, so a journal that cannot be read throws
    /// rather than answering "none".
    func finished(id: String) throws -> StoredCommand? {
        if let recent = finalizedSinceCommit[id]?.command { return recent }
        return try journal.command(id: id)
    }

    /// The finished command of `action` a late callback completes (see
    /// ``Journal/lateCommand(lane:action:clientTransactionId:success:)``), by the sale's rule for every
    /// action: a success completes any that did not end in success, anything else only an `unknown` one.
    /// Nil, logged, when the journal cannot be read.
    func lateCommand(lane: String, action: TerminalAction, clientTransactionId: String, success: Bool)
        -> StoredCommand?
    {
        func completes(_ stored: StoredCommand) -> Bool {
            success ? stored.outcome != .success : stored.outcome == .unknown
        }
        if let recent = finalizedSinceCommit.values.lazy.map(\.command).first(where: {
            $0.lane == lane && $0.clientTransactionId == clientTransactionId && $0.action == action
                && completes($0)
        }) {
            return recent
        }
        do {
            return try journal.lateCommand(
                lane: lane, action: action.rawValue, clientTransactionId: clientTransactionId, success: success)
        } catch {
            logger.error("journal read failed", metadata: ["lane": "\(lane)", "error": "\(error)"])
            return nil
        }
    }

    /// The commands of `action` on `lane` that ended `unknown`, staged ones included (a late capture
    /// answer's candidates). Throws when the journal cannot be read.
    func unknownCommands(lane: String, action: TerminalAction) throws -> [StoredCommand] {
        var byId: [String: StoredCommand] = [:]
        for stored in try journal.unknownCommands(lane: lane, action: action.rawValue) { byId[stored.id] = stored }
        for (stored, _) in finalizedSinceCommit.values where stored.lane == lane && stored.action == action {
            byId[stored.id] = stored
        }
        return byId.values.filter { $0.outcome == .unknown }
    }

    /// The newest successful `pre_auth` on `lane` whose answer carried `orderCode` (see
    /// ``Journal/preAuth(lane:orderCode:)``).
    func preAuth(lane: String, orderCode: String) throws -> String? {
        try journal.preAuth(lane: lane, orderCode: orderCode)
    }

    /// Every command the journal holds as not final, oldest first: what a restart picks up again.
    func outstandingInJournal() throws -> [StoredCommand] { try journal.outstanding() }

    /// Every lane's open batch, as journaled.
    func openBatches() throws -> [String: OpenBatch] { try journal.openBatches() }

    /// The numbered callbacks among the newest `limit` journaled, newest first (``RelaySequenceMemory``).
    func recentRelayCallbacks(limit: Int) throws -> [(lane: String, key: RelayCallbackKey)] {
        try journal.recentRelayCallbacks(limit: limit)
    }

    // MARK: Staged writes

    /// Takes a new client command into memory and returns its journal insert.
    func accept(_ record: CommandRecord, atMs now: Int64) -> JournalEntry {
        record.journalSeq = journal.admit(id: record.id)
        records[record.id] = record
        return .insert(StoredCommand(record, createdMs: now))
    }

    /// Keeps in memory a command that is not journaled anew: one restored from the journal, or the
    /// bridge's own look-up (never journaled).
    func track(_ record: CommandRecord) { records[record.id] = record }

    /// Lets a command leave memory with no outcome: the bridge's own look-up, answered or given up.
    func forget(_ id: String) { records[id] = nil }

    /// Ends `record`: it leaves memory, its outcome is staged for the next look-ups, and its journal
    /// write is returned.
    func finalize(
        _ record: CommandRecord, outcome: Outcome, reply: String, summary: ReplySummary, late: Bool, atMs now: Int64
    ) -> JournalEntry {
        records[record.id] = nil
        let ended = StoredCommand(record, createdMs: record.receivedMs ?? now, final: (outcome, reply))
        countUnknown(ended, from: nil, to: outcome)
        stage(ended)
        return .final(ended, summary: summary, late: late, atMs: now)
    }

    /// Gives a command that already ended a new outcome or reply (a late result, a look-up's details, a
    /// resolve): staged for the next look-ups, and its journal write returned.
    func amend(
        _ stored: StoredCommand, outcome: Outcome, reply: String, summary: ReplySummary, late: Bool, atMs now: Int64
    ) -> JournalEntry {
        var updated = stored
        countUnknown(stored, from: stored.outcome, to: outcome)
        updated.outcome = outcome
        updated.reply = reply
        updated.state = .final
        stage(updated)
        return .final(updated, summary: summary, late: late, atMs: now)
    }

    /// Keeps ``unknownCount`` as `command`'s outcome goes from `old` to `new`; a command the journal does not
    /// hold (no `seq`: the bridge's own look-ups) is not counted, as it is not journaled.
    private func countUnknown(_ command: StoredCommand, from old: Outcome?, to new: Outcome) {
        guard let count = unknownCommands, command.seq != nil, (old == .unknown) != (new == .unknown) else { return }
        unknownCommands = count + (new == .unknown ? 1 : -1)
    }

    private func stage(_ stored: StoredCommand) {
        finalizedSinceCommit[stored.id] = (stored, currentTurn)
        stagedTurns.append((currentTurn, stored.id))
    }

    /// Closes the current turn: what was staged so far belongs to the returned turn number, which the loop
    /// hands to the journal writer with the turn's entries; later writes belong to the next turn.
    func sealTurn() -> UInt64 {
        defer { currentTurn += 1 }
        return currentTurn
    }

    /// The journal holds every turn up to and including `turn`: their staged outcomes are read from it
    /// from now on (an outcome staged again in a later turn stays).
    func committed(through turn: UInt64) {
        while let first = stagedTurns.first, first.turn <= turn {
            stagedTurns.removeFirst()
            if let staged = finalizedSinceCommit[first.id], staged.turn <= turn { finalizedSinceCommit[first.id] = nil }
        }
    }

    /// The journal holds every turn sealed so far (a synchronous commit: a retry after a failed write). The
    /// turn still open is not: its entries are not written yet.
    func committed() { committed(through: currentTurn - 1) }

    /// Undoes a command accepted in a turn whose journal commit failed: it leaves memory and the staged
    /// outcomes. Returns it when it was still in flight.
    func rollBack(_ id: String) -> CommandRecord? {
        forgetUnjournaled(id)
        return records.removeValue(forKey: id)
    }

    /// Forgets a command that ended in a turn whose journal write failed: it was never journaled, so a
    /// repeat of its id is a new command.
    func forgetUnjournaled(_ id: String) {
        if finalizedSinceCommit.removeValue(forKey: id) != nil { unknownCommands = nil }
    }
}
