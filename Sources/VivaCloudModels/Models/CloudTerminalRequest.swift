/// The call of Viva's Cloud Terminal API that starts a session on a Viva Terminal app: `POST
/// {api}/ecr/v1/transactions:<path>`. Each answers 200 with an empty body; the result is the session's.
public enum CloudTerminalCall: String, Sendable, Equatable, CaseIterable {
    /// A sale (with `preauth`, a pre-authorisation).
    case sale
    /// Takes all or part of a pre-authorisation (`parentSessionId`: the pre-authorisation's session).
    case preauthCompletion
    /// Gives back all or part of an earlier transaction (`parentSessionId`: its session).
    case refund
    /// Gives money back to the presented card with no earlier transaction.
    case unreferencedRefund
    /// Sends money back fast to the presented Visa, Mastercard or Maestro card.
    case fastRefund

    /// The path's last word (`transactions:<word>`).
    public var path: String {
        switch self {
        case .sale: "sale"
        case .preauthCompletion: "preauth-completion"
        case .refund: "refund"
        case .unreferencedRefund: "unreferenced-refund"
        case .fastRefund: "fast-refund"
        }
    }

    /// Whether the call gives money back to a card: its transaction record is a refund, never a payment.
    public var givesMoneyBack: Bool {
        switch self {
        case .sale, .preauthCompletion: false
        case .refund, .unreferencedRefund, .fastRefund: true
        }
    }
}

/// The body of a ``CloudTerminalCall`` (`POST {api}/ecr/v1/transactions:<call>`): a sale, pre-authorisation,
/// capture or refund sent to a Viva Terminal app through Viva's cloud. Viva answers 200 with an empty body;
/// the result is the session's (``CloudTerminalSession``). ``call`` is where it is posted, not a field.
public struct CloudTerminalRequest: Encodable, Sendable, Equatable {
    /// Where the request is posted.
    public var call: CloudTerminalCall
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
    /// The session of the transaction a capture or a referenced refund is made against.
    public var parentSessionId: String?

    enum CodingKeys: String, CodingKey {
        case sessionId, terminalId, cashRegisterId, amount, currencyCode, merchantReference, customerTrns, preauth
        case tipAmount, maxInstalments, showTransactionResult, showReceipt, parentSessionId
    }

    /// Creates a request of `call` (a sale by default).
    public init(
        call: CloudTerminalCall = .sale, sessionId: String, terminalId: String, cashRegisterId: String, amount: Int,
        currencyCode: String = "978",
        merchantReference: String? = nil, customerTrns: String? = nil, preauth: Bool? = nil, tipAmount: Int? = nil,
        maxInstalments: Int? = nil, showTransactionResult: Bool? = nil, showReceipt: Bool? = nil,
        parentSessionId: String? = nil
    ) {
        self.call = call
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
        self.parentSessionId = parentSessionId
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
