import Foundation

/// The answer of the older `GET /api/transactions?date=YYYY-MM-DD` (Basic auth): a day's transactions.
public struct DayTransactions: Codable, Sendable, Equatable {
    /// The day's transactions.
    public var transactions: [DayTransaction]
    /// Viva's error code (0 when none).
    public var errorCode: Int?
    /// Viva's error text, if any.
    public var errorText: String?
    /// Viva's success flag.
    public var success: Bool?

    enum CodingKeys: String, CodingKey {
        case transactions = "Transactions"
        case errorCode = "ErrorCode"
        case errorText = "ErrorText"
        case success = "Success"
    }

    /// Creates a list (the simulated back office writes these).
    public init(transactions: [DayTransaction], errorCode: Int? = 0, errorText: String? = nil, success: Bool? = true) {
        self.transactions = transactions
        self.errorCode = errorCode
        self.errorText = errorText
        self.success = success
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        transactions = try container.decodeIfPresent([DayTransaction].self, forKey: .transactions) ?? []
        errorCode = try container.decodeIfPresent(Int.self, forKey: .errorCode)
        errorText = try container.decodeIfPresent(String.self, forKey: .errorText)
        success = try container.decodeIfPresent(Bool.self, forKey: .success)
    }
}

/// One transaction of a day's list, with the fields the bridge matches on.
public struct DayTransaction: Codable, Sendable, Equatable {
    /// Viva's transaction id (a UUID).
    public var transactionId: String
    /// Its status (`F` finished, `E` error...).
    public var statusId: TransactionStatus
    /// The amount in euros.
    public var amount: Decimal
    /// The merchant's reference: an inter-app sale's `clientTransactionId`.
    public var merchantTrns: String?
    /// Viva's order code.
    public var orderCode: LenientString?
    /// When Viva recorded it, in the merchant's local time with no offset (`2026-11-21T12:14:19.87`).
    public var insDate: String?
    /// The terminal that made it, when Viva says.
    public var sourceTerminalId: LenientString?
    /// Its type (a payment, a refund, a capture...), when Viva says.
    public var transactionTypeId: TransactionType?

    enum CodingKeys: String, CodingKey {
        case transactionId = "TransactionId"
        case statusId = "StatusId"
        case amount = "Amount"
        case merchantTrns = "MerchantTrns"
        case orderCode = "OrderCode"
        case insDate = "InsDate"
        case sourceTerminalId = "SourceTerminalId"
        case transactionTypeId = "TransactionTypeId"
    }

    /// Creates a transaction (the simulated back office writes these).
    public init(
        transactionId: String, statusId: TransactionStatus, amount: Decimal, merchantTrns: String?,
        orderCode: String?, insDate: String?, sourceTerminalId: String?, transactionTypeId: TransactionType? = nil
    ) {
        self.transactionId = transactionId
        self.statusId = statusId
        self.amount = amount
        self.merchantTrns = merchantTrns
        self.orderCode = orderCode.map(LenientString.init)
        self.insDate = insDate
        self.sourceTerminalId = sourceTerminalId.map(LenientString.init)
        self.transactionTypeId = transactionTypeId
    }

    /// The amount in cents.
    public var amountCents: Int { EuroAmount.cents(amount) }
}
