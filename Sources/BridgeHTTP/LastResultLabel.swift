import InterApp

/// The words of the lanes page for actions and their outcomes, given to the page's script as tables
/// (``LanesPage``), so that what a row says is decided here.
///
/// A lane's "Last result" badge says how a money action ended as a cashier reads it ("Approved",
/// "Declined", …); for an action that moves no money (a batch opened or closed, a look-up, a reprint, a
/// report, an abort, bringing the app to the front) it names the action and its outcome ("Batch done",
/// "Look-up failed"): never "Approved", since no payment was made.
enum LastResultLabel {
    /// The actions that take money (the page's "Sales approved" card).
    static let payments: [TerminalAction] = [.sale, .capturePreAuth]
    /// The actions that hold money on a card for a later capture.
    static let holds: [TerminalAction] = [.preAuth]
    /// The actions that give money back to a card (the page's "Refunds" card).
    static let refunds: [TerminalAction] = [.cancel, .unreferencedRefund, .fastRefund]
    /// The actions that take, hold or give back money (the page's day cards count only these).
    static let moneyActions = Set(payments + holds + refunds)

    /// An action as the page names it.
    static func name(of action: TerminalAction) -> String {
        switch action {
        case .sale: "Sale"
        case .cancel: "Refund"
        case .abort: "Abort"
        case .batch: "Batch"
        case .transactionDetails: "Look-up"
        case .reprint: "Reprint"
        case .foreground: "Bring to front"
        case .preAuth: "Pre-auth"
        case .capturePreAuth: "Capture"
        case .unreferencedRefund: "Refund"
        case .fastRefund: "Fast refund"
        case .report: "Report"
        }
    }

    /// An outcome as a money action's badge says it (and any command's whose action the page does not know).
    static func word(for outcome: Outcome) -> String {
        switch outcome {
        case .success: "Approved"
        case .failure: "Declined"
        case .aborted: "Aborted"
        case .nothingToAbort: "Nothing to abort"
        case .superseded: "Superseded"
        case .rejected: "Rejected"
        case .undeliverable: "Not delivered"
        case .unknown: "Unknown: check"
        }
    }

    /// The badge of a lane's last command: `action` ended with `outcome`.
    static func text(action: TerminalAction, outcome: Outcome) -> String {
        guard !moneyActions.contains(action) else { return word(for: outcome) }
        switch outcome {
        case .success: return "\(name(of: action)) done"
        case .failure: return "\(name(of: action)) failed"
        default: return word(for: outcome)
        }
    }

    /// `{"payments": […], "holds": […], "refunds": […]}`, the money actions by kind, for the page's day cards.
    static var moneyKindsTable: String {
        table(
            [("payments", payments), ("holds", holds), ("refunds", refunds)].map { kind, actions in
                (kind, .array(actions.map { .string($0.rawValue) }))
            })
    }

    /// `{"<action>": "<name>"}` for the page's script.
    static var namesTable: String {
        table(TerminalAction.allCases.map { ($0.rawValue, .string(name(of: $0))) })
    }

    /// `{"<outcome>": "<word>"}` for the page's script: the badge of a command whose action it does not know.
    static var wordsTable: String {
        table(Outcome.allCases.map { ($0.rawValue, .string(word(for: $0))) })
    }

    /// `{"<action>": {"<outcome>": "<badge>"}}` for the page's script.
    static var badgesTable: String {
        table(
            TerminalAction.allCases.map { action in
                let badges = JSONObject(
                    Outcome.allCases.map { ($0.rawValue, .string(text(action: action, outcome: $0))) })
                return (action.rawValue, .object(badges))
            })
    }

    private static func table(_ pairs: [(String, JSONValue)]) -> String {
        JSONValue.object(JSONObject(pairs)).serializedString
    }
}
