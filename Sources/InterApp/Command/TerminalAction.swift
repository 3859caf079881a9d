/// An action a terminal performs, by its name in commands (the `action` key).
///
/// Each case has an entry in the action table (``spec``): its parameters, their rules and its URL form.
/// Adding an action is a new case here plus a new ``ActionSpec`` entry, nothing else.
public enum TerminalAction: String, Sendable, CaseIterable {
    /// Take a card payment.
    case sale
    /// Cancel (refund) an earlier transaction.
    case cancel
    /// Stop the sale under way, if the app still can.
    case abort
    /// Open or close a batch of transactions.
    case batch
    /// Look up an earlier sale by its `clientTransactionId` (Android only).
    case transactionDetails
    /// Print an earlier transaction's receipt again (v1.1); no money moves.
    case reprint
    /// Bring the terminal app to the front (v1.1); it sends no answer.
    case foreground
    /// Authorise an amount on a card without taking it (v1.1): a pre-authorisation.
    case preAuth = "pre_auth"
    /// Take all or part of an earlier pre-authorisation (v1.1).
    case capturePreAuth = "capture_pre_auth"
    /// Give money back to a card with no original sale (v1.1).
    case unreferencedRefund = "unreferenced_refund"
    /// Send money back fast to the card of an earlier payment (v1.1, Android only).
    case fastRefund = "fast_refund"
    /// The terminal's own totals of a batch (v1.1, iOS only).
    case report
}

extension TerminalAction {
    /// This action's entry in the action table.
    public var spec: ActionSpec {
        switch self {
        case .sale: .sale
        case .cancel: .cancel
        case .abort: .abort
        case .batch: .batch
        case .transactionDetails: .transactionDetails
        case .reprint: .reprint
        case .foreground: .foreground
        case .preAuth: .preAuth
        case .capturePreAuth: .capturePreAuth
        case .unreferencedRefund: .unreferencedRefund
        case .fastRefund: .fastRefund
        case .report: .report
        }
    }

    /// Finds the action whose name matches `name` ignoring ASCII case, as callbacks spell them (`ABORT`).
    public init?(caseInsensitive name: String) {
        if let exact = TerminalAction(rawValue: name) {
            self = exact
            return
        }
        guard let match = TerminalAction.allCases.first(where: { ASCII.equalsIgnoringCase($0.rawValue, name) })
        else { return nil }
        self = match
    }

    /// Finds the action a callback's `action` field names: the command's name or the URL's spelling on some
    /// platform (`reprintTransaction` on iOS, `print` on Android, both `reprint`), ignoring ASCII case.
    public init?(callbackAction name: String) {
        if let named = TerminalAction(caseInsensitive: name) {
            self = named
            return
        }
        for action in TerminalAction.allCases {
            let spec = action.spec
            let words = [spec.request.action] + spec.platformRequests.values.map(\.action)
            if words.contains(where: { ASCII.equalsIgnoringCase($0, name) }) {
                self = action
                return
            }
        }
        return nil
    }
}
