import BridgeCore
import InterApp

/// One finished command as `vivabridge journal export` writes it: the values its stored reply (and,
/// for what the reply does not say, its stored command) hold. No secret and no unmasked card number:
/// the journal never stores them.
public struct ExportedCommand: Sendable, Equatable {
    /// The command's `id`.
    public var id: String
    /// The admitted client that sent it first (its name on the security allow-list); nil on plain sockets.
    public var client: String?
    public var lane: String?
    public var action: String
    /// In cents: the amount the terminal reported (`result.amount`), else the amount the command asked.
    public var amount: Int?
    /// In cents: the tip the terminal reported (`result.tipAmount`), else the tip the command asked.
    public var tip: Int?
    /// The reply's `outcome` (`success`, `failure`, `aborted`, `unknown`, …).
    public var outcome: String?
    /// The reply's `error.code`, for a `rejected` command.
    public var errorCode: String?
    /// The reply's `reason`, for a `failure`.
    public var failureReason: String?
    /// The terminal's reference number (`result.referenceNumber`).
    public var referenceNumber: String?
    /// Viva's order code (`result.orderCode`).
    public var orderCode: String?
    /// The card number as stored: masked to its first 6 and last 4 digits (`result.accountNumber`).
    public var card: String?
    /// The batch the terminal named (`result.batchId`, else `result.batchName`).
    public var batch: String?
    /// When the bridge accepted the command, in milliseconds since 1970.
    public var createdMs: Int64
    /// When its journal row last changed (its outcome, or a late result), in milliseconds since 1970.
    public var updatedMs: Int64
    /// For an `unknown` command closed by hand (`resolve`, v1.1): when, RFC 3339.
    public var resolved: String?
    /// Who closed it: the admin client's name (nil on plain sockets).
    public var resolvedBy: String?
    /// The note it was closed with.
    public var note: String?
    /// The `clientTransactionId` the bridge sent (Viva's `MerchantTrns`), when the command had one; not an
    /// export field: `journal reconcile` matches on it.
    public var clientTransactionId: String? = nil

    /// The names of the fields, in the order of ``values``: the CSV header and the JSON Lines keys.
    public static let fieldNames = [
        "id", "client", "lane", "action", "amount", "tip", "outcome", "errorCode", "failureReason",
        "referenceNumber", "orderCode", "card", "batch", "created", "updated", "resolved", "resolvedBy", "note",
    ]

    /// The fields in the order of ``fieldNames``, times as RFC 3339 UTC; nil where nothing is known.
    public var values: [JSONValue] {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        func integer(_ value: Int?) -> JSONValue { value.map { .number(JSONNumber($0)) } ?? .null }
        return [
            .string(id), text(client), text(lane), .string(action), integer(amount), integer(tip), text(outcome),
            text(errorCode), text(failureReason), text(referenceNumber), text(orderCode), text(card), text(batch),
            .string(Timestamp.iso8601(ms: createdMs)), .string(Timestamp.iso8601(ms: updatedMs)), text(resolved),
            text(resolvedBy), text(note),
        ]
    }
}
