import InterApp

/// What a sale asked the terminal for, to compare with what the terminal reports it approved.
package struct RequestedAmounts: Equatable {
    /// The actions whose approved amount is checked against the request: money taken, held or given back.
    static let checkedActions: Set<TerminalAction> = [.sale, .preAuth, .unreferencedRefund, .fastRefund]

    /// `amount` in cents.
    var amount: Int?
    /// `tipAmount` in cents; a sale without one asked for no tip.
    var tip: Int

    /// The amounts of a sale command.
    package init(_ terminal: TerminalCommand) {
        amount = terminal.parameter("amount").flatMap { Int($0) }
        tip = terminal.parameter("tipAmount").flatMap { Int($0) } ?? 0
    }

    /// The amounts of a journaled sale, read from its fingerprint (the command's canonical JSON).
    package init?(fingerprint: String) {
        guard case .object(let command)? = try? JSONValue.parse(Array(fingerprint.utf8)) else { return nil }
        amount = command.integer("amount")
        tip = command.integer("tipAmount") ?? 0
    }

    /// `{"requested": …, "approved": …}` (with `requestedTip` and `approvedTip` when the tips differ)
    /// when a result reports an amount or a tip other than the one asked for; nil when they agree or
    /// the result does not say.
    func mismatch(in result: JSONObject) -> JSONObject? {
        let approved = result.integer("amount")
        let approvedTip = result.integer("tipAmount")
        let amountDiffers = approved != nil && amount != nil && approved != amount
        let tipDiffers = approvedTip != nil && approvedTip != tip
        guard amountDiffers || tipDiffers else { return nil }
        var mismatch = JSONObject()
        mismatch["requested"] = amount.map { .number(JSONNumber($0)) } ?? .null
        mismatch["approved"] = approved.map { .number(JSONNumber($0)) } ?? .null
        if tipDiffers {
            mismatch["requestedTip"] = .number(JSONNumber(tip))
            mismatch["approvedTip"] = approvedTip.map { .number(JSONNumber($0)) } ?? .null
        }
        return mismatch
    }
}

extension JSONObject {
    /// The integer at `key`, if it holds one.
    fileprivate func integer(_ key: String) -> Int? {
        if case .number(let number)? = self[key] { return number.intValue }
        return nil
    }
}
