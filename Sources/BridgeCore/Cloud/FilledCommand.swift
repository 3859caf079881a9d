import InterApp
import VivaCloudModels

/// A command written into a restored journal from Viva's records (`vivabridge journal fill-gap`): the journal
/// lost it with the interval after its backup, Viva's records show its transaction under its
/// `clientTransactionId`, and the till may send it again. It is journaled under that `clientTransactionId` as
/// its id (what the bridge gives a sale that names none), finished as the record shows it, with no
/// fingerprint of the lost command: a repeat is answered from it when it asks for the same money.
package enum FilledCommand {
    /// The fingerprint of every filled command: not a command's canonical JSON (it has no `id` or `action`),
    /// so never equal to one.
    static let fingerprint = #"{"filledFrom":"viva"}"#

    /// The actions whose repeat a filled command answers: the money Viva records with a `clientTransactionId`.
    static let answeredActions: Set<TerminalAction> = [.sale, .preAuth]

    /// Whether `stored` was filled from Viva's records.
    static func isFilled(_ stored: StoredCommand) -> Bool { stored.fingerprint == fingerprint }

    /// Whether `stored`, a filled command, answers `terminal`: a sale or pre-authorisation for the amount Viva
    /// recorded (with or without its tip). Another action or amount under the same reference is another
    /// command, and a conflict.
    static func answers(_ terminal: TerminalCommand, _ stored: StoredCommand) -> Bool {
        guard isFilled(stored), answeredActions.contains(terminal.action),
            let recorded = stored.replyObject?["result"]?.objectValue?["amount"]?.intValue
        else { return false }
        let requested = RequestedAmounts(terminal)
        return requested.amount == recorded || requested.amount.map { $0 + requested.tip } == recorded
    }

    /// The stored reply of `stored`, addressed to the repeat `command` on `lane`: its id and lane.
    static func reply(_ stored: StoredCommand, to command: Command, lane: String) -> [UInt8]? {
        guard var reply = stored.replyObject else { return nil }
        reply["id"] = .string(command.id)
        reply["lane"] = .string(lane)
        return JSONValue.object(reply).serialized()
    }

    /// The outcome Viva's `transaction` proves: `F` success, `E` failure; another status proves nothing, and
    /// the command is filled `unknown` (its reference is kept, so a repeat is never sent again).
    static func outcome(of transaction: DayTransaction) -> Outcome {
        switch transaction.statusId {
        case .finished: .success
        case .error: .failure
        default: .unknown
        }
    }

    /// The finished command that `transaction` (one with a `MerchantTrns`) stands for, journaled at `atMs` under
    /// `seq`, and its reply's summary.
    package static func make(_ transaction: DayTransaction, seq: Int64, atMs now: Int64) -> (
        StoredCommand, ReplySummary
    )? {
        guard let reference = transaction.merchantTrns, !reference.isEmpty else { return nil }
        let outcome = outcome(of: transaction)
        let orderCode = transaction.orderCode?.value
        let note =
            "filled from Viva's records after a restore: transaction \(transaction.transactionId) (order "
            + "\(orderCode ?? "-")) has status \(transaction.statusId.rawValue)"
        var reply = Reply(
            id: reference, lane: nil, action: TerminalAction.sale.rawValue, outcome: outcome,
            message:
                outcome == .unknown
                ? "the journal lost this command; Viva's record of it proves no outcome yet: check it, then resolve it"
                : "the journal lost this command; its outcome is Viva's record of it")
        reply.reason = outcome == .failure ? .other : nil
        var result = JSONObject()
        result["transactionId"] = .string(transaction.transactionId)
        if let orderCode { result["orderCode"] = .string(orderCode) }
        result["amount"] = .number(JSONNumber(transaction.amountCents))
        reply.result = result
        if outcome != .unknown {
            var resolved = JSONObject()
            resolved["by"] = .string(Correlator.vivaResolver)
            resolved["at"] = .string(Timestamp.iso8601(ms: now))
            resolved["note"] = .string(note)
            resolved["transactionId"] = .string(transaction.transactionId)
            resolved["orderCode"] = orderCode.map(JSONValue.string) ?? .null
            reply.resolved = resolved
        }
        let command = StoredCommand(
            id: reference, lane: nil, action: .sale, fingerprint: fingerprint, clientTransactionId: reference,
            state: .final, outcome: outcome, reply: String(decoding: reply.serialized, as: UTF8.self), deadlineMs: nil,
            createdMs: now, seq: seq)
        return (command, ReplySummary(reply: reply, fingerprint: fingerprint))
    }
}

extension FilledCommand {
    /// Viva's transactions a fill adds: one a `MerchantTrns` that is not `known` (an id or a
    /// `clientTransactionId` of the journal) and a payment or pre-authorisation (``isPayment(_:)``), the one that proves most when several carry it (`F`, then `E`,
    /// then the first listed); a transaction listed twice (the days either side) counts once.
    package static func missing(_ transactions: [DayTransaction], known: Set<String>) -> [DayTransaction] {
        var chosen: [String: DayTransaction] = [:]
        var order: [String] = []
        for transaction in transactions {
            guard isPayment(transaction), let reference = transaction.merchantTrns, !reference.isEmpty,
                !known.contains(reference)
            else { continue }
            guard let earlier = chosen[reference] else {
                chosen[reference] = transaction
                order.append(reference)
                continue
            }
            if rank(transaction) < rank(earlier) { chosen[reference] = transaction }
        }
        return order.compactMap { chosen[$0] }
    }

    /// Whether `transaction` is a payment or pre-authorisation, what a fill writes back as a `sale`: a refund,
    /// a void or a capture (a cloud lane's, recorded under its command's id) is not; a transaction whose type
    /// Viva does not give is taken as a payment.
    static func isPayment(_ transaction: DayTransaction) -> Bool {
        guard let type = transaction.transactionTypeId else { return true }
        return [.charge, .chargeInstallments, .preauth, .walletCharge].contains(type)
    }

    /// `F` first, then `E`, then any other status.
    private static func rank(_ transaction: DayTransaction) -> Int {
        switch transaction.statusId {
        case .finished: 0
        case .error: 1
        default: 2
        }
    }
}
