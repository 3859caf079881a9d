/// How a sale's outcome is chosen when the lane's script is empty: by its amount, like test cards.
///
/// | amount ends in | outcome |
/// |---|---|
/// | `51` (e.g. 1051, 151) | declined by the host |
/// | `52` | cancelled by the cardholder during card presentment |
/// | `53` | host error after the card is read |
/// | anything else | approved |
public enum OutcomeRule {
    /// The outcome of a sale of `amount` cents.
    public static func outcome(forAmount amount: Int) -> ScriptedOutcome {
        switch amount % 100 {
        case 51: .decline
        case 52: .cardholderCancel
        case 53: .hostError
        default: .approve
        }
    }
}
