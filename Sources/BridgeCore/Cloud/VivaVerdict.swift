import InterApp
import VivaCloudModels

/// What Viva's records say of one `unknown` command, found by its `clientTransactionId` (Viva's
/// `MerchantTrns`) in the transactions of the days asked: only positive evidence completes it.
package enum VivaVerdict: Equatable {
    /// One transaction, `F` with the amount asked: the command succeeded.
    case success(DayTransaction)
    /// One transaction, `E`: the command failed.
    case failure(DayTransaction)
    /// None: it stays `unknown` (not found never means failure).
    case notFound
    /// One transaction, `F` with another amount: it stays `unknown`, and the two disagree.
    case amountDiffers(DayTransaction)
    /// Several transactions carry the id: it stays `unknown`, for a person to decide.
    case severalMatches([DayTransaction])
    /// One transaction with a status that proves nothing yet (`A`, `C`, `R`, `X`, another letter).
    case otherStatus(DayTransaction)

    /// The verdict on the command whose `clientTransactionId` is `merchantTrns` and that asked for
    /// `amount` cents, from `transactions` (several days' lists; one transaction listed twice counts once).
    static func judge(merchantTrns: String, amount: Int?, in transactions: [DayTransaction]) -> VivaVerdict {
        var seen: Set<String> = []
        let matches = transactions.filter { $0.merchantTrns == merchantTrns && seen.insert($0.transactionId).inserted }
        guard let only = matches.first else { return .notFound }
        guard matches.count == 1 else { return .severalMatches(matches) }
        switch only.statusId {
        case .finished: return only.amountCents == amount ? .success(only) : .amountDiffers(only)
        case .error: return .failure(only)
        default: return .otherStatus(only)
        }
    }

    /// The outcome it proves, if any.
    var outcome: Outcome? {
        switch self {
        case .success: .success
        case .failure: .failure
        case .notFound, .amountDiffers, .severalMatches, .otherStatus: nil
        }
    }

    /// Whether looking again later may tell more: not for a different amount or several matches, which a
    /// person must settle.
    var worthAnotherLook: Bool {
        switch self {
        case .notFound, .otherStatus: true
        case .success, .failure, .amountDiffers, .severalMatches: false
        }
    }

    /// Its name in logs and metrics: `success`, `failure`, `not_found`, `amount_differs`,
    /// `several_matches`, `other_status`.
    var label: String {
        switch self {
        case .success: "success"
        case .failure: "failure"
        case .notFound: "not_found"
        case .amountDiffers: "amount_differs"
        case .severalMatches: "several_matches"
        case .otherStatus: "other_status"
        }
    }

    /// `viva` as a stored reply keeps it: `found`, `checkedAt`, and the transaction (or `matches`).
    func record(checkedAtMs: Int64) -> JSONObject {
        var viva = JSONObject()
        viva["found"] = .bool(self != .notFound)
        viva["checkedAt"] = .string(Timestamp.iso8601(ms: checkedAtMs))
        switch self {
        case .notFound: break
        case .severalMatches(let all): viva["matches"] = .array(all.map { .object(Self.describe($0)) })
        case .success(let one), .failure(let one), .amountDiffers(let one), .otherStatus(let one):
            for (key, value) in Self.describe(one).pairs { viva[key] = value }
        }
        return viva
    }

    /// One transaction as the bridge reports it: Viva's id, status, amount in cents, order code, date.
    package static func describe(_ transaction: DayTransaction) -> JSONObject {
        var object = JSONObject()
        object["transactionId"] = .string(transaction.transactionId)
        object["statusId"] = .string(transaction.statusId.rawValue)
        object["amount"] = .number(JSONNumber(transaction.amountCents))
        object["orderCode"] = transaction.orderCode.map { .string($0.value) } ?? .null
        object["insDate"] = transaction.insDate.map(JSONValue.string) ?? .null
        return object
    }
}
