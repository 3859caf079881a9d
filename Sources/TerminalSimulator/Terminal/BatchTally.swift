/// The totals of one batch's approved transactions, as the simulator's report gives them (the field names are
/// the simulator's own: Viva's iOS "Get Reports" page names the request, not the summary's fields).
struct BatchTally: Sendable, Equatable {
    var salesCount = 0
    /// Sales' amounts and tips, in cents.
    var salesAmount = 0
    /// Cancels, unreferenced and fast refunds: money given back.
    var refundsCount = 0
    var refundsAmount = 0
    var preAuthsCount = 0
    var preAuthsAmount = 0
    var capturesCount = 0
    var capturesAmount = 0

    /// Counts `transaction` when it was approved.
    mutating func add(_ transaction: SimulatedTransaction) {
        guard transaction.outcome == .approved else { return }
        switch transaction.kind {
        case .sale:
            salesCount += 1
            salesAmount += transaction.amount + transaction.tipAmount
        case .cancel, .unreferencedRefund, .fastRefund:
            refundsCount += 1
            refundsAmount += transaction.amount
        case .preAuth:
            preAuthsCount += 1
            preAuthsAmount += transaction.amount
        case .capture:
            capturesCount += 1
            capturesAmount += transaction.amount
        }
    }

    /// The callback's fields, in order.
    var fields: [(String, Int)] {
        [
            ("salesCount", salesCount), ("salesAmount", salesAmount), ("refundsCount", refundsCount),
            ("refundsAmount", refundsAmount), ("preAuthsCount", preAuthsCount), ("preAuthsAmount", preAuthsAmount),
            ("capturesCount", capturesCount), ("capturesAmount", capturesAmount),
        ]
    }
}
