/// The body of `POST {api}/ecr/v1/transactions:sale`: a sale (or, with `preauth`, a pre-authorisation)
/// sent to a Viva Terminal app through Viva's cloud. Viva answers 200 with an empty body; the result is the
/// session's (``CloudTerminalSession``).
public struct CloudTerminalSale: Codable, Sendable, Equatable {
    /// The caller's id of this request; asking for the session uses it.
    public var sessionId: String
    /// The Viva terminal id (TID) of the device.
    public var terminalId: String
    /// The till's id at the merchant.
    public var cashRegisterId: String
    /// The amount in cents.
    public var amount: Int
    /// The ISO 4217 numeric currency code (`978` for euros).
    public var currencyCode: String
    /// The merchant's reference of the sale.
    public var merchantReference: String?
    /// A text for the customer, if any.
    public var customerTrns: String?
    /// True for a pre-authorisation.
    public var preauth: Bool?
    /// The tip in cents, if any.
    public var tipAmount: Int?
    /// The most installments the cardholder may choose, if any.
    public var maxInstalments: Int?
    /// Whether the app shows the result screen.
    public var showTransactionResult: Bool?
    /// Whether the app shows the receipt.
    public var showReceipt: Bool?

    /// Creates a sale request.
    public init(
        sessionId: String, terminalId: String, cashRegisterId: String, amount: Int, currencyCode: String = "978",
        merchantReference: String? = nil, customerTrns: String? = nil, preauth: Bool? = nil, tipAmount: Int? = nil,
        maxInstalments: Int? = nil, showTransactionResult: Bool? = nil, showReceipt: Bool? = nil
    ) {
        self.sessionId = sessionId
        self.terminalId = terminalId
        self.cashRegisterId = cashRegisterId
        self.amount = amount
        self.currencyCode = currencyCode
        self.merchantReference = merchantReference
        self.customerTrns = customerTrns
        self.preauth = preauth
        self.tipAmount = tipAmount
        self.maxInstalments = maxInstalments
        self.showTransactionResult = showTransactionResult
        self.showReceipt = showReceipt
    }
}

/// What `GET {api}/ecr/v1/sessions/{id}` tells.
public enum CloudTerminalSessionState: Sendable, Equatable {
    /// 202: the session is still being processed (or never reached the device).
    case running
    /// 200: the session ended, with its result.
    case finished(CloudTerminalSession)
}

/// A finished Cloud Terminal session (200 of `GET sessions/{id}`), with the transaction's fields when there
/// was one.
public struct CloudTerminalSession: Codable, Sendable, Equatable {
    public var sessionId: String?
    public var terminalId: LenientString?
    public var cashRegisterId: String?
    /// The amount in cents.
    public var amount: Int?
    public var currencyCode: LenientString?
    public var merchantReference: String?
    /// Whether the transaction was approved.
    public var success: Bool?
    /// Viva's event id of the outcome, if any.
    public var eventId: Int?
    public var authorizationId: String?
    public var transactionId: String?
    public var retrievalReferenceNumber: String?
    public var applicationLabel: String?
    public var primaryAccountNumberMasked: String?
    public var transactionDateTime: String?
    public var abortOperation: Bool?
    public var abortSuccess: Bool?
    public var tid: LenientString?
    public var shortOrderCode: LenientString?
    /// Viva's text of the outcome.
    public var message: String?
    public var preauth: Bool?
    public var referenceNumber: LenientString?
    public var orderCode: LenientString?
}
