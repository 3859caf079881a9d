/// A valid command from the store middleware: a terminal action or a bridge query.
///
/// Made by ``CommandDecoder``. Printing it (`description`, `debugDescription`, `dump`) never shows
/// `ISV_clientSecret`; ``fingerprint`` never holds it either.
public struct Command: Sendable, Equatable {
    /// What the command asks for.
    public enum Body: Sendable, Equatable {
        /// An action for a terminal.
        case terminal(TerminalCommand)
        /// The record of the command whose `id` is `ref`.
        case status(ref: String)
        /// Every lane's state.
        case lanes
        /// A liveness check of the bridge.
        case ping
        /// (v1.1) Closes the `unknown` command `ref` by hand with `outcome` (`success` or `failure`), as
        /// the terminal or Viva's back office showed it; `note` says how that was found out.
        case resolve(ref: String, outcome: Outcome, note: String?)
    }

    /// The caller's correlation id and idempotency key.
    public let id: String
    /// The `action` exactly as sent.
    public let action: String
    /// What the command asks for.
    public let body: Body
    /// The command's own deadline in milliseconds, if it set one.
    public let timeoutMs: Int?
    /// Canonical compact JSON of the whole command, keys sorted by UTF-8 bytes, integers in plain decimal, and
    /// `ISV_clientSecret` replaced by `"***"`: the same content gives the same fingerprint whatever the key
    /// order or escaping; safe to store and to compare for `id_conflict`.
    public let fingerprint: String

    init(id: String, action: String, body: Body, timeoutMs: Int?, fingerprint: String) {
        self.id = id
        self.action = action
        self.body = body
        self.timeoutMs = timeoutMs
        self.fingerprint = fingerprint
    }

    /// The terminal command, if this is one.
    public var terminal: TerminalCommand? {
        if case .terminal(let command) = body { return command }
        return nil
    }

    /// The lane, for terminal commands.
    public var lane: String? {
        terminal?.lane
    }

    /// Whether this is a bridge query (`status`, `lanes`, `ping`, `resolve`), answered at once and never sent
    /// to a terminal.
    public var isQuery: Bool {
        terminal == nil
    }
}
