/// The outcome a lane gives its next sale, overriding the outcome chosen by the amount.
public enum ScriptedOutcome: Sendable, Equatable {
    /// The host approves the sale.
    case approve
    /// The host declines the sale (`Transaction declined by host.`).
    case decline
    /// The cardholder cancels on the card screen, before presenting a card (Android `(-4) USER_CANCEL`).
    case cardholderCancel
    /// The card is read but the host cannot be reached or fails.
    case hostError
    /// The host approves the sale, and the app never answers (killed after the approval, the phone dead): the
    /// approval is recorded, in the back office's ledger too, and no callback leaves.
    case approveUnanswered
}
