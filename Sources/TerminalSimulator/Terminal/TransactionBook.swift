/// A lane's completed transactions, oldest first, keeping the last `limit` (at least) of them, with the
/// look-ups cancels and transaction details need.
///
/// Indices are absolute (the first transaction ever is 0), so they stay valid while old ones are dropped.
/// The look-ups read the kept transactions from the newest back, and keep no tables: a sale costs its
/// append only, and what is looked up (the sale a cancel or a details request names) is nearly always
/// among the last few; one that finds nothing reads every kept transaction (at most `2 * limit`).
struct TransactionBook: Sendable {
    private(set) var records: [SimulatedTransaction] = []
    private var base = 0
    private let limit: Int

    /// Creates an empty book keeping about `limit` transactions.
    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// How many transactions were ever appended (kept or dropped).
    var totalCount: Int { base + records.count }

    /// Appends a transaction and returns its absolute index.
    @discardableResult
    mutating func append(_ record: SimulatedTransaction) -> Int {
        let index = base + records.count
        records.append(record)
        if records.count >= 2 * limit { trim() }
        return index
    }

    /// The transaction at absolute `index`, if still kept.
    func record(at index: Int) -> SimulatedTransaction? {
        let offset = index - base
        return records.indices.contains(offset) ? records[offset] : nil
    }

    /// Replaces the transaction at absolute `index`, if still kept.
    mutating func replace(at index: Int, with record: SimulatedTransaction) {
        let offset = index - base
        if records.indices.contains(offset) { records[offset] = record }
    }

    /// The approved sale with this `referenceNumber`, `orderCode` or `shortOrderCode` (latest first, in that
    /// precedence: a match of the reference number wins over a later match of the order code).
    func approvedSale(reference: String?, orderCode: String?, shortOrderCode: String?) -> Int? {
        func latestApproved(_ named: (SimulatedTransaction) -> Bool) -> Int? {
            latest { $0.kind == .sale && $0.outcome == .approved && named($0) }
        }
        if let reference, let index = latestApproved({ $0.referenceNumber == reference }) { return index }
        if let orderCode, let index = latestApproved({ $0.orderCode == orderCode }) { return index }
        if let shortOrderCode, let index = latestApproved({ $0.shortOrderCode == shortOrderCode }) { return index }
        return nil
    }

    /// The latest sale sent with this `clientTransactionId` that reached the host, approved or declined.
    func hostSale(clientTransactionId: String) -> Int? {
        latest { record in
            record.kind == .sale && (record.outcome == .approved || record.outcome == .declined)
                && record.clientTransactionId == clientTransactionId
        }
    }

    /// The latest transaction that reached the host (approved or declined) with this `orderCode`, or the
    /// latest one at all when `orderCode` is nil: what a reprint prints.
    func latestPrintable(orderCode: String?) -> SimulatedTransaction? {
        records.last { record in
            (record.outcome == .approved || record.outcome == .declined) && record.orderCode != nil
                && (orderCode == nil || record.orderCode == orderCode)
        }
    }

    /// The latest approved pre-authorisation with an amount left to capture that the identifiers name, in the
    /// precedence of Viva's iOS capture page (`shortOrderCode` over `orderCode` over `referenceNumber`); the
    /// latest one at all when none is given.
    func capturablePreAuth(reference: String?, orderCode: String?, shortOrderCode: String?) -> Int? {
        for offset in records.indices.reversed() {
            let record = records[offset]
            guard record.kind == .preAuth, record.outcome == .approved, record.captured < record.amount else {
                continue
            }
            let named =
                if let shortOrderCode { record.shortOrderCode == shortOrderCode } else if let orderCode {
                    record.orderCode == orderCode
                } else if let reference { record.referenceNumber == reference } else { true }
            if named { return base + offset }
        }
        return nil
    }

    /// The latest approved sale not yet cancelled.
    func latestCancellableSale() -> Int? {
        for offset in records.indices.reversed() {
            let record = records[offset]
            if record.kind == .sale && record.outcome == .approved && !record.cancelled { return base + offset }
        }
        return nil
    }

    /// The absolute index of the latest kept transaction that `matches`.
    private func latest(where matches: (SimulatedTransaction) -> Bool) -> Int? {
        records.lastIndex(where: matches).map { base + $0 }
    }

    private mutating func trim() {
        let dropped = records.count - limit
        records.removeFirst(dropped)
        base += dropped
    }
}
