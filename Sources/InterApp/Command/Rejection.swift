/// A command that never reaches a terminal, with the reason a person can act on.
///
/// Carries what could be read of the command (`id`, `lane`, `action`) so that the reply can echo it. Messages
/// name the key and the rule, and never quote a secret.
public struct Rejection: Error, Sendable, Equatable {
    /// The machine-readable reason.
    public let code: RejectionCode
    /// The reason for a person: which key, which rule.
    public let message: String
    /// The command's `id`, when it was present and valid.
    public var id: String?
    /// The command's `lane`, when it was a string.
    public var lane: String?
    /// The command's `action`, when it was a string.
    public var action: String?
    /// For ``RejectionCode/unsupportedOnPlatform``: the platforms whose terminal app has the action (`ios` first).
    public var platforms: [Platform]?

    /// Creates a rejection.
    public init(_ code: RejectionCode, _ message: String, id: String? = nil, lane: String? = nil, action: String? = nil)
    {
        self.code = code
        self.message = message
        self.id = id
        self.lane = lane
        self.action = action
    }
}

extension Rejection {
    /// The contract's reply for this rejection (``Reply/init(rejection:)``).
    ///
    /// `{"id": …, "lane": …, "action": …, "outcome": "rejected", "error": {"code": …, "message": …},
    /// "late": false}`; `id` is `null` when the command had no valid id, `lane` and `action` appear only
    /// when they could be read.
    public var reply: JSONObject { Reply(rejection: self).json }
}

extension Rejection: CustomStringConvertible {
    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}
