/// A reply on the command socket (PROTOCOL.md §3), and the body of a `result` event: the one place
/// where a reply's keys are spelled and ordered.
public struct Reply: Sendable, Equatable {
    /// The command's `id`; nil when the command had no valid id.
    public var id: String?
    /// The lane, when the command named one that could be read.
    public var lane: String?
    /// The action, when it could be read.
    public var action: String?
    /// How the command ended.
    public var outcome: Outcome
    /// For `failure`: why, as far as the terminal said (v1.1).
    public var reason: FailureReason?
    /// The terminal app's message, or the bridge's explanation.
    public var message: String?
    /// The callback's fields, typed; or a query's answer.
    public var result: JSONObject?
    /// For `superseded`: the id of the command that went on instead.
    public var ref: String?
    /// For `rejected`: why.
    public var error: Rejection?
    /// For a successful sale: the amount or tip approved, where it differs from the request.
    public var amountMismatch: JSONObject?
    /// For a successful `capture_pre_auth` (v1.1): the id of the `pre_auth` command it captured, when the
    /// terminal's answer names that authorisation.
    public var authorisation: String?
    /// For a successful action that gives money back to a card (v1.1, ``ActionSpec/refund``):
    /// `{"unreferenced": true, "amount": …}` for an `unreferenced_refund`, `{"fast": true, "amount": …}` for a
    /// `fast_refund`, so that it stands out in replies, events, `status` and the journal.
    public var refund: JSONObject?
    /// Whether this outcome came after the command had been answered `unknown` (or otherwise).
    public var late: Bool
    /// For a late result: the outcome the command had been answered before.
    public var earlier: JSONObject?
    /// The admitted client that first sent the command (docs/SECURITY.md), when the bridge has security.
    public var client: String?
    /// (v1.1) For an `unknown` command closed by hand with `resolve`: `by` (the admin client, null on
    /// plain sockets), `at` (when) and `note`.
    public var resolved: JSONObject?

    /// A reply with `outcome` and nothing else set.
    public init(id: String?, lane: String? = nil, action: String? = nil, outcome: Outcome, message: String? = nil) {
        self.id = id
        self.lane = lane
        self.action = action
        self.outcome = outcome
        self.message = message
        late = false
    }

    /// How a command ended, not yet addressed: the bridge fills `id`, `lane`, `action` and `client` from
    /// the command as it answers.
    public static func outcome(_ outcome: Outcome, _ message: String?, result: JSONObject? = nil) -> Reply {
        var reply = Reply(id: nil, outcome: outcome, message: message)
        reply.result = result
        return reply
    }

    /// The reply to a command the bridge refused.
    public init(rejection: Rejection) {
        self.init(id: rejection.id, lane: rejection.lane, action: rejection.action, outcome: .rejected)
        error = rejection
    }

    /// The reply as it travels: ``json`` written out.
    public var serialized: [UInt8] { JSONValue.object(json).serialized() }

    /// The reply as JSON, keys in the contract's order; `id` is always present (`null` when unknown).
    public var json: JSONObject {
        // Every key at most once, in order: appended, with no look-up for an earlier one.
        var pairs: [(key: String, value: JSONValue)] = []
        pairs.reserveCapacity(16)
        pairs.append(("id", id.map(JSONValue.string) ?? .null))
        if let lane { pairs.append(("lane", .string(lane))) }
        if let action { pairs.append(("action", .string(action))) }
        if let client { pairs.append(("client", .string(client))) }
        pairs.append(("outcome", .string(outcome.rawValue)))
        if let reason { pairs.append(("reason", .string(reason.rawValue))) }
        if let message { pairs.append(("message", .string(message))) }
        if let result { pairs.append(("result", .object(result))) }
        if let ref { pairs.append(("ref", .string(ref))) }
        if let error {
            var body: JSONObject = ["code": .string(error.code.rawValue), "message": .string(error.message)]
            if let platforms = error.platforms { body["platforms"] = .array(platforms.map { .string($0.rawValue) }) }
            pairs.append(("error", .object(body)))
        }
        if let amountMismatch { pairs.append(("amountMismatch", .object(amountMismatch))) }
        if let authorisation { pairs.append(("authorisation", .string(authorisation))) }
        if let refund { pairs.append(("refund", .object(refund))) }
        pairs.append(("late", .bool(late)))
        if let earlier { pairs.append(("earlier", .object(earlier))) }
        if let resolved { pairs.append(("resolved", .object(resolved))) }
        return JSONObject(uniquePairs: pairs)
    }
}
