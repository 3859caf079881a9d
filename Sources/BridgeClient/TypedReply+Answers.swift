import InterApp

extension TypedReply {
    /// A terminal command's `result` (reply.schema.json `callbackResult`): the terminal app's answer, masked.
    /// The field names are Viva's and open, so every field stays in ``fields``; the ones a client most often
    /// shows are members.
    public struct CallbackResult: Sendable, Equatable {
        /// Every field, in the order received.
        public var fields: JSONObject

        /// Reads a `result` object (members that are not what they should be read as nil, ``fields`` keeps them).
        public init(fields: JSONObject) { self.fields = fields }

        /// `amount` in cents, when the terminal sent a decimal integer (``fields`` has the text otherwise).
        public var amount: Int? { fields["amount"]?.intValue }
        /// `tipAmount` in cents, when the terminal sent a decimal integer.
        public var tipAmount: Int? { fields["tipAmount"]?.intValue }
        /// `cardType`, e.g. `VISA`.
        public var cardType: String? { fields["cardType"]?.stringValue }
        /// `accountNumber`, masked (first 6 and last 4 digits).
        public var accountNumber: String? { fields["accountNumber"]?.stringValue }
        /// `verificationMethod`, e.g. `CHIP-PIN`.
        public var verificationMethod: String? { fields["verificationMethod"]?.stringValue }
        /// `rrn`, the retrieval reference number.
        public var rrn: String? { fields["rrn"]?.stringValue }
        /// `orderCode`: what a capture, a reprint or a refund names.
        public var orderCode: String? { fields["orderCode"]?.stringValue }
        /// `batchName`.
        public var batchName: String? { fields["batchName"]?.stringValue }
    }

    /// `resolve`'s answer: the command closed, its new outcome, and its new stored reply (with ``earlier`` and
    /// ``resolved``).
    public struct Resolve: Sendable, Equatable {
        public var ref: String
        public var outcome: Outcome
        public var reply: TypedReply
    }

    /// The terminal's answer, when this is the reply of a terminal command that has a `result`.
    public func callbackResult() -> CallbackResult? {
        guard let action, TerminalAction(rawValue: action) != nil, let result else { return nil }
        return CallbackResult(fields: result)
    }

    /// `resolve`'s answer, when this is one.
    public func resolve() throws(ContractDecodingError) -> Resolve? {
        guard action == "resolve", outcome == .success, let result else { return nil }
        let read = Members(result, path: "result.")
        guard let stored = try read.optionalObject("reply") else {
            throw ContractDecodingError("result.reply", "an object (required)")
        }
        return Resolve(
            ref: try read.string("ref"), outcome: try read.enumeration("outcome", Outcome.self),
            reply: try TypedReply(stored))
    }
}
