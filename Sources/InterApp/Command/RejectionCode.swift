/// Why a command was rejected: the `error.code` of a `rejected` reply.
public enum RejectionCode: String, Sendable, CaseIterable {
    /// The frame is not one JSON object in UTF-8.
    case invalidJSON = "invalid_json"
    /// The frame is larger than the configured limit (64 KiB by default).
    case tooLarge = "too_large"
    /// A required key is absent.
    case missingField = "missing_field"
    /// A key that this action does not take (often a misspelling).
    case unknownField = "unknown_field"
    /// A key holds the wrong type or a value outside its rule.
    case invalidValue = "invalid_value"
    /// A key the bridge sets itself from the lane's configuration: `merchantKey`, `appId`, `callback`, `protocol`.
    case reservedField = "reserved_field"
    /// Two keys that are each valid but not together: a tip with installments (v1.1).
    case invalidCombination = "invalid_combination"
    /// The `action` is not one the bridge knows.
    case unknownAction = "unknown_action"
    /// The action exists, but not on the lane's platform (v1.1): `transactionDetails` on an iOS lane. The
    /// error's `platforms` names the platforms whose terminal app has it.
    case unsupportedOnPlatform = "unsupported_on_platform"
    /// (v1.3) The action, or one of its fields, cannot be carried by the lane's transport: a cloud lane
    /// (Viva's Cloud Terminal API) runs `sale`, `pre_auth` and `abort`. Nothing was sent.
    case unsupportedOnTransport = "unsupported_on_transport"
    /// The `lane` is not in the configuration.
    case unknownLane = "unknown_lane"
    /// The lane already runs a transaction.
    case laneBusy = "lane_busy"
    /// The `id` was used before for a command with different content.
    case idConflict = "id_conflict"
    /// The bridge is stopping and takes no new commands.
    case shuttingDown = "shutting_down"
    /// The journal cannot be read or written: the command was not sent (v1.1). Try again later; the
    /// bridge says why in its log.
    case journalUnavailable = "journal_unavailable"
    /// (v1.1) The client may not send this action: `resolve` needs the `admin` role when the bridge has
    /// security (docs/SECURITY.md).
    case notAllowed = "not_allowed"
    /// (v1.1) `resolve` names a command whose outcome is not `unknown` (or no command at all): only an
    /// `unknown` command can be closed by hand.
    case notUnknown = "not_unknown"
}
