import Foundation

/// A transaction a simulated app completed, as recorded in its history (for assertions).
///
/// Sales are recorded whatever their outcome; cancels only when they succeed. Requests refused before a
/// transaction started (bad URL, validation failure) are not transactions.
public struct SimulatedTransaction: Sendable, Equatable {
    /// What kind of transaction it was.
    public enum Kind: String, Sendable {
        case sale, cancel
        /// A pre-authorisation (v1.1): an amount held on the card.
        case preAuth = "pre_auth"
        /// A capture of a pre-authorisation (v1.1): recorded only when it succeeds.
        case capture = "capture_pre_auth"
        /// Money given back to a card with no original sale (v1.1).
        case unreferencedRefund = "unreferenced_refund"
        /// Money sent back fast to the card of an earlier payment (v1.1, Android only), answered with the
        /// request's spelling.
        case fastRefund = "send_money_fast_refund"
    }

    /// How it ended.
    public enum Outcome: String, Sendable {
        /// Approved by the host (a cancel: done).
        case approved
        /// Declined by the host.
        case declined
        /// Cancelled by the cardholder during card presentment.
        case cardholderCancelled
        /// The card was read but the host failed.
        case hostError
        /// Stopped by an abort request during card presentment.
        case aborted
    }

    /// What kind of transaction it was.
    public var kind: Kind
    /// How it ended.
    public var outcome: Outcome
    /// The amount in cents.
    public var amount: Int
    /// The tip in cents.
    public var tipAmount: Int
    /// The request's `clientTransactionId`, if it had one.
    public var clientTransactionId: String?
    /// The 6-digit STAN (`referenceNumber`), when the host gave one.
    public var referenceNumber: String?
    /// The 12-digit retrieval reference number.
    public var rrn: String?
    /// The 6-digit authorisation code, when approved.
    public var authorisationCode: String?
    /// The 16-digit order code.
    public var orderCode: String?
    /// The order code's first 10 digits.
    public var shortOrderCode: String?
    /// The transaction's UUID, when approved.
    public var transactionId: String?
    /// The transaction date exactly as sent (`2026-11-21T12:14:19.8703452+02:00`).
    public var transactionDate: String?
    /// The masked card number (`479275******9999`), when a card was read.
    public var accountNumber: String?
    /// The card type (`VISA`), when a card was read.
    public var cardType: String?
    /// The verification method (`CONTACTLESS`), when a card was read.
    public var verificationMethod: String?
    /// The number of installments, when the sale asked for them.
    public var installments: Int?
    /// For a sale: true once a cancel reversed it.
    public var cancelled: Bool
    /// For a cancel: the `referenceNumber` of the sale it reversed.
    public var cancelledReferenceNumber: String?
    /// The callback URL the app produced for it, exactly as produced (before any fault); nil when none.
    public var callbackURL: String?
    /// For a pre-authorisation: the amount captured so far (v1.1).
    public var captured = 0

    /// Creates a record; every detail but the kind, outcome and amounts is optional.
    public init(
        kind: Kind, outcome: Outcome, amount: Int, tipAmount: Int = 0, clientTransactionId: String? = nil,
        referenceNumber: String? = nil, rrn: String? = nil, authorisationCode: String? = nil,
        orderCode: String? = nil, shortOrderCode: String? = nil, transactionId: String? = nil,
        transactionDate: String? = nil, accountNumber: String? = nil, cardType: String? = nil,
        verificationMethod: String? = nil, installments: Int? = nil, cancelled: Bool = false,
        cancelledReferenceNumber: String? = nil, callbackURL: String? = nil
    ) {
        self.kind = kind
        self.outcome = outcome
        self.amount = amount
        self.tipAmount = tipAmount
        self.clientTransactionId = clientTransactionId
        self.referenceNumber = referenceNumber
        self.rrn = rrn
        self.authorisationCode = authorisationCode
        self.orderCode = orderCode
        self.shortOrderCode = shortOrderCode
        self.transactionId = transactionId
        self.transactionDate = transactionDate
        self.accountNumber = accountNumber
        self.cardType = cardType
        self.verificationMethod = verificationMethod
        self.installments = installments
        self.cancelled = cancelled
        self.cancelledReferenceNumber = cancelledReferenceNumber
        self.callbackURL = callbackURL
    }
}
