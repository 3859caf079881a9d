/// A transaction's `TransactionTypeId` at Viva (developer.vivawallet.com, Web API integration, "Transaction
/// parameters"), kept as sent so that a type this client does not know still decodes.
public struct TransactionType: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    public var description: String { String(rawValue) }

    /// `0`: the capture of a pre-authorisation.
    public static let capture = TransactionType(rawValue: 0)
    /// `1`: a pre-authorisation (an authorisation hold).
    public static let preauth = TransactionType(rawValue: 1)
    /// `4`: a refund.
    public static let refund = TransactionType(rawValue: 4)
    /// `5`: a card payment.
    public static let charge = TransactionType(rawValue: 5)
    /// `6`: a card payment in installments.
    public static let chargeInstallments = TransactionType(rawValue: 6)
    /// `7`: a payment cancelled (void).
    public static let void = TransactionType(rawValue: 7)
    /// `9`: a wallet payment.
    public static let walletCharge = TransactionType(rawValue: 9)
    /// `11`: a wallet payment's refund.
    public static let walletRefund = TransactionType(rawValue: 11)
    /// `13`: a claimed transaction's refund.
    public static let claimRefund = TransactionType(rawValue: 13)
    /// `18`: a refunded installment.
    public static let refundInstallments = TransactionType(rawValue: 18)

    /// Whether a transaction of this type gives money back to a card (true), takes or holds it (false), or
    /// the type is one this client does not sort (nil).
    public var givesMoneyBack: Bool? {
        switch self {
        case .refund, .void, .walletRefund, .claimRefund, .refundInstallments: true
        case .capture, .preauth, .charge, .chargeInstallments, .walletCharge: false
        default: nil
        }
    }
}
