import ArgumentParser

/// Amounts as people type them: `12.00` or `12.5` are euros (with a dot), `1200` is cents (an integer).
enum SendAmount {
    /// The help text of `--amount` and `--tip`.
    static let help = """
        Euros with a dot (12.00, 12.5: 1200 and 1250 cents) or an integer number of cents (1200). \
        Careful: 12 is 12 cents, not 12 euros.
        """

    /// The cents `text` stands for.
    ///
    /// - Throws: a `ValidationError` saying what is accepted, for anything else (`12.345`, `12,50`, `-3`, `12.`).
    static func cents(_ text: String) throws -> Int {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }) else {
            throw ValidationError(problem(text))
        }
        guard let units = Int(parts[0]) else { throw ValidationError("\(text) is too large") }
        guard parts.count == 2 else { return units }
        let fraction = parts[1]
        guard fraction.count <= 2 else {
            throw ValidationError(
                "\(text) has \(fraction.count) digits after the dot: an amount has at most 2 (euros and cents, "
                    + "such as \(parts[0]).\(fraction.prefix(2))), or is written as whole cents (1234)")
        }
        let cents = Int(fraction.count == 1 ? fraction + "0" : String(fraction))!
        let (scaled, overflow) = units.multipliedReportingOverflow(by: 100)
        guard !overflow, scaled <= Int.max - cents else { throw ValidationError("\(text) is too large") }
        return scaled + cents
    }

    /// `1234` cents as `12.34`.
    static func euros(_ cents: Int) -> String {
        let sign = cents < 0 ? "-" : ""
        let magnitude = cents.magnitude
        let fraction = magnitude % 100
        return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    private static func problem(_ text: String) -> String {
        if text.contains(",") { return "\(text): write the decimal separator as a dot (12.50), or whole cents (1250)" }
        if text.hasPrefix("-") {
            return
                "\(text): amounts are positive, never negative (a refund is `send cancel` or `send unreferenced_refund`)"
        }
        return "\(text) is not an amount: write euros with a dot (12.00, 12.5) or whole cents (1200)"
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { asciiValue.map { (48...57).contains($0) } ?? false }
}
