import Foundation

/// The answer of `GET {api}/checkout/v2/transactions/{id}` (Bearer): one transaction as Viva records it.
public struct CheckoutTransaction: Codable, Sendable, Equatable {
    /// Its status (`F` finished, `E` error...).
    public var statusId: TransactionStatus
    /// The amount in euros.
    public var amount: Decimal
    /// Viva's order code.
    public var orderCode: LenientString?
    /// The merchant's reference: an inter-app sale's `clientTransactionId`.
    public var merchantTrns: String?
    /// The masked card number.
    public var cardNumber: String?
    /// When Viva recorded it (merchant's local time).
    public var insDate: String?
    /// The ISO 4217 numeric currency code (`978`).
    public var currencyCode: LenientString?
    /// Its type (a payment, a refund, a capture...), when Viva says.
    public var transactionTypeId: TransactionType?

    /// Creates a transaction (the simulated back office writes these).
    public init(
        statusId: TransactionStatus, amount: Decimal, orderCode: String?, merchantTrns: String?,
        cardNumber: String?, insDate: String?, currencyCode: String?, transactionTypeId: TransactionType? = nil
    ) {
        self.statusId = statusId
        self.amount = amount
        self.orderCode = orderCode.map(LenientString.init)
        self.merchantTrns = merchantTrns
        self.cardNumber = cardNumber
        self.insDate = insDate
        self.currencyCode = currencyCode.map(LenientString.init)
        self.transactionTypeId = transactionTypeId
    }

    /// The amount in cents.
    public var amountCents: Int { EuroAmount.cents(amount) }
}
