/// Why a transaction failed, as far as the callback says (PROTOCOL.md §3, v1.1): `reason` beside
/// `outcome: failure` in replies, `result` events and `vivabridge decode`.
public enum FailureReason: String, Sendable, CaseIterable {
    /// The cardholder cancelled at the terminal: iOS `action=User_cancel` (Viva's iOS sample), Android
    /// `(-4) USER_CANCEL` (Viva's Android pages).
    case cardholderCancel = "cardholder_cancel"
    /// The card issuer or the host declined.
    case declined
    /// The terminal could not reach the host, or the host failed.
    case hostError = "host_error"
    /// The terminal gave up waiting (for the card, or for the host).
    case timeoutAtTerminal = "timeout_at_terminal"
    /// The callback does not say which.
    case other
}

extension Callback {
    /// Whether this callback's action is a cardholder's cancellation (`User_cancel` on iOS, in any case,
    /// `_` or space): it ends the transaction in flight as a failure, whatever its `status`.
    public var isCardholderCancelAction: Bool {
        guard case .other(let name) = kind else { return false }
        let words = name.lowercased().split(whereSeparator: { $0 == "_" || $0 == " " })
        return words == ["user", "cancel"] || words == ["user", "cancelled"] || words == ["user", "canceled"]
    }

    /// Why this callback reports failure; nil unless its ``baseOutcome`` is `failure`.
    ///
    /// The one home of the mapping (docs/PROTOCOL.md §9 "Failure reasons"): first the action (`User_cancel`),
    /// then Android's bracketed code (-4 cardholder cancel; -6, -62 declined; -23 host error), then the
    /// message's words (cancelled by the cardholder; timeout, timed out; declined; host, server, network or
    /// connection failures), else `other`.
    public var failureReason: FailureReason? {
        guard baseOutcome == .failure else { return nil }
        if isCardholderCancelAction { return .cardholderCancel }
        switch Self.bracketedCode(in: message)?.code {
        case -4: return .cardholderCancel
        case -6, -62: return .declined
        case -23: return .hostError
        default: break
        }
        let text = message.lowercased()
        func has(_ words: String...) -> Bool { words.contains { text.contains($0) } }
        if has(
            "user_cancel", "user cancel", "cancelled by the cardholder", "canceled by the cardholder",
            "cancelled by cardholder", "canceled by cardholder", "cancelled by user", "canceled by user")
        {
            return .cardholderCancel
        }
        if has("timeout", "timed out", "time_out", "time out") { return .timeoutAtTerminal }
        if has("declin") { return .declined }
        if has("host", "server_error", "server error", "network", "connection", "communication") { return .hostError }
        return .other
    }
}
