/// How one command's session at Viva ended, as far as Viva's session and transaction record tell.
public enum CloudSessionResult: Sendable, Equatable {
    /// Viva's session approved it and its transaction record confirms it (`F`, the same amount).
    case approved(CloudTerminalSession, CheckoutTransaction)
    /// Viva's session ended without taking money: declined, cancelled at the terminal or aborted.
    case declined(CloudTerminalSession)
    /// Viva refused the request itself (credentials, a request it does not take): no session was started.
    case refused(VivaCloudError)
    /// The session does not tell the truth: the command stays unknown until Viva's records (looked up by
    /// day) or a person tell.
    case unknown(CloudSessionUnknown)
}

/// Why a cloud command's result is unknown, with what was found.
public struct CloudSessionUnknown: Sendable, Equatable {
    /// A sentence a person can act on.
    public var reason: String
    /// True when Viva's sources disagree (a session approved, a transaction record that is not `F` or not
    /// of the same amount): the bridge publishes `disagreement`.
    public var disagreement: Bool
    /// The session's answer, if one came.
    public var session: CloudTerminalSession?
    /// The transaction record, if one came.
    public var record: CheckoutTransaction?

    /// Creates the reason of an unknown result.
    public init(
        reason: String, disagreement: Bool = false, session: CloudTerminalSession? = nil,
        record: CheckoutTransaction? = nil
    ) {
        self.reason = reason
        self.disagreement = disagreement
        self.session = session
        self.record = record
    }
}
