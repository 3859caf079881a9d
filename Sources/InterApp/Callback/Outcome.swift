/// How a command ended: the `outcome` of a reply (contract v1, section 3).
public enum Outcome: String, Sendable, CaseIterable {
    /// The terminal app reported success.
    case success
    /// The terminal app reported failure; the result holds what it sent.
    case failure
    /// A sale ended by an abort command.
    case aborted
    /// An abort found nothing to stop.
    case nothingToAbort = "nothing_to_abort"
    /// An abort that came too late: the transaction went on.
    case superseded
    /// The command never reached a terminal.
    case rejected
    /// The command never reached the terminal app; safe to retry under a new id.
    case undeliverable
    /// No callback before the deadline: the payment may have happened. Never a failure.
    case unknown
}
