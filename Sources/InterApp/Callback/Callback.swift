/// A callback from the terminal app (`interapp-callback://result?status=success&…`), parsed and typed.
///
/// Made by ``CallbackParser``. Holds every field as received (trimmed, decoded once, card numbers masked,
/// secrets redacted), what kind of answer it is, and its normalized status.
public struct Callback: Sendable, Equatable {
    /// What the callback answers.
    public enum Kind: Sendable, Equatable {
        /// A transaction's result: `sale`, `cancel`, `batch` or `transactionDetails`.
        case transaction(TerminalAction)
        /// An abort's answer.
        case abort(AbortAnswer)
        /// An action this version does not know (or none: `""`), kept as received.
        case other(String)
    }

    /// What an abort answer says.
    public enum AbortAnswer: Sendable, Equatable {
        /// The transaction under way was stopped: iOS `aborted`, Android `(-57) ABORTED`.
        case aborted
        /// Nothing was under way: iOS `nothing to abort`, Android `(-55) NOTHING_TO_ABORT`.
        case nothingToAbort
        /// A message this version does not recognize; the abort is not taken to have stopped anything.
        case unrecognized
    }

    /// The URL's scheme, lower-cased (schemes compare ignoring case).
    public let scheme: String
    /// The URL's host, as received (`result`).
    public let host: String
    /// Every field in order, unknown ones kept: names and values decoded once and trimmed of surrounding
    /// whitespace, card numbers masked, `merchantKey`/`ISV_clientSecret` values redacted.
    public let fields: [Parameter]
    /// What the callback answers.
    public let kind: Kind
    /// `success`, `failure` (for `failed`, `fail`, `failure`, any case), or the raw text if unrecognized.
    public let status: String
    /// The `message` field, or `""`.
    public let message: String

    init(scheme: String, host: String, fields: [Parameter], kind: Kind, status: String, message: String) {
        self.scheme = scheme
        self.host = host
        self.fields = fields
        self.kind = kind
        self.status = status
        self.message = message
    }

    /// Whether the status is `success`.
    public var isSuccess: Bool { status == "success" }

    /// The `clientTransactionId` field when present and not empty.
    public var clientTransactionId: String? {
        guard let value = field("clientTransactionId"), !value.isEmpty else { return nil }
        return value
    }

    /// The value of the first field called `name` (exact spelling), if present.
    public func field(_ name: String) -> String? {
        for field in fields where field.name == name { return field.value }
        return nil
    }

    /// The action's name for replies and event topics: `sale`, `abort`, or the unknown action as received.
    public var actionName: String {
        switch kind {
        case .transaction(let action): action.rawValue
        case .abort: TerminalAction.abort.rawValue
        case .other(let name): name
        }
    }

    /// The code in an Android message's brackets (`(-4) USER_CANCEL` → -4), if any.
    public var messageCode: Int? {
        Callback.bracketedCode(in: message)?.code
    }
}
