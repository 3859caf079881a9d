import Foundation

/// Converts Viva's amounts in euros (a JSON number such as `12.34`) to cents.
enum EuroAmount {
    /// The amount in cents, rounded to the nearest cent.
    static func cents(_ euros: Decimal) -> Int {
        var scaled = euros * 100
        var rounded = Decimal()
        NSDecimalRound(&rounded, &scaled, 0, .plain)
        return NSDecimalNumber(decimal: rounded).intValue
    }
}
