/// A transaction's `StatusId` at Viva: one letter, kept as sent so that a status this client does not know
/// still decodes (and matches none of the known ones).
public struct TransactionStatus: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// `F`: finished, the money taken.
    public static let finished = TransactionStatus(rawValue: "F")
    /// `A`: active (in progress).
    public static let active = TransactionStatus(rawValue: "A")
    /// `C`: captured.
    public static let captured = TransactionStatus(rawValue: "C")
    /// `E`: error (declined or failed).
    public static let error = TransactionStatus(rawValue: "E")
    /// `R`: refunded.
    public static let refunded = TransactionStatus(rawValue: "R")
    /// `X`: cancelled.
    public static let cancelled = TransactionStatus(rawValue: "X")
}
