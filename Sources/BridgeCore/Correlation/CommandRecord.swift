import InterApp

/// Who is owed a command's reply.
package enum ReplyTarget: Sendable, Equatable {
    /// A ROUTER peer: the frames before the command's body, sent back in front of the reply.
    case router(envelope: [[UInt8]])
    /// A PULL command: its outcome appears only as an event.
    case pull
}

/// Why the bridge sent a terminal command: each case carries only the data valid for it.
package enum CommandPurpose: Equatable {
    /// A command a client sent; `name` is the admitted client that sent it first (nil on plain sockets).
    case client(name: String?)
    /// The bridge's own `transactionDetails` look-up of the `unknown` sale `saleId`, to recover its outcome.
    case recoveryLookup(saleId: String)
}

/// A terminal command the bridge is waiting on: in memory only while it is outstanding.
package final class CommandRecord {
    let id: String
    package let lane: String
    let action: TerminalAction
    let clientTransactionId: String?
    let fingerprint: String
    /// Where it is on its way to the terminal app, and whether the app may have it open.
    var progress = CommandProgress.accepted
    var deadlineMs: Int64
    /// Everyone who sent this command (the first sender and any idempotent repeats while in flight).
    var waiters: [ReplyTarget]
    /// A client's command, or the bridge's own look-up.
    let purpose: CommandPurpose
    /// For a sale: the amount and tip it asked for, checked against what the terminal approved.
    var requested: RequestedAmounts?
    /// When the bridge received it (nil for a command restored after a restart): for its duration metric
    /// and the age the lanes page shows.
    var receivedMs: Int64?
    /// Its place in the journal's log, once journaled (nil for the bridge's own look-ups, never journaled).
    var journalSeq: Int64?

    package init(
        id: String, lane: String, action: TerminalAction, clientTransactionId: String?, fingerprint: String,
        deadlineMs: Int64, waiters: [ReplyTarget], purpose: CommandPurpose
    ) {
        self.id = id
        self.lane = lane
        self.action = action
        self.clientTransactionId = clientTransactionId
        self.fingerprint = fingerprint
        self.deadlineMs = deadlineMs
        self.waiters = waiters
        self.purpose = purpose
    }

    /// Where it is on its way, as the journal and `status` show it.
    var state: RecordState { progress.state }

    /// The admitted client that sent it first; nil on plain sockets and for the bridge's own look-ups.
    var client: String? {
        guard case .client(let name) = purpose else { return nil }
        return name
    }

    /// Whether this is the bridge's own look-up rather than a client's command.
    var isRecoveryLookup: Bool {
        guard case .recoveryLookup = purpose else { return false }
        return true
    }
}

/// A sale stopped by an abort, kept open for the grace period in which its own callback may still
/// arrive (and, if it reports success, overrule the abort).
package struct GraceSale {
    let sale: CommandRecord
    let abort: CommandRecord
    /// What the abort answer said, used as the sale's result when its own callback never comes.
    let abortMessage: String
    let abortResult: JSONObject
    let untilMs: Int64
}
